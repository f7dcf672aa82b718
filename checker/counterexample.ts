import type { SystemModel } from '../machines/system.ts';
import type { PropertyResult, Trace } from './check.ts';
import { stateDiff, stateFacts } from './describe.ts';

/** One step of a counterexample as the report shows it. */
export interface CounterexampleStep {
  actor: string;
  event: string;
  summary: string;
}

export function traceSteps(model: SystemModel, trace: Trace): CounterexampleStep[] {
  let previous = trace.initial;
  return trace.steps.map(({ event, state }) => {
    const changes = stateDiff(model, previous, state).filter(
      (line) => !line.startsWith('clock:') || event.actorKind === 'clock',
    );
    previous = state;
    const response = event.response
      ? `${event.response.code} ${event.response.reason}${event.response.cause ? ` (${event.response.cause})` : ''}`
      : '';
    const summary = [response, changes.length > 0 ? changes.join('; ') : 'nothing changed']
      .filter(Boolean)
      .join(' — ');
    return { actor: event.actor, event: event.label, summary };
  });
}

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
export function sequenceDiagram(model: SystemModel, trace: Trace): string {
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
  for (const { event, state } of trace.steps) {
    const changes = stateDiff(model, previous, state).filter((l) => !l.startsWith('clock:'));
    previous = state;
    const text = sanitize(event.label);
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

/** The whole counterexample file: the property, the numbered steps, the final state and the diagram. */
export function counterexampleMarkdown(model: SystemModel, result: PropertyResult, variant: string): string {
  const v = result.violation;
  if (!v) throw new Error(`property ${result.property.id} has no violation`);
  const steps = traceSteps(model, v.trace);
  const final = v.trace.steps.length > 0 ? v.trace.steps[v.trace.steps.length - 1].state : v.trace.initial;
  const lines = [
    `# Counterexample: \`${result.property.id}\``,
    '',
    `**Property.** ${result.property.statement} (${result.property.requirements.join(', ')})`,
    '',
    `**Variant.** \`${variant}\` · **Scope.** \`${model.scope.name}\` · **Length.** ${steps.length} steps (shortest)`,
    '',
    `**What broke.** ${v.message}`,
    '',
    '## Steps',
    '',
    ...steps.map((s, i) => `${i + 1}. **${s.actor}**: ${s.event} — ${s.summary}`),
    '',
    '## Sequence',
    '',
    '```mermaid',
    sequenceDiagram(model, v.trace),
    '```',
    '',
    '## State at the violation',
    '',
    '| fact | value |',
    '| --- | --- |',
    ...[...stateFacts(model, final)].map(([k, val]) => `| ${k} | ${val.replace(/\|/g, '\\|')} |`),
    '',
  ];
  return lines.join('\n');
}
