import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { itfText, traceToItf } from '../../scenario/itf.ts';
import { diagramsFolder } from '../diagram.ts';
import { buildSite, mermaidBundlePath } from './build.ts';
import { appScript, compactScript, escapeHtml, scriptJson, siteHtml } from './html.ts';
import { loadSiteInput } from './inputs.ts';
import { leaves, sanitizeSequenceText, stepperOf } from './stepper.ts';

interface Toy {
  phase: string;
  content: string[];
}
const toy = traceToItf(
  {
    initial: { phase: 'Active', content: [] } as Toy,
    steps: [
      { event: { actor: 'carol', verb: 'delete' }, state: { phase: 'Terminating', content: [] } as Toy },
      {
        event: { actor: 'bob', verb: 'create' },
        state: { phase: 'Terminating', content: ['configmaps/app'] } as Toy,
      },
    ],
  },
  {
    view: (s) => ({ namespaces: new Map([['team-a', { phase: s.phase, content: new Set(s.content) }]]) }),
    action: (e) => ({
      label: `${e.actor}: ${e.verb} -> 200 OK`,
      details: {
        actor: e.actor,
        actorKind: 'principal',
        event: `${e.verb} x`,
        response: { code: 200, reason: 'OK' },
      },
    }),
    meta: { property: 'no-create-in-terminating', violation: 'content </script> appeared' },
  },
);

const report = {
  scope: 'default',
  variant: 'model',
  states: 12,
  transitions: 30,
  depth: 3,
  durationMs: 4321,
  properties: [
    { id: 'no-orphans', requirements: ['NS-2'], kind: 'invariant', status: 'holds', witnesses: 4 },
    {
      id: 'eventually-removed',
      requirements: ['LC-7'],
      kind: 'liveness',
      status: 'violated',
      vacuity: 'exercised',
    },
    {
      id: 'no-create-in-terminating',
      requirements: ['LC-4'],
      kind: 'step',
      status: 'violated',
      witnesses: 2,
    },
  ],
  coverage: { transitions: { covered: 9, total: 10, uncovered: [{ id: 'a:b', explanation: 'why <not>' }] } },
  liveness: [{ id: 'eventually-removed', status: 'violated', loopStart: 1 }],
};

describe('the stepper of an ITF counterexample', () => {
  const stepper = stepperOf(toy);

  it('shows per step the action, only what changed, and the whole state as YAML', () => {
    expect(stepper.property).toBe('no-create-in-terminating');
    expect(stepper.steps.map((s) => s.label)).toEqual([
      'initial state',
      'carol: delete -> 200 OK',
      'bob: create -> 200 OK',
    ]);
    expect(stepper.steps[1].changes).toEqual(['namespaces.team-a.phase: "Active" → "Terminating"']);
    expect(stepper.steps[2].changes).toEqual(['namespaces.team-a.content: [] → ["configmaps/app"]']);
    expect(stepper.steps[2].yaml).toBe(
      'namespaces:\n  team-a:\n    content:\n      - configmaps/app\n    phase: Terminating\n',
    );
  });

  it('highlights exactly the current step in the sequence diagram and marks where the property breaks', () => {
    const rects = stepper.steps.map(
      (s) => s.sequence.split('\n').filter((l) => l.trim().startsWith('rect')).length,
    );
    expect(rects).toEqual([0, 1, 1]);
    const at2 = stepper.steps[2].sequence.split('\n');
    const open = at2.findIndex((l) => l.trim().startsWith('rect'));
    expect(at2[open + 1]).toMatch(/P1->>API: 2\. create x/);
    expect(at2.at(-2)).toMatch(/Note over API: no-create-in-terminating breaks here/);
    expect(stepper.steps[0].sequence).toMatch(
      /^sequenceDiagram\n {2}participant P0 as carol\n {2}participant P1 as bob/,
    );
  });

  it('keeps Mermaid syntax out of labels', () => {
    expect(sanitizeSequenceText('a; b # c --> d ->> e\nf "g"')).toBe("a, b , c to d to e,f 'g'");
    expect(leaves({ a: { b: 1, c: [] }, d: {} })).toEqual(
      new Map([
        ['a.b', '1'],
        ['a.c', '[]'],
        ['d', '{}'],
      ]),
    );
  });
});

describe('the page', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'nsmodel-site-unit-'));
    await mkdir(join(root, diagramsFolder), { recursive: true });
    await mkdir(join(root, 'generated', 'counterexamples'), { recursive: true });
    await writeFile(join(root, diagramsFolder, 'namespace.mmd'), 'stateDiagram-v2\n  [*] --> absent\n');
    await writeFile(join(root, diagramsFolder, 'zz-extra.mmd'), 'stateDiagram-v2\n  [*] --> a\n');
    await writeFile(join(root, 'generated', 'report.json'), JSON.stringify(report));
    await writeFile(
      join(root, 'generated', 'counterexamples', 'no-create-in-terminating.itf.json'),
      itfText(toy),
    );
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('shows liveness and vacuity when the report has them, and no run time', async () => {
    const html = siteHtml(await loadSiteInput(root, 'generated'), 'generated');
    expect(html).toMatch(/<th scope="col">vacuity<\/th>/);
    expect(html).toMatch(/<h3>liveness<\/h3>/);
    expect(html).toMatch(/<th scope="col">loopStart<\/th>/);
    expect(html).not.toMatch(/4321|4,321/);
    expect(html).toMatch(/why &lt;not&gt;/);
    expect(html).toMatch(/2 of 3 properties violated/);
    expect(html).toMatch(/href="#ce-no-create-in-terminating">step through/);
    // The data of a stepper cannot close its <script> element.
    expect(html).not.toMatch(/content <\/script> appeared/);
    expect(html).not.toMatch(/#seeded|id="mutants"/);
    // Diagrams in catalog order, unknown ones after, each linking its committed SVG.
    expect(html.indexOf('data-diagram="namespace"')).toBeLessThan(html.indexOf('data-diagram="zz-extra"'));
    expect(html).toMatch(/href="\.\.\/diagrams\/namespace\.svg"/);
    expect(html).toMatch(/href="\.\.\/diagrams\/namespace\.mmd">its Mermaid source/);
  });

  it('ships its script on one line that still parses, with nothing the join would change', () => {
    const line = compactScript(appScript);
    expect(line).not.toMatch(/\n/);
    expect(() => new Function(line)).not.toThrow();
    // A line comment would swallow what follows; a template literal could span lines.
    expect(appScript).not.toMatch(/\/\/|`/);
    expect(line.replace(/\s+/g, '')).toBe(appScript.replace(/\s+/g, ''));
  });

  it('writes the same bytes twice, and the Mermaid bundle beside the page', async () => {
    const written = await buildSite(root, 'generated');
    expect(written).toEqual(['generated/site/mermaid.min.js', 'generated/site/index.html']);
    const first = await readFile(join(root, 'generated', 'site', 'index.html'), 'utf8');
    await buildSite(root, 'generated');
    expect(await readFile(join(root, 'generated', 'site', 'index.html'), 'utf8')).toBe(first);
    const bundle = await readFile(join(root, 'generated', 'site', 'mermaid.min.js'));
    expect(bundle.equals(await readFile(mermaidBundlePath()))).toBe(true);
  });

  it('shows the mutants table when mutants.json exists', async () => {
    const mutants = [
      {
        mutant: 'm1',
        description: 'd',
        requirements: ['LC-4'],
        killedBy: [],
        search: 'none',
        scope: 'default',
        counterexampleSteps: [],
      },
    ];
    await writeFile(
      join(root, 'generated', 'mutants.json'),
      JSON.stringify({ $schema: '../schemas/mutants.schema.json', mutants }),
    );
    const html = siteHtml(await loadSiteInput(root, 'generated'), 'generated');
    expect(html).toMatch(/id="mutants"/);
    expect(html).toMatch(/1 seeded fault, 1 not caught/);
  });

  it('names the file, the field and the fix when an input is bad', async () => {
    await expect(loadSiteInput(root, 'generated/runs/none')).rejects.toThrow(
      'generated/runs/none/report.json: missing; run `npm run verify` to write it',
    );
    await writeFile(join(root, 'generated', 'report.json'), JSON.stringify({ ...report, states: 'many' }));
    await expect(loadSiteInput(root, 'generated')).rejects.toThrow(
      /^generated\/report\.json: field states: .*; run `npm run verify`/,
    );
    await writeFile(join(root, 'generated', 'report.json'), JSON.stringify(report));
    await writeFile(join(root, 'generated', 'counterexamples', 'broken.itf.json'), '{"vars": []}');
    await expect(loadSiteInput(root, 'generated')).rejects.toThrow(
      /^generated\/counterexamples\/broken\.itf\.json: not an ITF trace: #meta/,
    );
  });

  it('escapes text and script data', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(scriptJson({ a: '</script>' })).toBe('{"a":"\\u003c/script>"}');
  });
});
