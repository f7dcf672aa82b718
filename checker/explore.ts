import { getHeapStatistics } from 'node:v8';
import type { ExplorableModel, Progress, StopReason } from './model.ts';
import {
  type ProgressOption,
  type ProgressReporter,
  progressIntervalMs,
  resolveProgress,
} from './progress.ts';

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
  /** Stop (incomplete, `memory`) once heap plus array buffers exceed this; default 75% of the heap limit. */
  maxHeapBytes?: number;
  /** Distinct states discovered between two memory checks. */
  memoryCheckEvery?: number;
  /** Live progress: a reporter, a callback (called every ~200 ms and at the end), or `true`. */
  progress?: ProgressOption;
  /**
   * Aborting it ends the search (`stopped`) within the next 1024 states expanded. The search is
   * synchronous, so abort from a callback (a progress callback can enforce a time budget).
   */
  signal?: AbortSignal;
}

export interface ExploreOptions<S, E> extends SearchLimits {
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
}

/** The memory guard's default: 75% of V8's heap limit, well before an out-of-memory crash. */
export function defaultMemoryLimitBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit * 0.75);
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

  constructor(limits: SearchLimits) {
    this.reporter = resolveProgress(limits.progress);
    this.memoryLimit = limits.maxHeapBytes ?? defaultMemoryLimitBytes();
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

/** States expanded between two looks at the clock, the abort signal and the memory guard. */
export const housekeepingEvery = 1024;

/**
 * Exhaustive breadth-first search over any model with string keys. States are kept in discovery
 * order (the array is the queue), deduplicated before they are enqueued, with parent pointers and
 * the discovering event, so the path to any state is a shortest one.
 */
export function explore<S, E>(
  model: ExplorableModel<S, E>,
  options: ExploreOptions<S, E> = {},
): ExploreResult<S, E> {
  const clock = new SearchClock(options);
  const maxStates = options.maxStates ?? Number.POSITIVE_INFINITY;
  const { onState, onEdge, signal } = options;
  const states: S[] = [];
  const events: (E | undefined)[] = [];
  const indexByKey = new Map<string, number>();
  const layerStarts: number[] = [];
  let parents = new Int32Array(1024);
  let transitions = 0;
  let stopReason: StopReason | undefined;

  // The state being expanded, read by the one `emit` closure (no allocation per edge).
  let current: S;
  let currentIndex = -1;
  let childDepth = 0;

  const record = (state: S, key: string, parent: number, event: E | undefined, depth: number): number => {
    const index = states.length;
    if (index === parents.length) {
      const grown = new Int32Array(parents.length * 2);
      grown.set(parents);
      parents = grown;
    }
    indexByKey.set(key, index);
    states.push(state);
    events.push(event);
    parents[index] = parent;
    if (depth === layerStarts.length) layerStarts.push(index);
    return index;
  };

  const emit = (event: E, next: S): void => {
    if (stopReason !== undefined) return;
    transitions++;
    const key = model.key(next);
    let index = indexByKey.get(key);
    const isNew = index === undefined;
    if (index === undefined) {
      if (states.length >= maxStates) {
        stopReason = 'max-states';
        return;
      }
      index = record(next, key, currentIndex, event, childDepth);
    }
    if (onEdge !== undefined && onEdge(current, event, next, currentIndex, index, isNew) === false) {
      stopReason = 'stopped';
      return;
    }
    if (isNew && onState !== undefined && onState(next, index, childDepth) === false) stopReason = 'stopped';
  };

  for (const initial of model.initialStates()) {
    const key = model.key(initial);
    if (indexByKey.has(key)) continue;
    if (states.length >= maxStates) {
      stopReason = 'max-states';
      break;
    }
    const index = record(initial, key, -1, undefined, 0);
    if (onState !== undefined && onState(initial, index, 0) === false) {
      stopReason = 'stopped';
      break;
    }
  }

  let cursor = 0;
  let currentLayer = 0;
  while (stopReason === undefined && cursor < states.length) {
    if ((cursor & (housekeepingEvery - 1)) === 0) {
      if (signal?.aborted) {
        stopReason = 'stopped';
        break;
      }
      if (clock.memoryExceeded(states.length)) {
        stopReason = 'memory';
        break;
      }
      clock.tick(states.length, states.length - cursor, transitions, layerStarts.length - 1);
    }
    current = states[cursor];
    currentIndex = cursor;
    if (currentLayer + 1 < layerStarts.length && cursor >= layerStarts[currentLayer + 1]) currentLayer++;
    childDepth = currentLayer + 1;
    model.successors(current, emit);
    cursor++;
  }

  const depth = layerStarts.length - 1;
  const durationMs = clock.finish(states.length, states.length - cursor, transitions, depth);
  const count = states.length;

  const traceTo = (index: number): Trace<S, E> => {
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw new RangeError(`traceTo: no state with index ${index}`);
    }
    const path: number[] = [];
    for (let at = index; at !== -1; at = parents[at]) path.push(at);
    path.reverse();
    return {
      initial: states[path[0]],
      steps: path.slice(1).map((at) => ({ event: events[at] as E, state: states[at] })),
    };
  };

  return {
    states: count,
    transitions,
    depth,
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
    stateAt: (index) => states[index],
    depthOf: (index) => layerOf(layerStarts, index),
    indexOfKey: (key) => indexByKey.get(key),
  };
}
