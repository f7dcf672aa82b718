import { describe, expect, it } from 'vitest';
import { expectedMisses, mergeSwarm, runFlags, type SwarmRun, sliceRuns } from './swarm.ts';

const run = (n: number, states: number, expectedMissed: number, truncated = false): SwarmRun => ({
  run: n,
  flags: runFlags(n),
  states,
  transitions: states * 10,
  depth: 10,
  errors: 0,
  seconds: 1,
  log2Bits: 20,
  expectedMissed,
  truncated,
});

describe('swarm verification', () => {
  it('slices cover every run exactly once', () => {
    const slices = [0, 1, 2].map((i) => sliceRuns(10, i, 3));
    expect(slices.flat().sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    expect(new Set(slices.flat()).size).toBe(10);
  });

  it('diversifies each run: its own hash function, every other run in reverse order', () => {
    expect(runFlags(0)).toEqual(['-h0']);
    expect(runFlags(1)).toEqual(['-h1', '-t_reverse']);
  });

  it('expects more misses as the filter fills: (1 - e^(-3j/m))^3 summed over the stored states', () => {
    expect(expectedMisses(0, 20)).toBe(0);
    const few = expectedMisses(1000, 20);
    const many = expectedMisses(100000, 20);
    expect(few).toBeGreaterThan(0);
    expect(many / 100000).toBeGreaterThan(few / 1000);
    // A filter far too small misses nearly every state after the first few.
    expect(expectedMisses(1e6, 10)).toBeGreaterThan(0.9e6);
  });

  it('multiplies the per-state chances of independent runs, and a truncated run lowers nothing', () => {
    const report = mergeSwarm('s', 'model', [run(1, 1000, 1), run(0, 1000, 10)]);
    expect(report.runs.map((r) => r.run)).toEqual([0, 1]);
    expect(report.missPerState).toBeCloseTo(0.01 * 0.001, 12);
    expect(report.expectedMissed).toBeCloseTo(1000 * 1e-5, 9);
    const truncated = mergeSwarm('s', 'model', [run(0, 1000, 1, true)]);
    expect(truncated.missProbability).toBe(1);
    expect(() => mergeSwarm('s', 'model', [run(0, 1, 0), run(0, 1, 0)])).toThrow('twice');
  });
});
