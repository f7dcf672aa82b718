import type { SystemEvent, SystemState } from '../machines/system.ts';
import type { CompiledSystem, LaneSink } from './compiled.ts';
import { hashLanes } from './encoding.ts';
import {
  BreadthCursor,
  type ExploreOptions,
  type ExploreResult,
  SearchClock,
  searchEnd,
  sliceMs,
  Tally,
  type Trace,
} from './explore.ts';
import { IntChunks, pathTo } from './state-store.ts';
import { PackedVisitedTable } from './visited.ts';

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
  const tally = new Tally(() => visited.size, expandState);
  const current = new Uint32Array(width);
  const next = new Uint32Array(width);
  let currentIndex = -1;
  let childDepth = 0;
  let before: SystemState | undefined;
  const callbacks = onEdge !== undefined || onState !== undefined;

  /** Adds the lanes in `lanes` (absent, with this hash), or -1 with a stop reason when a limit forbids it. */
  const add = (lanes: Uint32Array, hash: number, parent: number, event: number, depth: number): number => {
    const index = visited.size;
    if (!tally.admits(index, maxStates, visited.nextGrowthBytes(), parents.nextGrowthBytes(), clock))
      return -1;
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
        tally.stopReason = 'stopped';
        return;
      }
    }
    if (isNew && onState !== undefined && onState(after, index, childDepth) === false)
      tally.stopReason = 'stopped';
  };

  const sink: LaneSink = {
    eachSelfLoop: callbacks,
    selfLoops(count) {
      if (tally.stopReason === undefined) tally.transitions += count;
    },
    self(event) {
      if (tally.stopReason !== undefined) return;
      tally.transitions++;
      if (callbacks) arrive(event, current, true);
    },
    change(event, lane, value) {
      if (tally.stopReason !== undefined) return;
      tally.transitions++;
      if (value === current[lane]) {
        arrive(event, current, true);
        return;
      }
      next.set(current);
      next[lane] = value;
      arrive(event, next, false);
    },
    whole(event, lanes) {
      if (tally.stopReason !== undefined) return;
      tally.transitions++;
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
    if (!tally.heeds(onState?.(codec.decode(next, 0), index, 0))) break;
  }

  const at = new BreadthCursor(layerStarts, clock, signal);
  // The search is over: the last chunks give back what they did not fill.
  const trim = () => {
    visited.trim();
    parents.trim();
    stateEvents.trim();
  };
  const run = (until: number): boolean => at.run(tally, until, trim);

  const result = (): ExploreResult<SystemState, SystemEvent> => {
    const { durationMs } = at;
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
      ...searchEnd(count, tally.transitions, layerStarts, durationMs, tally.stopReason, traceTo),
      stateAt,
      indexOfKey: (key) => {
        const lanes = codec.lanesOfKey?.(key);
        const index = lanes === undefined ? -1 : visited.indexOf(lanes, hashLanes(lanes, 0, width));
        return index < 0 ? undefined : index;
      },
      structureBytes: visited.bytes + parents.bytes + stateEvents.bytes,
      successors: revisit,
      events,
    };
  };

  // Liveness walks the graph again from the visited set instead of keeping its edges.
  const from = new Uint32Array(width);
  const to = new Uint32Array(width);
  let fromIndex = -1;
  let emitEdge: (event: number, target: number) => void = () => {};
  const find = (lanes: Uint32Array) => visited.indexOf(lanes, hashLanes(lanes, 0, width));
  const revisitSink: LaneSink = {
    eachSelfLoop: true,
    selfLoops() {},
    self: (event) => emitEdge(event, fromIndex),
    change(event, lane, value) {
      if (value === from[lane]) return emitEdge(event, fromIndex);
      to.set(from);
      to[lane] = value;
      emitEdge(event, find(to));
    },
    whole(event, lanes) {
      let same = true;
      for (let k = 0; k < width && same; k++) same = lanes[k] === from[k];
      emitEdge(event, same ? fromIndex : find(lanes));
    },
  };
  function revisit(index: number, emit: (event: number, target: number) => void): void {
    const chunk = visited.chunkOf(index);
    const offset = visited.offsetOf(index);
    for (let k = 0; k < width; k++) from[k] = chunk[offset + k];
    fromIndex = index;
    emitEdge = emit;
    compiled.expand(from, revisitSink);
  }

  /** Expands state `index`, whose successors are `depth` deep. */
  function expandState(index: number, depth: number): void {
    currentIndex = index;
    // The lanes are copied out: the chunk may be replaced (widened) while successors are added.
    const chunk = visited.chunkOf(index);
    const offset = visited.offsetOf(index);
    for (let k = 0; k < width; k++) current[k] = chunk[offset + k];
    before = undefined;
    childDepth = depth;
    onExpand?.();
    compiled.expand(current, sink);
  }

  return { run, result };
}
