import { describe, expect, it } from 'vitest';
import { edgeTable } from '../../test-support/edge-table.ts';
import { referenceFigures } from '../../test-support/reference-figures.ts';
import { expectStoppedByMemoryGuard, runScript } from '../../test-support/run-command.ts';
import { expectTraceOfRealSteps } from '../../test-support/trace.ts';
import { referenceModel } from '../judging/reference-model.ts';
import { explore } from './explore.ts';
import type { ExplorableModel, Progress } from './model.ts';

/** A diamond with a back edge and a self-loop: 0 -a-> 1 -c-> 3, 0 -b-> 2 -d-> 3, 3 -e-> 4 -f-> 0, 3 -g-> 3. */
const edges = edgeTable('0 -a-> 1, 0 -b-> 2, 1 -c-> 3, 2 -d-> 3, 3 -e-> 4, 3 -g-> 3, 4 -f-> 0');
const diamond: ExplorableModel<{ id: number }, string> = {
  initialStates: () => [{ id: 0 }, { id: 0 }],
  successors: (state, emit) => {
    for (const [event, next] of edges[state.id]) emit(event, { id: next });
  },
  key: (state) => String(state.id),
};

describe('explore (string keys)', () => {
  it('visits each distinct state once, counts every edge and measures depth in BFS layers', () => {
    const result = explore(diamond);
    expect(result).toMatchObject({ states: 5, transitions: 7, depth: 3, complete: true });
    expect(result.stopReason).toBeUndefined();
    expect([0, 1, 2, 3, 4].map((index) => result.depthOf(index))).toEqual([0, 1, 1, 2, 3]);
  });

  it('returns shortest traces from the initial state, and traces to an edge through its before-state', () => {
    const result = explore(diamond);
    const index = result.indexOfKey('4')!;
    expect(result.traceTo(index)).toEqual({
      initial: { id: 0 },
      steps: [
        { event: 'a', state: { id: 1 } },
        { event: 'c', state: { id: 3 } },
        { event: 'e', state: { id: 4 } },
      ],
    });
    expect(result.traceTo(0)).toEqual({ initial: { id: 0 }, steps: [] });
    expect(result.traceToEdge(index, 'f', { id: 0 }).steps.map((step) => step.event)).toEqual([
      'a',
      'c',
      'e',
      'f',
    ]);
    expect(() => result.traceTo(5)).toThrow(RangeError);
  });

  it('reports states on discovery and edges with their indices and novelty', () => {
    const states: [number, number, number][] = [];
    const edgesSeen: string[] = [];
    explore(diamond, {
      onState: (state, index, depth) => {
        states.push([state.id, index, depth]);
      },
      onEdge: (before, event, after, beforeIndex, afterIndex, isNew) => {
        edgesSeen.push(`${before.id}${event}${after.id}:${beforeIndex}>${afterIndex}${isNew ? '*' : ''}`);
      },
    });
    expect(states).toEqual([
      [0, 0, 0],
      [1, 1, 1],
      [2, 2, 1],
      [3, 3, 2],
      [4, 4, 3],
    ]);
    expect(edgesSeen).toEqual([
      '0a1:0>1*',
      '0b2:0>2*',
      '1c3:1>3*',
      '2d3:2>3',
      '3e4:3>4*',
      '3g3:3>3',
      '4f0:4>0',
    ]);
  });

  it('stops early when a callback returns false or the signal is aborted', () => {
    const byState = explore(diamond, { onState: (state) => state.id !== 3 });
    expect(byState).toMatchObject({ complete: false, stopReason: 'stopped', states: 4 });
    expect(byState.traceTo(3).steps).toHaveLength(2);
    const byEdge = explore(diamond, { onEdge: (_b, event) => event !== 'd' });
    expect(byEdge).toMatchObject({ complete: false, stopReason: 'stopped', transitions: 4 });
    const controller = new AbortController();
    controller.abort();
    expect(explore(diamond, { signal: controller.signal })).toMatchObject({
      complete: false,
      stopReason: 'interrupted',
    });
  });

  it('holds no more than maxStates states, and completes when the space fits exactly', () => {
    const capped = explore(referenceModel(3).explorable, { maxStates: 100 });
    expect(capped).toMatchObject({ states: 100, complete: false, stopReason: 'max-states' });
    expect(capped.traceTo(99).steps).toHaveLength(capped.depthOf(99));
    expect(explore(referenceModel(1).explorable, { maxStates: 13 })).toMatchObject({
      states: 13,
      complete: true,
    });
  });

  it('stops cleanly on the memory guard instead of running out of memory', () => {
    const result = explore(referenceModel(4).explorable, { maxHeapBytes: 1 });
    expect(result).toMatchObject({ complete: false, stopReason: 'memory' });
    expect(result.states).toBeLessThan(28561);
  });

  it('hands progress to a callback at least once, at the end', () => {
    const seen: Progress[] = [];
    explore(referenceModel(2).explorable, { progress: (p) => seen.push(p) });
    expect(seen.at(-1)).toMatchObject({ states: 169, queue: 0, transitions: 494, depth: 14 });
  });

  it.each(referenceFigures)(
    'pins the reference model with $copies copies',
    ({ copies, states, transitions, depth }) => {
      const model = referenceModel(copies);
      const result = explore(model.explorable);
      expect(result).toMatchObject({ states, transitions, depth, complete: true });
      expect(states).toBe(model.expectedStates);
      // The deepest state: every copy terminating with two objects left, 7 steps each.
      const deepest = result.indexOfKey(new Array(copies).fill(12).join('.'))!;
      expect(result.depthOf(deepest)).toBe(depth);
      const trace = result.traceTo(deepest);
      expect(trace.steps).toHaveLength(depth);
      expectTraceOfRealSteps(
        trace,
        (state, emit) => model.explorable.successors(state, emit),
        model.explorable.key,
      );
    },
  );
});

describe('the memory guard under a small heap', () => {
  it('stops before V8 aborts at --max-old-space-size=128, with the states found so far', async () => {
    const run = await runScript('checker/fixtures/explore-until-guard.ts', [], {
      env: { NODE_OPTIONS: '--max-old-space-size=128' },
    });
    expectStoppedByMemoryGuard(run, 0);
  }, 60_000);
});

describe('explore with a canonical(state) hook (symmetry reduction)', () => {
  // Two interchangeable counters, each 0..2: 9 states, 6 up to swapping them.
  const counters: ExplorableModel<[number, number], string> = {
    initialStates: () => [[0, 0]],
    successors: ([a, b], emit) => {
      if (a < 2) emit('a+', [a + 1, b]);
      if (b < 2) emit('b+', [a, b + 1]);
    },
    key: (state) => state.join(','),
  };

  it('keeps one state per orbit: onState sees the representative, onEdge the concrete successor', () => {
    const seen: string[] = [];
    const stepped: string[] = [];
    const full = explore(counters);
    const reduced = explore(
      { ...counters, canonical: ([a, b]): [number, number] => (a <= b ? [a, b] : [b, a]) },
      {
        onState: (state) => void seen.push(state.join(',')),
        onEdge: (_before, _event, after) => void stepped.push(after.join(',')),
      },
    );
    expect(full.states).toBe(9);
    expect(reduced).toMatchObject({ states: 6, depth: 4, complete: true });
    expect(seen).not.toContain('1,0');
    expect(seen).toContain('0,1');
    expect(stepped).toContain('1,0');
    expect(reduced.indexOfKey('1,0')).toBeUndefined();
    expect(reduced.indexOfKey('0,1')).toBeDefined();
  });
});
