import type { ExploreResult } from './explore.ts';
import { memoByPair } from './memo.ts';
import type { StateGraph } from './state-graph.ts';
import { stronglyConnectedComponents } from './state-graph.ts';

/**
 * Liveness on an explored graph, as TLC and SPIN decide it: a property fails when some reachable
 * cycle both keeps the property's goal from happening and is fair. Behaviours may stutter (stay in a
 * state forever, as in TLA+'s `[][Next]_vars`), so without fairness any state where the goal is
 * pending is a counterexample; fairness conditions rule such runs out.
 *
 * Fairness is data: a condition names an event class. Weak fairness WF(A): a run may not keep A
 * enabled forever without taking it; a component is fair for it when A is taken inside it or disabled
 * in one of its states. Strong fairness SF(A): a run may not keep A enabled infinitely often without
 * taking it; a component is fair when A is taken inside it or disabled in all its states, and otherwise
 * the states where A is enabled are removed and the rest searched again (the Streett emptiness check).
 */
export interface FairnessCondition<E> {
  kind: 'weak' | 'strong';
  name: string;
  matches: (event: E) => boolean;
}

/** `p ~> q`: whenever `p` holds, `q` holds then or later. `always eventually q` is `true ~> q`. */
export interface LivenessGoal {
  /** Defaults to every state (the form `[]<> q`). */
  p?: (index: number) => boolean;
  q: (index: number) => boolean;
}

/** One step of a lasso: the event taken (`null` for a stuttering step) and the state it led to. */
export interface LassoStep<S, E> {
  event: E | null;
  state: S;
}

/**
 * A run that never reaches the goal: `steps[0 .. loopStart)` is the shortest prefix, then
 * `steps[loopStart ..]` is the cycle, whose last step returns to the state the prefix ended in
 * (the initial state when `loopStart` is 0).
 */
export interface Lasso<S, E> {
  initial: S;
  steps: LassoStep<S, E>[];
  loopStart: number;
}

export interface GoalVerdict<S, E> {
  /** States where `p` held and `q` did not: the premise was exercised. */
  triggers: number;
  lasso?: Lasso<S, E>;
  /** True when the only lassos found pass through states the model declares as its horizon. */
  onlyAtHorizon: boolean;
}

export interface GoalOptions {
  /** States where the model's bounded clock has stopped: lassos in them are tried last and flagged. */
  horizon?: (index: number) => boolean;
}

/** Fairness compiled to bit masks: one bit per condition, per event id and per state. */
interface CompiledFairness {
  eventMask: Int32Array;
  enabledMask: Int32Array;
  weak: number;
  strong: number;
}

export const maxFairnessConditions = 31;

function compileFairness<S, E>(
  graph: StateGraph<S, E>,
  fairness: readonly FairnessCondition<E>[],
): CompiledFairness {
  if (fairness.length > maxFairnessConditions)
    throw new Error(
      `liveness: ${fairness.length} fairness conditions; at most ${maxFairnessConditions} are supported`,
    );
  const eventMask = new Int32Array(graph.events.length);
  let weak = 0;
  let strong = 0;
  fairness.forEach((f, bit) => {
    if (f.kind === 'weak') weak |= 1 << bit;
    else strong |= 1 << bit;
    graph.events.forEach((e, id) => {
      if (f.matches(e)) eventMask[id] |= 1 << bit;
    });
  });
  const enabledMask = new Int32Array(graph.size);
  for (let s = 0; s < graph.size; s++) {
    let m = 0;
    for (let k = graph.offsets[s]; k < graph.offsets[s + 1]; k++) m |= eventMask[graph.eventIds[k]];
    enabledMask[s] = m;
  }
  return { eventMask, enabledMask, weak, strong };
}

// A per-namespace property judges each slot with the same conditions on the same graph: compile them once.
const compiledFairness = memoByPair(
  (graph: StateGraph<unknown, never>, fairness: readonly FairnessCondition<never>[]) =>
    compileFairness(graph, fairness),
);

/** Fair components of the subgraph `members`, each with the condition bits it must show on its cycle. */
function fairComponents<S, E>(
  graph: StateGraph<S, E>,
  fair: CompiledFairness,
  members: Int32Array,
): { states: Int32Array; weakTaken: number; weakDisabled: number; strongTaken: number }[] {
  const found: { states: Int32Array; weakTaken: number; weakDisabled: number; strongTaken: number }[] = [];
  const inside = new Uint8Array(graph.size);
  const work: Int32Array[] = [members];
  while (work.length > 0) {
    const set = work.pop() as Int32Array;
    for (const s of set) inside[s] = 1;
    const components = stronglyConnectedComponents(graph, set, inside);
    for (const s of set) inside[s] = 0;
    for (const component of components) {
      for (const s of component) inside[s] = 1;
      let taken = 0;
      let enabledSomewhere = 0;
      let enabledEverywhere = -1;
      for (const s of component) {
        enabledSomewhere |= fair.enabledMask[s];
        enabledEverywhere &= fair.enabledMask[s];
        for (let k = graph.offsets[s]; k < graph.offsets[s + 1]; k++)
          if (inside[graph.targets[k]] === 1) taken |= fair.eventMask[graph.eventIds[k]];
      }
      for (const s of component) inside[s] = 0;
      const unfairStrong = fair.strong & enabledSomewhere & ~taken;
      if (unfairStrong !== 0) {
        // No fair cycle may pass where such a step is enabled: search what is left.
        const rest = component.filter((s) => (fair.enabledMask[s] & unfairStrong) === 0);
        if (rest.length > 0) work.push(rest);
        continue;
      }
      const weakTaken = fair.weak & taken;
      const weakDisabled = fair.weak & ~taken & ~enabledEverywhere;
      if ((weakTaken | weakDisabled) !== fair.weak) continue;
      found.push({ states: component, weakTaken, weakDisabled, strongTaken: fair.strong & enabledSomewhere });
    }
  }
  return found;
}

/**
 * Decides `p ~> q` under `fairness` on `graph`. The lasso's prefix is a shortest path (BFS to a state
 * where `p` holds and `q` does not, then a shortest `q`-free path to a fair cycle), as TLC reports it.
 */
export function checkGoal<S, E>(
  graph: StateGraph<S, E>,
  goal: LivenessGoal,
  fairness: readonly FairnessCondition<E>[],
  options: GoalOptions = {},
): GoalVerdict<S, E> {
  const n = graph.size;
  const { offsets, targets, eventIds } = graph;
  const notQ = new Uint8Array(n);
  for (let s = 0; s < graph.expanded; s++) notQ[s] = goal.q(s) ? 0 : 1;
  const triggerList: number[] = [];
  for (let s = 0; s < graph.expanded; s++) {
    if (notQ[s] === 1 && (goal.p === undefined || goal.p(s))) triggerList.push(s);
  }
  // The conditions only read the graph's own events: E is the graph's, whatever the memo's key types say.
  const fair = compiledFairness(graph as StateGraph<unknown, never>, fairness);
  const walk: SuccessorWalk<E> = {
    size: n,
    expanded: graph.expanded,
    successors: (s, visit) => {
      for (let k = offsets[s]; k < offsets[s + 1]; k++) visit(eventIds[k], targets[k]);
    },
    events: graph.events,
  };
  return lassoVerdict(
    walk,
    graph.search,
    { notQ: (s) => notQ[s] === 1, triggers: triggerList, horizon: options.horizon ?? (() => false) },
    { ...fair, eventMask: (id) => fair.eventMask[id], enabledMask: (s) => fair.enabledMask[s] },
    (members) => fairComponents(graph, fair, Int32Array.from(members)),
    (states) => {
      const inside = new Uint8Array(n);
      for (const s of states) inside[s] = 1;
      return (s) => inside[s] === 1;
    },
  );
}

/**
 * A graph as the lasso search walks it, stored (a StateGraph's rows) or recomputed (the compiled search's
 * successors): the edges of state `s` in the search's order, each as its event's index in `events` and its
 * target (a negative target is one the search did not keep). States from `expanded` on have none.
 */
export interface SuccessorWalk<E> {
  size: number;
  expanded: number;
  successors(s: number, visit: (event: number, target: number) => void): void;
  events: readonly E[];
}

/** Fairness as bit masks, one bit per condition: of an event (by index) and of the classes a state enables. */
export interface FairMasks {
  weak: number;
  strong: number;
  eventMask(event: number): number;
  enabledMask(s: number): number;
}

/** A fair component, with the condition bits its cycle must show. */
export interface FairComponent {
  states: Int32Array;
  weakTaken: number;
  weakDisabled: number;
  strongTaken: number;
}

/** A goal as the lasso search needs it: where `q` is pending, the triggers in index order, the horizon. */
export interface PendingGoal {
  notQ: (s: number) => boolean;
  triggers: readonly number[];
  horizon: (s: number) => boolean;
}

/**
 * The verdict of a goal from its triggers, whichever way the graph is held: shortest distances to every
 * `q`-free state, the fair components among the states reached (those beyond the horizon only when none
 * is found short of it), and the lasso into the nearest one. `components` finds the fair components of
 * a set of states; `inside` gives membership of one component.
 */
export function lassoVerdict<S, E>(
  walk: SuccessorWalk<E>,
  search: Pick<ExploreResult<S, E>, 'depthOf' | 'stateAt' | 'traceTo'>,
  goal: PendingGoal,
  fair: FairMasks,
  components: (members: number[]) => FairComponent[],
  inside: (states: Int32Array) => (s: number) => boolean,
): GoalVerdict<S, E> {
  const { dist, parent, parentEvent } = distancesFromTriggers(walk, search, goal);
  const triggers = goal.triggers.length;
  if (triggers === 0) return { triggers, onlyAtHorizon: false };
  const reached: number[] = [];
  const beyond: number[] = [];
  for (let s = 0; s < walk.expanded; s++) {
    if (dist[s] === -1) continue;
    if (goal.horizon(s)) beyond.push(s);
    else reached.push(s);
  }
  let found = components(reached);
  let onlyAtHorizon = false;
  if (found.length === 0 && beyond.length > 0) {
    found = components([...reached, ...beyond]);
    onlyAtHorizon = found.length > 0;
  }
  if (found.length === 0) return { triggers, onlyAtHorizon: false };
  const { best, entry } = nearestEntry(found, dist);
  // The prefix: q-free predecessors back to the trigger, then the BFS path to it.
  const qFree: LassoStep<S, E>[] = [];
  let at = entry;
  while (parent[at] !== -1) {
    qFree.push({ event: walk.events[parentEvent[at]], state: search.stateAt(at) });
    at = parent[at];
  }
  qFree.reverse();
  const toTrigger = search.traceTo(at);
  const steps: LassoStep<S, E>[] = [
    ...toTrigger.steps.map((step) => ({ event: step.event, state: step.state })),
    ...qFree,
  ];
  const loopStart = steps.length;
  steps.push(...fairCycle(walk, search, fair, best, entry, inside(best.states)));
  return { triggers, lasso: { initial: toTrigger.initial, steps, loopStart }, onlyAtHorizon };
}

/**
 * Shortest distance of each `q`-free state: BFS depth to a trigger, then `q`-free steps, with the state and
 * event each was reached by. Triggers come in index order, which is depth order, so merging them into a
 * FIFO keeps the queue sorted by distance (unit weights).
 */
function distancesFromTriggers<S, E>(
  walk: SuccessorWalk<E>,
  search: Pick<ExploreResult<S, E>, 'depthOf'>,
  goal: PendingGoal,
): { dist: Int32Array; parent: Int32Array; parentEvent: Int32Array } {
  const n = walk.size;
  const dist = new Int32Array(n).fill(-1);
  const parent = new Int32Array(n).fill(-1);
  const parentEvent = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  const { notQ, triggers } = goal;
  let nextTrigger = 0;
  const depth = (s: number) => search.depthOf(s);
  let from = -1;
  // One visitor for every expansion: no closure per state.
  const visit = (event: number, w: number) => {
    if (w < 0 || !notQ(w) || dist[w] !== -1) return;
    dist[w] = dist[from] + 1;
    parent[w] = from;
    parentEvent[w] = event;
    queue[tail++] = w;
  };
  while (head < tail || nextTrigger < triggers.length) {
    const t = triggers[nextTrigger];
    if (nextTrigger < triggers.length && (head === tail || depth(t) <= dist[queue[head]])) {
      nextTrigger++;
      if (dist[t] !== -1) continue;
      dist[t] = depth(t);
      from = t;
    } else {
      from = queue[head++];
    }
    walk.successors(from, visit);
  }
  return { dist, parent, parentEvent };
}

/** An edge found again: its source, event index and target. */
interface Edge {
  source: number;
  event: number;
  target: number;
}

/**
 * A cycle from `entry` inside the component that shows each fairness condition: a step of each
 * taken class, a state where each untaken weak class is disabled. Built greedily from shortest paths;
 * a component that needs nothing shown is one stuttering step.
 */
function fairCycle<S, E>(
  walk: SuccessorWalk<E>,
  search: Pick<ExploreResult<S, E>, 'stateAt'>,
  fair: FairMasks,
  component: FairComponent,
  entry: number,
  inside: (s: number) => boolean,
): LassoStep<S, E>[] {
  const path: Edge[] = [];
  let needTaken = component.weakTaken | component.strongTaken;
  let needDisabled = component.weakDisabled;
  let at = entry;
  needDisabled &= fair.enabledMask(entry);
  // Each round walks a shortest path to the nearest state or edge that shows a missing condition.
  while (needTaken !== 0 || needDisabled !== 0) {
    const shown = needDisabled;
    const wanted = needTaken;
    const leg = shortestPath(
      walk,
      inside,
      at,
      (s) => (shown & ~fair.enabledMask(s)) !== 0,
      (event) => (fair.eventMask(event) & wanted) !== 0,
    );
    if (leg === null) throw new Error('liveness: a fair component lost its witness (internal error)');
    for (const edge of leg) {
      needTaken &= ~fair.eventMask(edge.event);
      at = edge.target;
      needDisabled &= fair.enabledMask(at);
      path.push(edge);
    }
  }
  if (at !== entry) {
    const back = shortestPath(
      walk,
      inside,
      at,
      (s) => s === entry,
      () => false,
    );
    if (back === null) throw new Error('liveness: a component is not strongly connected (internal error)');
    path.push(...back);
  }
  if (path.length === 0) return [{ event: null, state: search.stateAt(entry) }];
  return path.map((edge) => ({ event: walk.events[edge.event], state: search.stateAt(edge.target) }));
}

/**
 * Edges of a shortest path inside `inside` from `from` to the first state `atState` accepts or through
 * the first edge whose event `byEvent` accepts (taken as the path's last edge); `from` itself is not a goal.
 */
function shortestPath<E>(
  walk: SuccessorWalk<E>,
  inside: (s: number) => boolean,
  from: number,
  atState: (s: number) => boolean,
  byEvent: (event: number) => boolean,
): Edge[] | null {
  // Per reached state: the edge that reached it.
  const via = new Map<number, Edge>();
  const unwind = (s: number, path: Edge[]): Edge[] => {
    for (let step = via.get(s); step !== undefined; step = via.get(step.source)) path.unshift(step);
    return path;
  };
  const queue = [from];
  const seen = new Set<number>([from]);
  const row: number[] = [];
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i];
    row.length = 0;
    walk.successors(s, (event, target) => {
      row.push(event, target);
    });
    for (let k = 0; k < row.length; k += 2) {
      const event = row[k];
      const w = row[k + 1];
      if (w < 0 || !inside(w)) continue;
      if (byEvent(event)) return unwind(s, [{ source: s, event, target: w }]);
      if (seen.has(w)) continue;
      seen.add(w);
      via.set(w, { source: s, event, target: w });
      if (atState(w)) return unwind(w, []);
      queue.push(w);
    }
  }
  return null;
}

/** Reachable states with no successor at all, in BFS order (so the first has a shortest trace). */
/**
 * The fair component to show and the state by which the lasso enters it: the state nearest the trigger
 * (`dist`), the lowest index among equals, so the counterexample is the shortest and deterministic.
 */
export function nearestEntry<C extends { states: ArrayLike<number> }>(
  components: readonly C[],
  dist: ArrayLike<number>,
): { best: C; entry: number } {
  let best = components[0];
  let entry = best.states[0];
  for (const c of components) {
    for (let k = 0; k < c.states.length; k++) {
      const s = c.states[k];
      if (dist[s] < dist[entry] || (dist[s] === dist[entry] && s < entry)) {
        entry = s;
        best = c;
      }
    }
  }
  return { best, entry };
}

export function deadlocks<S, E>(graph: StateGraph<S, E>, terminal?: (index: number) => boolean): number[] {
  const found: number[] = [];
  for (let s = 0; s < graph.expanded; s++) {
    if (graph.offsets[s] === graph.offsets[s + 1] && !terminal?.(s)) found.push(s);
  }
  return found;
}
