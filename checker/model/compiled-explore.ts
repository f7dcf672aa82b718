import type { SystemEvent, SystemState } from '../../machines/system.ts';
import { hashLanes } from '../engine/codec.ts';
import {
  BreadthCursor,
  type ExploreOptions,
  type ExploreResult,
  SearchClock,
  searchEnd,
  sliceMs,
  Tally,
  type Trace,
} from '../engine/explore.ts';
import { FingerprintTable, type HashCompactFigures, secondSeed } from '../engine/explore-bitstate.ts';
import { IntChunks, pathTo } from '../engine/state-store.ts';
import { chunkSize, PackedVisitedTable } from '../engine/visited.ts';
import type { CompiledSystem, LaneSink } from './compiled.ts';

/**
 * Breadth-first search of the compiled system model (checker/model/compiled.ts): states stay lanes in the
 * packed visited set, each successor is written into one scratch buffer, hashed and probed; no object
 * per edge. Same states, discovery order, depths and traces as `explore(model, { codec })`.
 * `onState` decodes each new state once; `onEdge` decodes the states of every edge, so it costs what
 * the generic path costs. Under symmetry (`lanesSymmetry`) each successor's lanes are canonicalized in a
 * scratch buffer and the representative is stored; the callbacks see the concrete successor.
 */
export function exploreCompiled(compiled: CompiledSystem, options: CompiledOptions = {}): CompiledResult {
  const search = compiledSearch(compiled, options);
  search.run(Number.POSITIVE_INFINITY);
  return search.result();
}

/** `exploreCompiled`, yielding to the event loop every `sliceMs`, so signal handlers can abort it. */
export async function exploreCompiledAsync(
  compiled: CompiledSystem,
  options: CompiledOptions = {},
): Promise<CompiledResult> {
  const search = compiledSearch(compiled, options);
  while (!search.run(performance.now() + sliceMs)) await new Promise((resolve) => setImmediate(resolve));
  return search.result();
}

/** The explorer's options, and a hook called before each state is expanded (a graph recorder's). */
export interface CompiledOptions extends ExploreOptions<SystemState, SystemEvent> {
  onExpand?: () => void;
  /**
   * The distinct states the search expects (a scope's golden count): the visited set is sized for them
   * at the start instead of growing and rehashing on the way. A wrong guess costs memory or growth, never
   * a state.
   */
  expectedStates?: number;
  /**
   * Hash compaction: the visited set keeps a 64-bit fingerprint per state, lanes are kept only until a
   * state is expanded, and traces are replayed by successor positions; never complete (`hash-compact`).
   */
  hashCompact?: boolean;
  /** Keep one state per orbit: the representative's lanes and how many states an orbit holds. */
  lanesSymmetry?: LanesSymmetry;
  /**
   * Sees each edge as lanes before it is decoded: the event's id in `events`, the lanes of the state
   * expanded and of its successor (the same array exactly when the edge is a self-loop), their indexes
   * (-1 for a successor hash compaction cannot name), and
   * whether the successor is new. `edgeHandled`: nothing more to do for the edge (`onEdge` is not
   * called, `onState` still is for a new state); `edgeDecoded`: call `onEdge` with the decoded states;
   * `edgeStop`: end the search.
   */
  onLaneEdge?: (
    event: number,
    from: Uint32Array,
    to: Uint32Array,
    fromIndex: number,
    toIndex: number,
    isNew: boolean,
    slot: number,
  ) => LaneEdgeVerdict;
  /**
   * Offered, before a state's successors are made, the self-loops of slot `slot`'s local actions there
   * (`LaneSink.selfBundle`: `bundle` names them, `CompiledSystem.selfLoopEvent(bundle, k)` is the k-th
   * one's event id): true takes them,
   * as `onLaneEdge` answering `edgeHandled` for each would, and they are counted as transitions but not
   * sent; false sends each to `onLaneEdge` with its slot. The lists across namespaces are offered likewise
   * when the first one's turn comes, all their table entries' self-loops at position `slot` = namespaces
   * (`CompiledSystem.bundlePositions`).
   */
  onSelfBundle?: (
    slot: number,
    bundle: number,
    count: number,
    from: Uint32Array,
    fromIndex: number,
  ) => boolean;
  /**
   * After a state's successors, when `onSelfBundle` took any: per bundle position, how many of the self-loops taken
   * were traversed (all of them, or those before the edge that stopped the search), and the bundle taken.
   */
  onSelfBundlesDone?: (traversed: Int32Array, bundles: Int32Array) => void;
}

/** Symmetry on lanes (checker/model/symmetry.ts, `StateSymmetry.canonicalLanes`). */
export interface LanesSymmetry {
  /** Writes the orbit's representative of `lanes` into `out`; returns the group element applied (0: none). */
  canonical(lanes: Uint32Array, out: Uint32Array): number;
  /** States in the orbit of `lanes`. */
  orbitSize(lanes: Uint32Array): number;
}

/** What `onLaneEdge` asks of an edge. */
export const edgeHandled = 0;
export const edgeDecoded = 1;
export const edgeStop = 2;
export type LaneEdgeVerdict = typeof edgeHandled | typeof edgeDecoded | typeof edgeStop;

/** A compiled search's result, with the fingerprint table's figures when it was hash-compacted. */
export type CompiledResult = ExploreResult<SystemState, SystemEvent> & {
  hashCompact?: HashCompactFigures;
  /** Under symmetry: the states and transitions the orbits stand for. */
  represented?: { states: number; transitions: number };
  /** The lanes of stored state `index`, copied into `out` (not after hash compaction). */
  lanesOf?: (index: number, out: Uint32Array) => void;
  /** The index of the stored state with exactly these lanes, or -1. */
  indexOfLanes?: (lanes: Uint32Array) => number;
  /**
   * As `successors`, in the same order, but without the self-loops (edges to the very lanes expanded;
   * under symmetry an edge to another member of the state's own orbit is still sent): for a walk that
   * learns a state's self-loops' classes elsewhere, so that most of its edges cost nothing.
   */
  moves?: (index: number, emit: (event: number, target: number, element: number) => void) => void;
};

/** Lanes by state index in chunks, each chunk dropped once every state in it has been expanded. */
class FrontierLanes {
  private readonly chunks: (Uint32Array | undefined)[] = [];
  size = 0;
  constructor(private readonly width: number) {}

  add(lanes: Uint32Array): void {
    const c = this.size >>> 14;
    if (this.chunks.length <= c) this.chunks.push(new Uint32Array(chunkSize * this.width));
    (this.chunks[c] as Uint32Array).set(
      lanes.subarray(0, this.width),
      (this.size & (chunkSize - 1)) * this.width,
    );
    this.size++;
  }

  chunkOf(index: number): Uint32Array {
    const chunk = this.chunks[index >>> 14];
    if (chunk === undefined) throw new Error(`hash-compact: the lanes of state ${index} were dropped`);
    return chunk;
  }

  offsetOf(index: number): number {
    return (index & (chunkSize - 1)) * this.width;
  }

  /** Drops the chunks wholly below `index`. */
  release(index: number): void {
    for (let c = (index >>> 14) - 1; c >= 0 && this.chunks[c] !== undefined; c--) this.chunks[c] = undefined;
  }

  /** Bytes the next `add` would allocate at once (a new chunk), or 0. */
  nextGrowthBytes(): number {
    return (this.size & (chunkSize - 1)) === 0 ? chunkSize * this.width * 4 : 0;
  }

  get bytes(): number {
    return this.chunks.reduce((sum, c) => sum + (c?.byteLength ?? 0), 0);
  }
}

function compiledSearch(compiled: CompiledSystem, options: CompiledOptions) {
  if (options.canonical !== undefined)
    throw new Error('exploreCompiled: symmetry reduction on lanes is `lanesSymmetry`, not `canonical`');
  const symmetry = options.lanesSymmetry;
  if (symmetry !== undefined && options.hashCompact === true)
    throw new Error('exploreCompiled: hash compaction replays concrete states; it runs without symmetry');
  const { codec, width, events } = compiled;
  const clock = new SearchClock(options);
  const maxStates = options.maxStates ?? Number.POSITIVE_INFINITY;
  const { signal } = options;
  // The judge's hooks: let go once the search is over, so that what they hold (the step memo, decoded
  // states) is not kept alive by the result's closures, which share this scope, through liveness and the reports.
  let { onState, onEdge, onExpand, onLaneEdge, onSelfBundle, onSelfBundlesDone } = options;
  const compact = options.hashCompact === true;
  const visited = new PackedVisitedTable(
    width,
    hashLanes,
    compact ? 0 : Math.min(options.expectedStates ?? 0, maxStates),
  );
  const fingerprints = new FingerprintTable();
  const frontier = new FrontierLanes(width);
  let expectedMissed = 0;
  const parents = new IntChunks();
  // Event ids (and initial states' positions) fit 16 bits in every scope so far; the chunks widen if one does not.
  const stateEvents = new IntChunks(true);
  // Hash compaction keeps no lanes: a state's position among its parent's successors rebuilds it.
  const ordinals = new IntChunks();
  let ordinal = 0;
  const stored = () => (compact ? frontier.size : visited.size);
  const layerStarts: number[] = [];
  const tally = new Tally(stored, expandState);
  const current = new Uint32Array(width);
  const next = new Uint32Array(width);
  const canon = new Uint32Array(width);
  const represented = { states: 0, transitions: 0 };
  let currentOrbit = 1;
  let currentIndex = -1;
  let childDepth = 0;
  let before: SystemState | undefined;
  const callbacks = onEdge !== undefined || onState !== undefined || onLaneEdge !== undefined;

  /** Adds the lanes in `lanes` (absent, with this hash), or -1 with a stop reason when a limit forbids it. */
  const add = (lanes: Uint32Array, hash: number, parent: number, event: number, depth: number): number => {
    const index = stored();
    const growth = compact
      ? fingerprints.nextGrowthBytes() + frontier.nextGrowthBytes()
      : visited.nextGrowthBytes();
    if (!tally.admits(index, maxStates, growth, parents.nextGrowthBytes(), clock)) return -1;
    if (compact) {
      const known = fingerprints.size;
      fingerprints.insert(hash, hashLanes(lanes, 0, width, secondSeed));
      // Each new fingerprint meets one of those stored with chance stored / 2^64.
      expectedMissed += known / 2 ** 64;
      frontier.add(lanes);
      ordinals.push(parent === -1 ? event : ordinal - 1);
    } else visited.add(lanes, hash);
    if (symmetry !== undefined) represented.states += symmetry.orbitSize(lanes);
    parents.push(parent);
    stateEvents.push(event);
    if (depth === layerStarts.length) layerStarts.push(index);
    return index;
  };

  // The self-loops of taken bundles traversed before the search stopped in the state being expanded.
  let anyTaken = false;
  const takenAtStop = new Int32Array(compiled.bundlePositions);
  // Per bundle position, the state in which the sink last took its bundle (for `recount`'s offers).
  const takenIn = new Int32Array(compiled.bundlePositions).fill(-1);
  let stoppedHere = false;
  // Successors sent (not counted in bulk) in the state being expanded, and the one the search stopped at.
  let sends = 0;
  let stopSend = 0;
  /** One edge from the current state to `lanes` (the current state itself when `self`); `slot` as `onLaneEdge`'s. */
  const arrive = (event: number, lanes: Uint32Array, self: boolean, slot = -1): void => {
    arriveEdge(event, lanes, self, slot);
    // The first stop inside a state: what was traversed before it is counted again in order (`recount`).
    if (!stoppedHere && tally.stopReason !== undefined) {
      stoppedHere = true;
      stopSend = sends;
      if (compact) takenAtStop.set(compiled.takenLoops);
    }
  };
  const arriveEdge = (event: number, lanes: Uint32Array, self: boolean, slot: number): void => {
    let index = currentIndex;
    let isNew = false;
    if (!self) {
      // Under symmetry the representative is stored and looked up; the concrete lanes go to the callbacks.
      let stored = lanes;
      if (symmetry !== undefined) {
        symmetry.canonical(lanes, canon);
        stored = canon;
      }
      const hash = hashLanes(stored, 0, width);
      // Hash compaction knows a state seen before by its fingerprint only: its index is unknown (-1).
      if (!compact) index = visited.indexOf(stored, hash);
      const known = compact ? fingerprints.has(hash, hashLanes(lanes, 0, width, secondSeed)) : index >= 0;
      if (compact && known) index = -1;
      if (!known) {
        index = add(stored, hash, currentIndex, event, childDepth);
        if (index < 0) return;
        isNew = true;
      }
    }
    if (!callbacks) return;
    let decodeEdge = onEdge !== undefined;
    if (onLaneEdge !== undefined) {
      // A self-loop's successor is handed over as the very lanes expanded, however its action sent it.
      const verdict = onLaneEdge(event, current, self ? current : lanes, currentIndex, index, isNew, slot);
      if (verdict === edgeStop) {
        tally.stopReason = 'stopped';
        return;
      }
      decodeEdge &&= verdict === edgeDecoded;
    }
    const stateNew = isNew && onState !== undefined;
    if (!decodeEdge && !stateNew) return;
    if (decodeEdge) before ??= codec.decode(current, 0);
    const after = self && before !== undefined ? before : codec.decode(lanes, 0);
    if (decodeEdge) {
      if (onEdge?.(before as SystemState, events[event], after, currentIndex, index, isNew) === false) {
        tally.stopReason = 'stopped';
        return;
      }
    }
    // The state stored is the representative: that is what `onState` sees, as in the generic explorer.
    const state = symmetry !== undefined && stateNew ? codec.decode(canon, 0) : after;
    if (stateNew && onState?.(state, index, childDepth) === false) tally.stopReason = 'stopped';
  };

  const sink: LaneSink = {
    eachSelfLoop: callbacks,
    selfLoops(count) {
      ordinal += count;
      if (tally.stopReason !== undefined) return;
      tally.transitions += count;
      represented.transitions += count * currentOrbit;
    },
    self(event, slot) {
      ordinal++;
      if (tally.stopReason !== undefined) return;
      sends++;
      tally.transitions++;
      represented.transitions += currentOrbit;
      if (callbacks) arrive(event, current, true, slot);
    },
    ...(onSelfBundle === undefined
      ? {}
      : {
          selfBundle(slot: number, bundle: number, count: number): boolean {
            if (
              tally.stopReason !== undefined ||
              onSelfBundle?.(slot, bundle, count, current, currentIndex) !== true
            )
              return false;
            anyTaken = true;
            takenIn[slot] = currentIndex;
            return true;
          },
        }),
    change(event, lane, value) {
      ordinal++;
      if (tally.stopReason !== undefined) return;
      sends++;
      tally.transitions++;
      represented.transitions += currentOrbit;
      if (value === current[lane]) {
        arrive(event, current, true);
        return;
      }
      // `next` holds the state being expanded (`expandState`): one lane set, and put back after.
      next[lane] = value;
      arrive(event, next, false);
      next[lane] = current[lane];
    },
    whole(event, lanes) {
      ordinal++;
      if (tally.stopReason !== undefined) return;
      sends++;
      tally.transitions++;
      represented.transitions += currentOrbit;
      let same = true;
      for (let k = 0; k < width && same; k++) same = lanes[k] === current[k];
      arrive(event, lanes, same);
    },
  };

  // A stop inside a state: `expand` may have sent counts of self-loops after the successor the search
  // stopped at, and not the ones before it; the state is expanded again in order to count those before.
  let recounted = 0;
  let counted = 0;
  const recountSend = () => {
    if (++recounted === stopSend) takenAtStop.set(compiled.takenLoops);
  };
  const recountSink: LaneSink = {
    eachSelfLoop: callbacks,
    selfLoops(count) {
      if (recounted < stopSend) counted += count;
    },
    ...(onSelfBundle === undefined ? {} : { selfBundle: (slot: number) => takenIn[slot] === currentIndex }),
    self: recountSend,
    change: recountSend,
    whole: recountSend,
  };
  const recount = (transitions: number, representedTransitions: number): void => {
    recounted = 0;
    counted = 0;
    compiled.expandInOrder(current, recountSink);
    tally.transitions = transitions + counted + stopSend;
    represented.transitions = representedTransitions + (counted + stopSend) * currentOrbit;
  };

  const initials = compiled.model.initialStates();
  for (const [position, initial] of initials.entries()) {
    codec.encode(initial, next, 0);
    if (symmetry !== undefined) {
      symmetry.canonical(next, canon);
      next.set(canon);
    }
    const hash = hashLanes(next, 0, width);
    const seen = compact
      ? fingerprints.has(hash, hashLanes(next, 0, width, secondSeed))
      : visited.indexOf(next, hash) >= 0;
    if (seen) continue;
    // An initial state's ordinal is its position among the initial states.
    const index = add(next, hash, -1, compact ? position : -1, 0);
    if (index < 0) break;
    if (!tally.heeds(onState?.(codec.decode(next, 0), index, 0))) break;
  }

  const at = new BreadthCursor(layerStarts, clock, signal);
  // The search is over: the last chunks give back what they did not fill.
  const trim = () => {
    if (!compact) visited.trim();
    parents.trim();
    stateEvents.trim();
  };
  const run = (until: number): boolean => at.run(tally, until, trim);

  const result = (): CompiledResult => {
    const { durationMs } = at;
    if (durationMs === undefined) throw new Error('exploreCompiled: the search has not finished');
    onState = onEdge = onExpand = onLaneEdge = onSelfBundle = onSelfBundlesDone = undefined;
    before = undefined;
    const count = stored();
    if (compact) return compactResult(count, durationMs);
    const decoded = new Uint32Array(width);
    const stateAt = (index: number) => {
      visited.lanesAt(index, decoded);
      return codec.decode(decoded, 0);
    };
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
      moves,
      events,
      lanesOf: (index, out) => visited.lanesAt(index, out),
      indexOfLanes: (lanes) => visited.indexOf(lanes, hashLanes(lanes, 0, width)),
      ...(symmetry !== undefined ? { represented: { ...represented } } : {}),
    };
  };

  /** A hash-compacted search's result: traces replayed by successor positions, never complete. */
  const compactResult = (count: number, durationMs: number): CompiledResult => {
    const lanes = new Uint32Array(width);
    let wanted = 0;
    let seen = 0;
    let found = -1;
    const replaySink: LaneSink = {
      eachSelfLoop: true,
      selfLoops() {},
      self(event) {
        if (seen++ === wanted) found = event;
      },
      change(event, lane, value) {
        if (seen++ !== wanted) return;
        found = event;
        lanes[lane] = value;
      },
      whole(event, whole) {
        if (seen++ !== wanted) return;
        found = event;
        lanes.set(whole.subarray(0, width));
      },
    };
    const traceTo = (index: number): Trace<SystemState, SystemEvent> => {
      const path = pathTo((at) => parents.at(at), index, count);
      const initial = initials[ordinals.at(path[0])];
      codec.encode(initial, lanes, 0);
      const steps: Trace<SystemState, SystemEvent>['steps'] = [];
      for (const at of path.slice(1)) {
        wanted = ordinals.at(at);
        seen = 0;
        found = -1;
        const from = Uint32Array.from(lanes);
        compiled.expand(from, replaySink);
        if (found < 0) throw new Error(`hash-compact: replay lost state ${at}`);
        steps.push({ event: events[found], state: codec.decode(lanes, 0) });
      }
      return { initial, steps };
    };
    const stateAt = (index: number): SystemState => {
      const trace = traceTo(index);
      return trace.steps.at(-1)?.state ?? trace.initial;
    };
    const stopReason = tally.stopReason ?? 'hash-compact';
    return {
      ...searchEnd(count, tally.transitions, layerStarts, durationMs, stopReason, traceTo),
      stateAt,
      indexOfKey: () => {
        throw new Error('hash-compact: the search keeps no index of states by key');
      },
      structureBytes:
        fingerprints.bytes + frontier.bytes + parents.bytes + stateEvents.bytes + ordinals.bytes,
      hashCompact: {
        stored: fingerprints.size,
        fingerprintBits: 64,
        tableBytes: fingerprints.bytes,
        expectedMissed,
        missProbability: -Math.expm1(-expectedMissed),
      },
    };
  };

  // Liveness walks the graph again from the visited set instead of keeping its edges.
  const from = new Uint32Array(width);
  const to = new Uint32Array(width);
  let fromIndex = -1;
  let emitEdge: (event: number, target: number, element: number) => void = () => {};
  const findCanon = new Uint32Array(width);
  // Under symmetry: the group element that took the last successor found to its representative.
  let applied = 0;
  const find = (lanes: Uint32Array) => {
    if (symmetry === undefined) return visited.indexOf(lanes, hashLanes(lanes, 0, width));
    applied = symmetry.canonical(lanes, findCanon);
    return visited.indexOf(findCanon, hashLanes(findCanon, 0, width));
  };
  const revisitSink: LaneSink = {
    eachSelfLoop: true,
    selfLoops() {},
    self: (event) => emitEdge(event, fromIndex, 0),
    change(event, lane, value) {
      if (value === from[lane]) return emitEdge(event, fromIndex, 0);
      // `to` holds the state walked from (`walkFrom`): one lane set, and put back after.
      to[lane] = value;
      applied = 0;
      const target = find(to);
      to[lane] = from[lane];
      emitEdge(event, target, applied);
    },
    whole(event, lanes) {
      let same = true;
      for (let k = 0; k < width && same; k++) same = lanes[k] === from[k];
      applied = 0;
      const target = same ? fromIndex : find(lanes);
      emitEdge(event, target, applied);
    },
  };
  // The same edges but the self-loops: those the tables count are never named, the others dropped here.
  const movesSink: LaneSink = {
    eachSelfLoop: false,
    selfLoops() {},
    self() {},
    change(event, lane, value) {
      if (value !== from[lane]) revisitSink.change(event, lane, value);
    },
    whole(event, lanes) {
      let same = true;
      for (let k = 0; k < width && same; k++) same = lanes[k] === from[k];
      if (!same) revisitSink.whole(event, lanes);
    },
  };
  /** Under symmetry `emit` also gets the element that took the concrete successor to its representative. */
  function revisit(index: number, emit: (event: number, target: number, element: number) => void): void {
    walkFrom(index, emit, revisitSink);
  }
  function moves(index: number, emit: (event: number, target: number, element: number) => void): void {
    walkFrom(index, emit, movesSink);
  }
  function walkFrom(
    index: number,
    emit: (event: number, target: number, element: number) => void,
    through: LaneSink,
  ): void {
    visited.lanesAt(index, from);
    to.set(from);
    fromIndex = index;
    emitEdge = emit;
    compiled.expand(from, through);
  }

  /** Expands state `index`, whose successors are `depth` deep. */
  function expandState(index: number, depth: number): void {
    currentIndex = index;
    // The lanes are copied out: the chunk may be replaced (widened) while successors are added.
    if (compact) {
      const chunk = frontier.chunkOf(index);
      const offset = frontier.offsetOf(index);
      for (let k = 0; k < width; k++) current[k] = chunk[offset + k];
      frontier.release(index);
    } else visited.lanesAt(index, current);
    next.set(current);
    ordinal = 0;
    before = undefined;
    childDepth = depth;
    if (symmetry !== undefined) currentOrbit = symmetry.orbitSize(current);
    onExpand?.();
    anyTaken = false;
    stoppedHere = false;
    sends = 0;
    const transitions = tally.transitions;
    const representedTransitions = represented.transitions;
    // Hash compaction numbers each successor by its place among the state's (`ordinal`): counts in order.
    if (compact) compiled.expandInOrder(current, sink);
    else compiled.expand(current, sink);
    if (stoppedHere && !compact) recount(transitions, representedTransitions);
    if (anyTaken) onSelfBundlesDone?.(stoppedHere ? takenAtStop : compiled.takenLoops, compiled.takenBundles);
  }

  return { run, result };
}
