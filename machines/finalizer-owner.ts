import { emit, setup } from 'xstate';
import { act } from './transition.ts';

/**
 * An external finalizer owner such as `openshift.com/origin` (document 001): it keeps content of its
 * own outside the cluster for namespaces that carry its finalizer, and when such a namespace
 * terminates it purges that content and then removes only its own finalizer (LC-8, LC-9).
 */
export interface FinalizerOwnerObservation {
  /** The owner's finalizer name, e.g. `openshift.com/origin`. */
  owner: string;
  namespaceActive: boolean;
  namespaceTerminating: boolean;
  finalizers: string[];
  externalContentExists: boolean;
}

export type FinalizerOwnerEvent = { type: 'SYNC'; observed: FinalizerOwnerObservation };

const ownFinalizerPresent = (observed: FinalizerOwnerObservation) =>
  observed.finalizers.includes(observed.owner);

/** What the owner does: change its external content, or send a finalize request with this list. */
export type FinalizerOwnerEffect =
  | { type: 'provisionExternalContent' }
  | { type: 'purgeExternalContent' }
  | { type: 'removeOwnFinalizer'; finalizers: string[] };

export const finalizerOwnerMachine = setup({
  types: { events: {} as FinalizerOwnerEvent, emitted: {} as FinalizerOwnerEffect },
  guards: {
    activeWithOwnFinalizerAndNothingProvisioned: ({ event }) =>
      event.observed.namespaceActive &&
      ownFinalizerPresent(event.observed) &&
      !event.observed.externalContentExists,
    terminatingWithExternalContent: ({ event }) =>
      event.observed.namespaceTerminating && event.observed.externalContentExists,
    terminatingWithOwnFinalizer: ({ event }) =>
      event.observed.namespaceTerminating && ownFinalizerPresent(event.observed),
  },
  actions: {
    provisionExternalContent: emit({ type: 'provisionExternalContent' }),
    purgeExternalContent: emit({ type: 'purgeExternalContent' }),
    // The finalize request it sends: the current list without its own name, never another owner's.
    removeOwnFinalizer: emit((_, params: { finalizers: string[] }) => ({
      type: 'removeOwnFinalizer' as const,
      finalizers: params.finalizers,
    })),
  },
}).createMachine({
  id: 'finalizerOwner',
  initial: 'watching',
  states: {
    watching: {
      on: {
        SYNC: [
          act('activeWithOwnFinalizerAndNothingProvisioned', 'provisionExternalContent', ['LC-8']),
          act('terminatingWithExternalContent', 'purgeExternalContent', ['LC-8', 'LC-9']),
          {
            guard: 'terminatingWithOwnFinalizer',
            actions: {
              type: 'removeOwnFinalizer',
              params: ({ event }) => ({
                finalizers: event.observed.finalizers.filter((name) => name !== event.observed.owner),
              }),
            },
            meta: { requirements: ['LC-8', 'LC-6'] },
          },
        ],
      },
    },
  },
});
