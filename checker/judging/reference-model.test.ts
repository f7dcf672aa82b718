import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { referenceNamespaceMachine } from '../../machines/reference/namespace-reference.ts';
import { referenceModel } from './reference-model.ts';
import { snapshotKey } from './tabulate.ts';

describe('referenceModel', () => {
  it('has 13^N codes for N copies', () => {
    expect([4, 5, 6].map((copies) => referenceModel(copies).expectedStates)).toEqual([
      28561, 371293, 4826809,
    ]);
    expect(referenceModel(6).dense.size).toBe(4826809);
  });

  it('encodes copies as mixed-radix digits, copy 0 least significant', () => {
    const model = referenceModel(3);
    expect(model.encode([1, 2, 3])).toBe(1 + 2 * 13 + 3 * 169);
    expect(model.decode(model.encode([12, 0, 7]))).toEqual([12, 0, 7]);
    expect(model.dense.initialStates()).toEqual([0]);
  });

  it('offers the same successors in the dense and the string-keyed views', () => {
    const model = referenceModel(3);
    for (const code of [0, 1234, 2196]) {
      const dense: string[] = [];
      model.dense.successors(code, (id, next) => dense.push(`${model.describeStep(model.step(id))}>${next}`));
      const generic: string[] = [];
      model.explorable.successors(model.decode(code), (step, next) =>
        generic.push(`${model.describeStep(step)}>${model.encode(next)}`),
      );
      expect(dense).toEqual(generic);
      expect(dense.length).toBeGreaterThan(0);
    }
  });

  it('steps exactly as the XState machine does, copy by copy', () => {
    const model = referenceModel(2);
    const { table } = model;
    const [absent] = initialTransition(referenceNamespaceMachine);
    let snapshots = [absent, absent];
    let code = 0;
    // Walk a fixed path through the product, comparing the decoded code with the machines' snapshots.
    const path = [0, 10, 1, 11, 2, 3, 4, 4, 5, 15, 6, 6, 7, 8, 9, 18, 17, 19];
    for (const eventId of path) {
      const step = model.step(eventId);
      const [after] = transition(referenceNamespaceMachine, snapshots[step.copy], step.event);
      snapshots = snapshots.map((snapshot, copy) => (copy === step.copy ? after : snapshot));
      const successors = new Map<number, number>();
      model.dense.successors(code, (id, next) => successors.set(id, next));
      expect(successors.has(eventId)).toBe(true);
      code = successors.get(eventId)!;
      expect(model.decode(code).map((local) => table.states[local].key)).toEqual(snapshots.map(snapshotKey));
    }
    expect(code).toBe(0);
    expect(model.describeStep(model.step(18))).toBe('ns1: REMOVE_FINALIZER openshift.com/origin');
  });
});
