import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { type FinalizerOwnerObservation, finalizerOwnerMachine } from './finalizer-owner.ts';

const owner = 'openshift.com/origin';
const [watching] = initialTransition(finalizerOwnerMachine);
const sync = (overrides: Partial<FinalizerOwnerObservation>) => {
  const observed: FinalizerOwnerObservation = {
    owner,
    namespaceActive: false,
    namespaceTerminating: false,
    finalizers: ['kubernetes', owner],
    externalContentExists: false,
    ...overrides,
  };
  const [next, actions] = transition(finalizerOwnerMachine, watching, { type: 'SYNC', observed });
  return { value: next.value, actions: actions.map((a) => (a.params as { event: unknown }).event) };
};
const active = { namespaceActive: true };
const terminating = { namespaceTerminating: true };

describe('finalizer owner machine: provisioning', () => {
  it('starts watching and stays there', () => {
    expect(watching.value).toBe('watching');
    expect(sync(active).value).toBe('watching');
  });

  it('LC-8: an Active namespace carrying its finalizer gets its external content', () => {
    expect(sync(active).actions).toEqual([{ type: 'provisionExternalContent' }]);
  });

  it('LC-8: nothing is provisioned twice, nor for a namespace without its finalizer', () => {
    expect(sync({ ...active, externalContentExists: true }).actions).toEqual([]);
    expect(sync({ ...active, finalizers: ['kubernetes'] }).actions).toEqual([]);
  });

  it('LC-8: nothing is provisioned while the namespace is still initializing', () => {
    expect(sync({}).actions).toEqual([]);
  });
});

describe('finalizer owner machine: termination', () => {
  it('LC-8, LC-9: a Terminating namespace has its external content purged first, finalizer kept', () => {
    expect(sync({ ...terminating, externalContentExists: true }).actions).toEqual([
      { type: 'purgeExternalContent' },
    ]);
  });

  it('LC-8, LC-6: once purged it removes only its own finalizer, keeping the others in order', () => {
    expect(sync({ ...terminating, finalizers: ['example.com/other', owner, 'kubernetes'] }).actions).toEqual([
      { type: 'removeOwnFinalizer', finalizers: ['example.com/other', 'kubernetes'] },
    ]);
  });

  it('LC-8: with its finalizer gone and nothing external left, it does nothing', () => {
    expect(sync({ ...terminating, finalizers: ['kubernetes'] }).actions).toEqual([]);
    expect(sync({ ...terminating, finalizers: [] }).actions).toEqual([]);
  });

  it('LC-9: external content is purged even when its finalizer was removed by someone else', () => {
    expect(sync({ ...terminating, finalizers: [], externalContentExists: true }).actions).toEqual([
      { type: 'purgeExternalContent' },
    ]);
  });
});
