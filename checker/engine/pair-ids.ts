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
  /**
   * Per slot, three words side by side: the pair's first and second integers and its id + 1 (0 marks an
   * empty slot), so a probe reads one place rather than one in each of three arrays.
   */
  private slots: Int32Array = new Int32Array(3 * 256);
  private mask = 255;
  size = 0;

  id(x: number, y: number): number {
    // As stored: a lane of 2^31 or more reads back negative from the Int32Array.
    const a = x | 0;
    const b = y | 0;
    const { slots, mask } = this;
    for (let slot = pairHash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const at = 3 * slot;
      const id = slots[at + 2];
      if (id === 0) {
        slots[at] = a;
        slots[at + 1] = b;
        slots[at + 2] = ++this.size;
        if (this.size * 2 > mask + 1) this.grow();
        return this.size - 1;
      }
      if (slots[at] === a && slots[at + 1] === b) return id - 1;
    }
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(2 * old.length);
    const mask = slots.length / 3 - 1;
    for (let from = 0; from < old.length; from += 3) {
      if (old[from + 2] === 0) continue;
      let slot = pairHash(old[from], old[from + 1]) & mask;
      while (slots[3 * slot + 2] !== 0) slot = (slot + 1) & mask;
      slots[3 * slot] = old[from];
      slots[3 * slot + 1] = old[from + 1];
      slots[3 * slot + 2] = old[from + 2];
    }
    this.slots = slots;
    this.mask = mask;
  }

  get bytes(): number {
    return this.slots.byteLength;
  }
}

/** A number filed under each pair of 32-bit integers (-1 where none is). */
export class PairValues {
  private readonly ids = new PairIds();
  private values: Int32Array = new Int32Array(0);

  /** The number filed under the pair, or -1. */
  get(a: number, b: number): number {
    const id = this.ids.id(a, b);
    return id < this.values.length ? this.values[id] : -1;
  }

  set(a: number, b: number, value: number): void {
    const id = this.ids.id(a, b);
    this.values = grown(this.values, id, -1);
    this.values[id] = value;
  }
}
