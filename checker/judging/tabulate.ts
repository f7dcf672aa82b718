import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventFromLogic,
  initialTransition,
  type SnapshotFrom,
  type StateValue,
  transition,
} from 'xstate';

/**
 * Canonical JSON: object keys sorted, Sets as sorted arrays and Maps as sorted entry lists, so two
 * equal values always give one string (the state identity the explorers rely on).
 */
export function canonicalKey(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? `"${value}n"` : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(',')}]`;
  if (value instanceof Set) return `[${[...value].map(canonicalKey).sort().join(',')}]`;
  if (value instanceof Map) {
    const entries = [...value].map(([k, v]) => `[${canonicalKey(k)},${canonicalKey(v)}]`).sort();
    return `{"$map":[${entries.join(',')}]}`;
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const name of Object.keys(record).sort()) {
    const field = record[name];
    // Absent and undefined fields are one state, as in JSON.
    if (field === undefined || typeof field === 'function') continue;
    parts.push(`${JSON.stringify(name)}:${canonicalKey(field)}`);
  }
  return `{${parts.join(',')}}`;
}

/** The identity of a machine snapshot: its state value and context. */
export function snapshotKey(snapshot: { value: unknown; context?: unknown }): string {
  return canonicalKey({ value: snapshot.value, context: snapshot.context ?? null });
}

export interface TabulatedState<TContext = unknown> {
  index: number;
  key: string;
  value: StateValue;
  context: TContext;
}

/** One machine explored once: every reachable snapshot and a dense successor table over an event list. */
export interface MachineTable<TEvent, TSnapshot, TContext = unknown> {
  machineId: string;
  events: readonly TEvent[];
  eventCount: number;
  states: TabulatedState<TContext>[];
  /** The XState snapshot of each state, for replaying or rendering. */
  snapshots: TSnapshot[];
  /** Index of the initial state (always 0). */
  initial: number;
  /** `next[state * eventCount + event]`: the next state's index, or -1 when the event is not enabled. */
  next: Int32Array;
  /** Named actions of the transition taken at the same position as in `next`; empty when not enabled. */
  actions: (readonly string[])[];
  /** Requirement IDs from the `meta` of the transitions taken, at the same position as in `next`. */
  requirements: (readonly string[])[];
  /** Number of enabled (state, event) pairs. */
  transitionCount: number;
  indexOfKey(key: string): number | undefined;
}

export interface TabulateOptions {
  /** Refuse machines with more reachable snapshots than this (they are not meant to be tabulated). */
  maxStates?: number;
  input?: unknown;
}

const notEnabled: readonly string[] = Object.freeze([]);

interface TransitionDefinitionView {
  actions?: readonly unknown[];
  meta?: { requirements?: readonly string[] };
}

/**
 * Explores one XState machine breadth-first with XState's pure `initialTransition`/`transition`
 * over a finite event list and returns its transition table.
 */
export function tabulate<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: readonly EventFromLogic<TMachine>[],
  options: TabulateOptions = {},
): MachineTable<EventFromLogic<TMachine>, SnapshotFrom<TMachine>, SnapshotFrom<TMachine>['context']> {
  // Generic snapshot types stay deferred inside this body, so work on XState's any-machine view.
  type Snapshot = AnyMachineSnapshot;
  const maxStates = options.maxStates ?? 100_000;
  const eventCount = events.length;
  const [initialSnapshot] = (
    initialTransition as (m: AnyStateMachine, input?: unknown) => [Snapshot, unknown[]]
  )(machine, options.input);
  const snapshots: Snapshot[] = [];
  const states: TabulatedState[] = [];
  const indexByKey = new Map<string, number>();
  const nextRows: number[] = [];
  const actions: (readonly string[])[] = [];
  const requirements: (readonly string[])[] = [];
  let transitionCount = 0;

  const intern = (snapshot: Snapshot): number => {
    const key = snapshotKey(snapshot);
    const known = indexByKey.get(key);
    if (known !== undefined) return known;
    if (states.length >= maxStates) {
      throw new Error(`tabulate: ${machine.id} has more than ${maxStates} reachable snapshots`);
    }
    const index = states.length;
    indexByKey.set(key, index);
    snapshots.push(snapshot);
    states.push({ index, key, value: snapshot.value, context: snapshot.context });
    return index;
  };

  intern(initialSnapshot);
  for (let cursor = 0; cursor < snapshots.length; cursor++) {
    const before = snapshots[cursor];
    for (const event of events) {
      // `can` is XState's own notion of "the event would take a transition" (guards evaluated).
      if (before.status !== 'active' || !before.can(event)) {
        nextRows.push(-1);
        actions.push(notEnabled);
        requirements.push(notEnabled);
        continue;
      }
      const [after] = transition(machine as AnyStateMachine, before, event);
      const taken = machine.getTransitionData(before, event) as readonly TransitionDefinitionView[];
      nextRows.push(intern(after));
      actions.push(taken.flatMap((t) => (t.actions ?? []).map(actionName)));
      requirements.push([...new Set(taken.flatMap((t) => t.meta?.requirements ?? []))]);
      transitionCount++;
    }
  }

  return {
    machineId: machine.id,
    events,
    eventCount,
    states: states as TabulatedState<SnapshotFrom<TMachine>['context']>[],
    snapshots: snapshots as SnapshotFrom<TMachine>[],
    initial: 0,
    next: Int32Array.from(nextRows),
    actions,
    requirements,
    transitionCount,
    indexOfKey: (key) => indexByKey.get(key),
  };
}

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action) return String(action.type);
  if (typeof action === 'function') return (action as { type?: string }).type ?? (action.name || 'inline');
  return 'inline';
}
