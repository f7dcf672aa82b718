import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { snapshotKey, tabulate } from '../../checker/judging/tabulate.ts';
import { type ReferenceEvent, referenceEvents, referenceNamespaceMachine } from './namespace-reference.ts';
import {
  referenceProductEvents,
  referenceProductLogic,
  serializeReferenceProduct,
} from './namespace-reference-product.ts';

function run(events: ReferenceEvent[]) {
  let [snapshot] = initialTransition(referenceNamespaceMachine);
  for (const event of events) [snapshot] = transition(referenceNamespaceMachine, snapshot, event);
  return snapshot;
}

const removeInitializer = (name: 'quota.example.com' | 'network.example.com' | 'rbac.example.com') =>
  ({ type: 'REMOVE_INITIALIZER', name }) as const;
const removeFinalizer = (name: 'kubernetes' | 'openshift.com/origin') =>
  ({ type: 'REMOVE_FINALIZER', name }) as const;
const initialized: ReferenceEvent[] = [
  { type: 'CREATE' },
  removeInitializer('quota.example.com'),
  removeInitializer('network.example.com'),
  removeInitializer('rbac.example.com'),
];

describe('reference namespace machine', () => {
  it('has exactly 13 distinct states', () => {
    expect(tabulate(referenceNamespaceMachine, referenceEvents).states).toHaveLength(13);
  });

  it('lets only the first pending initializer complete (IN-2)', () => {
    const created = run([{ type: 'CREATE' }]);
    expect(created.can(removeInitializer('network.example.com'))).toBe(false);
    expect(created.can(removeInitializer('quota.example.com'))).toBe(true);
    expect(run(initialized).value).toBe('active');
  });

  it('admits objects only while active, up to the capacity (IN-6, LC-4)', () => {
    expect(run([{ type: 'CREATE' }]).can({ type: 'ADMIT_OBJECT' })).toBe(false);
    const full = run([...initialized, { type: 'ADMIT_OBJECT' }, { type: 'ADMIT_OBJECT' }]);
    expect(full.context.objects).toBe(2);
    expect(full.can({ type: 'ADMIT_OBJECT' })).toBe(false);
    expect(run([...initialized, { type: 'DELETE' }]).can({ type: 'ADMIT_OBJECT' })).toBe(false);
  });

  it('clears pending initializers when deleted while initializing', () => {
    const deleted = run([{ type: 'CREATE' }, { type: 'DELETE' }]);
    expect(deleted.value).toBe('terminating');
    expect(deleted.context.pending).toEqual([]);
  });

  it('removes finalizers only once no object is left, in either order, then purges (LC-5, LC-7, LC-8)', () => {
    const terminating = run([...initialized, { type: 'ADMIT_OBJECT' }, { type: 'DELETE' }]);
    expect(terminating.can(removeFinalizer('kubernetes'))).toBe(false);
    expect(terminating.can({ type: 'PURGE' })).toBe(false);
    const empty = run([
      ...initialized,
      { type: 'ADMIT_OBJECT' },
      { type: 'DELETE' },
      { type: 'DELETE_OBJECT' },
    ]);
    const originFirst = [removeFinalizer('openshift.com/origin'), removeFinalizer('kubernetes')];
    for (const order of [originFirst, [...originFirst].reverse()]) {
      const [first] = transition(referenceNamespaceMachine, empty, order[0]);
      expect(first.can({ type: 'PURGE' })).toBe(false);
      expect(first.can(order[0])).toBe(false);
      const [second] = transition(referenceNamespaceMachine, first, order[1]);
      const [purged] = transition(referenceNamespaceMachine, second, { type: 'PURGE' });
      expect(snapshotKey(purged)).toBe(snapshotKey(run([])));
    }
  });

  it('names the requirements on its transitions', () => {
    const table = tabulate(referenceNamespaceMachine, referenceEvents);
    const cited = [...new Set(table.requirements.flat())].sort();
    expect(cited.join(' ')).toBe('IN-1 IN-2 IN-3 IN-4 IN-5 LC-2 LC-3 LC-5 LC-6 LC-7 LC-8 LC-9 NS-2');
  });
});

describe('reference product logic', () => {
  it('reaches 13^N states under xstate/graph getAdjacencyMap', () => {
    const adjacency = getAdjacencyMap(referenceProductLogic(2), {
      events: referenceProductEvents(2),
      serializeState: serializeReferenceProduct,
    });
    expect(Object.keys(adjacency)).toHaveLength(169);
  });
});
