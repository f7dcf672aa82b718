import { phaseOf } from '../../machines/namespace.ts';
import type { SystemEvent, SystemState } from '../../machines/system.ts';
import { staleAfterSeconds } from '../../properties/steps.ts';
import type { Fairness } from '../../properties/types.ts';
import { checkGoal, type Lasso } from '../engine/liveness.ts';
import type { ExplorableModel } from '../engine/model.ts';
import { buildStateGraph } from '../engine/state-graph.ts';
import { compileFairness, describeFairness } from '../model/liveness-system.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import type { EventualConditionInput, EventuallyInput, FairnessWord } from './schema.ts';

/**
 * The judge of a scenario's `eventually`: every fair continuation from the state the steps reached
 * reaches one of its conditions. The states reachable from there, within the scenario's scope, are
 * explored whole; the expectation fails with a lasso (a path, then a cycle repeated forever) when some
 * cycle keeps every condition false and is fair for every assumption the expectation names. The search
 * is the liveness checker's (checker/engine/liveness.ts); the goal and the fairness are the scenario's words.
 */

/** Most states one `eventually` explores: a scenario's scope is small; past this it is not judged. */
export const eventuallyStateLimit = 200_000;

/** The weak fairness each word of `fair` assumes, as a liveness property states it (properties/). */
export const fairnessOfWord: Record<FairnessWord, Fairness> = {
  'namespace-controller': {
    kind: 'weak',
    actorKind: 'namespace-controller',
    perNamespace: true,
    why: 'the namespace controller keeps syncing a namespace it can work on',
  },
  'finalizer-owners': {
    kind: 'weak',
    actorKind: 'finalizer-owner',
    perNamespace: true,
    why: 'each finalizer owner keeps reconciling a namespace that carries its finalizer',
  },
  initializers: {
    kind: 'weak',
    actorKind: 'initializer',
    perNamespace: true,
    why: 'a running initializer controller keeps reconciling the namespaces where it is first pending',
  },
  'apiserver-timers': {
    kind: 'weak',
    actorKind: 'apiserver',
    perNamespace: true,
    why: "the apiserver's initializer timer fires once it has expired",
  },
  clock: { kind: 'weak', actorKind: 'clock', why: 'time passes' },
  polling: {
    kind: 'weak',
    actorKind: 'principal',
    perNamespace: true,
    request: { verb: 'get', target: 'namespace' },
    why: 'a client polls the namespace until it is ready (IN-8)',
  },
};

/** Whether one condition holds in `state`; `slot` is its namespace's slot (-1 for none). */
export function conditionHolds(
  model: CheckedSystemModel,
  state: SystemState,
  c: EventualConditionInput,
  slot: number,
): boolean {
  if ('namespace' in c) {
    const v = model.view(state, slot);
    const exists = v.value !== 'absent' && v.value !== 'removed';
    const phase = exists ? phaseOf(v.value) : null;
    if (c.exists !== undefined && c.exists !== exists) return false;
    if (c.gone !== undefined && c.gone !== (v.value === 'removed')) return false;
    if (c.phase !== undefined && (typeof c.phase === 'string' ? phase !== c.phase : phase === c.phase.not))
      return false;
    if (c.pending !== undefined && !(exists && sameList(v.pending, c.pending))) return false;
    if (c.firstPending !== undefined && exists && v.pending[0] === c.firstPending.not) return false;
    if (c.timer !== undefined && !(exists && v.timerLost)) return false;
    return true;
  }
  const system = model.systemView(state);
  if ('initializer' in c) return system.crashedInitializers.includes(c.initializer) === c.crashed;
  // Stale by its age, as AC-2 bounds it: no successful read for the scope's stale-after seconds.
  if ('admission' in c) return system.secondsSinceConfigRead < staleAfterSeconds(model) === c.admission.fresh;
  return system.configReadsFailing === (c.configReads === 'failing');
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export type EventuallyVerdict =
  /** A condition holds in the reached state itself. */
  | { status: 'reached'; states: number }
  /** Every fair continuation reaches a condition: the whole reachable graph was searched. */
  | { status: 'holds'; states: number }
  /** A fair run from the reached state that never meets a condition. */
  | { status: 'violated'; states: number; lasso: Lasso<SystemState, SystemEvent>; fairness: string[] }
  /** The search stopped at its limit before finding such a run: no verdict. */
  | { status: 'incomplete'; states: number; reason: string };

/** The reached state as the only initial state of the same model: what can happen from here on. */
function from(model: CheckedSystemModel, state: SystemState): ExplorableModel<SystemState, SystemEvent> {
  return {
    initialStates: () => [state],
    key: (s) => model.key(s),
    successors: (s, emit) => model.successors(s, emit),
  };
}

export function judgeEventually(
  model: CheckedSystemModel,
  state: SystemState,
  expectation: EventuallyInput,
  slots: readonly number[],
  limits: { maxStates?: number } = {},
): EventuallyVerdict {
  const goal = (s: SystemState) => expectation.any.some((c, i) => conditionHolds(model, s, c, slots[i]));
  if (goal(state)) return { status: 'reached', states: 1 };
  const graph = buildStateGraph(from(model, state), {
    maxStates: limits.maxStates ?? eventuallyStateLimit,
  });
  const fairness = expectation.fair.map((w) => fairnessOfWord[w]);
  const verdict = checkGoal(
    graph,
    // The reached state is the graph's first (index 0): the premise holds there only.
    { p: (s) => s === 0, q: (s) => goal(graph.search.stateAt(s)) },
    compileFairness(model, fairness),
  );
  if (verdict.lasso)
    return {
      status: 'violated',
      states: graph.size,
      lasso: verdict.lasso,
      fairness: fairness.map((f) => describeFairness(f)),
    };
  if (!graph.complete)
    return {
      status: 'incomplete',
      states: graph.size,
      reason: `the search stopped (${graph.stopReason ?? 'limit'}) after ${graph.size} states with no fair cycle found`,
    };
  return { status: 'holds', states: graph.size };
}
