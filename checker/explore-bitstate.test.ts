import { describe, expect, it } from 'vitest';
import { SystemModel } from '../machines/system.ts';
import { systemCodec } from './encoding.ts';
import { explore } from './explore.ts';
import { exploreBitstate } from './explore-bitstate.ts';
import { scopeByName } from './scope-file.ts';

describe('exploreBitstate', () => {
  const model = new SystemModel(scopeByName('admin-finalize'));
  const codec = systemCodec(model);
  const exact = explore(model, { codec });

  it('with ample bits finds every state at the same depths, yet never calls itself complete', () => {
    const result = exploreBitstate(model, { codec, log2Bits: 24 });
    expect(result).toMatchObject({
      states: exact.states,
      transitions: exact.transitions,
      depth: exact.depth,
      complete: false,
      stopReason: 'bitstate',
    });
    expect(result.bitstate.missProbability).toBeGreaterThan(0);
    expect(result.bitstate.missProbability).toBeLessThan(1e-6);
    expect(result.bitstate.hashFactor).toBeGreaterThan(1000);
  });

  it('rebuilds shortest traces by replaying successor positions', () => {
    const result = exploreBitstate(model, { codec, log2Bits: 24 });
    for (const index of [0, 1, exact.states - 1]) {
      const replayed = result.traceTo(index);
      const expected = exact.traceTo(index);
      expect(replayed.steps.map((s) => s.event)).toEqual(expected.steps.map((s) => s.event));
      expect(model.key(result.stateAt(index))).toBe(model.key(exact.stateAt(index)));
    }
    expect(() => result.indexOfKey('any')).toThrow(/no index/);
  });

  it('with a tiny bit array misses states and says how likely that was', () => {
    const result = exploreBitstate(model, { codec, log2Bits: 10, hashes: 2 });
    expect(result.states).toBeLessThan(exact.states);
    expect(result.complete).toBe(false);
    expect(result.bitstate.expectedMissed).toBeGreaterThan(1);
    expect(result.bitstate.missProbability).toBeGreaterThan(0.5);
  });

  it('stops at --max-states with that reason and a usable partial result', () => {
    const result = exploreBitstate(model, { codec, maxStates: 50 });
    expect(result).toMatchObject({ states: 50, complete: false, stopReason: 'max-states' });
    expect(result.traceTo(49).steps.length).toBe(result.depthOf(49));
  });

  it('refuses sizes it cannot address, with the accepted range', () => {
    expect(() => exploreBitstate(model, { codec, log2Bits: 40 })).toThrow(/\[10, 35\]/);
    expect(() => exploreBitstate(model, { codec, log2Bits: 30, maxHeapBytes: 64 * 2 ** 20 })).toThrow(
      /2\^30 bits \(128 MiB\) does not fit under the memory limit/,
    );
  });
});
