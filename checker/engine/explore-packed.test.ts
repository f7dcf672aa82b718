import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { scopeByName } from '../cli/scope-file.ts';
import { systemCodec } from '../model/encoding.ts';
import { systemModel } from '../model/system-model.ts';
import { hashLanes } from './codec.ts';
import { explore } from './explore.ts';
import { chunkSize, LaneLayout, PackedVisitedTable } from './visited.ts';

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
    'finds every state it holds at its insertion index, and no other, across every widening of its lanes',
    (states) => {
      const table = new PackedVisitedTable(3, hashLanes);
      const expected = new Map<string, number>();
      const probe = new Uint32Array(3);
      const out = new Uint32Array(3);
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
        table.lanesAt(index, out);
        expect([...out].join(',')).toBe(key);
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

  it('keeps each lane as wide as its largest value: two lanes of up to 40,000 and 5,000 take one word', () => {
    const table = new PackedVisitedTable(2, hashLanes);
    const probe = new Uint32Array(2);
    for (let i = 0; i < 40_000; i++) {
      probe[0] = i;
      probe[1] = i >>> 3;
      table.add(probe, hashLanes(probe, 0, 2));
    }
    // 16 + 13 bits: one 32-bit word per state; the table of indices at most 1.5 / (2 / 3) slots per state.
    expect(table.wordsPerState).toBe(1);
    expect(table.bytes).toBeLessThanOrEqual(3 * chunkSize * 4 + 40_000 * 4 * 2);
  });

  // Values at the edges of every lane width: 0, 2^b - 1 and 2^b for b = 1 .. 31, and 2^32 - 1.
  const edges = [0, 1, 2, 3, 4, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff];
  for (let b = 1; b < 32; b++) edges.push(2 ** b - 1, 2 ** b);

  it('round-trips lanes at the edges of every width, the state added after each widening included', () => {
    const width = 5;
    const table = new PackedVisitedTable(width, hashLanes);
    const probe = new Uint32Array(width);
    const out = new Uint32Array(width);
    const added: number[][] = [];
    // A deterministic walk over the edge values, lane by lane, so each lane widens many times.
    for (let i = 0; i < edges.length * width; i++) {
      for (let k = 0; k < width; k++) probe[k] = edges[(i * (k + 1) + k) % edges.length];
      const hash = hashLanes(probe, 0, width);
      if (table.indexOf(probe, hash) >= 0) continue;
      expect(table.add(probe, hash)).toBe(added.length);
      added.push([...probe]);
    }
    expect(added.length).toBeGreaterThanOrEqual(edges.length);
    expect(table.wordsPerState).toBe(width);
    for (const [index, lanes] of added.entries()) {
      table.lanesAt(index, out);
      expect([...out]).toEqual(lanes);
      probe.set(lanes);
      expect(table.indexOf(probe, hashLanes(probe, 0, width))).toBe(index);
    }
  });

  // Hashes that send every state to the first slots: equal hashes (same slot, same tag), and hashes
  // that differ only in their low bits (same slot, each its own tag).
  const crowded: [string, (lanes: Uint16Array | Uint32Array) => number][] = [
    ['three hashes in all', (lanes) => lanes[0] % 3],
    ['hashes equal but in their low bits', (lanes) => lanes[0] & 0xfff],
  ];
  for (const [name, hash] of crowded)
    it(`finds each state by its words, not its hash, when ${name}`, () => {
      const table = new PackedVisitedTable(2, hash);
      const probe = new Uint32Array(2);
      const out = new Uint32Array(2);
      const count = 3000;
      for (let i = 0; i < count; i++) {
        probe[0] = i;
        probe[1] = i % 7;
        expect(table.indexOf(probe, hash(probe))).toBe(-1);
        expect(table.add(probe, hash(probe))).toBe(i);
      }
      for (let i = 0; i < count; i++) {
        probe[0] = i;
        probe[1] = i % 7;
        expect(table.indexOf(probe, hash(probe))).toBe(i);
        table.lanesAt(i, out);
        expect([...out]).toEqual([i, i % 7]);
        // Same hash, other words: absent.
        probe[1] = (i % 7) + 1;
        expect(table.indexOf(probe, hash(probe))).toBe(-1);
      }
    });

  it('sized for the states expected, holds them without growing its table, and grows past them', () => {
    const expected = 3 * chunkSize + 100;
    const presized = new PackedVisitedTable(2, hashLanes, expected);
    const grown = new PackedVisitedTable(2, hashLanes);
    const probe = new Uint32Array(2);
    // A table growth is announced with more bytes than a chunk (one word per state here).
    const chunkBytes = chunkSize * 4;
    let presizedGrowths = 0;
    let grownGrowths = 0;
    for (let i = 0; i < expected; i++) {
      probe[0] = i;
      probe[1] = i & 0xff;
      const hash = hashLanes(probe, 0, 2);
      if (presized.nextGrowthBytes() > chunkBytes || presized.nextGrowthBytes() % chunkBytes !== 0)
        presizedGrowths++;
      if (grown.nextGrowthBytes() > chunkBytes || grown.nextGrowthBytes() % chunkBytes !== 0) grownGrowths++;
      expect(presized.add(probe, hash)).toBe(i);
      grown.add(probe, hash);
    }
    expect(presizedGrowths).toBe(0);
    expect(grownGrowths).toBeGreaterThan(3);
    for (let i = 0; i < expected; i++) {
      probe[0] = i;
      probe[1] = i & 0xff;
      expect(presized.indexOf(probe, hashLanes(probe, 0, 2))).toBe(i);
    }
    // Load one half at the count expected; it grows once a third more are added.
    for (let i = expected; i < 2 * expected; i++) {
      probe[0] = i;
      probe[1] = i & 0xff;
      presized.add(probe, hashLanes(probe, 0, 2));
    }
    for (let i = 0; i < 2 * expected; i += 97) {
      probe[0] = i;
      probe[1] = i & 0xff;
      expect(presized.indexOf(probe, hashLanes(probe, 0, 2))).toBe(i);
    }
  });

  it('finds no state whose lane is wider than any stored, without widening', () => {
    const table = new PackedVisitedTable(2, hashLanes);
    const probe = new Uint32Array([3, 0]);
    table.add(probe, hashLanes(probe, 0, 2));
    expect(table.wordsPerState).toBe(1);
    probe.set([4, 0]);
    expect(table.indexOf(probe, hashLanes(probe, 0, 2))).toBe(-1);
    probe.set([3, 1]);
    expect(table.indexOf(probe, hashLanes(probe, 0, 2))).toBe(-1);
    probe.set([3, 0]);
    expect(table.indexOf(probe, hashLanes(probe, 0, 2))).toBe(0);
  });
});

describe('LaneLayout', () => {
  it('lays lanes out in order, each as wide as asked, none straddling a word', () => {
    const layout = new LaneLayout(Uint8Array.from([4, 0, 9, 20, 32, 1]));
    expect([...layout.word]).toEqual([0, 0, 0, 1, 2, 3]);
    expect([...layout.shift]).toEqual([0, 4, 4, 0, 0, 0]);
    expect(layout.words).toBe(4);
    const lanes = Uint32Array.from([15, 0, 511, 2 ** 20 - 1, 2 ** 32 - 1, 1]);
    const packed = new Uint32Array(4);
    expect(layout.pack(lanes, packed, 0)).toBe(true);
    const out = new Uint32Array(6);
    layout.unpack(packed, 0, out, 0);
    expect([...out]).toEqual([...lanes]);
    expect(layout.pack(Uint32Array.from([16, 0, 0, 0, 0, 0]), packed, 0)).toBe(false);
    expect(layout.pack(Uint32Array.from([0, 1, 0, 0, 0, 0]), packed, 0)).toBe(false);
  });

  it('takes one word for lanes that are all zero', () => {
    expect(new LaneLayout(new Uint8Array(13)).words).toBe(1);
  });
});
