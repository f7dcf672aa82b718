import { emit, setup } from 'xstate';
import { act } from './transition.ts';

/**
 * The namespace controller for one terminating namespace (LC-5, LC-7): delete content one object at a
 * time, then, only when none is left, finalize away `kubernetes`, and send the final DELETE once no
 * finalizer is left. Transitions are tried in order, so each step takes the first rule that applies.
 */
export interface NamespaceControllerObservation {
  /** The namespace is Terminating: only then does the controller act on it (LC-5). */
  terminating: boolean;
  contentRemains: boolean;
  finalizers: string[];
}

export type NamespaceControllerEvent = { type: 'SYNC'; observed: NamespaceControllerObservation };

export const kubernetesFinalizer = 'kubernetes';

/** The request the controller sends for the terminating namespace (LC-5, LC-7). */
export type NamespaceControllerRequest =
  | { type: 'deleteOneContentObject' }
  | { type: 'finalizeKubernetes' }
  | { type: 'sendFinalDelete' };

export const namespaceControllerMachine = setup({
  types: { events: {} as NamespaceControllerEvent, emitted: {} as NamespaceControllerRequest },
  guards: {
    terminatingWithContent: ({ event }) => event.observed.terminating && event.observed.contentRemains,
    terminatingWithKubernetesFinalizer: ({ event }) =>
      event.observed.terminating && event.observed.finalizers.includes(kubernetesFinalizer),
    terminatingWithNoFinalizersLeft: ({ event }) =>
      event.observed.terminating && event.observed.finalizers.length === 0,
  },
  actions: {
    deleteOneContentObject: emit({ type: 'deleteOneContentObject' }),
    finalizeKubernetes: emit({ type: 'finalizeKubernetes' }),
    sendFinalDelete: emit({ type: 'sendFinalDelete' }),
  },
}).createMachine({
  id: 'namespaceController',
  initial: 'watching',
  states: {
    watching: {
      description: 'Observes every namespace; acts only on Terminating ones (LC-5).',
      on: {
        SYNC: [
          act('terminatingWithContent', 'deleteOneContentObject', ['LC-5']),
          act('terminatingWithKubernetesFinalizer', 'finalizeKubernetes', ['LC-5', 'LC-6']),
          act('terminatingWithNoFinalizersLeft', 'sendFinalDelete', ['LC-7', 'LC-9']),
        ],
      },
    },
  },
});
