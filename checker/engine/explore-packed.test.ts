import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { defaultMachines, SystemModel } from '../../machines/system.ts';
import { scopeFor, variantByName } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { loadManifest } from '../judging/manifest.ts';
import { systemCodec } from '../model/encoding.ts';
import { hashLanes } from './codec.ts';
import { explore } from './explore.ts';
import { PackedVisitedTable } from './visited.ts';

/** Both stores on one model: the same states in the same discovery order, the same parents and events. */
function expectSameSearch(model: SystemModel, maxStates?: number) {
  const limits = maxStates === undefined ? {} : { maxStates };
  const keyed = explore(model, limits);
  const packed = explore(model, { ...limits, codec: systemCodec(model) });
  expect(packed).toMatchObject({
    states: keyed.states,
    transitions: keyed.transitions,
    depth: keyed.depth,
    complete: keyed.complete,
  });
  for (let index = 0; index < keyed.states; index++) {
    const key = model.key(keyed.stateAt(index));
    expect(model.key(packed.stateAt(index))).toBe(key);
    expect(packed.indexOfKey(key)).toBe(index);
    expect(packed.depthOf(index)).toBe(keyed.depthOf(index));
  }
  // Shortest traces take the same events through the same states.
  for (const index of [keyed.states - 1, Math.floor(keyed.states / 2), 1]) {
    const a = keyed.traceTo(index);
    const b = packed.traceTo(index);
    expect(b.steps.map((s) => s.event)).toEqual(a.steps.map((s) => s.event));
    expect(b.steps.map((s) => model.key(s.state))).toEqual(a.steps.map((s) => model.key(s.state)));
  }
  return { keyed, packed };
}

const golden = (name: string) => loadManifest().scopes.find((s) => s.name === name);

describe('packed states (checker/model/encoding.ts) against string keys', () => {
  for (const name of ['quick', 'admin-finalize']) {
    it(`explores the ${name} scope identically and meets its golden counts`, () => {
      const { packed } = expectSameSearch(new SystemModel(scopeByName(name)));
      const figures = golden(name);
      if (!figures?.explored) throw new Error(`scopes/${name}.yaml: no explored golden figures`);
      expect(packed).toMatchObject({
        states: figures.states,
        transitions: figures.transitions,
        depth: figures.depth,
        complete: true,
      });
    }, 120_000);
  }

  for (const mutant of ['create-in-terminating', 'initializer-out-of-order', 'stale-configuration-used']) {
    it(`explores the mutant ${mutant} identically`, () => {
      const variant = variantByName(mutant);
      expect(variant).toBeDefined();
      const scope = scopeFor(mutant, scopeByName('quick'));
      const machines = variant?.machines(defaultMachines, scope) ?? defaultMachines;
      expectSameSearch(new SystemModel(scope, machines), 4000);
    }, 120_000);
  }

  it('decodes what it encodes', () => {
    const model = new SystemModel(scopeByName('quick'));
    const codec = systemCodec(model);
    const result = explore(model, { maxStates: 500 });
    const lanes = new Uint32Array(codec.width);
    for (let index = 0; index < result.states; index++) {
      const state = result.stateAt(index);
      codec.encode(state, lanes, 0);
      expect(model.key(codec.decode(lanes, 0))).toBe(model.key(state));
      expect(codec.lanesOfKey?.(model.key(state))).toEqual(lanes);
    }
    expect(codec.lanesOfKey?.('x')).toBeUndefined();
  });
});

describe('PackedVisitedTable', () => {
  test.prop([
    fc.array(fc.array(fc.nat({ max: 70_000 }), { minLength: 3, maxLength: 3 }), { maxLength: 400 }),
  ])(
    'finds every state it holds at its insertion index, and no other, across the 16-to-32-bit widening',
    (states) => {
      const table = new PackedVisitedTable(3, hashLanes);
      const expected = new Map<string, number>();
      const probe = new Uint32Array(3);
      for (const state of states) {
        probe.set(state);
        const hash = hashLanes(probe, 0, 3);
        if (table.indexOf(probe, hash) >= 0) continue;
        expected.set(state.join(','), table.add(probe, hash));
      }
      expect(table.size).toBe(expected.size);
      for (const [key, index] of expected) {
        probe.set(key.split(',').map(Number));
        expect(table.indexOf(probe, hashLanes(probe, 0, 3))).toBe(index);
        const chunk = table.chunkOf(index);
        const offset = table.offsetOf(index);
        expect([...chunk.subarray(offset, offset + 3)].join(',')).toBe(key);
      }
      probe.set([80_000, 0, 0]);
      expect(table.indexOf(probe, hashLanes(probe, 0, 3))).toBe(-1);
    },
  );

  it('announces each table doubling and new chunk before it allocates', () => {
    const table = new PackedVisitedTable(2, hashLanes);
    const probe = new Uint32Array(2);
    let announced = 0;
    for (let i = 0; i < 40_000; i++) {
      if (table.nextGrowthBytes() > 0) announced++;
      probe[0] = i;
      probe[1] = i >>> 3;
      table.add(probe, hashLanes(probe, 0, 2));
    }
    expect(announced).toBeGreaterThanOrEqual(6);
    expect(table.bytes).toBeLessThan(40_000 * 24);
  });
});
