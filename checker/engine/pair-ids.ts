/** A pair's slot hash, mixed over all 32 bits: pairs of small ids would otherwise cluster. */
const pairHash = (a: number, b: number): number => {
  let hash = Math.imul(a, 0x9e3779b1) ^ b;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
};

/**
 * Open addressing on one Int32Array, three words a slot side by side: a pair's first and second integers
 * and a word that is never 0 for a slot in use, so a probe reads one place rather than one per array.
 */
class PairSlots {
  protected slots: Int32Array = new Int32Array(3 * 256);
  protected mask = 255;
  size = 0;

  /** Where the pair's slot starts: its own, or the empty one it would take (its third word 0). */
  protected find(a: number, b: number): number {
    const { slots, mask } = this;
    for (let slot = pairHash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const at = 3 * slot;
      if (slots[at + 2] === 0 || (slots[at] === a && slots[at + 1] === b)) return at;
    }
  }

  /** Fills the empty slot `at` (from `find`) with the pair and `word` (not 0); the table may grow. */
  protected place(at: number, a: number, b: number, word: number): void {
    const { slots } = this;
    slots[at] = a;
    slots[at + 1] = b;
    slots[at + 2] = word;
    if (++this.size * 2 > this.mask + 1) this.grow();
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

/** Small integer ids for pairs of 32-bit integers: open addressing on typed arrays (no strings, no boxed keys). */
export class PairIds extends PairSlots {
  /** The pair's id: 0, 1, 2... in the order pairs are first asked about. */
  id(x: number, y: number): number {
    // As stored: a lane of 2^31 or more reads back negative from the Int32Array.
    const a = x | 0;
    const b = y | 0;
    const at = this.find(a, b);
    const id = this.slots[at + 2];
    if (id !== 0) return id - 1;
    // The third word holds id + 1.
    this.place(at, a, b, this.size + 1);
    return this.size - 1;
  }
}

/** A number (0 to 2^31 - 2) filed under each pair of 32-bit integers (-1 where none is). */
export class PairValues extends PairSlots {
  /** The number filed under the pair, or -1; a pair asked about is not kept (only `set` adds one). */
  get(x: number, y: number): number {
    const at = this.find(x | 0, y | 0);
    return this.slots[at + 2] - 1;
  }

  set(x: number, y: number, value: number): void {
    if (!Number.isInteger(value) || value < 0 || value >= 2 ** 31 - 1)
      throw new RangeError(`pair values: ${value} is not a number from 0 to 2^31 - 2`);
    const a = x | 0;
    const b = y | 0;
    const at = this.find(a, b);
    // The third word holds the number + 1.
    if (this.slots[at + 2] !== 0) this.slots[at + 2] = value + 1;
    else this.place(at, a, b, value + 1);
  }
}
