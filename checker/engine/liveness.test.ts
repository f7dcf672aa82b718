import { describe, expect, it } from 'vitest';
import { type EdgeTable, edgeTable } from '../../test-support/edge-table.ts';
import { checkGoal, deadlocks, type FairnessCondition, type Lasso } from './liveness.ts';
import type { ExplorableModel } from './model.ts';
import { buildStateGraph, stronglyConnectedComponents } from './state-graph.ts';

/** A model given as a table: state -> [event, next][]; states are their numbers. */
function tableModel(table: EdgeTable, initial = 0): ExplorableModel<number, string> {
  return {
    initialStates: () => [initial],
    successors: (s, emit) => {
      for (const [event, next] of table[s] ?? []) emit(event, next);
    },
    key: (s) => String(s),
  };
}

const weak = (name: string, events: string[]): FairnessCondition<string> => ({
  kind: 'weak',
  name,
  matches: (e) => events.includes(e),
});
const strong = (name: string, events: string[]): FairnessCondition<string> => ({
  kind: 'strong',
  name,
  matches: (e) => events.includes(e),
});

/** Checks a lasso is a real run of the table: every step an edge (or a stutter), the loop closes. */
function expectRunOf(table: EdgeTable, lasso: Lasso<number, string>): void {
  let at = lasso.initial;
  const before: number[] = [];
  for (const step of lasso.steps) {
    before.push(at);
    if (step.event === null) expect(step.state).toBe(at);
    else expect(table[at]).toContainEqual([step.event, step.state]);
    at = step.state;
  }
  const loopEntry = lasso.loopStart === 0 ? lasso.initial : lasso.steps[lasso.loopStart - 1].state;
  expect(at).toBe(loopEntry);
  expect(lasso.steps.length).toBeGreaterThan(lasso.loopStart);
}

/** A worker cycles 0 -> 1 -> 2 -> 0; in state 1 an idle step can repeat forever. */
const fairLoop = edgeTable('0 -a-> 1, 1 -b-> 2, 1 -idle-> 1, 2 -c-> 0');

/** A holds and releases a lock forever; B can take it only while it is free (state 0). */
const starvation = edgeTable('0 -A-take-> 1, 0 -B-take-> 2, 1 -A-release-> 0, 2 -B-done-> 2');

describe('checkGoal on fixture models', () => {
  it('a fair loop returns to its start: []<> state 0 holds under WF(worker)', () => {
    const graph = buildStateGraph(tableModel(fairLoop));
    const verdict = checkGoal(graph, { q: (s) => graph.search.stateAt(s) === 0 }, [
      weak('worker', ['a', 'b', 'c']),
    ]);
    expect(verdict.triggers).toBe(2);
    expect(verdict.lasso).toBeUndefined();
  });

  it('without fairness the same loop fails with a stuttering lasso at the first pending state', () => {
    const graph = buildStateGraph(tableModel(fairLoop));
    const verdict = checkGoal(graph, { q: (s) => graph.search.stateAt(s) === 0 }, []);
    const lasso = verdict.lasso;
    if (!lasso) throw new Error('expected a lasso');
    expect(lasso).toEqual({
      initial: 0,
      steps: [
        { event: 'a', state: 1 },
        { event: null, state: 1 },
      ],
      loopStart: 1,
    });
    expectRunOf(fairLoop, lasso);
  });

  it('fairness on the idle step alone lets the idle self-loop starve the worker', () => {
    const graph = buildStateGraph(tableModel(fairLoop));
    const verdict = checkGoal(graph, { q: (s) => graph.search.stateAt(s) === 0 }, [weak('idler', ['idle'])]);
    expect(verdict.lasso?.steps).toEqual([
      { event: 'a', state: 1 },
      { event: 'idle', state: 1 },
    ]);
    expect(verdict.lasso?.loopStart).toBe(1);
  });

  it('weak fairness does not save B from starvation: A takes the lock forever (B is disabled while A holds it)', () => {
    const graph = buildStateGraph(tableModel(starvation));
    const verdict = checkGoal(graph, { q: (s) => graph.search.stateAt(s) === 2 }, [
      weak('A', ['A-take', 'A-release']),
      weak('B', ['B-take']),
    ]);
    const lasso = verdict.lasso;
    if (!lasso) throw new Error('expected a lasso');
    expectRunOf(starvation, lasso);
    expect(lasso.loopStart).toBe(0);
    expect(lasso.steps.map((s) => s.event)).toEqual(['A-take', 'A-release']);
  });

  it('strong fairness for B removes the starvation: the goal holds', () => {
    const graph = buildStateGraph(tableModel(starvation));
    const verdict = checkGoal(graph, { q: (s) => graph.search.stateAt(s) === 2 }, [
      weak('A', ['A-take', 'A-release']),
      strong('B', ['B-take']),
    ]);
    expect(verdict.lasso).toBeUndefined();
    expect(verdict.triggers).toBe(2);
  });

  it('a leads-to whose premise is never reached has no triggers (vacuous), whatever the fairness', () => {
    const graph = buildStateGraph(tableModel(starvation));
    const verdict = checkGoal(graph, { p: (s) => graph.search.stateAt(s) === 7, q: () => false }, []);
    expect(verdict).toEqual({ triggers: 0, onlyAtHorizon: false });
  });

  it('the prefix is a shortest one: a long and a short road lead to the same bad cycle', () => {
    // 0 -> 1 -> 2 -> 3 -> 9 (long), 0 -> 5 -> 9 (short); 9 <-> 10 cycle; q holds nowhere past the start.
    const roads = edgeTable(
      '0 -long-> 1, 0 -short-> 5, 1 -l2-> 2, 2 -l3-> 3, 3 -l4-> 9, 5 -s2-> 9, 9 -spin-> 10, 10 -spin-> 9',
    );
    const graph = buildStateGraph(tableModel(roads));
    const verdict = checkGoal(
      graph,
      { p: (s) => graph.search.stateAt(s) !== 0, q: (s) => graph.search.stateAt(s) === 0 },
      [weak('everyone', ['long', 'short', 'l2', 'l3', 'l4', 's2', 'spin'])],
    );
    const lasso = verdict.lasso;
    if (!lasso) throw new Error('expected a lasso');
    expectRunOf(roads, lasso);
    expect(lasso.steps.slice(0, lasso.loopStart).map((s) => s.event)).toEqual(['short', 's2']);
    expect(lasso.steps.slice(lasso.loopStart).map((s) => s.event)).toEqual(['spin', 'spin']);
  });

  it('lassos through horizon states are reported as such and tried after the others', () => {
    const graph = buildStateGraph(tableModel(fairLoop));
    const horizon = (s: number) => graph.search.stateAt(s) === 1;
    const verdict = checkGoal(graph, { q: (s) => graph.search.stateAt(s) === 0 }, [], { horizon });
    // State 2 stutters too, outside the horizon, so that real lasso wins.
    expect(verdict.onlyAtHorizon).toBe(false);
    expect(verdict.lasso?.steps.at(-1)).toEqual({ event: null, state: 2 });
    const onlyHorizon = checkGoal(graph, { q: (s) => graph.search.stateAt(s) !== 1 }, [], { horizon });
    expect(onlyHorizon.onlyAtHorizon).toBe(true);
  });
});

describe('deadlocks', () => {
  const stuck = edgeTable('0 -go-> 1, 0 -loop-> 3, 1 -stop-> 2, 3 -spin-> 3');
  it('finds reachable states without successors, first the one with the shortest trace', () => {
    const graph = buildStateGraph(tableModel(stuck));
    const found = deadlocks(graph);
    expect(found.map((s) => graph.search.stateAt(s))).toEqual([2]);
    expect(graph.search.traceTo(found[0]).steps.map((s) => s.event)).toEqual(['go', 'stop']);
  });
  it('a state the model declares terminal is not a deadlock', () => {
    const graph = buildStateGraph(tableModel(stuck));
    expect(deadlocks(graph, (s) => graph.search.stateAt(s) === 2)).toEqual([]);
  });
  it('an incomplete search does not call its unexpanded frontier deadlocked', () => {
    const chain = edgeTable('0 -x-> 1, 1 -x-> 2, 2 -x-> 3, 3 -x-> 3');
    const graph = buildStateGraph(tableModel(chain), { maxStates: 2 });
    expect(graph.complete).toBe(false);
    expect(deadlocks(graph)).toEqual([]);
  });
});

describe('stronglyConnectedComponents', () => {
  it('handles a 200,000-state chain closed into one cycle without recursion', () => {
    const n = 200_000;
    const ring: ExplorableModel<number, string> = {
      initialStates: () => [0],
      successors: (s, emit) => emit('next', (s + 1) % n),
      key: (s) => String(s),
    };
    const graph = buildStateGraph(ring);
    const all = Int32Array.from({ length: n }, (_, i) => i);
    const inside = new Uint8Array(n).fill(1);
    const components = stronglyConnectedComponents(graph, all, inside);
    expect(components).toHaveLength(1);
    expect(components[0]).toHaveLength(n);
  });
  it('splits a graph into its components in reverse topological order', () => {
    const graph = buildStateGraph(tableModel(starvation));
    const all = Int32Array.from({ length: graph.size }, (_, i) => i);
    const components = stronglyConnectedComponents(graph, all, new Uint8Array(graph.size).fill(1));
    const named = components.map((c) => [...c].map((s) => graph.search.stateAt(s)).sort());
    expect(named).toEqual([[2], [0, 1]]);
  });
});
