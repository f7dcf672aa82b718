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

/** Bits that hold `value` (0 for 0). */
export function bitsFor(value: number): number {
  return value === 0 ? 0 : 32 - Math.clz32(value);
}

/**
 * Where each lane of a packed state sits: lane `k` takes `bits[k]` bits (as many as the largest value
 * stored in it so far needs; 0 while it has held only 0) at `shift[k]` in word `word[k]` of the state's
 * words. Lanes are laid out in order and never straddle a word, so a lane is one shift and one mask.
 */
export class LaneLayout {
  readonly word: Int32Array;
  readonly shift: Uint8Array;
  /** Largest value each lane can hold: 2^bits - 1. */
  readonly max: Uint32Array;
  /** The same as an int32 mask (-1 for a 32-bit lane), for unpacking without a conversion. */
  readonly mask: Int32Array;
  /** 32-bit words per state (at least one). */
  readonly words: number;

  constructor(readonly bits: Uint8Array) {
    const width = bits.length;
    this.word = new Int32Array(width);
    this.shift = new Uint8Array(width);
    this.max = new Uint32Array(width);
    this.mask = new Int32Array(width);
    let word = 0;
    let used = 0;
    for (let k = 0; k < width; k++) {
      const b = bits[k];
      if (b > 32) throw new RangeError(`lane layout: lane ${k} of ${b} bits`);
      if (used + b > 32) {
        word++;
        used = 0;
      }
      this.word[k] = word;
      this.shift[k] = used;
      this.max[k] = 2 ** b - 1;
      this.mask[k] = (2 ** b - 1) | 0;
      used += b;
    }
    this.words = word + 1;
  }

  /** Writes `lanes[0 .. width)` into `out[base .. base + words)`; false (out partly written) when a lane does not fit. */
  pack(lanes: Uint32Array, out: Uint32Array, base: number): boolean {
    const { word, shift, max } = this;
    // Lanes come in word order: each word is gathered in a local and written once.
    let at = 0;
    let acc = 0;
    for (let k = 0; k < word.length; k++) {
      const value = lanes[k];
      if (value > max[k]) return false;
      if (word[k] !== at) {
        out[base + at] = acc;
        at = word[k];
        acc = 0;
      }
      acc |= value << shift[k];
    }
    out[base + at] = acc;
    return true;
  }

  /** Reads the lanes packed at `packed[base ..]` into `out[offset .. offset + width)`. */
  unpack(packed: Uint32Array, base: number, out: Uint32Array, offset: number): void {
    const { word, shift, mask } = this;
    for (let k = 0; k < word.length; k++) out[offset + k] = (packed[base + word[k]] >>> shift[k]) & mask[k];
  }
}

/** Largest load of the table of indices before it grows (linear probing slows past it), and the factor it grows by. */
const maxLoad = 2 / 3;
const growthFactor = 1.5;

/** Most states a table is sized for at the start (`expected`): past it, a search's own growth decides. */
const maxPresized = 1 << 24;

/**
 * The packed explorer's visited set: every state as `width` lanes bit-packed into a few 32-bit words
 * (`LaneLayout`: each lane as wide as its largest value so far; the first value that does not fit
 * re-packs every chunk, one chunk at a time) in chunks of typed arrays, and an open-addressing table
 * of indices (load at most two thirds, grown by half, so it stays near the load instead of a power
 * of two far above it). No string, object or stored hash per state: a growth rehashes from the lanes
 * themselves. The chunks are also the BFS queue.
 *
 * A slot holds index + 1 in its low bits (as many as the table can hold states before it grows) and, in
 * the bits above, a tag from the state's hash (bits the slot's position does not use), so a probe
 * reads a stored state's words only when the tags agree: most probes that miss read no chunk at all.
 * Given the number of states a search `expected`, the table starts at load one half for them and does
 * not grow (nor rehash) unless the search finds more.
 */
export class PackedVisitedTable {
  private chunks: Uint32Array[] = [];
  private layout: LaneLayout;
  private slots: Int32Array;
  /** Low bits of a slot that hold index + 1, and their mask; the tag (hash bits) sits above them. */
  private indexBits = 0;
  private indexMask = 0;
  /** `probe` packed by the current layout, for comparing with stored states word by word. */
  private packedProbe: Uint32Array;
  private readonly scratch: Uint32Array;
  size = 0;

  constructor(
    readonly width: number,
    private readonly hash: (lanes: Uint16Array | Uint32Array, offset: number, width: number) => number,
    expected = 0,
  ) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`packed visited set: width ${width}`);
    this.layout = new LaneLayout(new Uint8Array(width));
    this.packedProbe = new Uint32Array(width);
    this.scratch = new Uint32Array(width);
    const presized = Number.isFinite(expected) ? Math.min(Math.max(0, Math.ceil(expected)), maxPresized) : 0;
    this.slots = this.emptySlots(Math.max(initialSlots, 2 * presized));
  }

  /** An empty table of `length` slots, and the split of a slot between index and tag for it. */
  private emptySlots(length: number): Int32Array {
    // The most states it holds before it grows, + 1: what the index bits must hold.
    this.indexBits = bitsFor(Math.floor(length * maxLoad) + 1);
    this.indexMask = this.indexBits >= 31 ? 0x7fffffff : (1 << this.indexBits) - 1;
    return new Int32Array(length);
  }

  /** The slot's tag bits for `hash`, in place (above the index bits). */
  private tagOf(hash: number): number {
    return this.indexBits >= 31 ? 0 : (hash << this.indexBits) & ~this.indexMask;
  }

  /** Bytes held by the table's typed arrays. */
  get bytes(): number {
    return this.chunks.reduce((sum, c) => sum + c.byteLength, 0) + this.slots.byteLength;
  }

  /** 32-bit words per stored state under the current layout. */
  get wordsPerState(): number {
    return this.layout.words;
  }

  /** Copies the lanes of state `index` into `out[offset .. offset + width)`. */
  lanesAt(index: number, out: Uint32Array, offset = 0): void {
    this.layout.unpack(this.chunks[index >>> 14], (index & (chunkSize - 1)) * this.layout.words, out, offset);
  }

  private slotOf(hash: number): number {
    return Math.floor(((hash >>> 0) / 4294967296) * this.slots.length);
  }

  /** Index of the state whose lanes are `probe[0 .. width)` and whose hash is `hash`, or -1. */
  indexOf(probe: Uint32Array, hash: number): number {
    const { layout, packedProbe, slots, chunks, indexMask } = this;
    // A lane wider than any stored so far: no stored state has it.
    if (!layout.pack(probe, packedProbe, 0)) return -1;
    const words = layout.words;
    const length = slots.length;
    const tag = this.tagOf(hash);
    for (let slot = this.slotOf(hash); ; slot = slot + 1 === length ? 0 : slot + 1) {
      const entry = slots[slot];
      if (entry === 0) return -1;
      // Another hash's tag: not this state, and its words are not read.
      if ((entry & ~indexMask) !== tag) continue;
      const index = (entry & indexMask) - 1;
      const packed = chunks[index >>> 14];
      const base = (index & (chunkSize - 1)) * words;
      let k = 0;
      while (k < words && packed[base + k] === packedProbe[k]) k++;
      if (k === words) return index;
    }
  }

  private grownLength(): number {
    return Math.floor(this.slots.length * growthFactor);
  }

  /** Bytes the next `add` would allocate at once (a grown table or a new chunk), or 0. */
  nextGrowthBytes(): number {
    const table = this.size + 1 > this.slots.length * maxLoad ? this.grownLength() * 4 : 0;
    const chunk = (this.size & (chunkSize - 1)) === 0 ? chunkSize * this.layout.words * 4 : 0;
    return table + chunk;
  }

  /** Adds a state known to be absent; returns its index. Throws RangeError past 2^29 states. */
  add(probe: Uint32Array, hash: number): number {
    if (this.size + 1 > this.slots.length * maxLoad) this.grow();
    const index = this.size++;
    if (!this.layout.pack(probe, this.packedProbe, 0)) this.widen(probe);
    const words = this.layout.words;
    if ((index & (chunkSize - 1)) === 0) this.chunks.push(new Uint32Array(chunkSize * words));
    // Word by word: a `subarray` view per state added was most of what the search allocated here.
    const chunk = this.chunks[index >>> 14];
    const base = (index & (chunkSize - 1)) * words;
    for (let k = 0; k < words; k++) chunk[base + k] = this.packedProbe[k];
    const length = this.slots.length;
    let slot = this.slotOf(hash);
    while (this.slots[slot] !== 0) slot = slot + 1 === length ? 0 : slot + 1;
    this.slots[slot] = this.tagOf(hash) | (index + 1);
    return index;
  }

  /** Gives back the unfilled tail of the last chunk; only once the search adds nothing more. */
  trim(): void {
    const last = this.chunks.length - 1;
    const used = (this.size - last * chunkSize) * this.layout.words;
    if (last >= 0 && used < this.chunks[last].length) this.chunks[last] = this.chunks[last].slice(0, used);
  }

  /**
   * A lane of `probe` outgrew its bits: every lane that does not fit gets the bits its value needs, and
   * the chunks are re-packed one at a time (values, and so hashes, are unchanged). `probe` is then packed.
   */
  private widen(probe: Uint32Array): void {
    const old = this.layout;
    const bits = Uint8Array.from(old.bits);
    for (let k = 0; k < this.width; k++) bits[k] = Math.max(bits[k], bitsFor(probe[k]));
    const layout = new LaneLayout(bits);
    const lanes = this.scratch;
    // `size` already counts the state being added, which has no lanes stored yet.
    const stored = this.size - 1;
    for (let c = 0; c < this.chunks.length; c++) {
      const count = Math.min(chunkSize, stored - c * chunkSize);
      const chunk = this.chunks[c];
      // Only the search widens, before `trim`: every chunk is whole.
      const repacked = new Uint32Array(chunkSize * layout.words);
      for (let i = 0; i < count; i++) {
        old.unpack(chunk, i * old.words, lanes, 0);
        layout.pack(lanes, repacked, i * layout.words);
      }
      this.chunks[c] = repacked;
    }
    this.layout = layout;
    if (this.packedProbe.length < layout.words) this.packedProbe = new Uint32Array(layout.words);
    if (!layout.pack(probe, this.packedProbe, 0))
      throw new Error('packed visited set: a widened lane does not fit');
  }

  private grow(): void {
    const length = this.grownLength();
    if (length > maxSlots) throw new RangeError(`visited set: more than ${maxSlots * maxLoad} states`);
    const slots = this.emptySlots(length);
    this.slots = slots;
    const { scratch: lanes, width, hash, size } = this;
    const { word, shift, mask, words } = this.layout;
    // The states are unpacked here rather than through `lanesAt`: a growth rehashes every state.
    for (let c = 0; c * chunkSize < size; c++) {
      const chunk = this.chunks[c];
      const count = Math.min(chunkSize, size - c * chunkSize);
      for (let i = 0, base = 0; i < count; i++, base += words) {
        for (let k = 0; k < width; k++) lanes[k] = (chunk[base + word[k]] >>> shift[k]) & mask[k];
        const h = hash(lanes, 0, width);
        let slot = Math.floor(((h >>> 0) / 4294967296) * length);
        while (slots[slot] !== 0) slot = slot + 1 === length ? 0 : slot + 1;
        slots[slot] = this.tagOf(h) | (c * chunkSize + i + 1);
      }
    }
  }
}
