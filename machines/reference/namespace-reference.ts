import { assign, setup } from 'xstate';

/**
 * The reference namespace: a deliberately small lifecycle (three ordered initializers, room for two
 * objects, two finalizers) with exactly 13 distinct states. N interleaved copies give 13^N states,
 * a state space whose size is known in advance, so it measures and cross-checks the explorers.
 */

export const referenceInitializers = [
  'quota.example.com',
  'network.example.com',
  'rbac.example.com',
] as const;
export const referenceFinalizers = ['kubernetes', 'openshift.com/origin'] as const;
/** Admission admits at most this many objects: the bound that keeps the state space finite. */
export const referenceObjectCapacity = 2;

export type ReferenceInitializer = (typeof referenceInitializers)[number];
export type ReferenceFinalizer = (typeof referenceFinalizers)[number];

export interface ReferenceContext {
  /** spec.initializers.pending in execution order (IN-1, IN-2). */
  pending: ReferenceInitializer[];
  /** How many content objects the namespace holds. */
  objects: number;
  /** spec.finalizers (LC-2). */
  finalizers: ReferenceFinalizer[];
}

export type ReferenceEvent =
  | { type: 'CREATE' }
  | { type: 'REMOVE_INITIALIZER'; name: ReferenceInitializer }
  | { type: 'ADMIT_OBJECT' }
  | { type: 'DELETE' }
  | { type: 'DELETE_OBJECT' }
  | { type: 'REMOVE_FINALIZER'; name: ReferenceFinalizer }
  | { type: 'PURGE' };

/** Every event the machine can receive, each payload spelled out: the tabulation's alphabet. */
export const referenceEvents: readonly ReferenceEvent[] = [
  { type: 'CREATE' },
  ...referenceInitializers.map((name) => ({ type: 'REMOVE_INITIALIZER' as const, name })),
  { type: 'ADMIT_OBJECT' },
  { type: 'DELETE' },
  { type: 'DELETE_OBJECT' },
  ...referenceFinalizers.map((name) => ({ type: 'REMOVE_FINALIZER' as const, name })),
  { type: 'PURGE' },
];

const absentNamespace: ReferenceContext = { pending: [], objects: 0, finalizers: [] };

export const referenceNamespaceMachine = setup({
  types: {
    context: {} as ReferenceContext,
    events: {} as ReferenceEvent,
  },
  guards: {
    removesFirstPendingInitializer: ({ context, event }) =>
      event.type === 'REMOVE_INITIALIZER' && context.pending.length > 1 && context.pending[0] === event.name,
    removesLastPendingInitializer: ({ context, event }) =>
      event.type === 'REMOVE_INITIALIZER' &&
      context.pending.length === 1 &&
      context.pending[0] === event.name,
    roomForAnotherObject: ({ context }) => context.objects < referenceObjectCapacity,
    objectsLeft: ({ context }) => context.objects > 0,
    removesOwnFinalizerOnceContentIsGone: ({ context, event }) =>
      event.type === 'REMOVE_FINALIZER' && context.objects === 0 && context.finalizers.includes(event.name),
    noFinalizersLeft: ({ context }) => context.finalizers.length === 0,
  },
  actions: {
    fillPendingAndFinalizers: assign(() => ({
      pending: [...referenceInitializers],
      objects: 0,
      finalizers: [...referenceFinalizers],
    })),
    removeFirstPendingInitializer: assign({ pending: ({ context }) => context.pending.slice(1) }),
    admitObject: assign({ objects: ({ context }) => context.objects + 1 }),
    clearPendingInitializers: assign({ pending: () => [] }),
    deleteOneObject: assign({ objects: ({ context }) => context.objects - 1 }),
    removeNamedFinalizer: assign({
      finalizers: ({ context, event }) =>
        event.type === 'REMOVE_FINALIZER'
          ? context.finalizers.filter((name) => name !== event.name)
          : context.finalizers,
    }),
    forgetNamespace: assign(() => ({ ...absentNamespace })),
  },
}).createMachine({
  id: 'namespaceReference',
  context: absentNamespace,
  initial: 'absent',
  states: {
    absent: {
      description: 'No namespace of this name exists.',
      on: {
        CREATE: {
          target: 'initializing',
          actions: 'fillPendingAndFinalizers',
          meta: { requirements: ['IN-1', 'IN-5', 'LC-2'] },
        },
      },
    },
    initializing: {
      description: 'Pending initializers complete in order; admission admits nothing yet.',
      meta: { requirements: ['IN-6'] },
      on: {
        REMOVE_INITIALIZER: [
          {
            guard: 'removesLastPendingInitializer',
            target: 'active',
            actions: 'removeFirstPendingInitializer',
            meta: { requirements: ['IN-2', 'IN-3', 'IN-4', 'IN-5'] },
          },
          {
            guard: 'removesFirstPendingInitializer',
            actions: 'removeFirstPendingInitializer',
            meta: { requirements: ['IN-2', 'IN-3'] },
          },
        ],
        DELETE: {
          target: 'terminating',
          actions: 'clearPendingInitializers',
          meta: { requirements: ['LC-3'] },
        },
      },
    },
    active: {
      description: 'Admission admits content up to the capacity.',
      on: {
        ADMIT_OBJECT: {
          guard: 'roomForAnotherObject',
          actions: 'admitObject',
          meta: { requirements: ['NS-2'] },
        },
        DELETE: { target: 'terminating', meta: { requirements: ['LC-3'] } },
      },
    },
    terminating: {
      description: 'Admission admits nothing; content is deleted, then each finalizer owner removes its own.',
      meta: { requirements: ['LC-4'] },
      on: {
        DELETE_OBJECT: {
          guard: 'objectsLeft',
          actions: 'deleteOneObject',
          meta: { requirements: ['LC-5'] },
        },
        REMOVE_FINALIZER: {
          guard: 'removesOwnFinalizerOnceContentIsGone',
          actions: 'removeNamedFinalizer',
          meta: { requirements: ['LC-5', 'LC-6', 'LC-8'] },
        },
        PURGE: {
          guard: 'noFinalizersLeft',
          target: 'absent',
          actions: 'forgetNamespace',
          meta: { requirements: ['LC-7', 'LC-9'] },
        },
      },
    },
  },
});
