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
