import { assign, setup } from 'xstate';
import { act, when } from './transition.ts';

/**
 * One namespace's lifecycle as the API server stores it: phase, ordered pending initializers,
 * failure result, finalizers and deletion timestamp. Requests reach it only after admission;
 * an event the machine does not accept is refused by storage (the system maps it to a status code).
 */
export interface NamespaceContext {
  /** spec.initializers.pending, in execution order (IN-1, IN-2). */
  pending: string[];
  /** spec.initializers.result with status Failure (IN-7); null when none. */
  failure: { reason: string } | null;
  /** spec.finalizers (LC-2, LC-6). */
  finalizers: string[];
  /**
   * metadata.finalizers, sorted (LC-7, D-46): the garbage collector's `orphan` and `foregroundDeletion`
   * that a DELETE's propagationPolicy sets, and any other qualified name a client writes.
   */
  metadataFinalizers: string[];
  /**
   * metadata.deletionTimestamp as its age in whole seconds, capped at 1: no guard reads it, and 1 is
   * enough to see a second stamp (LC-3); null while not deleted.
   */
  deletedSecondsAgo: number | null;
  /**
   * metadata.creationTimestamp as its age in whole seconds while Initializing, capped at the global
   * read-repair timeout, the one constant read-repair compares it with (FP-4); null otherwise.
   */
  createdSecondsAgo: number | null;
  /** D-25: the pending list emptied without a failure result; set once, never cleared (IN-6 reads it, D-19). */
  initialized: boolean;
  /** Created with pending initializers, so status carries the Initializing condition (D-22). */
  hadInitializers: boolean;
  /**
   * The user whose create made it, as the API server records it (OpenShift's `openshift.io/requester`
   * annotation): `$creator` in an initializer's RoleBinding names this user (RB-2, D-34); null for a
   * namespace the cluster made itself.
   */
  creator: string | null;
}

/** A DELETE's DeleteOptions.propagationPolicy (D-46); absent when the request sends none. */
export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** The garbage collector's metadata finalizers (shipped metav1.FinalizerOrphanDependents, FinalizerDeleteDependents). */
export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

export type NamespaceEvent =
  /** `creator`: the user who sent the create; absent when the cluster makes the namespace itself. */
  | {
      type: 'CREATE';
      pending: string[];
      finalizers: string[];
      creator?: string;
      metadataFinalizers?: string[];
    }
  | { type: 'REMOVE_PENDING'; name: string }
  | { type: 'RECORD_FAILURE'; reason: string }
  | { type: 'DELETE'; propagation?: PropagationPolicy }
  /** One second passes; ages stop at `readRepairAfterSeconds` (creation) and 1 (deletion). */
  | { type: 'TICK'; readRepairAfterSeconds: number }
  | { type: 'FINALIZE'; finalizers: string[] }
  /** An update's metadata.finalizers, whole (the garbage collector removes its own this way). */
  | { type: 'SET_METADATA_FINALIZERS'; finalizers: string[] }
  | { type: 'PURGE'; propagation?: PropagationPolicy };

/**
 * The metadata finalizers a DELETE leaves (shipped shouldHaveOrphanFinalizer and
 * shouldHaveDeleteDependentsFinalizer): Orphan keeps `orphan` and drops `foregroundDeletion`, Foreground
 * the reverse, Background drops both, and no policy keeps what is there. Sorted, like the context.
 */
export function metadataFinalizersAfterDelete(
  current: readonly string[],
  propagation: PropagationPolicy | undefined,
): string[] {
  if (propagation === undefined) return [...current];
  const others = current.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  const added =
    propagation === 'Orphan' ? [orphanFinalizer] : propagation === 'Foreground' ? [foregroundFinalizer] : [];
  return [...others, ...added].sort();
}

const propagationOf = (event: NamespaceEvent): PropagationPolicy | undefined =>
  event.type === 'DELETE' || event.type === 'PURGE' ? event.propagation : undefined;

export type NamespaceStateValue = 'absent' | 'initializing' | 'active' | 'terminating' | 'removed';

const emptyNamespace: NamespaceContext = {
  pending: [],
  failure: null,
  finalizers: [],
  metadataFinalizers: [],
  deletedSecondsAgo: null,
  createdSecondsAgo: null,
  initialized: false,
  hadInitializers: false,
  creator: null,
};

/** What storage records for a namespace a CREATE makes, from nothing (IN-1, IN-5, LC-2, RB-2). */
export function createdNamespace(event: Extract<NamespaceEvent, { type: 'CREATE' }>): NamespaceContext {
  return {
    ...emptyNamespace,
    pending: [...event.pending],
    finalizers: [...event.finalizers],
    metadataFinalizers: [...new Set(event.metadataFinalizers ?? [])].sort(),
    createdSecondsAgo: event.pending.length > 0 ? 0 : null,
    initialized: event.pending.length === 0,
    hadInitializers: event.pending.length > 0,
    creator: event.creator ?? null,
  };
}

// A name never used and a name whose namespace was removed are created alike.
const createTransitions = [
  {
    guard: 'createdWithoutPendingInitializers',
    target: 'active',
    actions: 'recordCreation',
    meta: { requirements: ['LC-1', 'LC-2', 'NS-3'] },
  },
  {
    target: 'initializing',
    actions: 'recordCreation',
    meta: { requirements: ['IN-1', 'IN-5', 'LC-2'] },
  },
] as const;

export const namespaceMachine = setup({
  types: {
    context: {} as NamespaceContext,
    events: {} as NamespaceEvent,
  },
  guards: {
    createdWithoutPendingInitializers: ({ event }) => event.type === 'CREATE' && event.pending.length === 0,
    removesLastPendingInitializer: ({ context, event }) =>
      event.type === 'REMOVE_PENDING' && context.pending.length === 1 && context.pending[0] === event.name,
    removesFirstPendingInitializer: ({ context, event }) =>
      event.type === 'REMOVE_PENDING' && context.pending.length > 1 && context.pending[0] === event.name,
    finalizeOnlyRemoves: ({ context, event }) =>
      event.type === 'FINALIZE' && event.finalizers.every((name) => context.finalizers.includes(name)),
    // LC-7, D-46: storage removes a deleted namespace only when spec.finalizers and metadata.finalizers
    // are empty. Shipped REST.Delete hands a terminating namespace whose spec.finalizers are empty to the
    // generic store, which sets the metadata finalizers the policy asks for and removes it only if none remain.
    noFinalizersLeft: ({ context, event }) =>
      context.finalizers.length === 0 &&
      metadataFinalizersAfterDelete(context.metadataFinalizers, propagationOf(event)).length === 0,
    noSpecFinalizersLeft: ({ context }) => context.finalizers.length === 0,
    // ValidateObjectMetaUpdate: no new metadata finalizer once the deletion timestamp is set.
    metadataFinalizersOnlyRemoved: ({ context, event }) =>
      event.type === 'SET_METADATA_FINALIZERS' &&
      event.finalizers.every((name) => context.metadataFinalizers.includes(name)),
    // Shipped ShouldDeleteNamespaceDuringUpdate: an update that leaves no finalizer of either kind removes it.
    removesLastMetadataFinalizer: ({ context, event }) =>
      event.type === 'SET_METADATA_FINALIZERS' &&
      context.finalizers.length === 0 &&
      event.finalizers.length === 0 &&
      context.metadataFinalizers.length > 0,
  },
  actions: {
    recordCreation: assign(({ event }) => (event.type === 'CREATE' ? createdNamespace(event) : {})),
    ageCreationTimestamp: assign({
      createdSecondsAgo: ({ context, event }) =>
        event.type === 'TICK' && context.createdSecondsAgo !== null
          ? Math.min(context.createdSecondsAgo + 1, event.readRepairAfterSeconds)
          : context.createdSecondsAgo,
    }),
    ageDeletionTimestamp: assign({
      deletedSecondsAgo: ({ context }) =>
        context.deletedSecondsAgo === null ? null : Math.min(context.deletedSecondsAgo + 1, 1),
    }),
    // Only read-repair reads the creation age, and only while Initializing.
    stopCreationAge: assign({ createdSecondsAgo: () => null }),
    removeFirstPendingInitializer: assign({ pending: ({ context }) => context.pending.slice(1) }),
    markInitialized: assign({ initialized: () => true }),
    recordFailureResult: assign({
      failure: ({ event }) => (event.type === 'RECORD_FAILURE' ? { reason: event.reason } : null),
    }),
    setDeletionTimestamp: assign({
      deletedSecondsAgo: ({ event }) =>
        event.type === 'DELETE' || event.type === 'RECORD_FAILURE' ? 0 : null,
    }),
    clearPendingInitializers: assign({ pending: () => [] }),
    replaceFinalizers: assign({
      finalizers: ({ event }) => (event.type === 'FINALIZE' ? [...event.finalizers] : []),
    }),
    forgetNamespace: assign(() => ({ ...emptyNamespace })),
    applyPropagationPolicy: assign({
      metadataFinalizers: ({ context, event }) =>
        metadataFinalizersAfterDelete(context.metadataFinalizers, propagationOf(event)),
    }),
    replaceMetadataFinalizers: assign({
      metadataFinalizers: ({ context, event }) =>
        event.type === 'SET_METADATA_FINALIZERS'
          ? [...new Set(event.finalizers)].sort()
          : context.metadataFinalizers,
    }),
  },
}).createMachine({
  id: 'namespace',
  context: emptyNamespace,
  initial: 'absent',
  states: {
    absent: {
      description: 'No namespace of this name exists yet.',
      on: {
        CREATE: createTransitions,
      },
    },
    initializing: {
      description: 'Phase Initializing, condition Initializing=True: pending initializers run in order.',
      on: {
        REMOVE_PENDING: [
          {
            guard: 'removesLastPendingInitializer',
            target: 'active',
            actions: ['removeFirstPendingInitializer', 'stopCreationAge', 'markInitialized'],
            meta: { requirements: ['IN-2', 'IN-3', 'IN-4', 'IN-5'] },
          },
          act('removesFirstPendingInitializer', 'removeFirstPendingInitializer', ['IN-2', 'IN-3']),
        ],
        RECORD_FAILURE: {
          target: 'terminating',
          actions: [
            'recordFailureResult',
            'setDeletionTimestamp',
            'clearPendingInitializers',
            'stopCreationAge',
          ],
          meta: { requirements: ['IN-7', 'LC-3'] },
        },
        DELETE: {
          target: 'terminating',
          actions: [
            'setDeletionTimestamp',
            'clearPendingInitializers',
            'stopCreationAge',
            'applyPropagationPolicy',
          ],
          meta: { requirements: ['LC-3'] },
        },
        FINALIZE: { actions: 'replaceFinalizers', meta: { requirements: ['LC-6'] } },
        SET_METADATA_FINALIZERS: { actions: 'replaceMetadataFinalizers', meta: { requirements: ['LC-7'] } },
        TICK: { actions: 'ageCreationTimestamp', meta: { requirements: ['FP-4'] } },
      },
    },
    active: {
      description: 'Phase Active: content may be created.',
      on: {
        DELETE: {
          target: 'terminating',
          actions: ['setDeletionTimestamp', 'applyPropagationPolicy'],
          meta: { requirements: ['LC-3'] },
        },
        FINALIZE: { actions: 'replaceFinalizers', meta: { requirements: ['LC-6'] } },
        SET_METADATA_FINALIZERS: { actions: 'replaceMetadataFinalizers', meta: { requirements: ['LC-7'] } },
      },
    },
    terminating: {
      description: 'Phase Terminating (deletion timestamp set): content is deleted, then finalizers removed.',
      on: {
        // LC-3, D-10: a repeated DELETE changes nothing (the timestamp is set once).
        DELETE: { meta: { requirements: ['LC-3'] } },
        TICK: { actions: 'ageDeletionTimestamp', meta: { requirements: ['LC-3'] } },
        FINALIZE: {
          guard: 'finalizeOnlyRemoves',
          actions: 'replaceFinalizers',
          meta: { requirements: ['LC-6', 'LC-8'] },
        },
        PURGE: [
          when('noFinalizersLeft', 'removed', 'forgetNamespace', ['LC-7']),
          // D-46: metadata finalizers remain; the DELETE's policy still sets them.
          act('noSpecFinalizersLeft', 'applyPropagationPolicy', ['LC-7']),
        ],
        SET_METADATA_FINALIZERS: [
          when('removesLastMetadataFinalizer', 'removed', 'forgetNamespace', ['LC-7']),
          act('metadataFinalizersOnlyRemoved', 'replaceMetadataFinalizers', ['LC-7']),
        ],
      },
    },
    removed: {
      description: 'Removed from storage; the name may be used again.',
      on: {
        CREATE: createTransitions,
      },
    },
  },
});

export type NamespacePhase = 'Initializing' | 'Active' | 'Terminating';

/** The phase a client reads in status.phase (IN-5, LC-3); null when the namespace does not exist. */
export function phaseOf(value: NamespaceStateValue): NamespacePhase | null {
  switch (value) {
    case 'initializing':
      return 'Initializing';
    case 'active':
      return 'Active';
    case 'terminating':
      return 'Terminating';
    default:
      return null;
  }
}

/**
 * status.conditions as a map of type to status (IN-5, D-22): Initializing is True while initializing,
 * False once initialization ended, and absent for a namespace that never had initializers.
 */
export function conditionsOf(
  value: NamespaceStateValue,
  hadInitializers: boolean,
): Record<string, 'True' | 'False'> {
  if (value === 'initializing') return { Initializing: 'True' };
  if (hadInitializers && (value === 'active' || value === 'terminating')) return { Initializing: 'False' };
  return {};
}

/** What an update's whole spec.initializers.pending list asks of the stored one (IN-3, IN-4, D-18). */
export type PendingListChange =
  | { kind: 'unchanged' }
  /** Initializers to remove, in stored order; the namespace machine takes each only when it is first. */
  | { kind: 'remove'; names: string[] }
  /** A list that adds or reorders entries, or any list once initialization ended: the first offending name. */
  | { kind: 'invalid'; name: string };

/**
 * Compares a sent pending list with the stored one. An empty list on a namespace whose initialization
 * ended is nil, as shipped initialization.go Admit normalizes `pending: []` without a result (IN-4).
 */
export function pendingListChange(
  stored: readonly string[],
  initializing: boolean,
  sent: readonly string[],
): PendingListChange {
  if (sent.length === stored.length && sent.every((name, i) => name === stored[i]))
    return { kind: 'unchanged' };
  if (!initializing) return { kind: 'invalid', name: sent[0] ?? stored[0] ?? '(none)' };
  const kept = stored.filter((name) => sent.includes(name));
  const added = sent.find((name) => !stored.includes(name));
  if (added !== undefined) return { kind: 'invalid', name: added };
  if (kept.some((name, i) => name !== sent[i])) return { kind: 'invalid', name: sent[0] };
  return { kind: 'remove', names: stored.filter((name) => !sent.includes(name)) };
}
