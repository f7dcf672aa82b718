import type { SystemEvent, SystemState } from '../machines/system.ts';
import type { CompiledSystem, LaneSink } from './compiled.ts';
import { hashLanes } from './encoding.ts';
import {
  type ExploreOptions,
  type ExploreResult,
  SearchClock,
  searchEnd,
  sliceMs,
  type Trace,
} from './explore.ts';
import type { StopReason } from './model.ts';
import { IntChunks, pathTo } from './state-store.ts';
import { PackedVisitedTable } from './visited.ts';

/** States expanded between two looks at the clock of an async slice (as the generic explorer). */
const sliceCheckEvery = 16;

/**
 * Breadth-first search of the compiled system model (checker/compiled.ts): states stay lanes in the
 * packed visited set, each successor is written into one scratch buffer, hashed and probed; no object
 * per edge. Same states, discovery order, depths and traces as `explore(model, { codec })`.
 * `onState` decodes each new state once; `onEdge` decodes the states of every edge, so it costs what
 * the generic path costs. Symmetry reduction is not supported here (use `explore`).
 */
export function exploreCompiled(
  compiled: CompiledSystem,
  options: CompiledOptions = {},
): ExploreResult<SystemState, SystemEvent> {
  const search = compiledSearch(compiled, options);
  search.run(Number.POSITIVE_INFINITY);
  return search.result();
}

/** `exploreCompiled`, yielding to the event loop every `sliceMs`, so signal handlers can abort it. */
export async function exploreCompiledAsync(
  compiled: CompiledSystem,
  options: CompiledOptions = {},
): Promise<ExploreResult<SystemState, SystemEvent>> {
  const search = compiledSearch(compiled, options);
  while (!search.run(performance.now() + sliceMs)) await new Promise((resolve) => setImmediate(resolve));
  return search.result();
}

/** The explorer's options, and a hook called before each state is expanded (a graph recorder's). */
export interface CompiledOptions extends ExploreOptions<SystemState, SystemEvent> {
  onExpand?: () => void;
}

function compiledSearch(compiled: CompiledSystem, options: CompiledOptions) {
  if (options.canonical !== undefined)
    throw new Error('exploreCompiled: symmetry reduction needs the generic explorer (explore)');
  const { codec, width, events } = compiled;
  const clock = new SearchClock(options);
  const maxStates = options.maxStates ?? Number.POSITIVE_INFINITY;
  const { onState, onEdge, signal, onExpand } = options;
  const visited = new PackedVisitedTable(width, hashLanes);
  const parents = new IntChunks();
  const stateEvents = new IntChunks();
  const layerStarts: number[] = [];
  const current = new Uint32Array(width);
  const next = new Uint32Array(width);
  let transitions = 0;
  let stopReason: StopReason | undefined;
  let currentIndex = -1;
  let childDepth = 0;
  let before: SystemState | undefined;
  const callbacks = onEdge !== undefined || onState !== undefined;

  /** Adds the lanes in `lanes` (absent, with this hash), or -1 with a stop reason when a limit forbids it. */
  const add = (lanes: Uint32Array, hash: number, parent: number, event: number, depth: number): number => {
    const index = visited.size;
    if (index >= maxStates) {
      stopReason = 'max-states';
      return -1;
    }
    const growth = visited.nextGrowthBytes();
    if (
      (growth > 0 && clock.wouldExceed(growth + parents.nextGrowthBytes() * 2)) ||
      (parents.nextGrowthBytes() > 0 && clock.memoryExceeded(index))
    ) {
      stopReason = 'memory';
      return -1;
    }
    visited.add(lanes, hash);
    parents.push(parent);
    stateEvents.push(event);
    if (depth === layerStarts.length) layerStarts.push(index);
    return index;
  };

  /** One edge from the current state to `lanes` (the current state itself when `self`). */
  const arrive = (event: number, lanes: Uint32Array, self: boolean): void => {
    let index = currentIndex;
    let isNew = false;
    if (!self) {
      const hash = hashLanes(lanes, 0, width);
      index = visited.indexOf(lanes, hash);
      if (index < 0) {
        index = add(lanes, hash, currentIndex, event, childDepth);
        if (index < 0) return;
        isNew = true;
      }
    }
    if (!callbacks) return;
    before ??= codec.decode(current, 0);
    const after = self ? before : codec.decode(lanes, 0);
    if (onEdge !== undefined) {
      if (onEdge(before, events[event], after, currentIndex, index, isNew) === false) {
        stopReason = 'stopped';
        return;
      }
    }
    if (isNew && onState !== undefined && onState(after, index, childDepth) === false) stopReason = 'stopped';
  };

  const sink: LaneSink = {
    eachSelfLoop: callbacks,
    selfLoops(count) {
      if (stopReason === undefined) transitions += count;
    },
    self(event) {
      if (stopReason !== undefined) return;
      transitions++;
      if (callbacks) arrive(event, current, true);
    },
    change(event, lane, value) {
      if (stopReason !== undefined) return;
      transitions++;
      if (value === current[lane]) {
        arrive(event, current, true);
        return;
      }
      next.set(current);
      next[lane] = value;
      arrive(event, next, false);
    },
    whole(event, lanes) {
      if (stopReason !== undefined) return;
      transitions++;
      let same = true;
      for (let k = 0; k < width && same; k++) same = lanes[k] === current[k];
      arrive(event, lanes, same);
    },
  };

  for (const initial of compiled.model.initialStates()) {
    codec.encode(initial, next, 0);
    const hash = hashLanes(next, 0, width);
    if (visited.indexOf(next, hash) >= 0) continue;
    const index = add(next, hash, -1, -1, 0);
    if (index < 0) break;
    if (onState !== undefined && onState(codec.decode(next, 0), index, 0) === false) {
      stopReason = 'stopped';
      break;
    }
  }

  let cursor = 0;
  let currentLayer = 0;
  let durationMs: number | undefined;

  const run = (until: number): boolean => {
    while (stopReason === undefined && cursor < visited.size) {
      stopReason = clock.every(cursor, signal, visited.size, transitions, layerStarts.length - 1);
      if (stopReason !== undefined) break;
      if (
        (cursor & (sliceCheckEvery - 1)) === 0 &&
        until !== Number.POSITIVE_INFINITY &&
        performance.now() > until
      )
        return false;
      const chunk = visited.chunkOf(cursor);
      const offset = visited.offsetOf(cursor);
      for (let k = 0; k < width; k++) current[k] = chunk[offset + k];
      currentIndex = cursor;
      before = undefined;
      if (currentLayer + 1 < layerStarts.length && cursor >= layerStarts[currentLayer + 1]) currentLayer++;
      childDepth = currentLayer + 1;
      onExpand?.();
      compiled.expand(current, sink);
      cursor++;
    }
    if (durationMs === undefined) {
      durationMs = clock.finish(visited.size, visited.size - cursor, transitions, layerStarts.length - 1);
      // The search is over: the last chunks give back what they did not fill.
      visited.trim();
      parents.trim();
      stateEvents.trim();
    }
    return true;
  };

  const result = (): ExploreResult<SystemState, SystemEvent> => {
    if (durationMs === undefined) throw new Error('exploreCompiled: the search has not finished');
    const count = visited.size;
    const stateAt = (index: number) => codec.decode(visited.chunkOf(index), visited.offsetOf(index));
    const traceTo = (index: number): Trace<SystemState, SystemEvent> => {
      const path = pathTo((at) => parents.at(at), index, count);
      return {
        initial: stateAt(path[0]),
        steps: path.slice(1).map((at) => ({ event: events[stateEvents.at(at)], state: stateAt(at) })),
      };
    };
    return {
      ...searchEnd(count, transitions, layerStarts, durationMs, stopReason, traceTo),
      stateAt,
      indexOfKey: (key) => {
        const lanes = codec.lanesOfKey?.(key);
        const index = lanes === undefined ? -1 : visited.indexOf(lanes, hashLanes(lanes, 0, width));
        return index < 0 ? undefined : index;
      },
      structureBytes: visited.bytes + parents.bytes + stateEvents.bytes,
    };
  };

  return { run, result };
}
