import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, assign, type EventObject, setup } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { referenceEvents, referenceNamespaceMachine } from '../../machines/reference/namespace-reference.ts';
import { canonicalKey, snapshotKey, tabulate } from './tabulate.ts';

describe('canonicalKey', () => {
  it('sorts object keys at every depth, so field order never splits a state', () => {
    expect(canonicalKey({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalKey({ x: 1, y: 2 })).toBe(canonicalKey({ y: 2, x: 1 }));
  });

  it('treats sets as sorted collections and drops undefined fields as JSON does', () => {
    expect(canonicalKey(new Set(['b', 'a']))).toBe(canonicalKey(new Set(['a', 'b'])));
    expect(canonicalKey({ a: 1, gone: undefined })).toBe(canonicalKey({ a: 1 }));
    expect(canonicalKey(new Map([['k', 1]]))).toBe('{"$map":[["k",1]]}');
  });

  it('keeps array order, which is meaningful (pending initializers run in order)', () => {
    expect(canonicalKey(['a', 'b'])).not.toBe(canonicalKey(['b', 'a']));
  });
});

const toggle = setup({
  types: {
    context: {} as { flips: number },
    events: {} as { type: 'FLIP' } | { type: 'RESET' } | { type: 'NOOP' },
  },
  guards: { belowLimit: ({ context }) => context.flips < 3 },
  actions: {
    countFlip: assign({ flips: ({ context }) => context.flips + 1 }),
    resetCount: assign({ flips: 0 }),
  },
}).createMachine({
  id: 'toggle',
  context: { flips: 0 },
  initial: 'off',
  states: {
    off: {
      on: {
        FLIP: { guard: 'belowLimit', target: 'on', actions: 'countFlip', meta: { requirements: ['T-1'] } },
        RESET: { actions: 'resetCount' },
      },
    },
    on: { on: { FLIP: { guard: 'belowLimit', target: 'off', actions: 'countFlip' } } },
  },
});
const toggleEvents = [{ type: 'FLIP' }, { type: 'RESET' }, { type: 'NOOP' }] as const;

describe('tabulate', () => {
  it('finds every reachable snapshot and marks events that take no transition with -1', () => {
    const table = tabulate(toggle, toggleEvents);
    expect(table.states.map((s) => [s.value, (s.context as { flips: number }).flips])).toEqual([
      ['off', 0],
      ['on', 1],
      ['off', 2],
      ['on', 3],
    ]);
    const row = (state: number) => Array.from(table.next.slice(state * 3, state * 3 + 3));
    expect(row(0)).toEqual([1, 0, -1]); // RESET at 0 is enabled: a self-loop, not "ignored"
    expect(row(3)).toEqual([-1, -1, -1]);
    expect(table.transitionCount).toBe(5);
    expect(table.actions[0]).toEqual(['countFlip']);
    expect(table.requirements[0]).toEqual(['T-1']);
    expect(table.actions[2]).toEqual([]);
    expect(table.indexOfKey(table.states[2].key)).toBe(2);
  });

  it('tabulates the reference namespace into its 13 states and 19 transitions', () => {
    const table = tabulate(referenceNamespaceMachine, referenceEvents);
    expect(table.states).toHaveLength(13);
    expect(table.transitionCount).toBe(19);
    expect(table.initial).toBe(0);
    expect(table.states[0].value).toBe('absent');
  });

  it('refuses machines larger than the given bound', () => {
    expect(() => tabulate(toggle, toggleEvents, { maxStates: 2 })).toThrow(/more than 2/);
  });

  it('reaches the same states and edges as xstate/graph getAdjacencyMap on a toggle', () => {
    expectSameGraph(toggle, toggleEvents);
  });

  it('reaches the same states and edges as xstate/graph getAdjacencyMap on the reference namespace', () => {
    expectSameGraph(referenceNamespaceMachine, referenceEvents);
  });
});

function expectSameGraph(machine: AnyStateMachine, events: readonly EventObject[]) {
  const table = tabulate(machine, events);
  const adjacency = getAdjacencyMap(machine, { events: [...events] });
  const graphKeys = new Set(Object.values(adjacency).map(({ state }) => snapshotKey(state)));
  expect(new Set(table.states.map((s) => s.key))).toEqual(graphKeys);
  // Every enabled table entry is an edge of the graph to the same state.
  for (const { state, transitions } of Object.values(adjacency)) {
    const edges = Object.values(transitions) as {
      event: EventObject;
      state: { value: unknown; context: unknown };
    }[];
    const from = table.indexOfKey(snapshotKey(state))!;
    events.forEach((event, eventIndex) => {
      const target = table.next[from * events.length + eventIndex];
      if (target < 0) return;
      const edge = edges.find((t) => canonicalKey(t.event) === canonicalKey(event));
      expect(edge && snapshotKey(edge.state)).toBe(table.states[target].key);
    });
  }
}
