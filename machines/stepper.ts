import {
  type AnyStateMachine,
  createActor,
  type EmittedFrom,
  type EventFromLogic,
  initialTransition,
  type SnapshotFrom,
} from 'xstate';
import { Interner, KeyedCache, memoByObject } from '../checker/engine/caches.ts';

/** A transition of a machine definition, named for coverage and traceability. */
export interface TransitionInfo {
  /** Stable id: `<machine>:<state path>:<EVENT or always>[guard]-><target>` (see `transitionIds`). */
  id: string;
  machine: string;
  source: string;
  event: string;
  guard: string | null;
  target: string | null;
  actions: string[];
  requirements: string[];
}

/** What one step of a machine did. */
export interface StepResult<E = unknown> {
  /** Interned id of the snapshot after the step. */
  next: number;
  /** Named actions the step would execute, with their params (executable actions, not run). */
  actions: { type: string; params: unknown }[];
  /** The typed events the step emitted (XState `emit`): the machine's effects on the world. */
  emitted: E[];
  /** Ids of the transitions taken, in order (empty when the machine ignored the event). */
  transitions: string[];
}

type AnyStateNode = AnyStateMachine['root'];

/** The type XState gives an `emit` action in the list `transition()` returns. */
const emitAction = 'xstate.emit';

/** What names a transition among those of one source and event: its guard, targets and actions. */
export interface TransitionNaming {
  guard: string | null;
  targets: readonly string[];
  actions: readonly string[];
}

/**
 * The ids of one source's transitions on one event, in document order: `<machine>:<source>:<event>`,
 * then `[guard]` when guarded and `-><target>` when it moves, so adding or removing a guard renames no
 * other transition. Only transitions sharing guard and target are told apart, by `/actions`, then by
 * `~2`, `~3` in document order.
 */
export function transitionIds(
  machineId: string,
  source: string,
  event: string,
  transitions: readonly TransitionNaming[],
): string[] {
  const bases = transitions.map(
    (t) =>
      `${machineId}:${source}:${event}${t.guard === null ? '' : `[${t.guard}]`}${t.targets.length > 0 ? `->${t.targets.join(',')}` : ''}`,
  );
  const count = (ids: string[], id: string) => ids.filter((other) => other === id).length;
  const named = bases.map((base, i) =>
    count(bases, base) > 1 && transitions[i].actions.length > 0
      ? `${base}/${transitions[i].actions.join(',')}`
      : base,
  );
  const seen = new Map<string, number>();
  return named.map((id) => {
    if (count(named, id) === 1) return id;
    const nth = (seen.get(id) ?? 0) + 1;
    seen.set(id, nth);
    return nth === 1 ? id : `${id}~${nth}`;
  });
}

/** Every transition in a machine definition, eventless ones included, in document order. */
export function listTransitions(machine: AnyStateMachine): TransitionInfo[] {
  return [...transitionIndex(machine).values()];
}

/** Each definition's transitions by definition object, built once per machine (checker/engine/caches.ts). */
const transitionIndex = memoByObject(indexTransitions);

function indexTransitions(machine: AnyStateMachine): Map<object, TransitionInfo> {
  const index = new Map<object, TransitionInfo>();
  const visit = (node: AnyStateNode) => {
    const source = node.path.join('.') || '(root)';
    const add = (event: string, definitions: readonly object[]) => {
      const views = definitions.map((definition) => {
        const t = definition as {
          guard?: unknown;
          target?: readonly AnyStateNode[];
          actions?: readonly unknown[];
          meta?: { requirements?: string[] };
        };
        return {
          guard: guardName(t.guard),
          targets: (t.target ?? []).map((n) => n.path.join('.')),
          actions: (t.actions ?? []).map(actionName),
          requirements: [...(t.meta?.requirements ?? [])],
        };
      });
      const ids = transitionIds(machine.id, source, event, views);
      definitions.forEach((definition, position) => {
        const view = views[position];
        index.set(definition, {
          id: ids[position],
          machine: machine.id,
          source,
          event,
          guard: view.guard,
          target: view.targets.join(',') || null,
          actions: view.actions,
          requirements: view.requirements,
        });
      });
    };
    for (const [event, definitions] of node.transitions) add(event, definitions);
    if (node.always) add('always', node.always);
    for (const child of Object.values(node.states)) visit(child as AnyStateNode);
  };
  visit(machine.root);
  return index;
}

function guardName(guard: unknown): string | null {
  return guard === undefined || guard === null ? null : describeGuard(guard);
}

/** A guard as it reads: its name, or `a && b`, `a || b`, `!a` for XState's higher-order guards. */
export function describeGuard(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const composite = guard as { guards?: unknown[]; stateValue?: unknown; name: string };
    if (composite.guards && guard.name === 'not') return `!${describeGuard(composite.guards[0])}`;
    if (composite.guards && (guard.name === 'and' || guard.name === 'or')) {
      const joined = composite.guards.map(describeGuard).join(guard.name === 'and' ? ' && ' : ' || ');
      return `(${joined})`;
    }
    if (guard.name === 'stateIn') return `in(${JSON.stringify(composite.stateValue)})`;
    return guard.name || 'inline';
  }
  if (guard && typeof guard === 'object' && 'type' in guard) return String(guard.type);
  return 'inline';
}

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action) return String(action.type);
  if (typeof action === 'function') return (action as { type?: string }).type ?? (action.name || 'inline');
  return 'inline';
}

/** Canonical JSON: object keys sorted, so equal data gives one string. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/**
 * A machine's initial snapshot for an input, computed once per machine and input: every model builds
 * eleven steppers, and the committed scenarios' replay builds a model per scenario. Snapshots are never
 * changed (a step starts an actor from one and reads a new one), so models can share them.
 */
function initialSnapshot(machine: AnyStateMachine, input: unknown): unknown {
  const byInput = initialSnapshots(machine);
  const key = canonicalJson(input);
  const known = byInput.get(key);
  if (known !== undefined) return known;
  const [snapshot] = (initialTransition as (m: AnyStateMachine, i?: unknown) => [unknown, unknown[]])(
    machine,
    input,
  );
  byInput.set(key, snapshot);
  return snapshot;
}

const initialSnapshots = memoByObject((_machine: AnyStateMachine) => new Map<string, unknown>());

/**
 * Steps one machine through XState, one inspected actor run per step, interning snapshots (equal value
 * and context give one id) and memoizing each (snapshot, event) pair: a machine is explored once and its
 * transitions become table look-ups, which is what makes the product search fast.
 */
export class MachineStepper<M extends AnyStateMachine> {
  /** Snapshots interned by value and context (the engine's interning, checker/engine/caches.ts). */
  private readonly interned = new Interner<SnapshotFrom<M>>();
  /** Every snapshot interned so far, by id. */
  readonly snapshots: readonly SnapshotFrom<M>[] = this.interned.values;
  private readonly steps = new KeyedCache<string, StepResult<EmittedFrom<M>>>();
  readonly initial: number;

  constructor(
    readonly machine: M,
    input?: unknown,
  ) {
    this.initial = this.intern(initialSnapshot(machine, input) as SnapshotFrom<M>);
  }

  intern(snapshot: SnapshotFrom<M>): number {
    const s = snapshot as { value: unknown; context: unknown };
    const key = canonicalJson([s.value, s.context ?? null]);
    return this.interned.find(key) ?? this.interned.id(key, () => snapshot);
  }

  snapshot(id: number): SnapshotFrom<M> {
    return this.snapshots[id];
  }

  /** The state value of an interned snapshot, as XState reports it. */
  value(id: number): unknown {
    return (this.snapshots[id] as { value: unknown }).value;
  }

  /** Steps snapshot `id` with `event`; `eventKey` must identify the event (defaults to its canonical JSON). */
  step(id: number, event: EventFromLogic<M>, eventKey?: string): StepResult<EmittedFrom<M>> {
    const key = `${id}|${eventKey ?? canonicalJson(event)}`;
    return this.steps.find(key) ?? this.steps.set(key, this.compute(id, event));
  }

  /** Steps snapshot `id` with `event`, remembering nothing but the snapshot reached (for a memo kept outside). */
  compute(id: number, event: EventFromLogic<M>): StepResult<EmittedFrom<M>> {
    const { after, executed, transitions } = this.inspectedStep(this.snapshots[id], event);
    return {
      next: this.intern(after),
      actions: executed.filter((a) => a.type !== emitAction),
      emitted: executed
        .filter((a) => a.type === emitAction)
        .map((a) => (a.params as { event: EmittedFrom<M> }).event),
      transitions,
    };
  }

  /**
   * One step through an actor started from `before`, read from XState's inspection: the snapshot reached,
   * the actions the step executed (those XState's pure `transition()` lists, in its order) and which
   * definitions fired (its microsteps). One run instead of `transition()` and a second, inspected one.
   */
  private inspectedStep(
    before: SnapshotFrom<M>,
    event: EventFromLogic<M>,
  ): { after: SnapshotFrom<M>; executed: { type: string; params: unknown }[]; transitions: string[] } {
    const index = transitionIndex(this.machine);
    const transitions: string[] = [];
    const executed: { type: string; params: unknown }[] = [];
    let stepping = false;
    let failure: { error: unknown } | undefined;
    const start = createActor as (machine: M, options: object) => ReturnType<typeof createActor<M>>;
    const actor = start(this.machine, {
      snapshot: before,
      inspect: (inspection: { type: string }) => {
        if (inspection.type === '@xstate.action') {
          const { action } = inspection as unknown as { action: { type: string; params: unknown } };
          if (stepping) executed.push({ type: action.type, params: action.params });
          return;
        }
        if (inspection.type !== '@xstate.microstep') return;
        for (const t of (inspection as unknown as { _transitions: object[] })._transitions) {
          const info = index.get(t);
          if (info) transitions.push(info.id);
        }
      },
    });
    // A guard or action that throws fails the step here, as `transition()` would, not later as unhandled.
    actor.subscribe({
      error: (error: unknown) => {
        failure = { error };
      },
    });
    actor.start();
    stepping = true;
    actor.send(event);
    stepping = false;
    const after = actor.getSnapshot() as SnapshotFrom<M>;
    actor.stop();
    if (failure) throw failure.error;
    return { after, executed, transitions };
  }
}
