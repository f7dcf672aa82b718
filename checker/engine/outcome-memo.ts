/**
 * Memos a composed model hands its steps to: the model says what a step reads, these say how it is
 * remembered. No field list lives here or in the model: a value is interned by all it holds.
 */

/** JSON with object keys sorted and undefined fields dropped: equal values give equal text. */
export function canonicalText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Dense ids for values by everything they hold (a request with its whole body): nothing can be left out of the key. */
export class ValueInterner {
  private readonly ids = new Map<string, number>();

  id(value: unknown): number {
    const text = canonicalText(value);
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(text, id);
    }
    return id;
  }
}

/**
 * Outcomes per (step id, the numbers the step reads), each number below its bound in bits so the
 * packed key stays exact (below 2^53); a read past its bound is simply not remembered.
 */
export class PackedOutcomeMemo<V> {
  private readonly tables: Map<number, V>[] = [];
  private readonly totalBits: number;

  constructor(private readonly bits: readonly number[]) {
    this.totalBits = bits.reduce((sum, b) => sum + b, 0);
    if (this.totalBits > 53)
      throw new Error(`PackedOutcomeMemo: ${this.totalBits} bits do not fit a number exactly`);
  }

  /** The packed key of `reads`, or -1 when one is past its bound. */
  key(reads: readonly number[]): number {
    // A missing read would pack as NaN, and every NaN key is the same Map key: refuse it.
    if (reads.length !== this.bits.length)
      throw new Error(`PackedOutcomeMemo: ${reads.length} reads for ${this.bits.length} bounds`);
    let key = 0;
    for (let i = 0; i < this.bits.length; i++) {
      const read = reads[i];
      if (read < 0 || read >= 2 ** this.bits[i]) return -1;
      key = key * 2 ** this.bits[i] + read;
    }
    return key;
  }

  get(step: number, key: number): V | undefined {
    return key < 0 ? undefined : this.tables[step]?.get(key);
  }

  set(step: number, key: number, value: V): void {
    if (key < 0) return;
    let table = this.tables[step];
    if (!table) {
      table = new Map();
      this.tables[step] = table;
    }
    table.set(key, value);
  }
}

/** Outcomes per (step id, the numbers the step reads), with no bound on the numbers (a text key). */
export class ListedOutcomeMemo<V> {
  private readonly table = new Map<string, V>();

  key(step: number, reads: readonly number[]): string {
    return `${step}|${reads.join('|')}`;
  }

  get(key: string): V | undefined {
    return this.table.get(key);
  }

  set(key: string, value: V): void {
    this.table.set(key, value);
  }
}

/** Small numbers (each below 65,536) packed into one string key, one UTF-16 unit each: cheap to hash and compare. */
export function packedKey(parts: readonly number[]): string {
  return String.fromCharCode(...parts);
}
