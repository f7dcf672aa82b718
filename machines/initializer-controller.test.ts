import { describe, expect, it } from 'vitest';
import { initialTransition, type SnapshotFrom, transition } from 'xstate';
import {
  type InitializerControllerEvent,
  type InitializerObservation,
  initializerControllerMachine,
} from './initializer-controller.ts';

type Snapshot = SnapshotFrom<typeof initializerControllerMachine>;

const [running] = initialTransition(initializerControllerMachine);
const send = (snapshot: Snapshot, event: InitializerControllerEvent) => {
  const [next, actions] = transition(initializerControllerMachine, snapshot, event);
  return {
    value: next.value,
    actions: actions.map((a) => (a.params as { event: { type: string } }).event.type),
    next,
  };
};
const observed = (firstPendingIsMe: boolean, populated: boolean): InitializerObservation => ({
  firstPendingIsMe,
  populated,
});
const reconcile = (o: InitializerObservation): InitializerControllerEvent => ({
  type: 'RECONCILE',
  observed: o,
});
const provisioningFailed = (o: InitializerObservation): InitializerControllerEvent => ({
  type: 'PROVISIONING_FAILED',
  observed: o,
});
const crashed = send(running, { type: 'CRASH' }).next;

describe('initializer controller machine: running', () => {
  it('starts running', () => {
    expect(running.value).toBe('running');
  });

  it('IN-2, RB-2: first pending and nothing created yet: populates the namespace', () => {
    expect(send(running, reconcile(observed(true, false)))).toMatchObject({
      value: 'running',
      actions: ['populateNamespace'],
    });
  });

  it('IN-2, IN-3: first pending and populated: removes itself from pending', () => {
    expect(send(running, reconcile(observed(true, true)))).toMatchObject({
      value: 'running',
      actions: ['removeSelfFromPending'],
    });
  });

  it('IN-2: not first pending: both guards refuse and nothing happens, populated or not', () => {
    expect(send(running, reconcile(observed(false, false)))).toMatchObject({ value: 'running', actions: [] });
    expect(send(running, reconcile(observed(false, true)))).toMatchObject({ value: 'running', actions: [] });
  });

  it('IN-7: first pending and provisioning failed: records a failure result', () => {
    expect(send(running, provisioningFailed(observed(true, false)))).toMatchObject({
      value: 'running',
      actions: ['recordFailureResult'],
    });
  });

  it('IN-2, IN-7: a failure is recorded only where it is first pending and has not populated yet', () => {
    expect(send(running, provisioningFailed(observed(false, false))).actions).toEqual([]);
    expect(send(running, provisioningFailed(observed(true, true))).actions).toEqual([]);
  });
});

describe('initializer controller machine: crash and restart', () => {
  it('FP-5: it may crash at any time', () => {
    expect(crashed.value).toBe('crashed');
    expect(send(running, { type: 'CRASH' }).actions).toEqual([]);
  });

  it('FP-5: a crashed controller does nothing, whatever it observes', () => {
    for (const o of [observed(true, false), observed(true, true)]) {
      expect(send(crashed, reconcile(o))).toMatchObject({ value: 'crashed', actions: [] });
      expect(send(crashed, provisioningFailed(o))).toMatchObject({ value: 'crashed', actions: [] });
    }
    expect(send(crashed, { type: 'CRASH' }).value).toBe('crashed');
  });

  it('FP-5: it restarts and acts again; RESTART is ignored while running', () => {
    const restarted = send(crashed, { type: 'RESTART' });
    expect(restarted.value).toBe('running');
    expect(send(restarted.next, reconcile(observed(true, false))).actions).toEqual(['populateNamespace']);
    expect(send(running, { type: 'RESTART' })).toMatchObject({ value: 'running', actions: [] });
  });
});
