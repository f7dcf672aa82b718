import { posix } from 'node:path';
import type { SiteAlternatives, SiteInput, SiteMutant, SiteReport } from './inputs.ts';
import type { Stepper } from './stepper.ts';

/**
 * The one-page HTML report: plain tables that read without JavaScript, the diagrams and steppers drawn
 * by the Mermaid bundle shipped beside the page (so it opens from disk, offline). The same input gives
 * the same bytes: no dates, no run times, every list in a fixed order.
 */

export const mermaidBundleName = 'mermaid.min.js';

const escapeMap: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapeMap[c]);
}

/** JSON inside a <script> element: `<` escaped, so no text in the data can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const numbers = new Intl.NumberFormat('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${numbers.format(n)} ${n === 1 ? one : many}`;

/** `no-orphans` → `no-orphans`, safe as an id and a fragment. */
export function anchorId(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

const knownPropertyFields = new Set(['id', 'requirements', 'kind', 'status', 'witnesses', 'counterexample']);
const knownReportFields = new Set([
  'scope',
  'variant',
  'states',
  'transitions',
  'depth',
  'durationMs',
  'properties',
  'coverage',
]);

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return numbers.format(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object'))
    return escapeHtml(value.map(String).join(', '));
  if (typeof value === 'object') return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
  return escapeHtml(String(value));
}

function statusCell(status: string): string {
  return `<span class="status status-${escapeHtml(status.replace(/[^a-z-]/gi, ''))}">${escapeHtml(status)}</span>`;
}

/** Any table of records: columns are the union of the records' keys, in first-seen order. */
function genericTable(rows: Record<string, unknown>[], className: string): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const head = columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${columns.map((c) => `<td>${c === 'status' && typeof row[c] === 'string' ? statusCell(row[c]) : cell(row[c])}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table class="${className}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function verdictLine(report: SiteReport): string {
  const violated = report.properties.filter((p) => p.status === 'violated');
  const vacuous = report.properties.filter((p) => p.status === 'vacuous');
  const parts = [
    violated.length > 0
      ? `${violated.length} of ${plural(report.properties.length, 'property', 'properties')} violated: ${violated.map((p) => `<code>${escapeHtml(p.id)}</code>`).join(', ')}.`
      : `No property is violated (${plural(report.properties.length, 'property', 'properties')} checked).`,
  ];
  if (vacuous.length > 0)
    parts.push(
      `Vacuous, never exercised: ${vacuous.map((p) => `<code>${escapeHtml(p.id)}</code>`).join(', ')}.`,
    );
  return parts.join(' ');
}

function verdictSection(input: SiteInput, reportDir: string): string {
  const { report } = input;
  const steppers = new Set(input.counterexamples.map((c) => c.property));
  const extraColumns: string[] = [];
  for (const p of report.properties)
    for (const key of Object.keys(p))
      if (!knownPropertyFields.has(key) && !extraColumns.includes(key)) extraColumns.push(key);
  const head = ['property', 'kind', 'status', 'witnesses', 'requirements', ...extraColumns]
    .map((c) => `<th scope="col">${escapeHtml(c)}</th>`)
    .join('');
  const rows = report.properties.map((p) => {
    const record = p as Record<string, unknown>;
    let status = statusCell(p.status);
    if (steppers.has(p.id)) status += ` <a href="#${anchorId('ce', p.id)}">step through</a>`;
    else if (p.counterexample)
      status += ` <a href="${escapeHtml(posix.relative(posix.join(reportDir, 'site'), p.counterexample.file))}">trace</a>`;
    return `<tr id="${anchorId('property', p.id)}"><td><code>${escapeHtml(p.id)}</code></td><td>${cell(p.kind)}</td><td>${status}</td><td class="number">${cell(p.witnesses)}</td><td>${cell(p.requirements)}</td>${extraColumns.map((c) => `<td>${cell(record[c])}</td>`).join('')}</tr>`;
  });
  const extras = Object.entries(report)
    .filter(([key]) => !knownReportFields.has(key))
    .map(([key, value]) => {
      if (
        Array.isArray(value) &&
        value.length > 0 &&
        value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))
      )
        return `<h3>${escapeHtml(key)}</h3>\n${genericTable(value as Record<string, unknown>[], 'extra')}`;
      return `<p><strong>${escapeHtml(key)}.</strong> ${cell(value)}</p>`;
    });
  const coverage = report.coverage?.transitions;
  const coverageHtml = coverage
    ? [
        '<h3>Coverage</h3>',
        `<p>${numbers.format(coverage.covered)} of ${plural(coverage.total, 'machine transition')} taken (${coverage.total === 0 ? 100 : Math.floor((coverage.covered / coverage.total) * 1000) / 10}%).</p>`,
        coverage.uncovered.length > 0
          ? `<table class="uncovered"><thead><tr><th scope="col">transition not taken</th><th scope="col">why</th></tr></thead><tbody>\n${coverage.uncovered.map((u) => `<tr><td><code>${escapeHtml(u.id)}</code></td><td>${escapeHtml(u.explanation)}</td></tr>`).join('\n')}\n</tbody></table>`
          : '',
      ].join('\n')
    : '<p>This report has no coverage figures.</p>';
  return [
    '<section id="verdict">',
    '<h2>Verdict</h2>',
    `<p class="verdict">${verdictLine(report)}</p>`,
    `<p>Scope <code>${escapeHtml(report.scope)}</code>, variant <code>${escapeHtml(report.variant)}</code>: ${plural(report.states, 'distinct state')}, ${plural(report.transitions, 'transition')}, depth ${numbers.format(report.depth)}.</p>`,
    '<p class="note">A property is <em>vacuous</em> when its premise was never reached: it had nothing to check, which is not the same as holding.</p>',
    `<table class="properties"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`,
    ...extras,
    coverageHtml,
    '</section>',
  ].join('\n');
}

function stepperSection(stepper: Stepper): string {
  const id = anchorId('ce', stepper.property);
  const last = stepper.steps.length - 1;
  const items = stepper.steps.map((s, i) => {
    const breaks =
      i === last && stepper.violation ? ' <strong class="breaks">✗ the property breaks here</strong>' : '';
    const loop = stepper.loopStart === i ? ' <strong class="loop">↺ the loop starts here</strong>' : '';
    return `<li data-step="${i}"${i === 0 ? ' class="current" aria-current="step"' : ''}><span class="step-number">${i === 0 ? 'start' : i}</span> ${escapeHtml(s.label)}${breaks}${loop}</li>`;
  });
  const first = stepper.steps[0];
  return [
    `<section class="stepper" id="${id}" data-current="0" data-steps="${stepper.steps.length}" tabindex="0">`,
    `<h3>Counterexample to <code>${escapeHtml(stepper.property)}</code> (${plural(last, 'step')})</h3>`,
    stepper.violation
      ? `<p class="what-broke"><strong>What broke.</strong> ${escapeHtml(stepper.violation)}</p>`
      : '',
    `<div class="controls"><button type="button" class="prev" disabled>← Previous</button> <span class="position" aria-live="polite">Step 0 of ${last}: initial state</span> <button type="button" class="next"${last === 0 ? ' disabled' : ''}>Next →</button></div>`,
    `<ol class="steps">\n${items.join('\n')}\n</ol>`,
    '<div class="sequence" data-status="pending"></div>',
    '<div class="panes">',
    `<div><h4>What changed</h4><ul class="changes">${first.changes.length === 0 ? '<li>nothing: this is the initial state</li>' : ''}</ul></div>`,
    `<div><h4>The state at this step (YAML)</h4><pre class="state-yaml" tabindex="0">${escapeHtml(first.yaml)}</pre></div>`,
    '</div>',
    `<script type="application/json" class="stepper-data">${scriptJson(stepper)}</script>`,
    '</section>',
  ].join('\n');
}

function counterexamplesSection(input: SiteInput): string {
  const body =
    input.counterexamples.length > 0
      ? input.counterexamples.map(stepperSection).join('\n')
      : '<p>None: no property is violated in this run, so there is nothing to step through. A run of a seeded fault (<code>npm run verify -- --variant &lt;mutant&gt;</code>) writes a report with counterexamples under <code>generated/runs/</code>.</p>';
  return `<section id="counterexamples">\n<h2>Counterexamples</h2>\n<p class="note">Use Previous and Next (or the arrow keys, or click a step): the sequence diagram highlights the step, and the panes show what it changed and the whole state after it.</p>\n${body}\n</section>`;
}

/** A diagram's text alternative: the transitions it draws, as a table. */
function transitionTable(d: SiteInput['diagrams'][number]): string {
  if (d.transitions.length === 0) return '';
  const rows = d.transitions
    .map(
      (t) =>
        `<tr><td><code>${escapeHtml(t.state)}</code></td><td>${escapeHtml(t.trigger)}</td><td>${t.guard ? `<code>${escapeHtml(t.guard)}</code>` : ''}</td><td>${escapeHtml(t.outcome)}</td><td>${escapeHtml(t.requirements)}</td></tr>`,
    )
    .join('');
  return `<details id="${anchorId('transitions', d.id)}"><summary>The ${plural(d.transitions.length, 'transition')} of this diagram as a table</summary><table class="transitions"><thead><tr><th scope="col">state</th><th scope="col">event</th><th scope="col">guard</th><th scope="col">outcome</th><th scope="col">requirements</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

function describedBy(d: SiteInput['diagrams'][number]): string {
  if (d.transitions.length > 0) return ` aria-describedby="${anchorId('transitions', d.id)}"`;
  return d.legend ? ` aria-describedby="${anchorId('legend', d.id)}"` : '';
}

function diagramsSection(input: SiteInput): string {
  const blocks = input.diagrams.map((d) =>
    [
      `<article class="machine" id="${anchorId('machine', d.id)}">`,
      `<h3>${escapeHtml(d.title)} <small><code>${escapeHtml(d.id)}</code></small></h3>`,
      d.legend ? `<p id="${anchorId('legend', d.id)}">${escapeHtml(d.legend)}</p>` : '',
      // The drawing is one image to assistive technology; the table under it (else the legend) says it in text.
      `<div class="diagram" data-diagram="${escapeHtml(d.id)}" data-status="pending" role="img" aria-label="Diagram: ${escapeHtml(d.title)}"${describedBy(d)}></div>`,
      `<script type="application/json" class="diagram-data">${scriptJson(d.source)}</script>`,
      transitionTable(d),
      `<p class="note"><a href="${escapeHtml(d.svgHref)}">The same diagram laid out for print (SVG)</a>, and <a href="${escapeHtml(d.sourceHref)}">its Mermaid source</a></p>`,
      '</article>',
    ]
      .filter(Boolean)
      // One article a line, as the tables write one row a line.
      .join(''),
  );
  return `<section id="diagrams">\n<h2>Machine diagrams</h2>\n<p class="note">One diagram per actor, a large machine in parts, generated from the XState machines. An arrow reads <code>EVENT [guard] / actions (requirements)</code>, and transitions between the same two states share one arrow; <code>always</code> is an eventless step.</p>\n${blocks.join('\n')}\n</section>`;
}

function mutantSteps(m: SiteMutant): string {
  if (m.counterexampleSteps.length === 0) return '';
  const steps = m.counterexampleSteps
    .map(
      (s) =>
        `<li><strong>${escapeHtml(s.actor)}</strong>: ${escapeHtml(s.event)} — ${escapeHtml(s.summary)}</li>`,
    )
    .join('');
  return `<details><summary>${plural(m.counterexampleSteps.length, 'step')}</summary><ol>${steps}</ol></details>`;
}

function mutantsSection(mutants: SiteMutant[]): string {
  const survivors = mutants.filter((m) => m.killedBy.length === 0);
  const rows = mutants.map(
    (m) =>
      `<tr><td><code>${escapeHtml(m.mutant)}</code></td><td>${escapeHtml(m.description)}</td><td>${cell(m.requirements)}</td><td>${m.killedBy.length > 0 ? m.killedBy.map((k) => `<code>${escapeHtml(k)}</code>`).join(', ') : statusCell('survived')}</td><td>${escapeHtml(m.search)} (${escapeHtml(m.scope)})</td><td class="number">${cell(m.statesExplored)}</td><td>${mutantSteps(m)}</td></tr>`,
  );
  return [
    '<section id="mutants">',
    '<h2>Seeded faults</h2>',
    `<p>${plural(mutants.length, 'seeded fault')}, ${survivors.length === 0 ? 'every one caught by a property' : `${survivors.length} not caught`}. Each row is a deliberately broken machine and the property whose shortest counterexample catches it.</p>`,
    '<table class="mutants"><thead><tr><th scope="col">fault</th><th scope="col">what it breaks</th><th scope="col">requirements</th><th scope="col">caught by</th><th scope="col">search</th><th scope="col">states explored</th><th scope="col">counterexample</th></tr></thead><tbody>',
    rows.join('\n'),
    '</tbody></table>',
    '</section>',
  ].join('\n');
}

/** The alternatives' matrix on the documents' goals, and what else each row breaks (generated/alternatives.md has all). */
function alternativesSection(alternatives: SiteAlternatives, reportDir: string): string {
  const goals = alternatives.columns.filter((c) => c.group === 'goal').map((c) => c.id);
  const href = (link: string) => posix.relative(posix.join(reportDir, 'site'), posix.join(reportDir, link));
  const verdict = (c: SiteAlternatives['rows'][number]['cells'][string] | undefined) =>
    !c
      ? cell(undefined)
      : c.link
        ? `<a href="${escapeHtml(href(c.link))}">${statusCell(c.verdict)} (${c.steps})</a>`
        : statusCell(c.verdict);
  const rows = alternatives.rows.map((r) => {
    const others = Object.entries(r.cells)
      .filter(([id, c]) => !goals.includes(id) && c.verdict === 'violated')
      .map(([id, c]) =>
        c.link
          ? `<a href="${escapeHtml(href(c.link))}"><code>${escapeHtml(id)}</code></a>`
          : `<code>${escapeHtml(id)}</code>`,
      );
    return `<tr><td>${escapeHtml(r.label)}</td><td><code>${escapeHtml(r.variant)}</code></td><td>${escapeHtml(r.source)}</td>${goals.map((id) => `<td>${verdict(r.cells[id])}</td>`).join('')}<td>${others.length > 0 ? others.join(', ') : '-'}</td><td class="number">${cell(r.states)}</td></tr>`;
  });
  return [
    '<section id="alternatives">',
    '<h2>Design alternatives</h2>',
    `<p>${plural(alternatives.rows.length, 'row')}: the model and each design alternative of the documents, judged by the documents' goals; the last columns name the other properties a row breaks. Written by <code>npm run alternatives</code>; docs/alternatives.md reads it.</p>`,
    `<table class="alternatives"><thead><tr><th scope="col">row</th><th scope="col">alternative</th><th scope="col">source</th>${goals.map((id) => `<th scope="col"><code>${escapeHtml(id)}</code></th>`).join('')}<th scope="col">also breaks</th><th scope="col">states</th></tr></thead><tbody>`,
    rows.join('\n'),
    '</tbody></table>',
    '</section>',
  ].join('\n');
}

const styles = `
:root { color-scheme: light; --border: #d0d7de; --muted: #57606a; --hl: #ffe27a; }
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1f2328; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
header { border-bottom: 1px solid var(--border); padding-bottom: 8px; }
nav a { margin-right: 16px; }
code { font: 13px ui-monospace, monospace; background: #f6f8fa; padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: 12px 0; }
th, td { border: 1px solid var(--border); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.status { font-weight: 600; padding: 0 6px; border-radius: 8px; }
.status-holds { background: #dafbe1; color: #116329; }
.status-violated, .status-survived { background: #ffebe9; color: #a40e26; }
.status-vacuous { background: #fff8c5; color: #7d4e00; }
.note { color: var(--muted); }
.verdict { font-size: 17px; }
.table-scroll { overflow-x: auto; max-width: 100%; }
.diagram, .sequence { overflow-x: auto; border: 1px solid var(--border); border-radius: 6px; padding: 8px; margin: 8px 0; min-height: 40px; }
.diagram[data-status="error"], .sequence[data-status="error"] { border-color: #a40e26; color: #a40e26; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; font-size: 13px; }
.stepper { border: 1px solid var(--border); border-radius: 8px; padding: 8px 16px; margin: 16px 0; }
.controls button { font-size: 15px; padding: 4px 12px; }
.steps li { padding: 2px 6px; border-radius: 4px; cursor: pointer; list-style: none; }
.steps { padding-left: 0; }
.steps li.current { background: var(--hl); font-weight: 600; }
.step-number { display: inline-block; min-width: 3em; color: var(--muted); }
.breaks { color: #a40e26; }
.panes { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
@media (max-width: 800px) { .panes { grid-template-columns: 1fr; } }
`;

/** The browser side: draw every diagram, then wire each stepper. Marks <html data-ready> when done. */
export const appScript = `
(async () => {
  const root = document.documentElement;
  if (typeof mermaid === 'undefined') {
    root.dataset.ready = 'error';
    document.getElementById('load-error').hidden = false;
    return;
  }
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default', deterministicIds: true, markdownAutoWrap: false });
  let failures = 0;
  let serial = 0;
  const draw = async (target, source) => {
    const id = 'mermaid-' + (++serial);
    try {
      const { svg } = await mermaid.render(id, source);
      target.innerHTML = svg;
      target.dataset.status = 'ok';
      return true;
    } catch (error) {
      failures++;
      target.dataset.status = 'error';
      target.textContent = 'Mermaid could not draw this diagram: ' + (error && error.message ? error.message : String(error));
      document.getElementById('d' + id)?.remove();
      return false;
    }
  };
  for (const target of document.querySelectorAll('.diagram[data-diagram]')) {
    const source = JSON.parse(target.parentElement.querySelector('.diagram-data').textContent);
    await draw(target, source);
  }
  for (const section of document.querySelectorAll('.stepper')) {
    const data = JSON.parse(section.querySelector('.stepper-data').textContent);
    const last = data.steps.length - 1;
    const items = [...section.querySelectorAll('.steps li')];
    const prev = section.querySelector('.prev');
    const next = section.querySelector('.next');
    const sequence = section.querySelector('.sequence');
    let current = 0;
    let request = 0;
    const show = async (index) => {
      current = Math.max(0, Math.min(last, index));
      const step = data.steps[current];
      items.forEach((li, k) => {
        li.classList.toggle('current', k === current);
        if (k === current) li.setAttribute('aria-current', 'step');
        else li.removeAttribute('aria-current');
      });
      prev.disabled = current === 0;
      next.disabled = current === last;
      section.querySelector('.position').textContent = 'Step ' + current + ' of ' + last + ': ' + step.label;
      const changes = section.querySelector('.changes');
      changes.replaceChildren(...(step.changes.length ? step.changes : [current === 0 ? 'nothing: this is the initial state' : 'nothing']).map((line) => {
        const li = document.createElement('li');
        li.textContent = line;
        return li;
      }));
      section.querySelector('.state-yaml').textContent = step.yaml;
      section.dataset.current = String(current);
      const mine = ++request;
      sequence.dataset.status = 'pending';
      const holder = document.createElement('div');
      const ok = await draw(holder, step.sequence);
      if (mine !== request) return;
      sequence.replaceChildren(...holder.childNodes);
      sequence.dataset.status = ok ? 'ok' : 'error';
      sequence.dataset.renderedStep = String(current);
    };
    prev.addEventListener('click', () => show(current - 1));
    next.addEventListener('click', () => show(current + 1));
    items.forEach((li, k) => li.addEventListener('click', () => show(k)));
    section.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowLeft') show(current - 1);
      if (event.key === 'ArrowRight') show(current + 1);
    });
    await show(0);
  }
  root.dataset.ready = failures === 0 ? 'true' : 'error';
})();
`;

/**
 * Style and script as pages ship them, on one line (D-42): each line trimmed and joined by a space, which
 * keeps their meaning because the script ends every statement with `;` and has no line comment or multi-line string.
 */
export const compactScript = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');

/** The whole page for the report in `reportDir`. */
/** Each table in a box of its own that scrolls sideways (and takes the keyboard), so a narrow screen never scrolls the page. */
function scrollingTables(html: string): string {
  return html
    .replace(/<table\b/g, '<div class="table-scroll" tabindex="0"><table')
    .replace(/<\/table>/g, '</table></div>');
}

export function siteHtml(input: SiteInput, reportDir: string): string {
  const { report } = input;
  const sections = [
    verdictSection(input, reportDir),
    counterexamplesSection(input),
    diagramsSection(input),
    ...(input.mutants ? [mutantsSection(input.mutants)] : []),
    ...(input.alternatives ? [alternativesSection(input.alternatives, reportDir)] : []),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nsmodel: ${escapeHtml(report.scope)} / ${escapeHtml(report.variant)}</title>
<style>${compactScript(styles)}</style>
</head>
<body>
<header>
<h1>nsmodel verification report</h1>
<p>Generated by <code>npm run site</code> from the report of scope <code>${escapeHtml(report.scope)}</code>, variant <code>${escapeHtml(report.variant)}</code>; do not edit.</p>
<p id="load-error" class="status status-violated" hidden>${escapeHtml(mermaidBundleName)} did not load: keep it beside this page to see the diagrams.</p>
<nav><a href="#verdict">Verdict</a><a href="#counterexamples">Counterexamples</a><a href="#diagrams">Diagrams</a>${input.mutants ? '<a href="#mutants">Seeded faults</a>' : ''}${input.alternatives ? '<a href="#alternatives">Design alternatives</a>' : ''}</nav>
</header>
<main>
<noscript><p>The diagrams and steppers need JavaScript; the tables read without it, and each diagram links its SVG and its Mermaid source.</p></noscript>
${scrollingTables(sections.join('\n'))}
</main>
<script src="${mermaidBundleName}"></script>
<script>${compactScript(appScript)}</script>
</body>
</html>
`;
}
