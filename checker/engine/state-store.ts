import { hashLanes, type StateCodec } from './codec.ts';
import type { ExplorableModel } from './model.ts';
import { chunkSize, hashKey, PackedVisitedTable, VisitedTable } from './visited.ts';

/**
 * Where the explorer keeps its distinct states, in discovery order (which is also its queue). `find`
 * looks a state up and remembers what `addFound` needs, so a new state is keyed or packed only once.
 */
export interface StateStore<S> {
  readonly size: number;
  /** Index of the state, or -1; the state is remembered for `addFound`. */
  find(state: S): number;
  /** Adds the state last given to `find` (which returned -1); returns its index. */
  addFound(): number;
  stateAt(index: number): S;
  /** Bytes the next `addFound` would allocate at once beyond the entry itself, or 0. */
  nextGrowthBytes(): number;
  indexOfKey(key: string): number;
}

/** States kept as objects with their string keys (any model). */
export function keyedStore<S>(model: Pick<ExplorableModel<S, unknown>, 'key'>): StateStore<S> {
  const visited = new VisitedTable<S>();
  let lastKey = '';
  let lastHash = 0;
  let lastState: S | undefined;
  return {
    get size() {
      return visited.size;
    },
    find(state) {
      lastState = state;
      lastKey = model.key(state);
      lastHash = hashKey(lastKey);
      return visited.indexOf(lastKey, lastHash);
    },
    addFound: () => visited.add(lastKey, lastState as S, lastHash),
    stateAt: (index) => visited.stateAt(index),
    nextGrowthBytes: () => visited.nextGrowthBytes(),
    indexOfKey: (key) => visited.indexOf(key),
  };
}

/** States kept only as packed lanes (checker/model/encoding.ts); objects are decoded when asked for. */
export function packedStore<S>(codec: StateCodec<S>): StateStore<S> & { readonly bytes: number } {
  const { width } = codec;
  const visited = new PackedVisitedTable(width, hashLanes);
  const probe = new Uint32Array(width);
  const decoded = new Uint32Array(width);
  let lastHash = 0;
  return {
    get size() {
      return visited.size;
    },
    get bytes() {
      return visited.bytes;
    },
    find(state) {
      codec.encode(state, probe, 0);
      lastHash = hashLanes(probe, 0, width);
      return visited.indexOf(probe, lastHash);
    },
    addFound: () => visited.add(probe, lastHash),
    stateAt(index) {
      visited.lanesAt(index, decoded);
      return codec.decode(decoded, 0);
    },
    nextGrowthBytes: () => visited.nextGrowthBytes(),
    indexOfKey(key) {
      const lanes = codec.lanesOfKey?.(key);
      return lanes === undefined ? -1 : visited.indexOf(lanes, hashLanes(lanes, 0, width));
    },
  };
}

/**
 * A growable list of integers in fixed chunks: no doubling spike, no slack beyond one chunk. With
 * `narrow`, values are kept as `value + 1` in 16 bits while every value pushed lies in -1 .. 65534 (an
 * event id, or -1 for none), and every chunk is widened to 32 bits the first time one does not.
 */
export class IntChunks {
  private chunks: (Int32Array | Uint16Array)[] = [];
  private wide: boolean;
  length = 0;

  constructor(narrow = false) {
    this.wide = !narrow;
  }

  push(value: number): void {
    if (!this.wide && (value < -1 || value > 0xfffe)) this.widen();
    if ((this.length & (chunkSize - 1)) === 0)
      this.chunks.push(this.wide ? new Int32Array(chunkSize) : new Uint16Array(chunkSize));
    this.chunks[this.length >>> 14][this.length & (chunkSize - 1)] = this.wide ? value : value + 1;
    this.length++;
  }

  at(index: number): number {
    const value = this.chunks[index >>> 14][index & (chunkSize - 1)];
    return this.wide ? value : value - 1;
  }

  /** Bytes a push would allocate at once (a new chunk), or 0. */
  nextGrowthBytes(): number {
    return (this.length & (chunkSize - 1)) === 0 ? chunkSize * (this.wide ? 4 : 2) : 0;
  }

  get bytes(): number {
    return this.chunks.reduce((sum, c) => sum + c.byteLength, 0);
  }

  /** Gives back the unfilled tail of the last chunk; only once nothing more is pushed. */
  trim(): void {
    const last = this.chunks.length - 1;
    const used = this.length - last * chunkSize;
    if (last >= 0 && used < chunkSize) this.chunks[last] = this.chunks[last].slice(0, used);
  }

  private widen(): void {
    this.chunks = this.chunks.map((chunk) => {
      const wide = new Int32Array(chunk.length);
      for (let i = 0; i < chunk.length; i++) wide[i] = chunk[i] - 1;
      return wide;
    });
    this.wide = true;
  }
}

/** Elements up to which `grown` doubles an array; past them it grows by half. */
export const doublingLimit = 1 << 16;

/** The length `grown` gives an array of `length` elements so that it holds index `at`. */
export function grownLength(length: number, at: number): number {
  let grownTo = Math.max(16, length);
  while (grownTo <= at) grownTo = grownTo < doublingLimit ? grownTo * 2 : Math.ceil(grownTo * 1.5);
  return grownTo;
}

/**
 * A typed array that holds index `at`: the array itself when it does, else a copy grown up to it, new
 * entries `fill`. Small arrays double; past `doublingLimit` elements they grow by half, so a large
 * table (the step memo's codes, the compiled tables' pool) keeps at most a third of itself unfilled
 * instead of half, and the copy made while growing is 2.5 times the old array instead of 3.
 */
export function grown<T extends Int32Array | Uint32Array | Uint8Array | Float64Array>(
  array: T,
  at: number,
  fill = 0,
): T {
  if (at < array.length) return array;
  const bigger = new (array.constructor as new (length: number) => T)(grownLength(array.length, at));
  if (fill !== 0) bigger.fill(fill);
  bigger.set(array);
  return bigger;
}

/** Indices from an initial state (parent -1) to `index`, following `parentOf`. */
export function pathTo(parentOf: (index: number) => number, index: number, count: number): number[] {
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`traceTo: no state with index ${index}`);
  }
  const path: number[] = [];
  for (let at = index; at !== -1; at = parentOf(at)) path.push(at);
  return path.reverse();
}
