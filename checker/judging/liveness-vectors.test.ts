import { describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { chunkSize } from '../engine/visited.ts';
import { systemModel } from '../model/system-model.ts';
import { check } from './check.ts';
import { KeptMoves, LivenessCollector, StateIds, VectorTable } from './liveness-fly.ts';

describe("liveness's per-state vectors, kept once each", () => {
  it('gives every distinct vector one id, 0 to the zero vector, and reads each back after growing', () => {
    const table = new VectorTable(3);
    expect(table.intern(new Uint32Array(3))).toBe(0);
    const vectors = Array.from({ length: 500 }, (_, i) => Uint32Array.of(i * 7919, i % 3, i === 0 ? 1 : 0));
    const ids = vectors.map((v) => table.intern(v));
    expect(new Set(ids).size).toBe(500);
    expect(ids).not.toContain(0);
    expect(table.size).toBe(501);
    // The same contents in a fresh array: the same id, nothing added.
    vectors.forEach((v, i) => {
      expect(table.intern(Uint32Array.from(v))).toBe(ids[i]);
      for (let w = 0; w < 3; w++) expect(table.word(ids[i], w)).toBe(v[w]);
    });
    expect(table.size).toBe(501);
    const into = new Uint32Array(3);
    table.copy(ids[42], into);
    expect([...into]).toEqual([42 * 7919, 0, 0]);
    expect(table.bit(ids[1], 32)).toBe(true);
    expect(table.bit(ids[1], 33)).toBe(false);
  });

  it('keeps ids per state in 16 bits, widened to 32 without losing any', () => {
    const ids = new StateIds();
    expect(ids.get(123_456)).toBe(0);
    ids.set(5, 7);
    ids.set(chunkSize + 1, 65_535);
    expect(ids.bytes).toBe(2 * chunkSize * 2);
    ids.set(3 * chunkSize, 70_000);
    expect([ids.get(5), ids.get(chunkSize + 1), ids.get(3 * chunkSize), ids.get(6)]).toEqual([
      7, 65_535, 70_000, 0,
    ]);
    expect(ids.bytes).toBe(4 * chunkSize * 4);
  });

  it('holds 6 bytes per state on quick (two 16-bit ids and the self-loop bits), not a word per goal', () => {
    const model = systemModel(scopeByName('quick'), defaultMachines);
    const collector = new LivenessCollector(model, livenessProperties);
    const result = check(model, [], { recorder: collector, memo: false });
    expect(result.complete).toBe(true);
    const chunks = Math.ceil(result.states / chunkSize);
    // Goals are judged per namespace slot, so few distinct vectors exist: far fewer than states.
    expect(collector.vectors.goals).toBeLessThan(result.states / 10);
    expect(collector.vectors.steps).toBeLessThan(result.states / 10);
    expect(collector.bytes).toBeLessThanOrEqual(3 * 2 * chunks * chunkSize + 64 * 1024);
  }, 60_000);
});

describe("liveness's kept moves", () => {
  // State s moves to s + 1, s + 2 and s + 3 by events 10 * s, 10 * s + 1 and 10 * s + 2.
  const graph = () => {
    const expanded: number[] = [];
    const moves = (s: number, emit: (event: number, target: number) => void) => {
      expanded.push(s);
      for (let k = 1; k <= 3; k++) emit(10 * s + k - 1, s + k);
    };
    return { expanded, moves };
  };
  const walked = (
    kept: KeptMoves,
    s: number,
    moves: (s: number, emit: (event: number, target: number) => void) => void = () => {
      throw new Error(`state ${s} was expanded`);
    },
  ) => {
    const seen: [number, number][] = [];
    kept.successors(s, (event, target) => seen.push([event, target]), moves);
    return seen;
  };
  /** The moves of state s as the lists hold them, read word by word. */
  const listed = (kept: KeptMoves, s: number) => {
    const seen: [number, number][] = [];
    for (let k = kept.first(s); k < kept.first(s + 1); k++) {
      const word = kept.word(k);
      seen.push([word % 2 ** kept.eventBits, Math.floor(word / 2 ** kept.eventBits)]);
    }
    return seen;
  };

  it('expands each state added once, and replays the moves it may follow in their order', () => {
    const { expanded, moves } = graph();
    const kept = new KeptMoves(20);
    // Odd targets are followed.
    for (const s of [2, 4, 9]) kept.add(s, moves, (t) => t % 2 === 1);
    kept.finish();
    expect(expanded).toEqual([2, 4, 9]);
    for (let i = 0; i < 2; i++) {
      expect(walked(kept, 2)).toEqual([
        [20, 3],
        [22, 5],
      ]);
      expect(walked(kept, 4)).toEqual([
        [40, 5],
        [42, 7],
      ]);
      expect(walked(kept, 9)).toEqual([[91, 11]]);
    }
    expect(listed(kept, 4)).toEqual(walked(kept, 4));
    expect([2, 4, 9].every((s) => kept.listed(s))).toBe(true);
    // States never added, before, between and after those added: not listed, no words, and expanded when walked.
    for (const s of [0, 1, 3, 5, 8, 10, 19]) {
      expect(kept.listed(s)).toBe(false);
      expect(kept.first(s + 1)).toBe(kept.first(s));
    }
    expect(kept.size).toBe(5);
    expect(expanded).toEqual([2, 4, 9]);
    expect(walked(kept, 5, moves)).toEqual([
      [50, 6],
      [51, 7],
      [52, 8],
    ]);
    expect(expanded).toEqual([2, 4, 9, 5]);
    expect(() => kept.add(3, moves, () => true)).toThrow(/comes after/);
  });

  it('keeps moves across its chunks, each state whole and in order', () => {
    // 2^18 words a chunk: 100,000 states of three moves fill two chunks and part of a third.
    const moves = (s: number, emit: (event: number, target: number) => void) => {
      for (let k = 0; k < 3; k++) emit(k, s + k + 1);
    };
    const states = 100_000;
    const kept = new KeptMoves(states + 3, 3);
    for (let s = 0; s < states; s++) kept.add(s, moves, () => true);
    kept.finish();
    expect(kept.size).toBe(3 * states);
    for (const s of [0, 87_381, 87_382, 99_999])
      expect(walked(kept, s)).toEqual([
        [0, s + 1],
        [1, s + 2],
        [2, s + 3],
      ]);
    // The last chunk is cut to what it holds.
    expect(kept.bytes).toBe(4 * (states + 4) + 4 * Math.ceil((states + 3) / 32) + 4 * 3 * states);
  });

  it('packs a target and its event in one word, up to the largest of each, and refuses what does not fit', () => {
    // 2^19 states and 2^13 events fill 32 bits: the last state by the last event is every bit set.
    const states = 1 << 19;
    const events = 1 << 13;
    const emitted: [number, number][] = [
      [events - 1, states - 1],
      [0, states - 1],
      [events - 1, 0],
      [4097, 262_145],
    ];
    const kept = new KeptMoves(states, events);
    kept.add(
      7,
      (_, emit) => {
        for (const [event, target] of emitted) emit(event, target);
      },
      () => true,
    );
    kept.finish();
    expect(walked(kept, 7)).toEqual(emitted);
    expect(listed(kept, 7)).toEqual(emitted);
    expect(KeptMoves.fits(states, events)).toBe(true);
    expect(KeptMoves.fits(states + 1, events)).toBe(false);
    expect(KeptMoves.fits(states, events + 1)).toBe(false);
    expect(() => new KeptMoves(states + 1, events)).toThrow(/do not fit in 32 bits/);
  });
});
