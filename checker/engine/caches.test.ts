import { describe, expect, it } from 'vitest';
import { Interner, KeyedCache, memoByObject, memoByValue, ObjectCache } from './caches.ts';

describe('engine caches', () => {
  it('an interner gives equal keys one id and one value, new keys the next id', () => {
    const interner = new Interner<{ id: number; name: string }>();
    const a = interner.id('a', (id) => ({ id, name: 'a' }));
    const b = interner.id('b', (id) => ({ id, name: 'b' }));
    expect([a, b, interner.id('a', () => ({ id: 9, name: 'other' }))]).toEqual([0, 1, 0]);
    expect(interner.values).toEqual([
      { id: 0, name: 'a' },
      { id: 1, name: 'b' },
    ]);
    expect(interner.value('b', () => ({ id: 9, name: 'other' }))).toBe(interner.values[1]);
  });

  it('a keyed cache computes once per key, remembers undefined too, and forgets on clear', () => {
    const cache = new KeyedCache<string, number | undefined>();
    let calls = 0;
    const compute = () => {
      calls++;
      return undefined;
    };
    cache.get('x', compute);
    cache.get('x', compute);
    expect(calls).toBe(1);
    expect(cache.set('y', 2)).toBe(2);
    expect(cache.find('y')).toBe(2);
    cache.clear();
    expect([cache.size, cache.find('y')]).toEqual([0, undefined]);
  });

  it('an object cache keys by identity, not by value', () => {
    const cache = new ObjectCache<{ n: number }, string>();
    const one = { n: 1 };
    expect(cache.get(one, () => 'first')).toBe('first');
    expect(cache.get(one, () => 'second')).toBe('first');
    expect(cache.get({ n: 1 }, () => 'third')).toBe('third');
    const length = memoByObject((xs: number[]) => ({ length: xs.length }));
    const xs = [1, 2];
    expect(length(xs)).toBe(length(xs));
    expect(length([1, 2])).not.toBe(length(xs));
  });

  it('a function memoized by value is called once per distinct arguments, whatever their key order', () => {
    const seen: unknown[] = [];
    const f = memoByValue((body: { a?: number; b?: number }, tag: string) => {
      seen.push([body, tag]);
      return [tag, (body.a ?? 0) + (body.b ?? 0)];
    });
    const first = f({ a: 1, b: 2 }, 't');
    expect(f({ b: 2, a: 1 }, 't')).toBe(first);
    expect(f({ a: 1, b: 3 }, 't')).toEqual(['t', 4]);
    expect(f({ a: 1, b: 2 }, 'u')).toEqual(['u', 3]);
    expect(seen).toHaveLength(3);
  });
});
