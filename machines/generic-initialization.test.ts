import { describe, expect, it } from 'vitest';
import { runGenericObject } from '../test-support/generic-object.ts';
import { type GenericObjectEvent, initializersFor } from './generic-initialization.ts';

/**
 * Seed 002 (Initializers in Kubernetes) and doc 004's 5 s default, case by case: every expectation is
 * a sentence of the seed, written out here, never computed by the machine's own guards.
 */

const run = runGenericObject;

const sizer = {
  name: 'initial-sizer.example.com',
  rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};
const labeller = {
  name: 'labeller.example.com',
  rules: [{ apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments', 'replicasets'] }],
};
const everything = {
  name: 'audit.example.com',
  rules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
};

const create = (initializers: string[], wait = false, strictlyValid = true): GenericObjectEvent => ({
  type: 'CREATE',
  initializers,
  strictlyValid,
  wait,
});
const initialize = (initializer: string, strictlyValid = true): GenericObjectEvent => ({
  type: 'INITIALIZE',
  initializer,
  strictlyValid,
});
const tick: GenericObjectEvent = { type: 'TICK' };
const read = (includeUninitialized: boolean): GenericObjectEvent => ({ type: 'READ', includeUninitialized });

describe('initializersFor: metadata.initializers from the configurations (002, AC-4)', () => {
  const configs = [{ initializers: [sizer, everything] }, { initializers: [labeller, sizer] }];

  it('gives a pod the initializers whose rules match core/v1 pods, in configuration order, each once', () => {
    expect(initializersFor(configs, { apiGroup: '', apiVersion: 'v1', resource: 'pods' })).toEqual([
      'initial-sizer.example.com',
      'audit.example.com',
    ]);
  });

  it('matches group, version and resource each: a deployment of apps/v1 gets the labeller, not the sizer', () => {
    expect(initializersFor(configs, { apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments' })).toEqual(
      ['audit.example.com', 'labeller.example.com'],
    );
    expect(
      initializersFor([{ initializers: [sizer] }], { apiGroup: '', apiVersion: 'v2', resource: 'pods' }),
    ).toEqual([]);
  });

  it('gives a sub-resource nothing: `*` names every resource but no sub-resource (AC-4)', () => {
    expect(
      initializersFor([{ initializers: [everything] }], {
        apiGroup: '',
        apiVersion: 'v1',
        resource: 'pods',
        subresource: 'status',
      }),
    ).toEqual([]);
  });
});

describe('hidden until initialized (IN-9)', () => {
  it('answers a create with initializers 201 at once when the client does not wait, and hides the object', () => {
    expect(run(create(['a'])).context.outcome).toEqual({ kind: 'created', code: 201 });
    expect(run(create(['a']), read(false)).context.outcome).toEqual({ kind: 'not-found', code: 404 });
  });

  it('shows the uninitialized object to a client that asks for uninitialized objects', () => {
    expect(run(create(['a']), read(true)).context.outcome).toEqual({ kind: 'served', code: 200 });
  });

  it('keeps it hidden while only some initializers have visited, and after all until it is completed', () => {
    expect(run(create(['a', 'b']), initialize('a'), read(false)).context.outcome.kind).toBe('not-found');
    const emptied = run(create(['a']), initialize('a'), read(false));
    expect(emptied.value).toEqual({ initializing: 'awaitingInitialize' });
    expect(emptied.context.outcome.kind).toBe('not-found');
  });

  it('shows it to every client once initialized', () => {
    const done = run(create(['a']), initialize('a'), { type: 'COMPLETE' }, read(false));
    expect(done.value).toBe('initialized');
    expect(done.context.outcome).toEqual({ kind: 'served', code: 200 });
  });

  it('stores an object with no matching initializer initialized, visible at once', () => {
    const plain = run(create([]), read(false));
    expect(plain.value).toBe('initialized');
    expect(plain.context.outcome).toEqual({ kind: 'served', code: 200 });
  });
});

describe('the initialize sub-resource (002, REST API Changes)', () => {
  it('removes the named initializer, in any order', () => {
    expect(run(create(['a', 'b']), initialize('b')).context.pending).toEqual(['a']);
  });

  it('errs when the initializer is not in the list', () => {
    const s = run(create(['a']), initialize('b'));
    expect(s.context.outcome).toMatchObject({ kind: 'refused', reason: 'not-pending' });
    expect(s.context.pending).toEqual(['a']);
  });

  it('errs when the object was already initialized', () => {
    const s = run(create(['a']), initialize('a'), { type: 'COMPLETE' }, initialize('a'));
    expect(s.context.outcome).toMatchObject({ kind: 'refused', reason: 'already-initialized' });
    expect(run(create([]), initialize('a')).context.outcome).toMatchObject({ reason: 'already-initialized' });
  });

  it('completes only an object whose list is empty; completing an initialized one errs', () => {
    expect(run(create(['a']), { type: 'COMPLETE' }).value).toEqual({ initializing: 'uninitialized' });
    expect(run(create([]), { type: 'COMPLETE' }).context.outcome).toMatchObject({
      reason: 'already-initialized',
    });
  });

  it('deletes an object that fails strict validation when its list empties, and records an event', () => {
    const s = run(create(['a'], false, false), initialize('a', false), { type: 'COMPLETE' });
    expect(s.value).toBe('deleted');
    expect(s.context.events).toHaveLength(1);
    expect(
      run(create(['a'], false, false), initialize('a', false), { type: 'COMPLETE' }, read(true)).context
        .outcome.kind,
    ).toBe('not-found');
  });

  it('lets an initializer fix an object that failed strict validation when created (loosened validation)', () => {
    expect(run(create(['a'], false, false), initialize('a', true), { type: 'COMPLETE' }).value).toBe(
      'initialized',
    );
  });

  it('refuses an ordinary create that fails validation when no initializer would fix it', () => {
    const s = run(create([], false, false));
    expect(s.value).toBe('absent');
    expect(s.context.outcome).toMatchObject({ kind: 'refused', code: 422 });
  });
});

describe('the create that waits (ALT-3; 5 s, doc 004)', () => {
  it('holds the POST and answers 201 when the object is initialized in time', () => {
    const held = run(create(['a'], true), tick, tick);
    expect(held.context.outcome.kind).toBe('none');
    expect(run(create(['a'], true), tick, initialize('a'), { type: 'COMPLETE' }).context.outcome).toEqual({
      kind: 'created',
      code: 201,
    });
  });

  it('answers 504 at the fifth second and not before; the object stays, uninitialized', () => {
    expect(run(create(['a'], true), tick, tick, tick, tick).context.outcome.kind).toBe('none');
    const timedOut = run(create(['a'], true), tick, tick, tick, tick, tick);
    expect(timedOut.context.outcome).toEqual({ kind: 'timeout', code: 504 });
    expect(timedOut.value).toEqual({ initializing: 'uninitialized' });
    expect(run(create(['a'], true), tick, tick, tick, tick, tick, read(true)).context.outcome).toEqual({
      kind: 'served',
      code: 200,
    });
  });

  it('answers the waiting create once: after 504, initialization answers no second create', () => {
    const later = run(create(['a'], true), tick, tick, tick, tick, tick, initialize('a'), {
      type: 'COMPLETE',
    });
    expect(later.value).toBe('initialized');
    expect(later.context.createWaiting).toBe(false);
    expect(later.context.outcome.kind).not.toBe('created');
  });
});

describe("IN-10's consumers", () => {
  it('replication counts an uninitialized pod as a pod: it creates no second one', () => {
    expect(run(create(['a']), { type: 'REPLICATION_COUNTS' }).context.outcome).toEqual({
      kind: 'consumer',
      action: 'counted',
    });
  });

  it('the scheduler leaves an uninitialized pod alone and binds it once initialized', () => {
    const pendingPod = run(create(['a']), initialize('a'), { type: 'SCHEDULE' });
    expect(pendingPod.context.scheduled).toBe(false);
    expect(pendingPod.context.outcome).toEqual({ kind: 'consumer', action: 'skipped' });
    expect(
      run(create(['a']), initialize('a'), { type: 'COMPLETE' }, { type: 'SCHEDULE' }).context.scheduled,
    ).toBe(true);
  });

  it('quota counts the object in every phase of initialization', () => {
    for (const before of [[create(['a', 'b'])], [create(['a']), initialize('a')], [create([])]])
      expect(run(...before, { type: 'QUOTA_COUNTS' }).context.outcome).toEqual({
        kind: 'consumer',
        action: 'counted',
      });
  });
});
