/**
 * The plain caches a model's pure code is wrapped in: interning to dense ids, values remembered per
 * key or per object, and a function remembered by the value of its arguments. They hold no rule of
 * any model; the model says what a value is and the engine says how it is remembered.
 */

import { canonicalText } from './outcome-memo.ts';

/** Values interned to dense ids by a key that identifies them: equal keys give one id and one value. */
export class Interner<T> {
  private readonly ids = new Map<string, number>();
  /** The interned values, by id. */
  readonly values: T[] = [];

  /** The id of the value `key` names, made by `make(id)` the first time. */
  id(key: string, make: (id: number) => T): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(make(id));
      this.ids.set(key, id);
    }
    return id;
  }

  /** The id interned under `key`, if any (a hot path's look-up without a closure). */
  find(key: string): number | undefined {
    return this.ids.get(key);
  }

  /** The value interned under `key`, made by `make(id)` the first time. */
  value(key: string, make: (id: number) => T): T {
    return this.values[this.id(key, make)];
  }

  get size(): number {
    return this.values.length;
  }
}

/** Where remembered values are kept: a Map by key, or a WeakMap by object identity. */
interface ValueStore<K, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  set(key: K, value: V): unknown;
}

/** A value computed once per key of its store (undefined is remembered too). */
class RememberedValues<K, V> {
  constructor(private readonly store: ValueStore<K, V>) {}

  get(key: K, compute: () => V): V {
    let value = this.store.get(key);
    if (value === undefined && !this.store.has(key)) {
      value = compute();
      this.store.set(key, value);
    }
    return value as V;
  }

  /** The value remembered for `key`, if any (a hot path's look-up without a closure). */
  find(key: K): V | undefined {
    return this.store.get(key);
  }

  set(key: K, value: V): V {
    this.store.set(key, value);
    return value;
  }
}

/** A value computed once per key. */
export class KeyedCache<K, V> extends RememberedValues<K, V> {
  private readonly entries: Map<K, V>;

  constructor(entries = new Map<K, V>()) {
    super(entries);
    this.entries = entries;
  }

  /** Forgets every entry (a bounded memo starts again when full). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A value computed once per object, by identity, forgotten with the object. */
export class ObjectCache<K extends object, V> extends RememberedValues<K, V> {
  constructor() {
    super(new WeakMap<K, V>());
  }
}

/** `compute(a)` remembered per object, by identity (weakly). */
export function memoByObject<A extends object, R>(compute: (a: A) => R): (a: A) => R {
  const cache = new ObjectCache<A, R>();
  return (a) => cache.get(a, () => compute(a));
}

/**
 * A pure function remembered by the value of its arguments: the key is the canonical text of all
 * the arguments hold, so no field can be left out of it.
 */
export function memoByValue<A extends unknown[], R>(compute: (...args: A) => R): (...args: A) => R {
  const cache = new KeyedCache<string, R>();
  return (...args) => cache.get(canonicalText(args), () => compute(...args));
}
