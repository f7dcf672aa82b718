import { describe, expect, it } from 'vitest';
import { referenceFigures } from '../../test-support/reference-figures.ts';
import { expectTraceOfRealSteps } from '../../test-support/trace.ts';
import { referenceModel } from '../judging/reference-model.ts';
import { explore } from './explore.ts';
import { exploreDense } from './explore-dense.ts';
import type { DenseModel } from './model.ts';

/** The diamond of explore.test.ts on codes: 0 -0-> 1 -2-> 3, 0 -1-> 2 -3-> 3, 3 -4-> 4 -5-> 0, 3 -6-> 3. */
const edges: [number, number][][] = [
  [
    [0, 1],
    [1, 2],
  ],
  [[2, 3]],
  [[3, 3]],
  [
    [4, 4],
    [6, 3],
  ],
  [[5, 0]],
];
const diamond: DenseModel = {
  size: 5,
  initialStates: () => [0, 0],
  successors: (code, emit) => {
    for (const [event, next] of edges[code]) emit(event, next);
  },
};

describe('exploreDense (integer codes)', () => {
  it('visits each code once, counts every edge and measures depth in BFS layers', () => {
    const result = exploreDense(diamond);
    expect(result).toMatchObject({ states: 5, transitions: 7, depth: 3, complete: true });
    expect([0, 1, 2, 3, 4].map((index) => [result.codeAt(index), result.depthOf(index)])).toEqual([
      [0, 0],
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 3],
    ]);
    expect(result.visited(4)).toBe(true);
    expect(result.visited(5)).toBe(false);
  });

  it('returns shortest traces of event ids and codes, and traces to an edge', () => {
    const result = exploreDense(diamond);
    expect(result.traceTo(4)).toEqual({
      initial: 0,
      steps: [
        { event: 0, state: 1 },
        { event: 2, state: 3 },
        { event: 4, state: 4 },
      ],
    });
    expect(result.traceToEdge(4, 5, 0).steps).toHaveLength(4);
    expect(() => result.traceTo(-1)).toThrow(RangeError);
  });

  it('reports new states with their index and edges to known states with index -1', () => {
    const seen: string[] = [];
    exploreDense(diamond, {
      onState: (code, index, depth) => {
        seen.push(`s${code}@${index}/${depth}`);
      },
      onEdge: (before, event, after, beforeIndex, afterIndex, isNew) => {
        seen.push(`${before}-${event}->${after}:${beforeIndex}>${afterIndex}${isNew ? '*' : ''}`);
      },
    });
    expect(seen).toEqual([
      's0@0/0',
      '0-0->1:0>1*',
      's1@1/1',
      '0-1->2:0>2*',
      's2@2/1',
      '1-2->3:1>3*',
      's3@3/2',
      '2-3->3:2>-1',
      '3-4->4:3>4*',
      's4@4/3',
      '3-6->3:3>-1',
      '4-5->0:4>-1',
    ]);
  });

  it('stops early on a callback, on maxStates and on the memory guard, without crashing', () => {
    expect(exploreDense(diamond, { onState: (code) => code !== 2 })).toMatchObject({
      states: 3,
      complete: false,
      stopReason: 'stopped',
    });
    const model = referenceModel(4).dense;
    const capped = exploreDense(model, { maxStates: 1000 });
    expect(capped).toMatchObject({ states: 1000, complete: false, stopReason: 'max-states' });
    expect(capped.traceTo(999).steps).toHaveLength(capped.depthOf(999));
    expect(exploreDense(referenceModel(1).dense, { maxStates: 13 })).toMatchObject({
      states: 13,
      complete: true,
    });
    const guarded = exploreDense(model, { maxHeapBytes: 1 });
    expect(guarded).toMatchObject({ complete: false, stopReason: 'memory' });
    expect(guarded.states).toBeLessThan(28561);
  });

  it('refuses successors outside the model', () => {
    const broken: DenseModel = { size: 2, initialStates: () => [0], successors: (_code, emit) => emit(0, 2) };
    expect(() => exploreDense(broken)).toThrow(RangeError);
  });

  it.each(referenceFigures)(
    'pins the reference model with $copies copies, state for state with explore()',
    ({ copies, states, transitions, depth }) => {
      const model = referenceModel(copies);
      // Same successor order, so both engines discover the same states in the same order.
      const generic = explore(model.explorable);
      const dense = exploreDense(model.dense);
      expect(dense).toMatchObject({ states, transitions, depth, complete: true });
      expect(dense.structureBytes / states).toBeLessThan(16);
      const denseOrder = Array.from({ length: states }, (_, index) => dense.codeAt(index));
      const genericOrder = Array.from({ length: states }, (_, index) => model.encode(generic.stateAt(index)));
      expect(denseOrder).toEqual(genericOrder);
      const deepest = dense.states - 1;
      const trace = dense.traceTo(deepest);
      expect(trace.steps).toHaveLength(depth);
      expectTraceOfRealSteps(trace, (code, emit) => model.dense.successors(code, emit));
      expect(trace.steps.map(({ event }) => model.describeStep(model.step(event)))).toHaveLength(depth);
    },
  );
});
