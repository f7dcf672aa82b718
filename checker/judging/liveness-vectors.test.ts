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
  const walked = (kept: KeptMoves, s: number) => {
    const seen: [number, number][] = [];
    kept.successors(s, (event, target) => seen.push([event, target]));
    return seen;
  };

  it('expands a state a later search opens once, and replays the moves it may follow in their order', () => {
    const { expanded, moves } = graph();
    // Goal 0 is the first planned search; states below 5 lie in a later one; odd targets are followed.
    const kept = new KeptMoves(
      20,
      moves,
      Int32Array.of(0),
      (s, stage) => s < 5 && stage < 1,
      (t) => t % 2 === 1,
    );
    kept.searching(0);
    // The first walk sees every move, whatever is kept.
    expect(walked(kept, 2)).toEqual([
      [20, 3],
      [21, 4],
      [22, 5],
    ]);
    expect(walked(kept, 2)).toEqual([
      [20, 3],
      [22, 5],
    ]);
    expect(walked(kept, 4)).toEqual([
      [40, 5],
      [41, 6],
      [42, 7],
    ]);
    expect(walked(kept, 4)).toEqual([
      [40, 5],
      [42, 7],
    ]);
    // A state no later search opens is expanded every time.
    walked(kept, 9);
    walked(kept, 9);
    expect(expanded).toEqual([2, 4, 9, 9]);
  });

  it('replays a kept run each time it is walked, having expanded the state once', () => {
    const { expanded, moves } = graph();
    const kept = new KeptMoves(
      2,
      moves,
      Int32Array.of(0),
      () => true,
      () => true,
    );
    kept.searching(0);
    for (let i = 0; i < 3; i++)
      expect(walked(kept, 0)).toEqual([
        [0, 1],
        [1, 2],
        [2, 3],
      ]);
    expect(expanded).toEqual([0]);
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
    let expansions = 0;
    const kept = new KeptMoves(
      states,
      (_, emit) => {
        expansions++;
        for (const [event, target] of emitted) emit(event, target);
      },
      Int32Array.of(0),
      () => true,
      () => true,
      events,
    );
    kept.searching(0);
    const seen: [number, number][] = [];
    kept.successors(7, (event, target) => seen.push([event, target]));
    expect(walked(kept, 7)).toEqual(emitted);
    expect(seen).toEqual(emitted);
    expect(expansions).toBe(1);
    expect(KeptMoves.fits(states, events)).toBe(true);
    expect(KeptMoves.fits(states + 1, events)).toBe(false);
    expect(KeptMoves.fits(states, events + 1)).toBe(false);
    expect(
      () =>
        new KeptMoves(
          states + 1,
          () => {},
          Int32Array.of(0),
          () => true,
          () => true,
          events,
        ),
    ).toThrow(/do not fit in 32 bits/);
  });
});
