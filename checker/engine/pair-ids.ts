import { grown } from './state-store.ts';

/** A pair's slot hash, mixed over all 32 bits: pairs of small ids would otherwise cluster. */
const pairHash = (a: number, b: number): number => {
  let hash = Math.imul(a, 0x9e3779b1) ^ b;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
};

/** Small integer ids for pairs of 32-bit integers: open addressing on typed arrays (no strings, no boxed keys). */
export class PairIds {
  private first: Int32Array = new Int32Array(256);
  private second: Int32Array = new Int32Array(256);
  /** id + 1 per slot; 0 marks an empty slot. */
  private ids: Int32Array = new Int32Array(256);
  size = 0;

  id(x: number, y: number): number {
    // As stored: a lane of 2^31 or more reads back negative from the Int32Array.
    const a = x | 0;
    const b = y | 0;
    const mask = this.ids.length - 1;
    for (let slot = pairHash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const id = this.ids[slot];
      if (id === 0) {
        this.place(slot, a, b, ++this.size);
        if (this.size * 2 > this.ids.length) this.grow();
        return this.size - 1;
      }
      if (this.first[slot] === a && this.second[slot] === b) return id - 1;
    }
  }

  /** The pair's id, or -1 when it has none (and none is given). */
  find(x: number, y: number): number {
    const a = x | 0;
    const b = y | 0;
    const mask = this.ids.length - 1;
    for (let slot = pairHash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const id = this.ids[slot];
      if (id === 0) return -1;
      if (this.first[slot] === a && this.second[slot] === b) return id - 1;
    }
  }

  private place(slot: number, a: number, b: number, entry: number): void {
    this.first[slot] = a;
    this.second[slot] = b;
    this.ids[slot] = entry;
  }

  private grow(): void {
    const { first, second, ids } = this;
    this.first = new Int32Array(ids.length * 2);
    this.second = new Int32Array(ids.length * 2);
    this.ids = new Int32Array(ids.length * 2);
    const mask = this.ids.length - 1;
    for (let old = 0; old < ids.length; old++) {
      if (ids[old] === 0) continue;
      let slot = pairHash(first[old], second[old]) & mask;
      while (this.ids[slot] !== 0) slot = (slot + 1) & mask;
      this.place(slot, first[old], second[old], ids[old]);
    }
  }

  get bytes(): number {
    return this.ids.byteLength * 3;
  }
}

/** A number filed under each pair of 32-bit integers (-1 where none is). */
export class PairValues {
  private readonly ids = new PairIds();
  private values: Int32Array = new Int32Array(0);

  /** The number filed under the pair, or -1 (a pair asked about but never filed takes no room). */
  get(a: number, b: number): number {
    const id = this.ids.find(a, b);
    return id >= 0 && id < this.values.length ? this.values[id] : -1;
  }

  set(a: number, b: number, value: number): void {
    const id = this.ids.id(a, b);
    this.values = grown(this.values, id, -1);
    this.values[id] = value;
  }
}
