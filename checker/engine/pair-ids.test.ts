import { describe, expect, it } from 'vitest';
import { PairIds, PairValues } from './pair-ids.ts';

describe('pair ids', () => {
  it('give each pair one id, found again after growth, and find none for a pair never given one', () => {
    const ids = new PairIds();
    // Pairs that differ in one member only: a key that dropped one would merge them.
    for (let n = 0; n < 5_000; n++) expect(ids.id(n % 2 === 0 ? n : 3, n % 2 === 0 ? 3 : n)).toBe(n);
    for (let n = 0; n < 5_000; n++) expect(ids.find(n % 2 === 0 ? n : 3, n % 2 === 0 ? 3 : n)).toBe(n);
    expect(ids.find(2, 2)).toBe(-1);
    expect(ids.find(-1, 2 ** 31)).toBe(-1);
    expect(ids.size).toBe(5_000);
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
    // The pairs asked about and never filed took no id: the first two filed are ids 0 and 1.
    expect((values as unknown as { ids: PairIds }).ids.size).toBe(2);
  });
});
