import { emit, setup } from 'xstate';
import { act } from './transition.ts';

/**
 * The failure policy of the first pending initializer (FP-1..FP-4): the API server that handled the
 * create arms a timer; when it expires, `Ignore` removes the initializer (fail open) and `Fail` records
 * a Timeout failure (fail closed). If that server restarted and lost its timer, a GET after the global
 * timeout since creation applies the same policy to the first pending initializer (read-repair, D-8).
 */
export interface TimeoutObservation {
  failurePolicy: 'Ignore' | 'Fail';
  /** The apiserver's timer for the first pending initializer is armed and has run its timeout. */
  timerExpired: boolean;
  /** The check runs while serving a GET of the namespace, and the global timeout since creation has passed. */
  readRepairDue: boolean;
}

export type InitializerTimeoutEvent =
  | { type: 'TIMER_CHECK'; observed: TimeoutObservation }
  | { type: 'READ_REPAIR_CHECK'; observed: TimeoutObservation };

/** What the apiserver does to the namespace when the policy applies (FP-1, FP-2, FP-4). */
export type TimeoutEffect =
  | { type: 'removeTimedOutInitializer' }
  | { type: 'failNamespaceWithTimeout' }
  | { type: 'readRepairRemoveFirstPending' };

export const initializerTimeoutMachine = setup({
  types: { events: {} as InitializerTimeoutEvent, emitted: {} as TimeoutEffect },
  guards: {
    timerExpiredFailOpen: ({ event }) =>
      event.observed.timerExpired && event.observed.failurePolicy === 'Ignore',
    timerExpiredFailClosed: ({ event }) =>
      event.observed.timerExpired && event.observed.failurePolicy === 'Fail',
    readRepairDueFailOpen: ({ event }) =>
      event.observed.readRepairDue && event.observed.failurePolicy === 'Ignore',
    readRepairDueFailClosed: ({ event }) =>
      event.observed.readRepairDue && event.observed.failurePolicy === 'Fail',
  },
  actions: {
    removeTimedOutInitializer: emit({ type: 'removeTimedOutInitializer' }),
    failNamespaceWithTimeout: emit({ type: 'failNamespaceWithTimeout' }),
    readRepairRemoveFirstPending: emit({ type: 'readRepairRemoveFirstPending' }),
  },
}).createMachine({
  id: 'initializerTimeout',
  initial: 'watching',
  states: {
    watching: {
      on: {
        TIMER_CHECK: [
          act('timerExpiredFailOpen', 'removeTimedOutInitializer', ['FP-1', 'FP-2', 'FP-5']),
          act('timerExpiredFailClosed', 'failNamespaceWithTimeout', ['FP-1', 'FP-2', 'IN-7']),
        ],
        // D-8: read-repair follows the failure policy, as the timer would have.
        READ_REPAIR_CHECK: [
          act('readRepairDueFailOpen', 'readRepairRemoveFirstPending', ['FP-4', 'FP-5']),
          act('readRepairDueFailClosed', 'failNamespaceWithTimeout', ['FP-4', 'IN-7']),
        ],
      },
    },
  },
});
