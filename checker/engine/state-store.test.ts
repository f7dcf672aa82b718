import { describe, expect, it } from 'vitest';
import { doublingLimit, grown, IntChunks } from './state-store.ts';
import { chunkSize } from './visited.ts';

describe('IntChunks', () => {
  it('keeps -1 .. 65534 in 16 bits when narrow, across chunks, and gives back the last chunk’s tail', () => {
    const list = new IntChunks(true);
    const values: number[] = [];
    for (let i = 0; i < chunkSize + 5; i++) values.push(i === 0 ? -1 : (i * 7919) % 0xffff);
    values.push(0xfffe, -1, 0);
    for (const v of values) list.push(v);
    list.trim();
    expect(list.bytes).toBe(values.length * 2);
    for (const [i, v] of values.entries()) expect(list.at(i)).toBe(v);
  });

  it('widens every chunk to 32 bits the first time a value does not fit 16, keeping the values pushed before', () => {
    for (const outside of [0xffff, -2, 2 ** 31 - 1, -(2 ** 31)]) {
      const list = new IntChunks(true);
      const values = [-1, 0, 0xfffe];
      for (let i = 0; i < chunkSize; i++) values.push(i);
      values.push(outside, 3, -1);
      for (const v of values) list.push(v);
      list.trim();
      expect(list.bytes).toBe(values.length * 4);
      for (const [i, v] of values.entries()) expect(list.at(i)).toBe(v);
    }
  });

  it('keeps 32 bits from the start unless narrow', () => {
    const list = new IntChunks();
    list.push(-(2 ** 31));
    list.push(2 ** 31 - 1);
    list.trim();
    expect(list.bytes).toBe(8);
    expect([list.at(0), list.at(1)]).toEqual([-(2 ** 31), 2 ** 31 - 1]);
  });
});

describe('grown', () => {
  it('doubles small arrays and grows large ones by half, keeping every value and filling the rest', () => {
    const small = Int32Array.from([5, 6, 7]);
    const bigger = grown(small, 20, -1);
    expect(bigger.length).toBe(32);
    expect([...bigger.subarray(0, 4)]).toEqual([5, 6, 7, -1]);
    expect(grown(bigger, 31)).toBe(bigger);
    const large = new Uint8Array(doublingLimit).fill(9);
    const next = grown(large, doublingLimit);
    expect(next.length).toBe(doublingLimit * 1.5);
    expect(next[doublingLimit - 1]).toBe(9);
    expect(next[doublingLimit]).toBe(0);
    expect(grown(large, doublingLimit * 2).length).toBe(doublingLimit * 2.25);
  });
});
