import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { chunkSize, hashKey, VisitedTable } from './visited.ts';

describe('VisitedTable', () => {
  test.prop([fc.array(fc.string({ maxLength: 6 }), { maxLength: 300 })])(
    'finds every key it holds at its insertion index, and no other',
    (keys) => {
      const table = new VisitedTable<number>();
      const expected = new Map<string, number>();
      for (const key of keys) {
        if (table.indexOf(key) >= 0) continue;
        expected.set(key, table.add(key, expected.size));
      }
      expect(table.size).toBe(expected.size);
      for (const [key, index] of expected) {
        expect(table.indexOf(key)).toBe(index);
        expect(table.keyAt(index)).toBe(key);
        expect(table.stateAt(index)).toBe(index);
      }
      expect(table.indexOf('\u0000absent')).toBe(-1);
    },
  );

  it('grows across chunks and table doublings, announcing each doubling before it happens', () => {
    const table = new VisitedTable<null>();
    let announced = 0;
    for (let i = 0; i < 3 * chunkSize; i++) {
      if (table.nextGrowthBytes() > 0) announced++;
      table.add(`k${i}`, null);
    }
    expect(announced).toBeGreaterThanOrEqual(4);
    expect(table.indexOf(`k${3 * chunkSize - 1}`)).toBe(3 * chunkSize - 1);
    expect(table.indexOf(`k${3 * chunkSize}`)).toBe(-1);
  });

  it('hashes deterministically, so searches discover states in the same order on every run', () => {
    expect(hashKey('team-a|1|0')).toBe(hashKey('team-a|1|0'));
    expect(hashKey('a')).not.toBe(hashKey('b'));
  });
});
