import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { scopeByName } from '../cli/scope-file.ts';
import { systemCodec } from '../model/encoding.ts';
import { systemModel } from '../model/system-model.ts';
import { hashLanes } from './codec.ts';
import { explore } from './explore.ts';
import { PackedVisitedTable } from './visited.ts';

// The built-in scopes and three seeded faults, searched with both stores: checker/model/engines-agree.test.ts.
describe('packed states (checker/model/encoding.ts) against string keys', () => {
  it('decodes what it encodes', () => {
    const model = systemModel(scopeByName('quick'));
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
