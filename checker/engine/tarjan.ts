import { IntList } from './int-list.ts';
import type { SuccessorWalk } from './liveness.ts';

/** Thrown when a judgement passes its deadline (`TarjanScratch.deadline`): what it had judged stands, the rest is not judged. */
export class JudgementStopped extends Error {
  constructor() {
    super('the judgement passed its deadline');
  }
}

/** Throws `JudgementStopped` once `performance.now()` is past `deadline`. */
export function heedDeadline(deadline: number): void {
  if (deadline !== Number.POSITIVE_INFINITY && performance.now() > deadline) throw new JudgementStopped();
}

/** States a walk opens between two looks at the clock. */
const clockEvery = 0xfff;

/** Tarjan's per-state arrays (13 B and a bit per state), allocated once per judgement and reset by the states each walk touched. */
export class TarjanScratch {
  /** The `performance.now()` past which a walk stops (`JudgementStopped`); none by default. */
  deadline = Number.POSITIVE_INFINITY;
  readonly index: Int32Array;
  readonly low: Int32Array;
  readonly onStack: Uint8Array;
  readonly taken: Int32Array;
  private marks: Int32Array | undefined;
  private memberBits: Uint32Array | undefined;
  stamp = 0;
  readonly touched = new IntList(1024);
  constructor(private readonly size: number) {
    this.index = new Int32Array(size).fill(-1);
    this.low = new Int32Array(size);
    this.onStack = new Uint8Array(size);
    this.taken = new Int32Array(size);
  }
  /**
   * Membership of the sets searched again (strong fairness, a violated goal's components), by a stamp
   * per set; allocated on first use, since a judgement where every goal holds under weak fairness needs none.
   */
  get mark(): Int32Array {
    this.marks ??= new Int32Array(this.size);
    return this.marks;
  }
  /**
   * An empty set of states, one bit each, for a search's `inside` (read in place by the walk, no call per
   * move); the same array every time, so a set is valid until the next call.
   */
  emptySet(): Uint32Array {
    if (this.memberBits === undefined) this.memberBits = new Uint32Array(Math.ceil(this.size / 32));
    else this.memberBits.fill(0);
    return this.memberBits;
  }
  reset(): void {
    const { data, length } = this.touched;
    for (let i = 0; i < length; i++) {
      const s = data[i];
      this.index[s] = -1;
      this.taken[s] = 0;
    }
    this.touched.length = 0;
  }
}

/** The states a search stays inside: a test, or one bit per state (`TarjanScratch.emptySet`). */
export type Inside = ((s: number) => boolean) | Uint32Array;

/** Whether `s` is in `set`, a bit per state. */
function inSet(set: Uint32Array, s: number): boolean {
  return ((set[s >>> 5] >>> (s & 31)) & 1) === 1;
}

/** `inside` as a test. */
function insideTest(inside: Inside): (s: number) => boolean {
  return typeof inside === 'function' ? inside : (s) => s >= 0 && inSet(inside, s);
}

/**
 * The classes a walk's fairness masks need: of an event, and, when the walk leaves out some self-loops,
 * those taken by every self-loop of a state (the same numbering; a self-loop the walk still sends is
 * counted again, to no effect).
 */
export interface TarjanClasses {
  eventMask(event: number): number;
  selfMask?(s: number): number;
}

/**
 * Strongly connected components reachable from `roots` inside `inside`, each with the fairness classes
 * taken on its own edges (iterative Tarjan; successors recomputed once per state and kept only while the
 * state is on the call stack). A self-loop lies inside its state's component whatever the rest of the
 * walk finds, so `fair.selfMask` may stand for the self-loops a walk leaves out.
 */
export function tarjan<E>(
  walk: SuccessorWalk<E>,
  fair: TarjanClasses,
  roots: ArrayLike<number>,
  inside: Inside,
  scratch: TarjanScratch,
): { states: Int32Array; taken: number }[] {
  return [...tarjanComponents(walk, fair, roots, inside, scratch)];
}

/**
 * Components as `tarjan` finds them, in the same order, kept end to end in typed arrays: a search from
 * many roots finds hundreds of thousands of components of a state or two, and an object and a typed
 * array each would hold tens of megabytes of JavaScript heap until the caller is done with them. Each
 * component is made as it is iterated (its states a view of the packed list).
 */
export class PackedComponents implements Iterable<{ states: Int32Array; taken: number }> {
  readonly states = new IntList(1024);
  /** Per component: where its states end in `states`, and the classes taken on its edges. */
  readonly ends = new IntList(1024);
  readonly taken = new IntList(1024);

  get length(): number {
    return this.ends.length;
  }

  /** The states of component `i`, a view of the packed list. */
  statesOf(i: number): Int32Array {
    return this.states.data.subarray(i === 0 ? 0 : this.ends.data[i - 1], this.ends.data[i]);
  }

  *[Symbol.iterator](): Iterator<{ states: Int32Array; taken: number }> {
    for (let i = 0; i < this.ends.length; i++) yield { states: this.statesOf(i), taken: this.taken.data[i] };
  }
}

/**
 * Moves kept in arrays for the states `listed` answers: state s's are words `first(s)` to
 * `first(s + 1) - 1`, each its target above `eventBits` bits of its event's index, in the order the walk's
 * `successors` sends them (any moves it sends that are not kept lead outside every set searched). The walk
 * expands the other states.
 */
export interface MoveLists {
  readonly eventBits: number;
  listed(s: number): boolean;
  first(s: number): number;
  word(k: number): number;
}

/** `tarjan`'s components, packed (`PackedComponents`); read from the walk's `lists` when it has them. */
export function tarjanComponents<E>(
  walk: SuccessorWalk<E> & { lists?: MoveLists },
  fair: TarjanClasses,
  roots: ArrayLike<number>,
  within: Inside,
  scratch: TarjanScratch,
): PackedComponents {
  if (walk.lists !== undefined) return listedComponents(walk, walk.lists, fair, roots, within, scratch);
  const inside = insideTest(within);
  const { index, low, onStack, taken } = scratch;
  const stack = new IntList(1024);
  const frameState = new IntList(1024);
  const frameCursor = new IntList(1024);
  const frameEnd = new IntList(1024);
  const edges = new IntList(1024);
  const components = new PackedComponents();
  let counter = 0;
  // The state being expanded: its self-loops lie inside its own component, whatever Tarjan finds later.
  let opening = -1;
  // One emitter for every expansion: no closure per state.
  const keep = (event: number, target: number) => {
    if (target === opening) {
      // Most edges of a state are self-loops: their classes are taken at once, never pushed to `edges`.
      taken[target] |= fair.eventMask(event);
      return;
    }
    if (target < 0 || !inside(target)) return;
    edges.push(target);
    edges.push(event);
  };
  const open = (s: number) => {
    if ((counter & clockEvery) === 0) heedDeadline(scratch.deadline);
    index[s] = low[s] = counter++;
    scratch.touched.push(s);
    if (fair.selfMask !== undefined) taken[s] |= fair.selfMask(s);
    stack.push(s);
    onStack[s] = 1;
    const start = edges.length;
    opening = s;
    walk.successors(s, keep);
    opening = -1;
    frameState.push(s);
    frameCursor.push(start);
    frameEnd.push(edges.length);
  };
  for (let r = 0; r < roots.length; r++) {
    const root = roots[r];
    if (index[root] !== -1 || !inside(root)) continue;
    open(root);
    while (frameState.length > 0) {
      const top = frameState.length - 1;
      const v = frameState.data[top];
      const k = frameCursor.data[top];
      if (k < frameEnd.data[top]) {
        frameCursor.data[top] = k + 2;
        const w = edges.data[k];
        if (index[w] === -1) open(w);
        else if (onStack[w] === 1) {
          if (index[w] < low[v]) low[v] = index[w];
          taken[v] |= fair.eventMask(edges.data[k + 1]);
        }
        continue;
      }
      frameState.length--;
      frameCursor.length--;
      frameEnd.length--;
      if (low[v] === index[v]) closeComponent(v, stack, onStack, taken, components);
      if (frameState.length > 0) {
        const parent = frameState.data[frameState.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
        // The tree edge to v lies inside the parent's component when v is still on Tarjan's stack.
        if (onStack[v] === 1)
          taken[parent] |= fair.eventMask(edges.data[frameCursor.data[frameState.length - 1] - 1]);
      }
      edges.length = frameState.length > 0 ? frameEnd.data[frameState.length - 1] : 0;
    }
  }
  scratch.reset();
  return components;
}

/** Pops `v`'s component off Tarjan's stack into `components`, with the classes its edges took. */
function closeComponent(
  v: number,
  stack: IntList,
  onStack: Uint8Array,
  taken: Int32Array,
  components: PackedComponents,
): void {
  let size = 0;
  while (stack.data[stack.length - 1 - size] !== v) size++;
  size++;
  let componentTaken = 0;
  for (let i = stack.length - size; i < stack.length; i++) {
    const s = stack.data[i];
    components.states.push(s);
    onStack[s] = 0;
    componentTaken |= taken[s];
  }
  stack.length -= size;
  components.ends.push(components.states.length);
  components.taken.push(componentTaken);
}

/**
 * `tarjanComponents` on moves kept in lists: the same walk, each kept move read where it lies (a state not
 * listed is expanded, its moves kept on an edge stack, target and event apart), and whether a move stays inside
 * asked as it is reached, of the same fixed set: so the same components in the same order, with the same
 * classes.
 */
function listedComponents<E>(
  walk: SuccessorWalk<E>,
  lists: MoveLists,
  fair: TarjanClasses,
  roots: ArrayLike<number>,
  within: Inside,
  scratch: TarjanScratch,
): PackedComponents {
  // A set of bits is read in place: a move's test is a load, not a call.
  const bitsIn = typeof within === 'function' ? undefined : within;
  const inside = insideTest(within);
  const { index, low, onStack, taken } = scratch;
  const stack = new IntList(1024);
  const frameState = new IntList(1024);
  // A frame's next move: in the lists from 0 up, on the edge stack at -1 - position down.
  const frameCursor = new IntList(1024);
  const frameEnd = new IntList(1024);
  // The edge stack's length when a frame was opened: its moves, if it expanded its state, lie above.
  const frameBase = new IntList(1024);
  // The moves of the states the walk expands itself, target and event apart: any state found may be a
  // target, and past the lists' states it would not fit in a word beside its event.
  const edgeTargets = new IntList(1024);
  const edgeEvents = new IntList(1024);
  const components = new PackedComponents();
  const bits = lists.eventBits;
  const mask = 2 ** bits - 1;
  let counter = 0;
  const keep = (event: number, target: number) => {
    if (target < 0) return;
    edgeTargets.push(target);
    edgeEvents.push(event);
  };
  const open = (s: number) => {
    if ((counter & clockEvery) === 0) heedDeadline(scratch.deadline);
    index[s] = low[s] = counter++;
    scratch.touched.push(s);
    if (fair.selfMask !== undefined) taken[s] |= fair.selfMask(s);
    stack.push(s);
    onStack[s] = 1;
    frameState.push(s);
    frameBase.push(edgeTargets.length);
    if (lists.listed(s)) {
      frameCursor.push(lists.first(s));
      frameEnd.push(lists.first(s + 1));
    } else {
      frameCursor.push(-1 - edgeTargets.length);
      walk.successors(s, keep);
      frameEnd.push(-1 - edgeTargets.length);
    }
  };
  // Move k of a frame (a cursor as `frameCursor` holds it): its event, in the lists from 0 up, on the edge stack at -1 - position down.
  const eventAt = (k: number) => (k >= 0 ? lists.word(k) & mask : edgeEvents.data[-1 - k]);
  for (let r = 0; r < roots.length; r++) {
    const root = roots[r];
    if (index[root] !== -1 || !inside(root)) continue;
    open(root);
    while (frameState.length > 0) {
      const top = frameState.length - 1;
      const v = frameState.data[top];
      const end = frameEnd.data[top];
      const step = end >= 0 ? 1 : -1;
      let k = frameCursor.data[top];
      let child = -1;
      while (k !== end) {
        const at = k;
        k += step;
        const w = at >= 0 ? lists.word(at) >>> bits : edgeTargets.data[-1 - at];
        if (bitsIn !== undefined ? ((bitsIn[w >>> 5] >>> (w & 31)) & 1) === 0 : !inside(w)) continue;
        if (index[w] === -1) {
          child = w;
          break;
        }
        // A self-loop, or an edge back to a state still on Tarjan's stack: inside v's component.
        if (onStack[w] === 1) {
          if (index[w] < low[v]) low[v] = index[w];
          taken[v] |= fair.eventMask(eventAt(at));
        }
      }
      frameCursor.data[top] = k;
      if (child !== -1) {
        open(child);
        continue;
      }
      frameState.length--;
      frameCursor.length--;
      frameEnd.length--;
      frameBase.length--;
      edgeTargets.length = edgeEvents.length = frameBase.data[frameBase.length];
      if (low[v] === index[v]) closeComponent(v, stack, onStack, taken, components);
      if (frameState.length > 0) {
        const parentTop = frameState.length - 1;
        const parent = frameState.data[parentTop];
        if (low[v] < low[parent]) low[parent] = low[v];
        // The tree edge to v (the parent's last move read) lies inside the parent's component when v is still on the stack.
        const cursor = frameCursor.data[parentTop];
        if (onStack[v] === 1) taken[parent] |= fair.eventMask(eventAt(cursor >= 0 ? cursor - 1 : cursor + 1));
      }
    }
  }
  scratch.reset();
  return components;
}
