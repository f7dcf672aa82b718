import { emit, setup } from 'xstate';
import { act } from './transition.ts';

/**
 * One initializer controller (one per configured initializer): it acts on a namespace only when it is
 * the first pending initializer (IN-2), populates the namespace, then removes itself (IN-3), or
 * records a failure result (IN-7). It may crash and restart; a crash must never block the cluster (FP-5).
 */
export interface InitializerObservation {
  /** This initializer is first in the namespace's pending list. */
  firstPendingIsMe: boolean;
  /** The object this initializer creates already exists in the namespace. */
  populated: boolean;
}

export type InitializerControllerEvent =
  | { type: 'RECONCILE'; observed: InitializerObservation }
  | { type: 'PROVISIONING_FAILED'; observed: InitializerObservation }
  | { type: 'CRASH' }
  | { type: 'RESTART' };

/** The request the controller sends for its namespace: the composition turns each into an API call. */
export type InitializerRequest =
  | { type: 'populateNamespace' }
  | { type: 'removeSelfFromPending' }
  | { type: 'recordFailureResult'; reason: 'ProvisioningFailed' };

export const initializerControllerMachine = setup({
  types: { events: {} as InitializerControllerEvent, emitted: {} as InitializerRequest },
  guards: {
    firstPendingAndNotPopulated: ({ event }) =>
      (event.type === 'RECONCILE' || event.type === 'PROVISIONING_FAILED') &&
      event.observed.firstPendingIsMe &&
      !event.observed.populated,
    firstPendingAndPopulated: ({ event }) =>
      event.type === 'RECONCILE' && event.observed.firstPendingIsMe && event.observed.populated,
  },
  actions: {
    populateNamespace: emit({ type: 'populateNamespace' }),
    removeSelfFromPending: emit({ type: 'removeSelfFromPending' }),
    recordFailureResult: emit({ type: 'recordFailureResult', reason: 'ProvisioningFailed' }),
  },
}).createMachine({
  id: 'initializerController',
  initial: 'running',
  states: {
    running: {
      description: 'Watches namespaces; acts only where it is first pending.',
      on: {
        RECONCILE: [
          act('firstPendingAndNotPopulated', 'populateNamespace', ['IN-2', 'RB-2']),
          act('firstPendingAndPopulated', 'removeSelfFromPending', ['IN-2', 'IN-3']),
        ],
        PROVISIONING_FAILED: act('firstPendingAndNotPopulated', 'recordFailureResult', ['IN-7']),
        CRASH: { target: 'crashed', meta: { requirements: ['FP-5'] } },
      },
    },
    crashed: {
      description: 'Down: its namespaces wait on the failure policy timers (FP-2, FP-4).',
      on: { RESTART: { target: 'running', meta: { requirements: ['FP-5'] } } },
    },
  },
});
