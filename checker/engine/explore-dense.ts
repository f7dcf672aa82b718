import {
  type Continue,
  SearchClock,
  type SearchLimits,
  type SearchSummary,
  searchEnd,
  type Trace,
} from './explore.ts';
import type { DenseModel, StopReason } from './model.ts';
import { pathTo } from './state-store.ts';

export interface DenseExploreOptions extends SearchLimits {
  /** Called once per distinct code, when first discovered (invariants). */
  onState?: (code: number, index: number, depth: number) => Continue;
  /**
   * Called once per transition. A bitset knows that a code was seen, not where: `afterIndex` is the
   * discovery index for a new state and -1 for an already known one.
   */
  onEdge?: (
    beforeCode: number,
    eventId: number,
    afterCode: number,
    beforeIndex: number,
    afterIndex: number,
    isNew: boolean,
  ) => Continue;
}

export interface DenseExploreResult extends SearchSummary {
  traceTo(index: number): Trace<number, number>;
  traceToEdge(beforeIndex: number, eventId: number, afterCode: number): Trace<number, number>;
  codeAt(index: number): number;
  depthOf(index: number): number;
  visited(code: number): boolean;
  /** Bytes held by the search's typed arrays (visited bitset, queue, parents, event ids) at the end. */
  structureBytes: number;
}

/** Largest `size` a bitset of 32-bit words indexed with `>>> 5` can address. */
export const maxDenseSize = 2 ** 32;
const maxEventId = 0xffff;
const initialCapacity = 1 << 12;

/**
 * Exhaustive breadth-first search over integer codes with typed arrays only: a visited bitset of
 * `size` bits, the codes in discovery order as the queue, parent indices and 16-bit event ids.
 */
export function exploreDense(model: DenseModel, options: DenseExploreOptions = {}): DenseExploreResult {
  const size = model.size;
  if (!Number.isInteger(size) || size < 0 || size > maxDenseSize) {
    throw new RangeError(`exploreDense: size ${size} is not an integer in [0, 2^32]; use explore() instead`);
  }
  const clock = new SearchClock(options);
  const maxStates = Math.min(options.maxStates ?? Number.POSITIVE_INFINITY, size);
  const { onState, onEdge, signal } = options;
  const wideCodes = size > 2 ** 31;
  const visited = new Uint32Array(Math.ceil(size / 32));
  let capacity = Math.max(1, Math.min(initialCapacity, size));
  let queue: Int32Array | Float64Array = wideCodes ? new Float64Array(capacity) : new Int32Array(capacity);
  let parents = new Int32Array(capacity);
  let eventIds = new Uint16Array(capacity);
  const layerStarts: number[] = [];
  let count = 0;
  let transitions = 0;
  let stopReason: StopReason | undefined;

  // The code being expanded, read by the one `emit` closure (no allocation per edge).
  let currentCode = 0;
  let currentIndex = -1;
  let childDepth = 0;

  /** Doubles every per-state array; false when the allocation fails (treated as the memory limit). */
  const grow = (): boolean => {
    const next = Math.min(capacity * 2, size);
    try {
      const grownQueue = wideCodes ? new Float64Array(next) : new Int32Array(next);
      grownQueue.set(queue);
      const grownParents = new Int32Array(next);
      grownParents.set(parents);
      const grownEvents = new Uint16Array(next);
      grownEvents.set(eventIds);
      queue = grownQueue;
      parents = grownParents;
      eventIds = grownEvents;
      capacity = next;
      return true;
    } catch (error) {
      if (error instanceof RangeError) return false;
      throw error;
    }
  };

  /** Marks and enqueues a code not seen before; returns its index, or -1 when the search must stop. */
  const record = (code: number, parent: number, eventId: number, depth: number): number => {
    if (count >= maxStates) {
      stopReason = 'max-states';
      return -1;
    }
    if (count === capacity && !grow()) {
      stopReason = 'memory';
      return -1;
    }
    visited[code >>> 5] |= 1 << (code & 31);
    queue[count] = code;
    parents[count] = parent;
    eventIds[count] = eventId;
    if (depth === layerStarts.length) layerStarts.push(count);
    return count++;
  };

  const emit = (eventId: number, next: number): void => {
    if (stopReason !== undefined) return;
    if (!(next >= 0 && next < size) || eventId > maxEventId) {
      throw new RangeError(`exploreDense: successor (${eventId}, ${next}) outside the model's ranges`);
    }
    transitions++;
    if ((visited[next >>> 5] & (1 << (next & 31))) !== 0) {
      if (onEdge !== undefined && onEdge(currentCode, eventId, next, currentIndex, -1, false) === false) {
        stopReason = 'stopped';
      }
      return;
    }
    const index = record(next, currentIndex, eventId, childDepth);
    if (index < 0) return;
    if (onEdge !== undefined && onEdge(currentCode, eventId, next, currentIndex, index, true) === false) {
      stopReason = 'stopped';
      return;
    }
    if (onState !== undefined && onState(next, index, childDepth) === false) stopReason = 'stopped';
  };

  for (const initial of model.initialStates()) {
    if (!(Number.isInteger(initial) && initial >= 0 && initial < size)) {
      throw new RangeError(`exploreDense: initial code ${initial} outside [0, ${size})`);
    }
    if ((visited[initial >>> 5] & (1 << (initial & 31))) !== 0) continue;
    const index = record(initial, -1, 0, 0);
    if (index < 0) break;
    if (onState !== undefined && onState(initial, index, 0) === false) {
      stopReason = 'stopped';
      break;
    }
  }

  let cursor = 0;
  let currentLayer = 0;
  while (stopReason === undefined && cursor < count) {
    stopReason = clock.every(cursor, signal, count, transitions, layerStarts.length - 1);
    if (stopReason !== undefined) break;
    if (currentLayer + 1 < layerStarts.length && cursor >= layerStarts[currentLayer + 1]) currentLayer++;
    currentCode = queue[cursor];
    currentIndex = cursor;
    childDepth = currentLayer + 1;
    model.successors(currentCode, emit);
    cursor++;
  }

  const depth = layerStarts.length - 1;
  const durationMs = clock.finish(count, count - cursor, transitions, depth);
  const finalQueue = queue;
  const finalParents = parents;
  const finalEvents = eventIds;

  const traceTo = (index: number): Trace<number, number> => {
    const path = pathTo((at) => finalParents[at], index, count);
    return {
      initial: finalQueue[path[0]],
      steps: path.slice(1).map((at) => ({ event: finalEvents[at], state: finalQueue[at] })),
    };
  };

  return {
    ...searchEnd(count, transitions, layerStarts, durationMs, stopReason, traceTo),
    codeAt: (index) => finalQueue[index],
    visited: (code) => code >= 0 && code < size && (visited[code >>> 5] & (1 << (code & 31))) !== 0,
    structureBytes:
      visited.byteLength + finalQueue.byteLength + finalParents.byteLength + finalEvents.byteLength,
  };
}
