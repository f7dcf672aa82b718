import { describe, expect, it } from 'vitest';
import { initialTransition, type SnapshotFrom, transition } from 'xstate';
import {
  conditionsOf,
  type NamespaceEvent,
  type NamespaceStateValue,
  namespaceMachine,
  phaseOf,
} from './namespace.ts';

type Snapshot = SnapshotFrom<typeof namespaceMachine>;

const [absent] = initialTransition(namespaceMachine);
const step = (snapshot: Snapshot, event: NamespaceEvent): Snapshot =>
  transition(namespaceMachine, snapshot, event)[0];
const run = (...events: NamespaceEvent[]): Snapshot => events.reduce(step, absent);

const policy = 'policy.example.com';
const quota = 'quota.example.com';
const origin = 'openshift.com/origin';
const create = (pending: string[], finalizers = ['kubernetes']): NamespaceEvent => ({
  type: 'CREATE',
  pending,
  finalizers,
});
const tick: NamespaceEvent = { type: 'TICK', readRepairAfterSeconds: 3 };

/** An event the current state refuses leaves the snapshot exactly as it was. */
const expectIgnored = (snapshot: Snapshot, event: NamespaceEvent) => {
  const [next, actions] = transition(namespaceMachine, snapshot, event);
  expect(next.value).toBe(snapshot.value);
  expect(next.context).toEqual(snapshot.context);
  expect(actions).toEqual([]);
};

describe('namespace machine: creation', () => {
  it('starts absent with an empty namespace: every field null, false or an empty list', () => {
    expect(absent.value).toBe('absent');
    const empty = (value: unknown) =>
      value === null || value === false || (Array.isArray(value) && value.length === 0);
    expect(Object.entries(absent.context).filter(([, value]) => !empty(value))).toEqual([]);
    // The next test pins every field by name, after a create.
    expect(Object.keys(absent.context)).toHaveLength(9);
  });

  it('LC-1, LC-2: CREATE without pending initializers goes Active and records finalizers; no age is kept', () => {
    const active = step(absent, create([], ['kubernetes', origin]));
    expect(active.value).toBe('active');
    expect(active.context).toEqual({
      pending: [],
      failure: null,
      finalizers: ['kubernetes', origin],
      metadataFinalizers: [],
      deletedSecondsAgo: null,
      createdSecondsAgo: null,
      initialized: true,
      hadInitializers: false,
      creator: null,
    });
    expect(step(active, tick).context).toEqual(active.context);
  });

  it('RB-2 (D-34): CREATE records who sent it, and a removed name created again records the new sender', () => {
    const byAlice = step(absent, { ...create([policy]), creator: 'alice' } as NamespaceEvent);
    expect(byAlice.context.creator).toBe('alice');
    const removed = run(
      { ...create([], []), creator: 'alice' } as NamespaceEvent,
      { type: 'DELETE' },
      { type: 'PURGE' },
    );
    expect(removed.value).toBe('removed');
    expect(step(removed, { ...create([]), creator: 'bob' } as NamespaceEvent).context.creator).toBe('bob');
  });

  it('IN-1, IN-5: CREATE with pending initializers takes the other branch: Initializing, list kept in order', () => {
    const event = create([policy, quota]);
    const initializing = step(absent, event);
    expect(initializing.value).toBe('initializing');
    expect(initializing.context.pending).toEqual([policy, quota]);
    expect(initializing.context.finalizers).toEqual(['kubernetes']);
    expect(initializing.context.createdSecondsAgo).toBe(0);
    // The context holds copies: the request body cannot change storage afterwards.
    if (event.type === 'CREATE') event.pending.push('late.example.com');
    expect(initializing.context.pending).toEqual([policy, quota]);
  });

  it('NS-3: a namespace that exists refuses a second CREATE', () => {
    expectIgnored(run(create([])), create([]));
    expectIgnored(run(create([policy])), create([]));
  });

  it('IN-5, LC-3: phase and Initializing condition follow the state', () => {
    const table: [NamespaceStateValue, string | null, Record<string, string>][] = [
      ['absent', null, {}],
      ['initializing', 'Initializing', { Initializing: 'True' }],
      ['active', 'Active', { Initializing: 'False' }],
      ['terminating', 'Terminating', { Initializing: 'False' }],
      ['removed', null, {}],
    ];
    for (const [value, phase, conditions] of table) {
      expect(phaseOf(value)).toBe(phase);
      expect(conditionsOf(value, true)).toEqual(conditions);
      // D-22: a namespace that never had initializers shows no Initializing condition.
      expect(conditionsOf(value, false)).toEqual(value === 'initializing' ? conditions : {});
    }
  });
});

describe('namespace machine: initializers', () => {
  const initializing = run(create([policy, quota]));

  it('IN-2: removing a pending initializer that is not first is refused', () => {
    expectIgnored(initializing, { type: 'REMOVE_PENDING', name: quota });
    expectIgnored(initializing, { type: 'REMOVE_PENDING', name: 'unknown.example.com' });
  });

  it('IN-2, IN-3: the first pending initializer removes itself; the namespace stays Initializing', () => {
    const next = step(initializing, { type: 'REMOVE_PENDING', name: policy });
    expect(next.value).toBe('initializing');
    expect(next.context.pending).toEqual([quota]);
    expect(next.context.deletedSecondsAgo).toBeNull();
  });

  it('FP-4: while Initializing the creation age grows by one a second and stops at the read-repair timeout', () => {
    const ages = [1, 2, 3, 4].map((n) => run(create([policy]), ...Array<NamespaceEvent>(n).fill(tick)));
    expect(ages.map((a) => a.context.createdSecondsAgo)).toEqual([1, 2, 3, 3]);
    const active = step(ages[1], { type: 'REMOVE_PENDING', name: policy });
    expect(active.context.createdSecondsAgo).toBeNull();
  });

  it('IN-4, IN-5: removing the last pending initializer makes it Active, and the list never grows again', () => {
    const active = run(
      create([policy, quota]),
      { type: 'REMOVE_PENDING', name: policy },
      { type: 'REMOVE_PENDING', name: quota },
    );
    expect(active.value).toBe('active');
    expect(active.context.pending).toEqual([]);
    expectIgnored(active, { type: 'REMOVE_PENDING', name: quota });
    expectIgnored(active, create([policy]));
  });

  it('IN-7, LC-3: a failure result sets the deletion timestamp, keeps the result and clears pending', () => {
    const failed = step(initializing, { type: 'RECORD_FAILURE', reason: 'ProvisioningFailed' });
    expect(failed.value).toBe('terminating');
    expect(failed.context).toEqual({
      pending: [],
      failure: { reason: 'ProvisioningFailed' },
      finalizers: ['kubernetes'],
      metadataFinalizers: [],
      deletedSecondsAgo: 0,
      createdSecondsAgo: null,
      initialized: false,
      hadInitializers: true,
      creator: null,
    });
  });

  it('IN-7: a failure result is refused once the namespace is Active or Terminating', () => {
    const active = run(create([]));
    expectIgnored(active, { type: 'RECORD_FAILURE', reason: 'Late' });
    const terminating = step(active, { type: 'DELETE' });
    expectIgnored(terminating, { type: 'RECORD_FAILURE', reason: 'Late' });
  });

  it('LC-3 (D-4): DELETE while Initializing goes Terminating and clears pending, with no failure result', () => {
    const deleted = step(initializing, { type: 'DELETE' });
    expect(deleted.value).toBe('terminating');
    expect(deleted.context.pending).toEqual([]);
    expect(deleted.context.failure).toBeNull();
    expect(deleted.context.deletedSecondsAgo).toBe(0);
    expectIgnored(deleted, { type: 'REMOVE_PENDING', name: policy });
  });

  it('LC-6: finalize replaces spec.finalizers while Initializing', () => {
    const next = step(initializing, { type: 'FINALIZE', finalizers: ['kubernetes', origin] });
    expect(next.value).toBe('initializing');
    expect(next.context.finalizers).toEqual(['kubernetes', origin]);
    expect(next.context.pending).toEqual([policy, quota]);
  });
});

describe('namespace machine: termination', () => {
  const active = run(create([], ['kubernetes', origin]));
  const terminating = step(active, { type: 'DELETE' });

  it('LC-3: DELETE of an Active namespace sets the deletion timestamp once and goes Terminating', () => {
    expect(terminating.value).toBe('terminating');
    expect(terminating.context.deletedSecondsAgo).toBe(0);
    expect(terminating.context.finalizers).toEqual(['kubernetes', origin]);
  });

  it('LC-3: the deletion timestamp ages one second at a time, capped at 1 (enough to see a second stamp)', () => {
    const older = run(create([], ['kubernetes']), { type: 'DELETE' }, tick, tick);
    expect(older.context.deletedSecondsAgo).toBe(1);
  });

  it('LC-3 (D-10): a repeated DELETE is accepted and changes nothing, not even the timestamp’s age', () => {
    const aged = step(terminating, tick);
    const [again, actions] = transition(namespaceMachine, aged, { type: 'DELETE' });
    expect(again.value).toBe('terminating');
    expect(again.context).toEqual(aged.context);
    expect(actions).toEqual([]);
  });

  it('LC-6: finalize on an Active namespace may add and remove finalizers', () => {
    const next = step(active, { type: 'FINALIZE', finalizers: ['example.com/extra'] });
    expect(next.value).toBe('active');
    expect(next.context.finalizers).toEqual(['example.com/extra']);
  });

  it('LC-6, LC-8 (D-12): finalize while Terminating may remove names; adding one is refused', () => {
    const withoutOrigin = step(terminating, { type: 'FINALIZE', finalizers: ['kubernetes'] });
    expect(withoutOrigin.value).toBe('terminating');
    expect(withoutOrigin.context.finalizers).toEqual(['kubernetes']);
    expectIgnored(terminating, { type: 'FINALIZE', finalizers: ['kubernetes', origin, 'example.com/new'] });
    expectIgnored(withoutOrigin, { type: 'FINALIZE', finalizers: [origin] });
  });

  it('LC-7: PURGE is refused while finalizers remain, and outside Terminating', () => {
    expectIgnored(terminating, { type: 'PURGE' });
    expectIgnored(step(terminating, { type: 'FINALIZE', finalizers: [origin] }), { type: 'PURGE' });
    expectIgnored(run(create([], [])), { type: 'PURGE' });
    expectIgnored(run(create([policy], [])), { type: 'PURGE' });
  });

  it('LC-7: with no finalizer left PURGE removes the namespace and forgets its state', () => {
    const empty = step(terminating, { type: 'FINALIZE', finalizers: [] });
    const removed = step(empty, { type: 'PURGE' });
    expect(removed.value).toBe('removed');
    expect(removed.context).toEqual(absent.context);
    expectIgnored(removed, { type: 'DELETE' });
  });

  it('LC-1, IN-1, NS-3: a removed name can be created again, either way', () => {
    const removed = run(
      create([], ['kubernetes']),
      { type: 'DELETE' },
      { type: 'FINALIZE', finalizers: [] },
      { type: 'PURGE' },
    );
    const again = step(removed, create([], ['kubernetes']));
    expect(again.value).toBe('active');
    expect(again.context.deletedSecondsAgo).toBeNull();
    const initializing = step(removed, create([quota], ['kubernetes']));
    expect(initializing.value).toBe('initializing');
    expect(initializing.context.pending).toEqual([quota]);
  });
});

describe('namespace machine: metadata finalizers and propagation (D-46)', () => {
  const withMetadata = (metadataFinalizers: string[]): NamespaceEvent => ({
    type: 'CREATE',
    pending: [],
    finalizers: ['kubernetes'],
    metadataFinalizers,
  });

  // Expected lists: shipped TestDeleteWithGCFinalizers, case by case (existing -> remaining).
  const cases: [string[], 'Orphan' | 'Background' | 'Foreground' | undefined, string[]][] = [
    [['orphan'], undefined, ['orphan']],
    [['foregroundDeletion'], undefined, ['foregroundDeletion']],
    [[], undefined, []],
    [['orphan'], 'Background', []],
    [['foregroundDeletion'], 'Background', []],
    [['orphan'], 'Foreground', ['foregroundDeletion']],
    [[], 'Foreground', ['foregroundDeletion']],
    [['foregroundDeletion'], 'Orphan', ['orphan']],
    [[], 'Orphan', ['orphan']],
    [['example.com/foo'], 'Orphan', ['example.com/foo', 'orphan']],
  ];
  it.each(cases)('the first DELETE of %j with policy %s leaves %j', (existing, propagation, remaining) => {
    const deleted = step(run(withMetadata(existing)), {
      type: 'DELETE',
      ...(propagation ? { propagation } : {}),
    });
    expect(deleted.value).toBe('terminating');
    expect(deleted.context.metadataFinalizers).toEqual(remaining);
  });

  it('LC-7: a DELETE of a terminating namespace leaves it while a metadata finalizer is left', () => {
    const emptied = run(withMetadata(['orphan']), { type: 'DELETE' }, { type: 'FINALIZE', finalizers: [] });
    expect(step(emptied, { type: 'PURGE' }).value).toBe('terminating');
    expect(step(emptied, { type: 'PURGE', propagation: 'Foreground' }).context.metadataFinalizers).toEqual([
      'foregroundDeletion',
    ]);
    expect(step(emptied, { type: 'PURGE', propagation: 'Background' }).value).toBe('removed');
  });

  it('LC-7: while spec.finalizers are left, a DELETE changes no metadata finalizer', () => {
    const terminating = run(withMetadata(['orphan']), { type: 'DELETE' });
    expectIgnored(terminating, { type: 'PURGE', propagation: 'Background' });
  });

  it('LC-7: the update clearing the last metadata finalizer removes a deleted namespace with no spec finalizer', () => {
    const emptied = run(
      withMetadata(['example.com/foo']),
      { type: 'DELETE' },
      { type: 'FINALIZE', finalizers: [] },
    );
    const kept = step(emptied, { type: 'SET_METADATA_FINALIZERS', finalizers: ['example.com/foo'] });
    expect(kept.value).toBe('terminating');
    expect(step(emptied, { type: 'SET_METADATA_FINALIZERS', finalizers: [] }).value).toBe('removed');
    expectIgnored(emptied, { type: 'SET_METADATA_FINALIZERS', finalizers: ['example.com/foo', 'x/y'] });
    const withSpec = run(withMetadata(['example.com/foo']), { type: 'DELETE' });
    const cleared = step(withSpec, { type: 'SET_METADATA_FINALIZERS', finalizers: [] });
    expect(cleared.value).toBe('terminating');
    expect(cleared.context.metadataFinalizers).toEqual([]);
  });

  it('an Active namespace takes any metadata finalizer list', () => {
    const active = step(run(withMetadata([])), {
      type: 'SET_METADATA_FINALIZERS',
      finalizers: ['x/b', 'x/a'],
    });
    expect(active.value).toBe('active');
    expect(active.context.metadataFinalizers).toEqual(['x/a', 'x/b']);
  });
});
