import { assign } from 'xstate';
import type { DesignOptions, DesignScope } from '../machines/design-options.ts';
import type { NamespaceContext, namespaceMachine } from '../machines/namespace.ts';
import { builtInActorBindings, initializerAccount, type Scope } from '../machines/scope.ts';
import type { MachineSet } from '../machines/system.ts';
import { providing, unchanged, withDefinition } from './machine-edit.ts';

/**
 * The documents' design alternatives and the options `docs/decisions.md` did not take, as named
 * variants of the same machines (docs/alternatives.md). Each changes one guard, action, machine or
 * scope option and names the document section it comes from; `npm run alternatives` checks them all.
 */
export interface DesignVariant {
  name: string;
  kind: 'design';
  /** ALT-n of the catalog, or the decision (D-n) whose option not taken it is. */
  label: string;
  description: string;
  /** The document section the alternative comes from. */
  source: string;
  requirements: string[];
  machines: (base: MachineSet) => MachineSet;
  /** The scope option the alternative changes, applied to the scope it is checked on. */
  scope?: (scope: DesignScope) => DesignScope;
}

type NamespaceConfig = (typeof namespaceMachine)['config'];
type StateConfig = { on?: Record<string, unknown>; always?: unknown };

/** The namespace machine's definition with one state's configuration changed. */
function editNamespaceState(
  config: NamespaceConfig,
  state: 'initializing' | 'active' | 'terminating',
  edit: (current: StateConfig) => StateConfig,
): NamespaceConfig {
  const states = config.states as Record<string, StateConfig>;
  return { ...config, states: { ...states, [state]: edit(states[state]) } } as NamespaceConfig;
}

/** Machines whose namespace machine has one state's configuration changed. */
const namespaceStateEdited =
  (state: Parameters<typeof editNamespaceState>[1], edit: (current: StateConfig) => StateConfig) =>
  (base: MachineSet): MachineSet => ({
    ...base,
    namespace: withDefinition(base.namespace, (config) => editNamespaceState(config, state, edit)),
  });

const withoutEvent = (on: Record<string, unknown> | undefined, event: string) =>
  Object.fromEntries(Object.entries(on ?? {}).filter(([type]) => type !== event));

type PipelineConfig = MachineSet['pipeline']['config'];
type Transition = { guard?: unknown };

/**
 * D-4 (a): storage refuses a DELETE the namespace machine does not take (409), checked before the
 * ordinary delete. The base pipeline has no such rule: there every live namespace takes DELETE.
 */
function refuseDeleteTheNamespaceIgnores(config: PipelineConfig): PipelineConfig {
  type Chain = { always?: Transition[] };
  const states = config.states as Record<string, { states?: Record<string, Chain> }>;
  const namespaces = states.namespaces;
  const always = namespaces.states?.deleting.always ?? [];
  const refusal = {
    guard: 'deleteIgnoredByNamespace',
    target: '#pipeline.refused',
    actions: 'refuseNamespaceDeleteRefused',
    meta: { requirements: ['LC-3'] },
  };
  // Before the ordinary delete, the unguarded last rule of the verb's chain.
  const deleting = { always: [...always.slice(0, -1), refusal, ...always.slice(-1)] };
  const edited = { ...namespaces, states: { ...namespaces.states, deleting } };
  return { ...config, states: { ...states, namespaces: edited } } as PipelineConfig;
}

/** A principal standing for a controller that starts work in a namespace (IN-10's consumer). */
export const consumerAccount = 'system:serviceaccount:kube-system:replicaset-controller';

const policyInitializer = {
  name: 'policy.example.com',
  failurePolicy: 'Ignore' as const,
  timeoutSeconds: 3,
  // RB-2: the creator becomes admin inside the new namespace.
  populates: {
    resource: 'rolebindings',
    name: 'namespace-admin',
    roleBinding: { clusterRole: 'admin', subject: '$creator' },
  },
  canFail: false,
};

type Configuration = DesignScope['configurations'][number];

/** A configuration of one initializer. */
const configuration = (
  name: string,
  registered: Configuration['registered'],
  initializer: Configuration['initializers'][number],
): Configuration => ({ name, registered, initializers: [initializer] });

const policyConfiguration = configuration('10-policy', 'initially', policyInitializer);

/** The tenant of both scopes, creating team-a and sending `requests` there. */
const alice = (
  requests: DesignScope['principals'][number]['requests'],
): DesignScope['principals'][number] => ({
  name: 'alice',
  groups: ['teams@corp.com', 'system:authenticated'],
  tenant: true,
  namespaces: ['team-a'],
  requests,
});

const declared = { consumers: [consumerAccount], mayBeNotReady: [policyInitializer.name] };

/**
 * The lifecycle scope of the alternatives: one tenant namespace and `default`, a fail-open policy
 * initializer whose controller may not be ready, a fail-closed quota initializer that can fail, a
 * ReplicaSet controller as the consumer of IN-10, a cluster admin, initializer crashes and apiserver
 * restarts, a 5 s read-repair timeout. Configuration reads never fail here: the sync scope covers them.
 */
export const alternativesLifecycleScope: DesignScope = {
  name: 'alternatives-lifecycle',
  description:
    'One tenant namespace and default; fail-open policy (may not be ready), fail-closed quota that can fail; a ReplicaSet controller as consumer; a cluster admin; initializer crashes and apiserver restarts; a 5 s read-repair timeout.',
  namespaces: [
    { name: 'team-a', creator: 'alice' },
    { name: 'default', system: true },
  ],
  configurations: [
    policyConfiguration,
    configuration('20-quota', 'initially', {
      name: 'quota.example.com',
      failurePolicy: 'Fail',
      timeoutSeconds: 2,
      populates: { resource: 'resourcequotas', name: 'compute-quota' },
      canFail: true,
    }),
  ],
  principals: [
    alice(['create-namespace', 'create-content']),
    {
      name: consumerAccount,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
      namespaces: ['team-a'],
      requests: ['create-content'],
    },
    {
      name: 'carol',
      groups: ['system:masters', 'system:authenticated'],
      namespaces: ['team-a'],
      requests: ['delete-namespace', 'get-namespace', 'update-finalizers'],
    },
    // An initializer's create sent before a DELETE and served after it: the race of D-3.
    {
      name: initializerAccount,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
      namespaces: ['team-a'],
      requests: ['create-content'],
    },
  ],
  clusterRoleBindings: [
    ...builtInActorBindings,
    {
      name: 'replicaset-controller-edit',
      clusterRole: 'edit',
      subjects: [{ kind: 'User', name: consumerAccount }],
    },
  ],
  content: [{ resource: 'configmaps', name: 'app' }],
  finalizerOwners: [],
  faults: { initializerCrash: true, configReadFailure: false, apiserverRestart: true },
  clock: { readRepairTimeoutSeconds: 5 },
  design: declared,
};

/**
 * The sync scope: alice creates one namespace while configuration reads may fail and an admin
 * registers a second, fail-open configuration (AC-1..AC-3, 004's synchronization goals).
 */
export const alternativesSyncScope: DesignScope = {
  ...alternativesLifecycleScope,
  name: 'alternatives-sync',
  description:
    'Alice creates one namespace while configuration reads may fail and a cluster admin registers a logging configuration; no other actor; a 5 s read-repair timeout.',
  configurations: [
    policyConfiguration,
    configuration('30-logging', 'later', {
      name: 'logging.example.com',
      failurePolicy: 'Ignore',
      timeoutSeconds: 2,
      populates: { resource: 'configmaps', name: 'log-index' },
      canFail: false,
    }),
  ],
  principals: [alice(['create-namespace'])],
  faults: { initializerCrash: false, configReadFailure: true, apiserverRestart: false },
};

/** Every alternative is checked on both; a cell is violated when either scope breaks it. */
export const alternativesScopes: DesignScope[] = [alternativesLifecycleScope, alternativesSyncScope];

/** D-3's option not taken: holders of initialize may create content in a Terminating namespace (LC-4). */
export const initializeHoldersCreateInTerminating = providing('admission', {
  guards: {
    createInTerminatingNamespace: ({ event }) =>
      event.facts.target === 'content' &&
      event.facts.operation === 'create' &&
      event.facts.namespaceTerminating &&
      !event.facts.callerMayInitialize,
  },
});

/** Initializers complete in any order: each sets its own condition (ALT-1) or names itself (ALT-3's map). */
export const unorderedInitializers = (base: MachineSet): MachineSet => ({
  ...base,
  initializerController: base.initializerController.provide({
    guards: {
      firstPendingAndNotPopulated: ({ event }) =>
        (event.type === 'RECONCILE' || event.type === 'PROVISIONING_FAILED') && !event.observed.populated,
      firstPendingAndPopulated: ({ event }) => event.type === 'RECONCILE' && event.observed.populated,
    },
  }),
  namespace: base.namespace.provide({
    guards: {
      removesFirstPendingInitializer: ({ context, event }) =>
        event.type === 'REMOVE_PENDING' && context.pending.length > 1 && context.pending.includes(event.name),
    },
    actions: {
      removeFirstPendingInitializer: assign({
        pending: ({ context, event }) =>
          event.type === 'REMOVE_PENDING'
            ? context.pending.filter((name) => name !== event.name)
            : context.pending,
      }),
    },
  }),
});

/** The scope with design options set (docs/alternatives.md): what the machines read of the scope. */
const withDesign =
  (options: DesignOptions) =>
  (scope: DesignScope): DesignScope => ({ ...scope, design: { ...scope.design, ...options } });

/** Admission never refuses for a stale copy: it keeps admitting with whatever it last read. */
const neverStale = providing('configSync', { guards: { noSuccessfulReadWithinStaleWindow: () => false } });

/** A DELETE of an Initializing namespace keeps its pending list (D-4 option b). */
const deleteKeepsPending = (config: NamespaceConfig): NamespaceConfig =>
  editNamespaceState(config, 'initializing', (state) => ({
    ...state,
    on: {
      ...state.on,
      DELETE: {
        target: 'terminating',
        actions: 'setDeletionTimestamp',
        meta: { requirements: ['LC-3', 'IN-4'] },
      },
    },
  }));

/** Deletion was requested: the timestamp is set, whatever the phase says (D-11's option not taken). */
const deletionRequested = {
  deletionRequested: ({ context }: { context: NamespaceContext }) => context.deletedSecondsAgo !== null,
};

/** DELETE only stamps the deletion; a DELETE of a namespace already stamped (the controller's) sets Terminating. */
const deleteLeavesPhaseToController = (config: NamespaceConfig): NamespaceConfig => {
  const stampOnly = { actions: 'setDeletionTimestamp', meta: { requirements: ['LC-3'] } };
  const initializing = editNamespaceState(config, 'initializing', (state) => ({
    ...state,
    on: {
      ...state.on,
      DELETE: [
        {
          guard: 'deletionRequested',
          target: 'terminating',
          actions: 'clearPendingInitializers',
          meta: { requirements: ['LC-3', 'LC-5'] },
        },
        stampOnly,
      ],
    },
  }));
  return editNamespaceState(initializing, 'active', (state) => ({
    ...state,
    on: {
      ...state.on,
      DELETE: [
        { guard: 'deletionRequested', target: 'terminating', meta: { requirements: ['LC-3', 'LC-5'] } },
        stampOnly,
      ],
    },
  }));
};

/**
 * The alternatives, a row each: name, label, what changes, the document section, the requirements it
 * explores, the machines it changes and the scope option it changes.
 */
type AlternativeRow = [
  name: string,
  label: string,
  description: string,
  source: string,
  requirements: string[],
  machines: DesignVariant['machines'],
  scope?: DesignVariant['scope'],
];

/** An ALT-6 alternative without a synchronization bound: admission keeps its copy however old (AC-2, AC-3). */
const unboundedCopy = (
  name: string,
  description: string,
  source: string,
  scope?: AlternativeRow[6],
): AlternativeRow => [name, 'ALT-6', description, source, ['ALT-6', 'AC-2', 'AC-3'], neverStale, scope];

const alternatives: AlternativeRow[] = [
  [
    'alt1-readiness-gates',
    'ALT-1',
    'Readiness gates fixed at creation; each initializer sets its own Ready condition whenever it is done, and the namespace is ready once every gate is met, instead of a pending list worked off in order.',
    '000, Alternative Design: Use ReadinessGates',
    ['ALT-1', 'IN-2'],
    unorderedInitializers,
  ],
  [
    'alt2-container-meta',
    'ALT-2',
    'Initializers and finalizers move into metadata (ContainerMeta): whoever may update a namespace may edit its finalizers with an ordinary update, without the finalize sub-resource.',
    '000, Alternative Design: Container metadata',
    ['ALT-2', 'LC-6', 'LC-9'],
    unchanged,
    // metadata.finalizers is edited by update: every principal that updates finalizers can now drop `kubernetes`.
    (scope) => ({
      ...scope,
      principals: scope.principals.map((p) =>
        p.requests.includes('update-finalizers')
          ? { ...p, requests: [...p.requests, 'finalize-remove-kubernetes' as const] }
          : p,
      ),
    }),
  ],
  [
    'alt3-generic-initializers',
    'ALT-3',
    'Generic initializers: the creating POST is held until the namespace is initialized and answers 504 Timeout after a time limit (3 s here), instead of 201 at once with clients polling.',
    '002, REST API Changes; 000, Scalability Considerations; D-5, D-6',
    ['ALT-3', 'IN-8'],
    unchanged,
    withDesign({ createHeldSeconds: 3 }),
  ],
  [
    'alt4-no-initialize-check',
    'ALT-4',
    'Admission without the initialize check: content of an Initializing namespace is open to anyone RBAC allows.',
    '000, Security Considerations (the initialize verb); catalog ALT-4',
    ['ALT-4', 'IN-6', 'IN-10'],
    providing('pipeline', {
      guards: { uninitializedContentWithoutInitializeVerb: () => false },
    }),
  ],
  [
    'alt5-fail-closed-only',
    'ALT-5',
    'Every initializer fails closed, as the original extensible-admission proposal assumed: a timed-out initializer fails the namespace instead of being skipped.',
    '004, Handling fail-open initializers (the original proposal)',
    ['ALT-5', 'FP-1', 'FP-5'],
    unchanged,
    (scope) => ({
      ...scope,
      configurations: scope.configurations.map((c) => ({
        ...c,
        initializers: c.initializers.map((i) => ({ ...i, failurePolicy: 'Fail' as const })),
      })),
    }),
  ],
  [
    'alt6-always-read',
    'ALT-6',
    'Admission does a consistent read of the configurations before each create: a stored configuration applies at once, and a create fails as soon as reads fail.',
    '004, Considered but REJECTED alternatives: synchronization, Rejected 1',
    ['ALT-6', 'AC-1', 'AC-3'],
    // A read failure fails the next request: the copy is refused one second after the last good read.
    providing('configSync', {
      guards: {
        noSuccessfulReadWithinStaleWindow: ({ context }) => context.secondsSinceRead + 1 >= 1,
      },
    }),
    withDesign({ readBeforeEachRequest: true }),
  ],
  unboundedCopy(
    'alt6-report-cached-version',
    'No synchronization bound: admission keeps its cached copy however old, and reports the version it caches (observedGeneration) so the admin can compare.',
    '004, Considered but REJECTED alternatives: synchronization, Rejected 2',
    withDesign({ reportsCachedVersion: true }),
  ),
  unboundedCopy(
    'alt6-watch-deltas',
    'Admission watches the configurations and applies deltas, which may arrive arbitrarily late; it neither blocks nor reports what it caches.',
    '004, Synchronization of admission control configurations (first paragraph)',
  ),
  [
    'alt6-sweep-controller',
    'ALT-6',
    'A fail-open controller, not the apiserver, removes timed-out fail-open initializers on its sweep: no apiserver timer for fail-closed ones, no read-repair, and an apiserver restart loses nothing.',
    '004, Considered but REJECTED alternatives: Handling fail-open initializers, Rejected 1',
    ['ALT-6', 'FP-2', 'FP-4'],
    providing('initializerTimeout', {
      guards: {
        timerExpiredFailClosed: () => false,
        readRepairDueFailOpen: () => false,
        readRepairDueFailClosed: () => false,
      },
    }),
    (scope) => ({ ...scope, faults: { ...scope.faults, apiserverRestart: false } }),
  ],
  [
    'open-delete-while-initializing-refused',
    'D-4 (a)',
    'A namespace cannot be deleted while it is Initializing: storage refuses the DELETE until it is Active.',
    'catalog IN Open point; D-4 option (a)',
    ['LC-3', 'FP-5'],
    (base) => ({
      ...namespaceStateEdited('initializing', (state) => ({
        ...state,
        on: withoutEvent(state.on, 'DELETE'),
      }))(base),
      pipeline: withDefinition(base.pipeline, refuseDeleteTheNamespaceIgnores),
    }),
  ],
  [
    'open-delete-keeps-pending',
    'D-4 (b)',
    'Deleting an Initializing namespace keeps its pending list (as shipped storage did) instead of clearing it; pending initializers still do not block removal.',
    'catalog IN Open point; D-4 option (b)',
    ['LC-3', 'IN-4'],
    (base) => ({ ...base, namespace: withDefinition(base.namespace, deleteKeepsPending) }),
  ],
  [
    'open-pending-blocks-removal',
    'D-4 (blocking)',
    'Deleting an Initializing namespace keeps its pending list, and pending initializers block removal as finalizers do.',
    'catalog IN Open point ("do pending initializers block removal?"); D-4',
    ['LC-7', 'FP-5'],
    (base) => ({
      ...base,
      namespace: withDefinition(base.namespace, deleteKeepsPending).provide({
        guards: {
          noFinalizersLeft: ({ context }) => context.finalizers.length === 0 && context.pending.length === 0,
        },
      }),
    }),
  ],
  [
    'open-delete-on-finalize',
    'D-11',
    "Storage removes a deleted namespace as soon as a finalize empties its finalizers (shipped since 1.15), instead of waiting for the controller's final DELETE.",
    '001, Lifecycle (the final DELETE); D-11 variant lc7-delete-on-finalize',
    ['LC-7', 'LC-5'],
    namespaceStateEdited('terminating', (state) => ({
      ...state,
      always: {
        guard: 'noFinalizersLeft',
        target: 'removed',
        actions: 'forgetNamespace',
        meta: { requirements: ['LC-7'] },
      },
    })),
  ],
  [
    'open-terminating-set-by-controller',
    'D-11 (phase)',
    'DELETE only sets the deletion timestamp; the namespace controller sets phase Terminating when it next syncs the namespace, instead of storage doing both in one write.',
    '001, Lifecycle ("a controller sets Terminating"); D-11',
    ['LC-3', 'LC-4'],
    (base) => ({
      ...base,
      namespace: withDefinition(base.namespace, deleteLeavesPhaseToController, deletionRequested),
    }),
  ],
  [
    'open-initializers-create-in-terminating',
    'D-3',
    'Principals holding initialize may still create content in a Terminating namespace, so an initializer that lost the race with a DELETE completes its work.',
    'catalog IN Open point ("may an initializer create content in a namespace that became Terminating?"); D-3',
    ['LC-4', 'IN-3'],
    initializeHoldersCreateInTerminating,
  ],
  [
    'open-ac2-creates-only',
    'D-9',
    'A stale configuration copy refuses only creates (as shipped), not every write admission sees.',
    '004, Synchronization ("block all incoming request"); D-9 variant ac2-creates-only',
    ['AC-2'],
    providing('admission', {
      guards: {
        writeWithStaleConfiguration: ({ event }) =>
          !event.facts.configurationFresh && event.facts.operation === 'create',
      },
    }),
  ],
];

export const designVariants: DesignVariant[] = alternatives.map(
  ([name, label, description, source, requirements, machines, scope]) => ({
    name,
    kind: 'design',
    label,
    description,
    source,
    requirements,
    machines,
    ...(scope ? { scope } : {}),
  }),
);

export function designVariantByName(name: string): DesignVariant | undefined {
  return designVariants.find((v) => v.name === name);
}

/** A scope with the scope option of the named design variant applied (unchanged for any other name). */
export function withDesignScope<S extends Scope>(name: string, scope: S): S {
  const variant = designVariantByName(name);
  return variant?.scope ? (variant.scope(scope) as S) : scope;
}
