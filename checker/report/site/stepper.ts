import { stringify } from 'yaml';
import {
  actionVariable,
  decodeItfValue,
  type ItfTrace,
  type ItfValue,
  picksVariable,
} from '../../scenario/itf.ts';
import { isTypedState, readableOfTyped } from '../../scenario/itf-types.ts';

/** Plain data with every object's keys sorted, as an untyped trace's records are written. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

/**
 * A counterexample as the report's stepper shows it, computed from its ITF file alone: per state, the
 * action that led there, what changed, the whole state as YAML, and the sequence diagram with that
 * step highlighted.
 */
export interface StepperStep {
  /** `init` for state 0, else the action's label. */
  label: string;
  /** `path: before → after`, one line per changed leaf. */
  changes: string[];
  yaml: string;
  /** Mermaid source of the whole trace with this step highlighted. */
  sequence: string;
}

export interface Stepper {
  property: string;
  violation: string;
  loopStart?: number;
  steps: StepperStep[];
}

interface ActionDetails {
  actor?: string;
  actorKind?: string;
  event?: string;
  response?: { code?: number; reason?: string; cause?: string };
}

/** Flattens decoded state into `path → printed value` leaves, so a diff names exactly what changed. */
export function leaves(value: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (v: unknown, p: string) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) {
      for (const [k, child] of Object.entries(v)) visit(child, p ? `${p}.${k}` : k);
      return;
    }
    out.set(p, typeof v === 'bigint' ? v.toString() : JSON.stringify(v));
  };
  visit(value, path);
  return out;
}

export function diffLines(before: Map<string, string>, after: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old !== value) lines.push(`${key}: ${old ?? '-'} → ${value}`);
  }
  for (const [key, value] of before) if (!after.has(key)) lines.push(`${key}: ${value} → -`);
  return lines;
}

/** Mermaid sequence text may not hold `;`, `#` or line breaks, and `-->` or `->>` would read as arrows. */
export function sanitizeSequenceText(text: string): string {
  return text
    .replace(/[;#\n]/g, ',')
    .replace(/"/g, "'")
    .replace(/-+>>?/g, 'to');
}

const apiServer = 'API server';
const highlightColour = 'rgb(255, 226, 122)';

function details(state: Record<string, unknown>): ActionDetails {
  const meta = state['#meta'] as { action?: { details?: ActionDetails } } | undefined;
  return meta?.action?.details ?? {};
}

/** The trace as a sequence diagram; the step at `highlight` (1-based, 0 for none) sits in a coloured box. */
export function sequenceSource(
  trace: ItfTrace,
  changesPerStep: readonly string[][],
  highlight: number,
  breaksAt?: string,
): string {
  const actors: string[] = [];
  const alias = (name: string) => {
    let i = actors.indexOf(name);
    if (i < 0) i = actors.push(name) - 1;
    return `P${i}`;
  };
  const body: string[] = [];
  trace.states.forEach((state, index) => {
    if (index === 0) return;
    const d = details(state as Record<string, unknown>);
    const label = sanitizeSequenceText(d.event ?? String(state[actionVariable] ?? ''));
    const lines: string[] = [];
    const who = d.actor ? alias(d.actor) : null;
    if (!who || d.actorKind === 'clock') {
      lines.push(`Note over API: ${index}. ${label}`);
    } else if (d.actorKind === 'fault') {
      lines.push(`Note over ${who}: ${index}. fault - ${label}`);
    } else if (d.response) {
      const r = d.response;
      lines.push(`${who}->>API: ${index}. ${label}`);
      lines.push(`API-->>${who}: ${sanitizeSequenceText(`${r.code ?? ''} ${r.reason ?? ''}`.trim())}`);
    } else {
      lines.push(`${who}->>API: ${index}. ${label}`);
    }
    const changes = changesPerStep[index] ?? [];
    if (changes.length > 0) {
      // The notes are narrow: drop the `namespaces.` prefix the full diff below the diagram keeps.
      const shown = changes.slice(0, 4).map((c) => sanitizeSequenceText(c.replace(/^namespaces\./, '')));
      if (changes.length > 4) shown.push(`and ${changes.length - 4} more`);
      lines.push(`Note right of API: ${shown.join('<br/>')}`);
    }
    if (breaksAt && index === trace.states.length - 1)
      lines.push(`Note over API: ${sanitizeSequenceText(`${breaksAt} breaks here`)}`);
    if (index === highlight) body.push(`  rect ${highlightColour}`, ...lines.map((l) => `    ${l}`), '  end');
    else body.push(...lines.map((l) => `  ${l}`));
  });
  const participants = actors.map((name, i) => `  participant P${i} as ${sanitizeSequenceText(name)}`);
  return ['sequenceDiagram', ...participants, `  participant API as ${apiServer}`, ...body].join('\n');
}

/** Builds the stepper of one ITF counterexample. */
export function stepperOf(trace: ItfTrace): Stepper {
  const variables = trace.vars.filter((name) => name !== actionVariable && name !== picksVariable);
  const raw = (state: ItfTrace['states'][number]) =>
    Object.fromEntries(variables.map((name) => [name, state[name]]));
  // A typed trace (variants for namespaces and enums) reads as the untyped one: the same YAML.
  const typed = isTypedState(raw(trace.states[0]));
  const views = trace.states.map((state) => {
    if (typed) return sortedKeys(readableOfTyped(raw(state))) as Record<string, unknown>;
    const view: Record<string, unknown> = {};
    for (const name of variables) view[name] = decodeItfValue(state[name] as ItfValue);
    return view;
  });
  const flat = views.map((v) => leaves(v));
  const changes = flat.map((f, i) => (i === 0 ? [] : diffLines(flat[i - 1], f)));
  const meta = trace['#meta'];
  const property = typeof meta.property === 'string' ? meta.property : 'property';
  const violation = typeof meta.violation === 'string' ? meta.violation : '';
  return {
    property,
    violation,
    ...(trace.loop !== undefined ? { loopStart: trace.loop } : {}),
    steps: trace.states.map((state, i) => ({
      label: i === 0 ? 'initial state' : String(state['#meta'].action?.label ?? state[actionVariable] ?? ''),
      changes: changes[i],
      yaml: stringify(views[i], { lineWidth: 0 }),
      sequence: sequenceSource(trace, changes, i, violation ? property : undefined),
    })),
  };
}
