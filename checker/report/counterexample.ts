import { escapeMarkdownHtml } from '../cli/text-safety.ts';
import type { PropertyResult, Trace } from '../judging/check.ts';
import { systemTransitions } from '../judging/check.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import {
  noteworthy,
  responseText,
  ruleNote,
  stateSummary,
  stepCount,
  stepLine,
  whoIsWho,
} from '../scenario/counterexample-story.ts';
import { stateDiff, stateFacts } from '../scenario/describe.ts';

export { type CounterexampleStep, traceSteps } from '../scenario/counterexample-story.ts';

const participantOrder = [
  'principal',
  'admission',
  'store',
  'initializer',
  'finalizer-owner',
  'namespace-controller',
  'apiserver',
];

/** The trace as a Mermaid sequence diagram between principals, admission, the store and controllers. */
export function sequenceDiagram(model: CheckedSystemModel, trace: Trace, breaks?: string): string {
  const actors = new Map<string, string>();
  const alias = (name: string) => {
    let id = actors.get(name);
    if (!id) {
      id = `A${actors.size}`;
      actors.set(name, id);
    }
    return id;
  };
  const kinds = new Map<string, string>();
  const body: string[] = [];
  let previous = trace.initial;
  for (const [index, { event, state }] of trace.steps.entries()) {
    const changes = stateDiff(model, previous, state).filter(noteworthy);
    previous = state;
    const text = sanitize(stepLine(model, event));
    // The breaking step (the last: traces end where the property fails) stands out in red.
    if (breaks && index === trace.steps.length - 1) body.push('  rect rgb(255, 221, 221)');
    if (event.actorKind === 'clock') {
      body.push(`  Note over Admission,Store: ${text}`);
      continue;
    }
    if (event.actorKind === 'fault') {
      const who = alias(event.actor);
      kinds.set(event.actor, 'fault');
      body.push(`  Note over ${who}: fault - ${text}`);
      continue;
    }
    const who = alias(event.actor);
    kinds.set(event.actor, event.actorKind);
    if (event.request) {
      body.push(`  ${who}->>Admission: ${text}`);
      const code = event.response
        ? `${event.response.code} ${event.response.reason}${event.response.cause ? ` ${event.response.cause}` : ''}`
        : '';
      if (event.response && event.response.code < 300) {
        body.push(`  Admission->>Store: admitted`);
        for (const change of changes) body.push(`  Note over Store: ${sanitize(change)}`);
        body.push(`  Store-->>${who}: ${sanitize(code)}`);
      } else {
        body.push(`  Admission-->>${who}: ${sanitize(code)}`);
      }
    } else {
      body.push(`  ${who}->>Store: ${text}`);
      for (const change of changes) body.push(`  Note over Store: ${sanitize(change)}`);
    }
  }
  if (breaks && trace.steps.length > 0)
    body.push(`  Note over Admission,Store: ${sanitize(breaks)} breaks here`, '  end');
  const participants = [...actors.entries()]
    .sort(
      (a, b) =>
        participantOrder.indexOf(kinds.get(a[0]) ?? '') - participantOrder.indexOf(kinds.get(b[0]) ?? ''),
    )
    .map(([name, id]) => `  participant ${id} as ${sanitize(name)}`);
  return ['sequenceDiagram', ...participants, '  participant Admission', '  participant Store', ...body].join(
    '\n',
  );
}

/** Mermaid sequence text may not hold `;`, `#` or line breaks; keep it plain. */
function sanitize(text: string): string {
  return text
    .replace(/[;#\n]/g, ',')
    .replace(/"/g, "'")
    .replace(/-->/g, 'to')
    .replace(/→/g, 'to');
}

/** One plain line: which property broke, where, on which request, and what the state shows. */
export function whatBroke(model: CheckedSystemModel, result: PropertyResult): string {
  const v = result.violation;
  if (!v) throw new Error(`property ${result.property.id} has no violation`);
  const n = v.trace.steps.length;
  const last = v.trace.steps.at(-1)?.event;
  const step = last
    ? ` at step ${n} of ${n} (${last.actor}: ${stepLine(model, last)}${last.response ? ` -> ${responseText(last)}` : ''})`
    : ' in the initial state';
  return `${result.property.id} (${result.property.requirements.join(', ')}) is violated${step}: ${v.message}.`;
}

/**
 * The whole counterexample file, for a reviewer reading it once: what broke, who is who, the initial
 * state, one line per step with only what changed and the rule that decided it, the sequence diagram
 * with the breaking step marked, and every state in full one click away.
 */
export function counterexampleMarkdown(
  model: CheckedSystemModel,
  result: PropertyResult,
  variant: string,
): string {
  const v = result.violation;
  if (!v) throw new Error(`property ${result.property.id} has no violation`);
  const transitions = new Map(systemTransitions(model).map((t) => [t.id, t]));
  const states = [v.trace.initial, ...v.trace.steps.map((s) => s.state)];
  const steps = v.trace.steps.flatMap(({ event, state }, i) => {
    const changes = stateDiff(model, states[i], state).filter(
      (line) => noteworthy(line) || (event.actorKind === 'clock' && line.startsWith('clock:')),
    );
    const note = ruleNote(event, transitions);
    const breaks = i === v.trace.steps.length - 1 ? ` **← ${result.property.id} breaks here**` : '';
    const response = event.response ? ` -> ${responseText(event)}` : '';
    return [
      `${i + 1}. \`${event.actor}: ${stepLine(model, event)}${response}\`${breaks}`,
      ...(changes.length > 0 ? changes.map((c) => `   - ${c}`) : ['   - nothing changed']),
      ...(note ? [`   - *Rule:* ${note}`] : []),
    ];
  });
  const facts = states.map((s) => stateFacts(model, s));
  const header = ['fact', 'initial', ...v.trace.steps.map((_, i) => `after ${i + 1}`)];
  const lines = [
    `# Counterexample: \`${result.property.id}\``,
    '',
    `**What broke.** ${whatBroke(model, result)}`,
    '',
    `**Property.** ${result.property.statement} (${result.property.requirements.join(', ')}) · **Variant.** \`${variant}\` · **Length.** ${stepCount(steps.length === 0 ? 0 : v.trace.steps.length)} (shortest)`,
    '',
    ...whoIsWho(model.scope),
    '## Initial state',
    '',
    ...stateSummary(model, v.trace.initial),
    '',
    '## Steps',
    '',
    'Each step is the request as sent (or the controller action), its answer, and only what it changed.',
    '',
    ...steps,
    '',
    '## Sequence',
    '',
    '```mermaid',
    sequenceDiagram(model, v.trace, result.property.id),
    '```',
    '',
    '<details><summary>The full state after every step</summary>',
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...[...new Set(facts.flatMap((f) => [...f.keys()]))].map(
      (key) => `| ${key} | ${facts.map((f) => (f.get(key) ?? '').replace(/\|/g, '\\|')).join(' | ')} |`,
    ),
    '',
    '</details>',
    '',
  ];
  // Names come from the scope file: none may open an HTML tag in a rendered page.
  return escapeMarkdownHtml(lines.join('\n'));
}
