import { getHeapStatistics } from 'node:v8';
import type { StateCodec } from './codec.ts';
import type { ExplorableModel, Progress, StopReason } from './model.ts';
import {
  type ProgressOption,
  type ProgressReporter,
  progressIntervalMs,
  resolveProgress,
} from './progress.ts';
import { IntChunks, keyedStore, packedStore, pathTo, type StateStore } from './state-store.ts';

/** A path from an initial state: each step is the event taken and the state it led to. */
export interface Trace<S, E> {
  initial: S;
  steps: { event: E; state: S }[];
}

/** What a callback returns: `false` ends the search (stopReason `stopped`); anything else goes on. */
// biome-ignore lint/suspicious/noConfusingVoidType: callbacks written as statements return void
export type Continue = boolean | undefined | void;

/** Options shared by both explorers. */
export interface SearchLimits {
  /** Stop (incomplete, `max-states`) rather than hold more distinct states than this. */
  maxStates?: number;
  /** Stop (incomplete, `memory`) once heap plus array buffers exceed this; see `defaultMemoryLimitBytes`. */
  maxHeapBytes?: number;
  /** Stop (incomplete, `time`) once the search has run this long. */
  maxSeconds?: number;
  /** Distinct states discovered between two memory checks. */
  memoryCheckEvery?: number;
  /** Live progress: a reporter, a callback (called every ~200 ms and at the end), or `true`. */
  progress?: ProgressOption;
  /**
   * Aborting it ends the search (`interrupted`) within the next 1024 states expanded. `explore` is
   * synchronous, so only a callback can abort it; `exploreAsync` yields to the event loop, so a signal
   * handler can.
   */
  signal?: AbortSignal;
}

export interface ExploreOptions<S, E> extends SearchLimits {
  /**
   * Keep states packed as integer lanes (checker/model/encoding.ts) instead of objects with string keys: same
   * states in the same order, far less memory, no key strings. Without it, states are keyed by `model.key`.
   */
  codec?: StateCodec<S>;
  /**
   * Symmetry reduction: each state is replaced by its orbit's representative before the visited test
   * (checker/model/symmetry.ts). `onState` sees the representative, `onEdge` the concrete successor.
   */
  canonical?: (state: S) => S;
  /** Called once per distinct state, when first discovered (invariants). */
  onState?: (state: S, index: number, depth: number) => Continue;
  /** Called once per transition, self-loops and edges to known states included (step properties). */
  onEdge?: (
    before: S,
    event: E,
    after: S,
    beforeIndex: number,
    afterIndex: number,
    isNew: boolean,
  ) => Continue;
}

export interface SearchSummary {
  /** Distinct states discovered. */
  states: number;
  /** Transitions followed (edges emitted by the model). */
  transitions: number;
  /** Length of the longest shortest path from an initial state (BFS layers - 1). */
  depth: number;
  durationMs: number;
  /** True when every reachable state was discovered and expanded. */
  complete: boolean;
  stopReason?: StopReason;
  statesPerSecond: number;
}

export interface ExploreResult<S, E> extends SearchSummary {
  /** Shortest path to the state with this discovery index. */
  traceTo(index: number): Trace<S, E>;
  /** Shortest path to a violating edge: the path to its before-state plus the edge. */
  traceToEdge(beforeIndex: number, event: E, after: S): Trace<S, E>;
  stateAt(index: number): S;
  /** BFS layer of a state: the length of its shortest path. */
  depthOf(index: number): number;
  indexOfKey(key: string): number | undefined;
  /** Bytes of the packed store's typed arrays, parents and event ids (packed states only). */
  structureBytes?: number;
  /**
   * The compiled search only: recomputes the successors of state `index` in the order the search saw
   * them, each as an event id (into `events`) and the target's index (-1 when the search never added it);
   * under symmetry also the group element that took the successor to the representative stored (0: none).
   */
  successors?: (index: number, emit: (event: number, target: number, element: number) => void) => void;
  /** The events `successors` names by id (it may add some). */
  events?: readonly E[];
}

/**
 * Heap V8 lets live objects fill before it aborts: the old generation `--max-old-space-size` sets, which
 * is `heap_size_limit` less the young generation's reserve (48 MiB on 64-bit Node 20 to 24).
 */
const youngGenerationBytes = 48 * 1024 * 1024;
const usableHeapBytes = () => getHeapStatistics().heap_size_limit - youngGenerationBytes;
const mebibyte = 1024 * 1024;

/**
 * The memory guard's default: 75% of the usable heap, and at least 32 MiB below it, so a search stopped
 * by the guard still has room to build and write its partial report, and stops before V8 spends its
 * time in back-to-back collections near the limit.
 */
export function defaultMemoryLimitBytes(usable = usableHeapBytes()): number {
  return Math.floor(Math.max(usable * 0.5, Math.min(usable * 0.75, usable - 32 * mebibyte)));
}

/** Memory a search can grow: JavaScript heap plus typed-array buffers (which live outside it). */
export function searchMemoryBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Index of the BFS layer holding `index`, given the first index of every layer. */
export function layerOf(layerStarts: readonly number[], index: number): number {
  let low = 0;
  let high = layerStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (layerStarts[middle] <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Progress throttling and memory checks shared by both explorers, off the per-edge path. */
export class SearchClock {
  readonly started = performance.now();
  private readonly reporter: ProgressReporter | null;
  private readonly memoryLimit: number;
  private readonly memoryCheckEvery: number;
  private nextMemoryCheckAt: number;
  private nextMemoryCheckTime = 0;
  private nextReportAt: number;
  private readonly deadline: number;

  constructor(limits: SearchLimits) {
    this.reporter = resolveProgress(limits.progress);
    this.memoryLimit = limits.maxHeapBytes ?? defaultMemoryLimitBytes();
    this.deadline =
      limits.maxSeconds === undefined ? Number.POSITIVE_INFINITY : this.started + limits.maxSeconds * 1000;
    this.memoryCheckEvery = Math.max(1, limits.memoryCheckEvery ?? 4096);
    this.nextMemoryCheckAt = 0;
    this.nextReportAt = this.started + progressIntervalMs;
  }

  /**
   * True when memory in use exceeds the limit. Measured every `memoryCheckEvery` states, but at most
   * once per 10 ms: a fast search would otherwise spend a noticeable share of its time measuring.
   */
  memoryExceeded(states: number): boolean {
    if (states < this.nextMemoryCheckAt) return false;
    const now = performance.now();
    if (now < this.nextMemoryCheckTime) return false;
    this.nextMemoryCheckAt = states + this.memoryCheckEvery;
    this.nextMemoryCheckTime = now + 10;
    return searchMemoryBytes() > this.memoryLimit;
  }

  /** True when allocating `bytes` more at once would pass the limit: asked before each table growth. */
  wouldExceed(bytes: number): boolean {
    return searchMemoryBytes() + bytes > this.memoryLimit;
  }

  /** Why the search must stop now (signal, time or memory), or undefined; called every `housekeepingEvery` states. */
  housekeeping(signal: AbortSignal | undefined, states: number): StopReason | undefined {
    if (signal?.aborted) return 'interrupted';
    if (performance.now() > this.deadline) return 'time';
    if (this.memoryExceeded(states)) return 'memory';
    return undefined;
  }

  /**
   * Every `housekeepingEvery` expansions (`expanded` is the count so far): why the search must stop, or
   * undefined after reporting progress. Cheap between those points.
   */
  every(
    expanded: number,
    signal: AbortSignal | undefined,
    states: number,
    transitions: number,
    depth: number,
  ): StopReason | undefined {
    if ((expanded & (housekeepingEvery - 1)) !== 0) return undefined;
    const reason = this.housekeeping(signal, states);
    if (reason === undefined) this.tick(states, states - expanded, transitions, depth);
    return reason;
  }

  /** Reports progress when the interval has passed; cheap enough to call per expanded state batch. */
  tick(states: number, queue: number, transitions: number, depth: number): void {
    if (this.reporter === null) return;
    const now = performance.now();
    if (now < this.nextReportAt) return;
    this.nextReportAt = now + progressIntervalMs;
    this.reporter.update(this.progress(now, states, queue, transitions, depth));
  }

  finish(states: number, queue: number, transitions: number, depth: number): SearchSummary['durationMs'] {
    const now = performance.now();
    this.reporter?.finish(this.progress(now, states, queue, transitions, depth));
    return now - this.started;
  }

  private progress(now: number, states: number, queue: number, transitions: number, depth: number): Progress {
    const elapsedMs = now - this.started;
    return {
      states,
      queue,
      transitions,
      depth,
      elapsedMs,
      statesPerSecond: elapsedMs > 0 ? (states * 1000) / elapsedMs : 0,
    };
  }
}

/** What every explorer returns besides its states: figures, traces and depths from parents and layers. */
export function searchEnd<S, E>(
  count: number,
  transitions: number,
  layerStarts: readonly number[],
  durationMs: number,
  stopReason: StopReason | undefined,
  traceTo: (index: number) => Trace<S, E>,
): SearchSummary & Pick<ExploreResult<S, E>, 'traceTo' | 'traceToEdge' | 'depthOf'> {
  return {
    states: count,
    transitions,
    depth: layerStarts.length - 1,
    durationMs,
    complete: stopReason === undefined,
    ...(stopReason === undefined ? {} : { stopReason }),
    statesPerSecond: durationMs > 0 ? (count * 1000) / durationMs : 0,
    traceTo,
    traceToEdge: (beforeIndex, event, after) => {
      const trace = traceTo(beforeIndex);
      trace.steps.push({ event, state: after });
      return trace;
    },
    depthOf: (index) => layerOf(layerStarts, index),
  };
}

/** States expanded between two looks at the clock, the abort signal and the memory guard. */
export const housekeepingEvery = 1024;

/** A search that runs in slices, so the async driver can let signal handlers run between them. */
interface Search<S, E> {
  /** Expands states until done or `until` (performance.now()) passes; true when the search is over. */
  run(until: number): boolean;
  result(): ExploreResult<S, E>;
}

/**
 * Exhaustive breadth-first search over any model with string keys. States are kept in discovery
 * order (the visited table is the queue), deduplicated before they are enqueued, with parent pointers
 * and the discovering event, so the path to any state is a shortest one.
 */
export function explore<S, E>(
  model: ExplorableModel<S, E>,
  options: ExploreOptions<S, E> = {},
): ExploreResult<S, E> {
  const search = createSearch(model, options);
  search.run(Number.POSITIVE_INFINITY);
  return search.result();
}

/**
 * Milliseconds the async search runs before it lets the event loop (signal handlers, timers) in: tsx
 * kills a child that does not acknowledge a relayed SIGINT within 30 ms.
 */
export const sliceMs = 10;
/** States expanded between two looks at the clock of an async slice. */
const sliceCheckEvery = 16;

/** A search's running figures, shared by the explorer and the loop that drives it (`BreadthCursor`). */
export class Tally {
  transitions = 0;
  stopReason: StopReason | undefined;

  constructor(
    /** Distinct states so far. */
    readonly states: () => number,
    /** Expands the state with this index; its successors are `childDepth` deep. */
    readonly expand: (index: number, childDepth: number) => void,
  ) {}

  /**
   * Whether state `index` may be added: not past `maxStates`, and no growth (`growth` bytes of the
   * visited set, `parentGrowth` of each per-state list) the memory guard refuses; else the stop reason is set.
   */
  admits(
    index: number,
    maxStates: number,
    growth: number,
    parentGrowth: number,
    clock: SearchClock,
  ): boolean {
    if (index >= maxStates) this.stopReason = 'max-states';
    // Every allocation bigger than one chunk is announced here and refused when it would not fit.
    else if (
      (growth > 0 && clock.wouldExceed(growth + parentGrowth * 2)) ||
      (parentGrowth > 0 && clock.memoryExceeded(index))
    )
      this.stopReason = 'memory';
    return this.stopReason === undefined;
  }

  /** A callback's answer: `false` stops the search (`stopped`); true while the search goes on. */
  heeds(answer: Continue): boolean {
    if (answer === false) this.stopReason = 'stopped';
    return this.stopReason === undefined;
  }
}

/** Where a breadth-first search stands: the next state to expand, and the layer it is in. */
export class BreadthCursor {
  index = 0;
  /** Set once the search is over. */
  durationMs: number | undefined;
  private layer = 0;

  constructor(
    private readonly layerStarts: readonly number[],
    private readonly clock: SearchClock,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /**
   * Expands states in discovery order until the search stops (true) or the async slice ending at
   * `until` (performance.now()) is spent (false); housekeeping every `housekeepingEvery` states.
   */
  drive(search: Tally, until: number): boolean {
    const starts = this.layerStarts;
    while (search.stopReason === undefined && this.index < search.states()) {
      const depth = starts.length - 1;
      const states = search.states();
      search.stopReason = this.clock.every(this.index, this.signal, states, search.transitions, depth);
      if (search.stopReason !== undefined) break;
      if (
        (this.index & (sliceCheckEvery - 1)) === 0 &&
        until !== Number.POSITIVE_INFINITY &&
        performance.now() > until
      )
        return false;
      if (this.layer + 1 < starts.length && this.index >= starts[this.layer + 1]) this.layer++;
      search.expand(this.index, this.layer + 1);
      this.index++;
    }
    return true;
  }

  /** `drive`; once the search is over, its duration is taken (and `finished` called) once. */
  run(search: Tally, until: number, finished?: () => void): boolean {
    if (!this.drive(search, until)) return false;
    if (this.durationMs === undefined) {
      const states = search.states();
      const depth = this.layerStarts.length - 1;
      this.durationMs = this.clock.finish(states, states - this.index, search.transitions, depth);
      finished?.();
    }
    return true;
  }
}

/** `explore`, yielding to the event loop every `sliceMs`, so SIGINT/SIGTERM handlers can abort `signal`. */
export async function exploreAsync<S, E>(
  model: ExplorableModel<S, E>,
  options: ExploreOptions<S, E> = {},
): Promise<ExploreResult<S, E>> {
  const search = createSearch(model, options);
  while (!search.run(performance.now() + sliceMs)) await new Promise((resolve) => setImmediate(resolve));
  return search.result();
}

function createSearch<S, E>(model: ExplorableModel<S, E>, options: ExploreOptions<S, E>): Search<S, E> {
  const clock = new SearchClock(options);
  const maxStates = options.maxStates ?? Number.POSITIVE_INFINITY;
  const { onState, onEdge, signal } = options;
  const packed = options.codec ? packedStore(options.codec) : undefined;
  const visited: StateStore<S> = packed ?? keyedStore(model);
  // Symmetry: the store keeps one representative per orbit, which `onState` sees; `onEdge` sees the concrete step.
  const canonical = options.canonical ?? model.canonical;
  const events: E[] = [];
  const eventIds = new Map<E, number>();
  const stateEvents = new IntChunks();
  const parents = new IntChunks();
  const layerStarts: number[] = [];
  const tally = new Tally(
    () => visited.size,
    (index, depth) => {
      currentIndex = index;
      current = visited.stateAt(index);
      childDepth = depth;
      model.successors(current, emit);
    },
  );

  // The state being expanded, read by the one `emit` closure (no allocation per edge).
  let current: S;
  let currentIndex = -1;
  let childDepth = 0;

  /** Adds the state last looked up, or returns -1 with a stop reason when a limit or the memory guard forbids it. */
  const record = (parent: number, event: E | undefined, depth: number) => {
    const index = visited.size;
    if (!tally.admits(index, maxStates, visited.nextGrowthBytes(), parents.nextGrowthBytes(), clock))
      return -1;
    visited.addFound();
    let eventId = -1;
    if (event !== undefined) {
      eventId = eventIds.get(event) ?? -1;
      if (eventId < 0) {
        eventId = events.length;
        events.push(event);
        eventIds.set(event, eventId);
      }
    }
    stateEvents.push(eventId);
    parents.push(parent);
    if (depth === layerStarts.length) layerStarts.push(index);
    return index;
  };

  const emit = (event: E, next: S): void => {
    if (tally.stopReason !== undefined) return;
    tally.transitions++;
    const stored = canonical === undefined ? next : canonical(next);
    let index = visited.find(stored);
    const isNew = index < 0;
    if (isNew) {
      index = record(currentIndex, event, childDepth);
      if (index < 0) return;
    }
    if (onEdge !== undefined && onEdge(current, event, next, currentIndex, index, isNew) === false) {
      tally.stopReason = 'stopped';
      return;
    }
    if (isNew && onState !== undefined && onState(stored, index, childDepth) === false)
      tally.stopReason = 'stopped';
  };

  for (const concrete of model.initialStates()) {
    const initial = canonical === undefined ? concrete : canonical(concrete);
    if (visited.find(initial) >= 0) continue;
    const index = record(-1, undefined, 0);
    if (index < 0) break;
    if (!tally.heeds(onState?.(initial, index, 0))) break;
  }

  const at = new BreadthCursor(layerStarts, clock, signal);
  const run = (until: number): boolean => at.run(tally, until);

  const result = (): ExploreResult<S, E> => {
    const { durationMs } = at;
    if (durationMs === undefined) throw new Error('explore: the search has not finished');
    const count = visited.size;
    const traceTo = (index: number): Trace<S, E> => {
      const path = pathTo((at) => parents.at(at), index, count);
      return {
        initial: visited.stateAt(path[0]),
        steps: path.slice(1).map((at) => ({ event: events[stateEvents.at(at)], state: visited.stateAt(at) })),
      };
    };
    return {
      ...searchEnd(count, tally.transitions, layerStarts, durationMs, tally.stopReason, traceTo),
      stateAt: (index) => visited.stateAt(index),
      indexOfKey: (key) => {
        const index = visited.indexOfKey(key);
        return index < 0 ? undefined : index;
      },
      ...(packed ? { structureBytes: packed.bytes + parents.bytes + stateEvents.bytes } : {}),
    };
  };

  return { run, result };
}
