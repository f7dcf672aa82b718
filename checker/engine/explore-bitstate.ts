import { hashLanes, type StateCodec } from './codec.ts';
import { type ExploreOptions, type ExploreResult, SearchClock, searchEnd, type Trace } from './explore.ts';
import type { ExplorableModel, StopReason } from './model.ts';
import { IntChunks, pathTo } from './state-store.ts';

/** SPIN's bitstate ("supertrace") search: a bit array stands in for the visited set. */
export interface BitstateOptions<S, E> extends Omit<ExploreOptions<S, E>, 'codec'> {
  /** States are hashed from their packed lanes. */
  codec: StateCodec<S>;
  /** log2 of the bit array's size in bits: 27 is 16 MiB (SPIN's -w27). */
  log2Bits?: number;
  /** Bits set per state (SPIN's -k, default 3). */
  hashes?: number;
  /** Hash compaction instead of the filter: a table of one 64-bit fingerprint per state (SPIN's -DHC4). */
  compact?: boolean;
}

/** What a hash-compacted search can say about the states it may have missed. */
export interface HashCompactFigures {
  /** Fingerprints stored: the states told apart. */
  stored: number;
  fingerprintBits: 64;
  tableBytes: number;
  /** Each new fingerprint meets the stored ones with chance stored / 2^64: n(n-1)/2^65 in all. */
  expectedMissed: number;
  /** 1 - e^(-expectedMissed): the chance that two reachable states shared a fingerprint. */
  missProbability: number;
}

/** Open-addressing table of 64-bit fingerprints (two 32-bit halves; 0/0 marks an empty slot). */
export class FingerprintTable {
  private high = new Int32Array(1 << 16);
  private low = new Int32Array(1 << 16);
  size = 0;

  get bytes(): number {
    return this.high.byteLength * 2;
  }

  /** Bytes the next insertion would allocate at once (a doubled table), or 0. */
  nextGrowthBytes(): number {
    return (this.size + 1) * 2 > this.high.length ? this.bytes * 2 : 0;
  }

  /** Whether the fingerprint is stored. */
  has(high: number, lowPart: number): boolean {
    const low = high === 0 && lowPart === 0 ? 1 : lowPart;
    const mask = this.high.length - 1;
    for (let slot = (low ^ Math.imul(high, 0x9e3779b1)) & mask; ; slot = (slot + 1) & mask) {
      const h = this.high[slot];
      const l = this.low[slot];
      if (h === 0 && l === 0) return false;
      if (h === high && l === low) return true;
    }
  }

  /** Stores the fingerprint; false when it was there already. */
  insert(high: number, lowPart: number): boolean {
    const low = high === 0 && lowPart === 0 ? 1 : lowPart;
    if ((this.size + 1) * 2 > this.high.length) this.grow();
    const mask = this.high.length - 1;
    for (let slot = (low ^ Math.imul(high, 0x9e3779b1)) & mask; ; slot = (slot + 1) & mask) {
      const h = this.high[slot];
      const l = this.low[slot];
      if (h === 0 && l === 0) {
        this.high[slot] = high;
        this.low[slot] = low;
        this.size++;
        return true;
      }
      if (h === high && l === low) return false;
    }
  }

  private grow(): void {
    const { high, low } = this;
    this.high = new Int32Array(high.length * 2);
    this.low = new Int32Array(high.length * 2);
    this.size = 0;
    for (let i = 0; i < high.length; i++) if (high[i] !== 0 || low[i] !== 0) this.insert(high[i], low[i]);
  }
}

/** What a bitstate search can say about the states it may have missed. */
export interface BitstateFigures {
  bits: number;
  hashes: number;
  bitsSet: number;
  /** Bits per state stored: SPIN's "hash factor"; above ~100 the search is close to exhaustive. */
  hashFactor: number;
  /** Sum over every stored state of the chance that a new state was taken for it: expected states missed. */
  expectedMissed: number;
  /** Estimated probability that at least one reachable state was missed: 1 - e^(-expectedMissed). */
  missProbability: number;
}

export interface BitstateResult<S, E> extends ExploreResult<S, E> {
  bitstate: BitstateFigures;
}

export interface HashCompactResult<S, E> extends ExploreResult<S, E> {
  hashCompact: HashCompactFigures;
}

export const defaultLog2Bits = 27;
export const secondSeed = 0x3c6ef372;

/**
 * Breadth-first search with a Bloom filter of `2^log2Bits` bits as its visited set (Holzmann's bitstate
 * hashing): a state whose `hashes` bits are all set already is taken as seen, so states can be missed
 * and the search is never reported complete (`stopReason: 'bitstate'`, with the estimated chance of a
 * miss). Only the BFS layer being expanded and the next one keep their lanes; every state keeps its
 * parent and its position among its parent's successors, so a trace is rebuilt by replaying the model
 * (which is why it ignores `model.canonical`: a replay must follow concrete states).
 */
export function exploreBitstate<S, E>(
  model: ExplorableModel<S, E>,
  options: BitstateOptions<S, E>,
): BitstateResult<S, E> {
  const { bitstate, ...result } = layeredSearch(model, { ...options, compact: false });
  if (bitstate === undefined) throw new Error('bitstate: the search kept no filter (internal error)');
  return { ...result, bitstate };
}

/**
 * Hash compaction (Wolper and Leroy; SPIN's -DHC4): the same layered search, but the visited set is a
 * table of one 64-bit fingerprint per state instead of its lanes or a filter. Two states with the same
 * fingerprint count as one, so the search is never reported complete (`stopReason: 'hash-compact'`),
 * with the chance that it happened.
 */
export function exploreHashCompact<S, E>(
  model: ExplorableModel<S, E>,
  options: Omit<BitstateOptions<S, E>, 'log2Bits' | 'hashes' | 'compact'>,
): HashCompactResult<S, E> {
  const { hashCompact, ...result } = layeredSearch(model, { ...options, compact: true });
  if (hashCompact === undefined) throw new Error('hash-compact: the search kept no table (internal error)');
  return { ...result, hashCompact };
}

function layeredSearch<S, E>(
  model: ExplorableModel<S, E>,
  options: BitstateOptions<S, E>,
): ExploreResult<S, E> & { bitstate?: BitstateFigures; hashCompact?: HashCompactFigures } {
  const { codec, onState, onEdge, signal } = options;
  const log2Bits = options.log2Bits ?? defaultLog2Bits;
  const hashes = options.hashes ?? 3;
  if (!Number.isInteger(log2Bits) || log2Bits < 10 || log2Bits > 35)
    throw new RangeError(`bitstate: log2Bits ${log2Bits} is not an integer in [10, 35]`);
  if (!Number.isInteger(hashes) || hashes < 1 || hashes > 8)
    throw new RangeError(`bitstate: hashes ${hashes} is not an integer in [1, 8]`);
  const clock = new SearchClock(options);
  const maxStates = options.maxStates ?? Number.POSITIVE_INFINITY;
  const compact = options.compact === true;
  const bits = compact ? 32 : 2 ** log2Bits;
  if (!compact && clock.wouldExceed(bits / 8))
    throw new RangeError(
      `bitstate: a filter of 2^${log2Bits} bits (${bits / 8 / 2 ** 20} MiB) does not fit under the memory limit; give a smaller --bitstate or more memory`,
    );
  const filter = new Uint32Array(bits / 32);
  const { width } = codec;
  const probe = new Uint32Array(width);
  const parents = new IntChunks();
  const ordinals = new IntChunks();
  const layerStarts: number[] = [];
  let frontier = new Uint32Array(1024 * width);
  let next = new Uint32Array(1024 * width);
  let nextCount = 0;
  let count = 0;
  let transitions = 0;
  let bitsSet = 0;
  let expectedMissed = 0;
  let stopReason: StopReason | undefined;

  const fingerprints = new FingerprintTable();
  /** Stores the state's fingerprint (hash compaction) or sets its bits; true when the state is new. */
  const insert = (): boolean => {
    if (compact) {
      const stored = fingerprints.size;
      const fresh = fingerprints.insert(hashLanes(probe, 0, width), hashLanes(probe, 0, width, secondSeed));
      if (fresh) expectedMissed += stored / 2 ** 64;
      return fresh;
    }
    const h1 = hashLanes(probe, 0, width) >>> 0;
    const h2 = (hashLanes(probe, 0, width, secondSeed) | 1) >>> 0;
    const fill = bitsSet / bits;
    let fresh = false;
    for (let i = 0; i < hashes; i++) {
      const bit = (h1 + i * h2) % bits;
      const word = Math.floor(bit / 32);
      const mask = 1 << (bit & 31);
      if ((filter[word] & mask) === 0) {
        filter[word] |= mask;
        bitsSet++;
        fresh = true;
      }
    }
    // A new state is lost when all its bits were already set: (fill)^k, summed over the states stored.
    if (fresh) expectedMissed += fill ** hashes;
    return fresh;
  };

  /** Appends the probe to the next layer; false (stop reason set) when a limit forbids it. */
  const enqueue = (parent: number, ordinal: number, depth: number): number => {
    if (count >= maxStates) {
      stopReason = 'max-states';
      return -1;
    }
    if ((nextCount + 1) * width > next.length) {
      if (clock.wouldExceed(next.byteLength * 2)) {
        stopReason = 'memory';
        return -1;
      }
      const grown = new Uint32Array(next.length * 2);
      grown.set(next);
      next = grown;
    }
    if (compact && fingerprints.nextGrowthBytes() > 0 && clock.wouldExceed(fingerprints.nextGrowthBytes())) {
      stopReason = 'memory';
      return -1;
    }
    if (parents.nextGrowthBytes() > 0 && clock.memoryExceeded(count)) {
      stopReason = 'memory';
      return -1;
    }
    next.set(probe, nextCount * width);
    nextCount++;
    parents.push(parent);
    ordinals.push(ordinal);
    if (depth === layerStarts.length) layerStarts.push(count);
    return count++;
  };

  let current: S;
  let currentIndex = -1;
  let childDepth = 0;
  let ordinal = 0;
  const emit = (event: E, after: S): void => {
    const position = ordinal++;
    if (stopReason !== undefined) return;
    transitions++;
    codec.encode(after, probe, 0);
    const isNew = insert();
    const index = isNew ? enqueue(currentIndex, position, childDepth) : -1;
    if (isNew && index < 0) return;
    if (onEdge !== undefined && onEdge(current, event, after, currentIndex, index, isNew) === false) {
      stopReason = 'stopped';
      return;
    }
    if (isNew && onState !== undefined && onState(after, index, childDepth) === false) stopReason = 'stopped';
  };

  const initials = model.initialStates();
  initials.forEach((initial, position) => {
    if (stopReason !== undefined) return;
    codec.encode(initial, probe, 0);
    if (!insert()) return;
    const index = enqueue(-1, position, 0);
    if (index >= 0 && onState !== undefined && onState(initial, index, 0) === false) stopReason = 'stopped';
  });

  // Expand layer by layer: the next layer becomes the frontier, and the old frontier's lanes are reused.
  let layerStart = 0;
  let expanded = 0;
  while (stopReason === undefined && nextCount > 0) {
    [frontier, next] = [next, frontier];
    const size = nextCount;
    nextCount = 0;
    childDepth = layerStarts.length;
    for (let p = 0; p < size && stopReason === undefined; p++) {
      stopReason = clock.every(expanded, signal, count, transitions, layerStarts.length - 1);
      if (stopReason !== undefined) break;
      current = codec.decode(frontier, p * width);
      currentIndex = layerStart + p;
      ordinal = 0;
      model.successors(current, emit);
      expanded++;
    }
    layerStart += size;
  }
  stopReason ??= compact ? 'hash-compact' : 'bitstate';
  const durationMs = clock.finish(count, count - expanded, transitions, layerStarts.length - 1);

  /** The path to a state, replayed through the model from its initial state by successor positions. */
  const traceTo = (index: number): Trace<S, E> => {
    const path = pathTo((at) => parents.at(at), index, count);
    const initial = initials[ordinals.at(path[0])];
    const steps: Trace<S, E>['steps'] = [];
    let state = initial;
    for (const at of path.slice(1)) {
      const wanted = ordinals.at(at);
      let seen = 0;
      let step: { event: E; state: S } | undefined;
      model.successors(state, (event, after) => {
        if (seen++ === wanted) step = { event, state: after };
      });
      if (step === undefined)
        throw new Error(`bitstate: replay lost state ${at}; the model is not deterministic`);
      steps.push(step);
      state = step.state;
    }
    return { initial, steps };
  };
  const stateAt = (index: number): S => {
    const trace = traceTo(index);
    return trace.steps.length === 0 ? trace.initial : trace.steps[trace.steps.length - 1].state;
  };

  return {
    ...searchEnd(count, transitions, layerStarts, durationMs, stopReason, traceTo),
    complete: false,
    stopReason,
    stateAt,
    indexOfKey: () => {
      throw new Error('bitstate: the search keeps no index of states by key');
    },
    ...(compact
      ? {
          hashCompact: {
            stored: fingerprints.size,
            fingerprintBits: 64 as const,
            tableBytes: fingerprints.bytes,
            expectedMissed,
            missProbability: -Math.expm1(-expectedMissed),
          },
        }
      : {
          bitstate: {
            bits,
            hashes,
            bitsSet,
            hashFactor: count > 0 ? bits / count : bits,
            expectedMissed,
            missProbability: -Math.expm1(-expectedMissed),
          },
        }),
  };
}
