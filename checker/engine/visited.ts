/**
 * The generic explorer's visited set: keys and states in fixed-size chunks, an open-addressing table of
 * indices in one Int32Array. Unlike a `Map` (capped at 2^24 entries, and doubling its in-heap backing
 * store in one step), every growth here is either one chunk or one table whose size is known before it
 * is allocated, so the memory guard can refuse it in advance.
 */

/** Entries per chunk of keys and states: small enough that adding one never spikes the heap. */
export const chunkSize = 1 << 14;
const initialSlots = 1 << 12;
/** Largest table: 2^30 slots of 4 bytes (4 GiB), so at most 2^29 states at load factor one half. */
const maxSlots = 2 ** 30;

/** FNV-1a over UTF-16 code units with a final avalanche; stable across runs, so searches stay deterministic. */
export function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash | 0;
}

export class VisitedTable<S> {
  private keyChunks: string[][] = [];
  private stateChunks: S[][] = [];
  private hashes = new Int32Array(initialSlots >>> 1);
  /** index + 1 of the state in each slot; 0 marks an empty slot. */
  private slots = new Int32Array(initialSlots);
  private mask = initialSlots - 1;
  size = 0;

  /** Index of a key, or -1. */
  indexOf(key: string, hash = hashKey(key)): number {
    const slots = this.slots;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = slots[slot];
      if (entry === 0) return -1;
      const index = entry - 1;
      if (this.hashes[index] === hash && this.keyAt(index) === key) return index;
    }
  }

  keyAt(index: number): string {
    return this.keyChunks[index >>> 14][index & (chunkSize - 1)];
  }

  stateAt(index: number): S {
    return this.stateChunks[index >>> 14][index & (chunkSize - 1)];
  }

  /** Bytes the next `add` would allocate at once beyond the entry itself (a grown table and hash array), or 0. */
  nextGrowthBytes(): number {
    if ((this.size + 1) * 2 <= this.slots.length) return 0;
    return this.slots.byteLength * 2 + this.hashes.byteLength * 2;
  }

  /** Adds a key known to be absent; returns its index. Throws RangeError past 2^29 states. */
  add(key: string, state: S, hash = hashKey(key)): number {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const index = this.size++;
    if ((index & (chunkSize - 1)) === 0) {
      this.keyChunks.push([]);
      this.stateChunks.push([]);
    }
    this.keyChunks[index >>> 14].push(key);
    this.stateChunks[index >>> 14].push(state);
    this.hashes[index] = hash;
    let slot = hash & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = index + 1;
    return index;
  }

  private grow(): void {
    const length = this.slots.length * 2;
    if (length > maxSlots) throw new RangeError(`visited set: more than ${maxSlots / 2} states`);
    const hashes = new Int32Array(length >>> 1);
    hashes.set(this.hashes);
    const slots = new Int32Array(length);
    const mask = length - 1;
    for (let index = 0; index < this.size; index++) {
      let slot = hashes[index] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.hashes = hashes;
    this.slots = slots;
    this.mask = mask;
  }
}

/** A chunk of lanes: 16 bits per lane while every value fits, 32 once one does not. */
type Lanes = Uint16Array | Uint32Array;

/**
 * The packed explorer's visited set: every state as `width` lanes in chunks of typed arrays (16 bits
 * per lane while every value fits, all widened to 32 bits the first time one does not) and an
 * open-addressing table of indices (load at most one half). No string, object or stored hash per state:
 * a doubling rehashes from the lanes themselves. The chunks are also the BFS queue.
 */
export class PackedVisitedTable {
  private chunks: Lanes[] = [];
  private slots = new Int32Array(initialSlots);
  private mask = initialSlots - 1;
  size = 0;

  constructor(
    readonly width: number,
    private readonly hash: (lanes: Lanes | Uint32Array, offset: number, width: number) => number,
  ) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`packed visited set: width ${width}`);
  }

  /** Bytes held by the table's typed arrays. */
  get bytes(): number {
    return this.chunks.reduce((sum, c) => sum + c.byteLength, 0) + this.slots.byteLength;
  }

  /** The chunk holding state `index`; its lanes start at `offsetOf(index)`. */
  chunkOf(index: number): Lanes {
    return this.chunks[index >>> 14];
  }

  offsetOf(index: number): number {
    return (index & (chunkSize - 1)) * this.width;
  }

  /** Index of the state whose lanes are `probe[0 .. width)` and whose hash is `hash`, or -1. */
  indexOf(probe: Uint32Array, hash: number): number {
    const { slots, width, mask, chunks } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot];
      if (entry === 0) return -1;
      const index = entry - 1;
      const lanes = chunks[index >>> 14];
      const base = (index & (chunkSize - 1)) * width;
      let k = 0;
      while (k < width && lanes[base + k] === probe[k]) k++;
      if (k === width) return index;
    }
  }

  /** Bytes the next `add` would allocate at once (a grown table or a new chunk), or 0. */
  nextGrowthBytes(): number {
    const table = (this.size + 1) * 2 > this.slots.length ? this.slots.byteLength * 2 : 0;
    const chunk = (this.size & (chunkSize - 1)) === 0 ? chunkSize * this.width * 4 : 0;
    return table + chunk;
  }

  /** Adds a state known to be absent; returns its index. Throws RangeError past 2^29 states. */
  add(probe: Uint32Array, hash: number): number {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const width = this.width;
    const index = this.size++;
    if ((index & (chunkSize - 1)) === 0) {
      const narrow = this.chunks.length === 0 || this.chunks[0] instanceof Uint16Array;
      this.chunks.push(narrow ? new Uint16Array(chunkSize * width) : new Uint32Array(chunkSize * width));
    }
    let lanes = this.chunks[index >>> 14];
    if (lanes instanceof Uint16Array) {
      for (let k = 0; k < width; k++)
        if (probe[k] > 0xffff) {
          this.widen();
          lanes = this.chunks[index >>> 14];
          break;
        }
    }
    const base = (index & (chunkSize - 1)) * width;
    for (let k = 0; k < width; k++) lanes[base + k] = probe[k];
    let slot = hash & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = index + 1;
    return index;
  }

  /** Gives back the unfilled tail of the last chunk; only once the search adds nothing more. */
  trim(): void {
    const last = this.chunks.length - 1;
    const used = (this.size - last * chunkSize) * this.width;
    if (last >= 0 && used < this.chunks[last].length) this.chunks[last] = this.chunks[last].slice(0, used);
  }

  /** A lane outgrew 16 bits: every chunk becomes 32 bits per lane (values, and so hashes, are unchanged). */
  private widen(): void {
    this.chunks = this.chunks.map((c) => (c instanceof Uint32Array ? c : Uint32Array.from(c)));
  }

  private grow(): void {
    const length = this.slots.length * 2;
    if (length > maxSlots) throw new RangeError(`visited set: more than ${maxSlots / 2} states`);
    const slots = new Int32Array(length);
    const mask = length - 1;
    const width = this.width;
    for (let index = 0; index < this.size; index++) {
      let slot = this.hash(this.chunks[index >>> 14], (index & (chunkSize - 1)) * width, width) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
