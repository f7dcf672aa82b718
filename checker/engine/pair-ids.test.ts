import { describe, expect, it } from 'vitest';
import { PairIds, PairValues } from './pair-ids.ts';

describe('pair ids', () => {
  it('give each pair one id in the order first asked, the same id again after growth', () => {
    const ids = new PairIds();
    // Pairs that differ in one member only: a key that dropped one would merge them.
    for (let n = 0; n < 5_000; n++) expect(ids.id(n % 2 === 0 ? n : 3, n % 2 === 0 ? 3 : n)).toBe(n);
    for (let n = 0; n < 5_000; n++) expect(ids.id(n % 2 === 0 ? n : 3, n % 2 === 0 ? 3 : n)).toBe(n);
    // A lane of 2^31 or more is stored as its 32-bit pattern: one pair, not two.
    expect(ids.id(-1, 2 ** 31)).toBe(5_000);
    expect(ids.id(2 ** 32 - 1, -(2 ** 31))).toBe(5_000);
    expect(ids.size).toBe(5_001);
  });
});

describe('pair values', () => {
  it('answer -1 for a pair never filed, without giving it room, and the number filed otherwise', () => {
    const values = new PairValues();
    for (let n = 0; n < 1_000; n++) expect(values.get(n, n + 1)).toBe(-1);
    values.set(7, 8, 42);
    values.set(8, 7, 0);
    expect(values.get(7, 8)).toBe(42);
    expect(values.get(8, 7)).toBe(0);
    expect(values.get(7, 7)).toBe(-1);
    values.set(7, 8, 5);
    expect(values.get(7, 8)).toBe(5);
    // The pairs asked about and never filed took no room: only the two filed are kept.
    expect(values.size).toBe(2);
    expect(() => values.set(1, 1, -1)).toThrow(RangeError);
  });
});
