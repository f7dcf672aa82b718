import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import {
  type InitializerTimeoutEvent,
  initializerTimeoutMachine,
  type TimeoutObservation,
} from './initializer-timeout.ts';

const [watching] = initialTransition(initializerTimeoutMachine);
const check = (event: InitializerTimeoutEvent) => {
  const [next, actions] = transition(initializerTimeoutMachine, watching, event);
  return {
    value: next.value,
    actions: actions.map((a) => (a.params as { event: { type: string } }).event.type),
  };
};
const observed = (
  failurePolicy: TimeoutObservation['failurePolicy'],
  timerExpired: boolean,
  readRepairDue: boolean,
): TimeoutObservation => ({ failurePolicy, timerExpired, readRepairDue });
const timer = (o: TimeoutObservation): InitializerTimeoutEvent => ({ type: 'TIMER_CHECK', observed: o });
const readRepair = (o: TimeoutObservation): InitializerTimeoutEvent => ({
  type: 'READ_REPAIR_CHECK',
  observed: o,
});

describe('initializer timeout machine: the apiserver timer', () => {
  it('starts watching and stays there', () => {
    expect(watching.value).toBe('watching');
    expect(check(timer(observed('Ignore', true, false))).value).toBe('watching');
  });

  it('FP-1, FP-2, FP-5: Ignore, timer expired: the initializer is removed (fail open)', () => {
    expect(check(timer(observed('Ignore', true, false))).actions).toEqual(['removeTimedOutInitializer']);
  });

  it('FP-1, FP-2, IN-7: Fail, timer expired: the namespace fails with Timeout (fail closed)', () => {
    expect(check(timer(observed('Fail', true, false))).actions).toEqual(['failNamespaceWithTimeout']);
  });

  it('FP-2: before the timeout both guards refuse, whatever the policy', () => {
    expect(check(timer(observed('Ignore', false, false))).actions).toEqual([]);
    expect(check(timer(observed('Fail', false, false))).actions).toEqual([]);
  });

  it('FP-2, FP-4: a due read-repair does not fire the timer check', () => {
    expect(check(timer(observed('Ignore', false, true))).actions).toEqual([]);
    expect(check(timer(observed('Fail', false, true))).actions).toEqual([]);
  });
});

describe('initializer timeout machine: read-repair', () => {
  it('FP-4, FP-5: Ignore, global timeout passed: a GET removes the first pending initializer', () => {
    expect(check(readRepair(observed('Ignore', false, true))).actions).toEqual([
      'readRepairRemoveFirstPending',
    ]);
  });

  it('FP-4, IN-7 (D-8): Fail, global timeout passed: a GET fails the namespace as the timer would', () => {
    expect(check(readRepair(observed('Fail', false, true))).actions).toEqual(['failNamespaceWithTimeout']);
  });

  it('FP-4: before the global timeout read-repair does nothing, even with an expired timer', () => {
    for (const policy of ['Ignore', 'Fail'] as const) {
      expect(check(readRepair(observed(policy, false, false))).actions).toEqual([]);
      expect(check(readRepair(observed(policy, true, false))).actions).toEqual([]);
    }
  });
});
