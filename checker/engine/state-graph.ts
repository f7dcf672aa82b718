import { type ExploreResult, explore, type SearchLimits } from './explore.ts';
import { IntList } from './int-list.ts';
import { announcingExpansions, type ExplorableModel, type StopReason } from './model.ts';

/**
 * The explored graph kept whole, for liveness: successor lists in compressed rows (typed arrays), so
 * strongly connected components and fairness can be computed after the search. Edge `k` of state `i`
 * lies in `[offsets[i], offsets[i + 1])`; `targets[k]` is the state it leads to, `eventIds[k]` indexes
 * `events` (interned events share one id).
 */
export interface StateGraph<S, E> {
  /** Distinct states discovered (indices are BFS discovery order, so depth never decreases with them). */
  size: number;
  /** States whose successors were all recorded; the rest (an incomplete search's frontier) have none. */
  expanded: number;
  offsets: Int32Array;
  targets: Int32Array;
  eventIds: Int32Array;
  events: E[];
  complete: boolean;
  stopReason?: StopReason;
  transitions: number;
  depth: number;
  durationMs: number;
  search: ExploreResult<S, E>;
}

/**
 * Records the graph of a breadth-first search as it runs: wrap the model (to see each expansion start)
 * and feed it every edge. Lets one search serve both the safety check and liveness.
 */
export class GraphRecorder<S, E> {
  private readonly targets = new IntList();
  private readonly eventIds = new IntList();
  private readonly offsets = new IntList();
  private readonly events: E[] = [];
  private readonly eventId = new Map<E, number>();
  private expansions = 0;
  private finished: StateGraph<S, E> | undefined;

  /** The model as the explorer must see it: same states, same successors, expansions counted. */
  wrap(model: ExplorableModel<S, E>): ExplorableModel<S, E> {
    // The explorer expands states in index order, so counting calls names the state being expanded.
    return announcingExpansions(model, () => this.expanding());
  }

  /** The explorer starts expanding its next state (what `wrap` reports; an explorer without a model calls it). */
  expanding(): void {
    this.offsets.push(this.targets.length);
    this.expansions++;
  }

  /** Called from the explorer's `onEdge`, for every edge, in order. */
  edge(event: E, afterIndex: number): void {
    let id = this.eventId.get(event);
    if (id === undefined) {
      id = this.events.length;
      this.events.push(event);
      this.eventId.set(event, id);
    }
    this.targets.push(afterIndex);
    this.eventIds.push(id);
  }

  /** The graph, once the search has returned. */
  finish(search: ExploreResult<S, E>): StateGraph<S, E> {
    // The state being expanded when a limit struck has only some of its edges: treat it as unexpanded.
    const expanded = search.complete ? this.expansions : Math.max(0, this.expansions - 1);
    const rows = new Int32Array(search.states + 1);
    rows.set(this.offsets.toArray().subarray(0, expanded));
    const end = expanded < this.expansions ? this.offsets.data[expanded] : this.targets.length;
    rows.fill(end, expanded);
    this.finished = {
      size: search.states,
      expanded,
      offsets: rows,
      targets: this.targets.toArray().subarray(0, end),
      eventIds: this.eventIds.toArray().subarray(0, end),
      events: this.events,
      complete: search.complete,
      ...(search.stopReason ? { stopReason: search.stopReason } : {}),
      transitions: search.transitions,
      depth: search.depth,
      durationMs: search.durationMs,
      search,
    };
    return this.finished;
  }

  /** The graph `finish` built; an error before the search has returned. */
  graph(): StateGraph<S, E> {
    if (!this.finished) throw new Error('GraphRecorder: the search has not finished');
    return this.finished;
  }
}

/** Explores `model` breadth-first and records every edge, self-loops included. */
export function buildStateGraph<S, E>(
  model: ExplorableModel<S, E>,
  limits: SearchLimits = {},
): StateGraph<S, E> {
  const recorder = new GraphRecorder<S, E>();
  const search = explore(recorder.wrap(model), {
    ...limits,
    onEdge: (_before, event, _after, _beforeIndex, afterIndex) => recorder.edge(event, afterIndex),
  });
  return recorder.finish(search);
}

/**
 * Strongly connected components of the subgraph induced by `members` (iterative Tarjan: an explicit
 * stack of (state, next edge), so a million-state graph cannot overflow the call stack). Returns one
 * array of states per component, in the order Tarjan closes them (reverse topological).
 */
export function stronglyConnectedComponents(
  graph: Pick<StateGraph<unknown, unknown>, 'size' | 'offsets' | 'targets'>,
  members: readonly number[] | Int32Array,
  inside: Uint8Array,
): Int32Array[] {
  const { offsets, targets } = graph;
  const index = new Int32Array(graph.size).fill(-1);
  const low = new Int32Array(graph.size);
  const onStack = new Uint8Array(graph.size);
  const stack: number[] = [];
  const callState: number[] = [];
  const callEdge: number[] = [];
  const components: Int32Array[] = [];
  let counter = 0;
  for (const root of members) {
    if (index[root] !== -1) continue;
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    callState.push(root);
    callEdge.push(offsets[root]);
    while (callState.length > 0) {
      const top = callState.length - 1;
      const v = callState[top];
      const k = callEdge[top];
      if (k < offsets[v + 1]) {
        callEdge[top] = k + 1;
        const w = targets[k];
        if (inside[w] === 0) continue;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callState.push(w);
          callEdge.push(offsets[w]);
        } else if (onStack[w] === 1 && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      callState.pop();
      callEdge.pop();
      if (callState.length > 0) {
        const parent = callState[callState.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        components.push(Int32Array.from(component));
      }
    }
  }
  return components;
}
