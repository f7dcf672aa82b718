import { describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { check } from '../judging/check.ts';
import { compiledFor } from '../model/compiled.ts';
import { exploreCompiled } from '../model/compiled-explore.ts';
import { systemCodec } from '../model/encoding.ts';
import { systemModel } from '../model/system-model.ts';
import { completion } from '../report/report.ts';
import { explore } from './explore.ts';
import { exploreBitstate, exploreHashCompact } from './explore-bitstate.ts';

describe('exploreBitstate', () => {
  const model = systemModel(scopeByName('admin-finalize'));
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

describe('exploreHashCompact', () => {
  const model = systemModel(scopeByName('quick'));

  it('finds every state of the exact search, yet never calls itself complete, with the chance of a miss', () => {
    const small = systemModel(scopeByName('admin-finalize'));
    const smallCodec = systemCodec(small);
    const exact = explore(small, { codec: smallCodec });
    const result = exploreHashCompact(small, { codec: smallCodec });
    expect(result).toMatchObject({
      states: exact.states,
      transitions: exact.transitions,
      depth: exact.depth,
      complete: false,
      stopReason: 'hash-compact',
    });
    const n = exact.states;
    expect(result.hashCompact.stored).toBe(n);
    expect(result.hashCompact.expectedMissed).toBeCloseTo((n * (n - 1)) / 2 ** 65, 30);
    expect(result.hashCompact.missProbability).toBeGreaterThan(0);
    expect(result.hashCompact.missProbability).toBeLessThan(1e-9);
    expect(small.key(result.stateAt(n - 1))).toBe(small.key(exact.stateAt(n - 1)));
  });

  it('on the compiled search: the same states, and traces replayed by successor positions', () => {
    const exact = exploreCompiled(compiledFor(model), {});
    const compact = exploreCompiled(compiledFor(model), { hashCompact: true });
    expect(compact).toMatchObject({
      states: exact.states,
      transitions: exact.transitions,
      depth: exact.depth,
      complete: false,
      stopReason: 'hash-compact',
    });
    for (const index of [0, 1, Math.floor(exact.states / 2), exact.states - 1]) {
      const replayed = compact.traceTo(index);
      const expected = exact.traceTo(index);
      expect(replayed.steps.map((s) => s.event.label)).toEqual(expected.steps.map((s) => s.event.label));
      expect(model.key(compact.stateAt(index))).toBe(model.key(exact.stateAt(index)));
    }
  });

  it('judged by check: the verdicts of the exact search, the run not a proof', () => {
    // admin-finalize: some properties hold there and two are violated, so both kinds of verdict are compared.
    const small = systemModel(scopeByName('admin-finalize'));
    const exact = check(small, safetyProperties);
    expect(exact.properties.some((p) => p.status === 'violated')).toBe(true);
    const compact = check(small, safetyProperties, { hashCompact: true });
    expect(compact.complete).toBe(false);
    expect(compact.stopReason).toBe('hash-compact');
    expect(completion(compact)).toMatch(/^not a proof/);
    expect(compact.properties.map((p) => [p.property.id, p.status, p.witnesses])).toEqual(
      exact.properties.map((p) => [p.property.id, p.status, p.witnesses]),
    );
  });
});
