import { describe, expect, it } from 'vitest';
import { canonicalText, ListedOutcomeMemo, PackedOutcomeMemo, ValueInterner } from './outcome-memo.ts';

describe('outcome memos', () => {
  it('intern a value by all it holds: key order and undefined fields do not matter, any other field does', () => {
    const ids = new ValueInterner();
    const a = ids.id({ verb: 'create', body: { name: 'x', data: { errors: [] } } });
    expect(ids.id({ body: { data: { errors: [] }, name: 'x', phase: undefined }, verb: 'create' })).toBe(a);
    expect(ids.id({ verb: 'create', body: { name: 'x', data: { errors: ['bad'] } } })).not.toBe(a);
    expect(canonicalText({ b: 1, a: [2, { d: 1, c: 2 }] })).toBe('{"a":[2,{"c":2,"d":1}],"b":1}');
  });

  it('packs the reads exactly, and remembers nothing for a read past its bound', () => {
    const memo = new PackedOutcomeMemo<string>([4, 4]);
    expect(memo.key([1, 2])).toBe(1 * 16 + 2);
    expect(memo.key([2, 1])).not.toBe(memo.key([1, 2]));
    expect(memo.key([16, 0])).toBe(-1);
    // A missing read would pack as NaN, one Map key for every such request: refused outright.
    expect(() => memo.key([1])).toThrow('1 reads for 2 bounds');
    memo.set(0, memo.key([16, 0]), 'past');
    expect(memo.get(0, memo.key([16, 0]))).toBeUndefined();
    memo.set(3, memo.key([1, 2]), 'one-two');
    expect(memo.get(3, memo.key([1, 2]))).toBe('one-two');
    expect(memo.get(2, memo.key([1, 2]))).toBeUndefined();
    expect(() => new PackedOutcomeMemo([32, 32])).toThrow(/do not fit/);
  });

  it('keys unbounded reads by step and every read', () => {
    const memo = new ListedOutcomeMemo<number>();
    memo.set(memo.key(1, [2 ** 40, 3]), 7);
    expect(memo.get(memo.key(1, [2 ** 40, 3]))).toBe(7);
    expect(memo.get(memo.key(1, [3, 2 ** 40]))).toBeUndefined();
    expect(memo.get(memo.key(2, [2 ** 40, 3]))).toBeUndefined();
  });
});
