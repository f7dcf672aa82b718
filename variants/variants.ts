import { assign } from 'xstate';
import {
  authorizationMachineHonouringForeignRoleBindings,
  authorizationMachineOpeningListsByRoleBindings,
} from '../machines/authorization.ts';
import { bootstrapClusterRoles } from '../machines/bootstrap-rbac.ts';
import {
  type EffectiveInitializer,
  type MergeableConfiguration,
  mergeInitializerConfigurations,
} from '../machines/initializer-config.ts';
import type { InitializerControllerEvent } from '../machines/initializer-controller.ts';
import type { PolicyRule } from '../machines/k8s-types.ts';
import {
  createdNamespace,
  type NamespaceContext,
  type NamespaceEvent,
  type namespaceMachine,
} from '../machines/namespace.ts';
import { kubernetesFinalizer } from '../machines/namespace-controller.ts';
import type { PipelineFacts } from '../machines/pipeline.ts';
import type { Scope } from '../machines/scope.ts';
import { defaultMachines, type MachineSet } from '../machines/system.ts';
import {
  designVariants,
  initializeHoldersCreateInTerminating,
  unorderedInitializers,
} from './design-variants.ts';
import { providing, unchanged, withDefinition } from './machine-edit.ts';

/**
 * Named variants of the machines: seeded faults (mutants) that some property must catch, and design
 * alternatives of the documents. Each replaces a machine, usually one guard or action through
 * `.provide()`, so the diagrams of the base machines stay the single picture.
 */
export interface Variant {
  name: string;
  kind: 'mutant' | 'design';
  description: string;
  /** Requirement IDs the variant breaks (mutants) or explores (design alternatives). */
  requirements: string[];
  /** The scope the model is built with, for a fault that needs the scope's data (never an import of one). */
  machines: (base: MachineSet, scope: Scope) => MachineSet;
  /** A fault in the scope's data rather than a machine: the bootstrap RBAC manifests (RB-1, RB-3). */
  scope?: (scope: Scope) => Scope;
  /**
   * A scope of the fault's own, `scopes/faults/NAME.yaml` (named here without `.yaml`), that the fault
   * sweeps (`npm run mutants`, `npm run crosscheck -- --mutants`) search it on instead of the scope they
   * are given: for a fault whose state space on the usual scopes is past one machine.
   */
  sweepScope?: string;
}

/** The scope with one bootstrap ClusterRole's rules extended (a scope's role of the same name replaces it). */
function withRoleRule(name: string, rule: PolicyRule): (scope: Scope) => Scope {
  return (scope) => {
    const current =
      (scope.clusterRoles ?? []).find((r) => r.metadata.name === name) ??
      bootstrapClusterRoles.find((r) => r.metadata.name === name);
    if (!current) throw new Error(`no ClusterRole ${name} to change`);
    return {
      ...scope,
      clusterRoles: [
        ...(scope.clusterRoles ?? []).filter((r) => r.metadata.name !== name),
        { ...current, rules: [...current.rules, rule] },
      ],
    };
  };
}

type NamespaceConfig = (typeof namespaceMachine)['config'];

/**
 * Machines whose namespace storage action `action` assigns, on an event of one of `types`, what `update`
 * gives from that event and the context, and nothing on any other event: a fault in what storage writes.
 */
function storageAssigns<T extends NamespaceEvent['type']>(
  action: 'recordCreation' | 'setDeletionTimestamp',
  types: readonly T[],
  update: (
    event: Extract<NamespaceEvent, { type: T }>,
    context: NamespaceContext,
  ) => Partial<NamespaceContext>,
): (base: MachineSet) => MachineSet {
  const applies = (event: NamespaceEvent): event is Extract<NamespaceEvent, { type: T }> =>
    (types as readonly string[]).includes(event.type);
  return providing('namespace', {
    actions: {
      [action]: assign(({ context, event }: { context: NamespaceContext; event: NamespaceEvent }) =>
        applies(event) ? update(event, context) : {},
      ),
    },
  });
}
type NamespaceStates = NonNullable<NamespaceConfig['states']>;

/** Machines whose namespace machine answers one event in one state with another transition. */
function namespaceHandles(
  state: keyof NamespaceStates & string,
  event: string,
  transition: { target?: string; actions: string | string[]; meta: { requirements: string[] } },
): (base: MachineSet) => MachineSet {
  return (base) => ({
    ...base,
    namespace: withDefinition(base.namespace, (config) => {
      const states = config.states as Record<string, { on?: Record<string, unknown> }>;
      const target = states[state];
      return {
        ...config,
        states: { ...states, [state]: { ...target, on: { ...target.on, [event]: transition } } },
      } as NamespaceConfig;
    }),
  });
}

/**
 * Machines whose IN-6 gate refuses content of a namespace never initialized, to a caller that may not
 * initialize, only where `also` holds too (the model's gate also lets a DELETE through once the
 * namespace terminates; these gates do not).
 */
const gateClosedOnlyWhen = (also: (facts: PipelineFacts) => boolean) =>
  providing('pipeline', {
    guards: {
      uninitializedContentWithoutInitializeVerb: ({ event }) =>
        event.facts.target === 'content' &&
        event.facts.namespaceExists &&
        !event.facts.namespaceInitialized &&
        !event.facts.callerMayInitialize &&
        also(event.facts),
    },
  });

/** The pending list admission injects with the scope's initial configurations (IN-1). */
const configuredInitializers = (scope: Scope): string[] =>
  mergeInitializerConfigurations(
    scope.configurations
      .filter((c) => c.registered === 'initially')
      .map((c) => ({ metadata: { name: c.name }, initializers: c.initializers })),
  ).map((i) => i.name);

/**
 * The scope with an RBAC manager who may write ClusterRoleBindings (and nothing it could grant) trying
 * to bind cluster-admin to itself (D-23): refused by escalation prevention, so the model adds no state.
 */
function withClusterAdminBindingAttempt(scope: Scope): Scope {
  return withRbacManager(
    scope,
    ['create-cluster-object'],
    {
      name: 'cluster-binding-writer',
      rules: [
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], verbs: ['create'] },
      ],
    },
    { name: 'rbac-manager-is-cluster-admin', clusterRole: 'cluster-admin', subject: 'rbac-manager' },
  );
}

/**
 * The scope with an RBAC manager (D-23): its requests, a ClusterRole of the rules it holds bound to it,
 * and the one ClusterRoleBinding its requests write; it is cluster-wide in the scope's intent.
 */
function withRbacManager(
  scope: Scope,
  requests: Scope['principals'][number]['requests'],
  role: { name: string; rules: PolicyRule[] },
  writes: { name: string; clusterRole: string; subject: string },
): Scope {
  const manager = 'rbac-manager';
  return {
    ...scope,
    principals: [...scope.principals, { name: manager, groups: ['system:authenticated'], requests }],
    clusterRoles: [...(scope.clusterRoles ?? []), { metadata: { name: role.name }, rules: role.rules }],
    clusterRoleBindings: [
      ...scope.clusterRoleBindings,
      { name: role.name, clusterRole: role.name, subjects: [{ kind: 'User', name: manager }] },
    ],
    clusterObjects: [
      ...(scope.clusterObjects ?? []),
      {
        kind: 'ClusterRoleBinding',
        name: writes.name,
        clusterRole: writes.clusterRole,
        subjects: [{ kind: 'User', name: writes.subject }],
        requestedBy: [manager],
      },
    ],
    ...(scope.intent
      ? { intent: { ...scope.intent, clusterWide: [...scope.intent.clusterWide, manager] } }
      : {}),
  };
}

/** The merge of IN-1 without its sort: entries concatenated in list order, a repeated name kept once. */
function mergeInListOrder(configs: readonly MergeableConfiguration[]): EffectiveInitializer[] {
  const merged = configs.flatMap((c) => mergeInitializerConfigurations([c]));
  return merged.filter((e, i) => merged.findIndex((f) => f.name === e.name) === i);
}

/**
 * IN-1's merge with a name listed again taking the later entry, at its later place (a merge keyed by
 * name that overwrites, where the documents keep the first).
 */
function mergeKeepingLastListed(configs: readonly MergeableConfiguration[]): EffectiveInitializer[] {
  const merged: EffectiveInitializer[] = [];
  for (const c of [...configs].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))) {
    for (const entry of mergeInitializerConfigurations([c])) {
      const earlier = merged.findIndex((e) => e.name === entry.name);
      if (earlier >= 0) merged.splice(earlier, 1);
      merged.push(entry);
    }
  }
  return merged;
}

/**
 * The scope with the first initializer of the configuration that sorts first also listed, fail open
 * (FP-3), last in the configuration that sorts last: a name listed twice, whose first place IN-1 keeps.
 */
function withInitializerListedTwice(scope: Scope): Scope {
  const sorted = [...scope.configurations].sort((a, b) => (a.name < b.name ? -1 : 1));
  const again = sorted[0]?.initializers[0];
  const last = sorted.at(-1);
  if (!again || !last || sorted.length < 2) throw new Error('no two configurations to list a name twice');
  return {
    ...scope,
    configurations: scope.configurations.map((c) =>
      c.name === last.name
        ? { ...c, initializers: [...c.initializers, { ...again, failurePolicy: 'Ignore' as const }] }
        : c,
    ),
  };
}

/** The scope with the cluster admins (system:masters) also creating content where they delete namespaces. */
function withClusterAdminsCreatingContent(scope: Scope): Scope {
  return {
    ...scope,
    principals: scope.principals.map((p) =>
      p.groups.includes('system:masters') && p.requests.includes('delete-namespace')
        ? { ...p, requests: [...p.requests, 'create-content' as const] }
        : p,
    ),
  };
}

/**
 * The scope with an RBAC manager who may create and delete a ClusterRoleBinding of `view` to the
 * labeller (D-23), as the cluster-rbac scope declares it: bindable (`bind` on view), so it is stored.
 */
function withDeletableClusterBinding(scope: Scope): Scope {
  return withRbacManager(
    scope,
    ['create-cluster-object', 'delete-cluster-object'],
    {
      name: 'cluster-binding-manager',
      rules: [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterrolebindings'],
          verbs: ['get', 'create', 'delete'],
        },
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          verbs: ['bind'],
          resourceNames: ['view'],
        },
      ],
    },
    { name: 'labeller-view', clusterRole: 'view', subject: 'labeller' },
  );
}

/**
 * The seeded faults, a row each in registry order: name, the requirements it breaks, what goes wrong, the
 * machines it changes and, for a fault in the scope's data, the scope it changes; last, for a fault
 * whose state space is past one machine on the usual scopes, the scope of its own the sweeps search it on.
 */
type FaultRow = [
  name: string,
  requirements: string[],
  description: string,
  machines: Variant['machines'],
  scope?: Variant['scope'],
  sweepScope?: Variant['sweepScope'],
];

const seededFaults: FaultRow[] = [
  [
    'create-in-terminating',
    ['LC-4'],
    'Admission lets content be created in a terminating namespace.',
    providing('admission', { guards: { createInTerminatingNamespace: () => false } }),
  ],
  [
    'initialize-check-skipped',
    ['IN-6', 'ALT-4'],
    'Admission no longer asks for the initialize verb on content in an initializing namespace (ALT-4).',
    providing('pipeline', {
      guards: { uninitializedContentWithoutInitializeVerb: () => false },
    }),
  ],
  [
    'initializers-set-at-create-by-anyone',
    ['IN-3', 'IN-1'],
    'Admission keeps a pending list that any creator sends with a new namespace, initialize verb or not.',
    providing('admission', {
      guards: { createCarriesInitializersWithoutInitializeVerb: () => false },
    }),
  ],
  [
    'pending-list-editable-by-anyone',
    ['IN-3'],
    'Admission no longer asks for the initialize verb when a request changes the pending list or result: whoever RBAC lets update a namespace may.',
    providing('admission', {
      guards: { changesInitializersWithoutInitializeVerb: () => false },
    }),
  ],
  [
    'initializer-out-of-order',
    ['IN-2'],
    'Initializers act as soon as they are pending, not when first, and storage lets any pending initializer remove itself.',
    // The same change as the unordered designs (ALT-1, ALT-3), seeded as a fault against IN-2.
    unorderedInitializers,
  ],
  [
    'removal-with-finalizers-left',
    ['LC-7'],
    'Storage removes a terminating namespace on DELETE even though finalizers are left.',
    providing('namespace', { guards: { noFinalizersLeft: () => true } }),
  ],
  [
    'removal-with-metadata-finalizers-left',
    ['LC-7'],
    "Storage removes a terminating namespace on DELETE once spec.finalizers are empty, though a metadata finalizer is left (D-46). The scope's created namespaces send metadata.finalizers [example.com/keep], which nothing removes, so the fault is reachable.",
    providing('namespace', {
      guards: { noFinalizersLeft: ({ context }) => context.finalizers.length === 0 },
    }),
    (scope) => ({
      ...scope,
      namespaces: scope.namespaces.map((ns) =>
        ns.system || ns.preexisting ? ns : { ...ns, metadataFinalizers: ['example.com/keep'] },
      ),
    }),
  ],
  [
    'finalize-before-content-gone',
    ['LC-5', 'LC-9'],
    'The namespace controller removes the kubernetes finalizer first and deletes content only afterwards.',
    providing('namespaceController', {
      guards: {
        terminatingWithContent: ({ event }) =>
          event.observed.terminating &&
          event.observed.contentRemains &&
          !event.observed.finalizers.includes(kubernetesFinalizer),
      },
    }),
  ],
  [
    'pending-grows-after-active',
    ['IN-4'],
    'Deleting an Active namespace puts the configured initializers back into its pending list (the initializers plugin re-applied on a write other than create).',
    (base, scope) =>
      storageAssigns('setDeletionTimestamp', ['DELETE', 'RECORD_FAILURE'], (event, context) => ({
        deletedSecondsAgo: 0,
        // Deleting while initializing still clears the list afterwards (D-4): only Active namespaces regain it.
        pending:
          event.type === 'DELETE' && context.pending.length === 0
            ? configuredInitializers(scope)
            : context.pending,
      }))(base),
  ],
  [
    'failure-result-ignored',
    ['IN-7'],
    'Storage records a failure result but neither deletes the namespace nor stops its initialization.',
    namespaceHandles('initializing', 'RECORD_FAILURE', {
      actions: 'recordFailureResult',
      meta: { requirements: ['IN-7'] },
    }),
  ],
  [
    'stale-configuration-used',
    ['AC-2', 'AC-3'],
    'Admission keeps using its configuration copy after 5 s without a successful read.',
    providing('configSync', { guards: { noSuccessfulReadWithinStaleWindow: () => false } }),
  ],
  [
    'rolebinding-grants-cluster-wide',
    ['RB-4', 'RB-5'],
    'A RoleBinding grants in every namespace, not only its own.',
    (base) => ({ ...base, authorization: authorizationMachineHonouringForeignRoleBindings }),
  ],
  [
    'rolebinding-opens-cross-namespace-list',
    ['NS-7', 'RB-6'],
    "A RoleBinding in any namespace authorizes a list across all namespaces, which then returns every namespace's items.",
    (base) => ({ ...base, authorization: authorizationMachineOpeningListsByRoleBindings }),
  ],
  [
    'kubernetes-finalizer-not-added',
    ['LC-2', 'LC-5', 'LC-9'],
    'Storage does not add the kubernetes finalizer when a namespace is created.',
    storageAssigns('recordCreation', ['CREATE'], (event) => ({
      pending: [...event.pending],
      failure: null,
      finalizers: event.finalizers.filter((name) => name !== kubernetesFinalizer),
      deletedSecondsAgo: null,
      createdSecondsAgo: event.pending.length > 0 ? 0 : null,
    })),
  ],
  [
    'creator-not-recorded',
    ['RB-2'],
    "Storage stores a created namespace without who sent the create (OpenShift's requester annotation dropped): `$creator` in an initializer's RoleBinding then names the tenant the scope declares, whoever created it.",
    storageAssigns('recordCreation', ['CREATE'], (event) => ({ ...createdNamespace(event), creator: null })),
  ],
  [
    'owner-removes-foreign-finalizer',
    ['LC-8', 'LC-9'],
    "An external finalizer owner finalizes with an empty list, removing the other owners' finalizers (kubernetes included) with its own.",
    (base) => ({
      ...base,
      finalizerOwner: withDefinition(base.finalizerOwner, (config) => {
        const watching = config.states?.watching as { on: { SYNC: { actions?: unknown }[] } };
        const SYNC = watching.on.SYNC.map((t) =>
          t.actions &&
          typeof t.actions === 'object' &&
          (t.actions as { type?: string }).type === 'removeOwnFinalizer'
            ? { ...t, actions: { type: 'removeOwnFinalizer', params: () => ({ finalizers: [] }) } }
            : t,
        );
        return {
          ...config,
          states: { ...config.states, watching: { ...watching, on: { ...watching.on, SYNC } } },
        };
      }),
    }),
  ],
  [
    'immortal-namespace-deletable',
    ['LC-10'],
    'Admission lets the default namespace be deleted like any other.',
    providing('admission', { guards: { deleteOfImmortalNamespace: () => false } }),
  ],
  [
    'deletion-timestamp-reset',
    ['LC-3'],
    'A repeated DELETE of a terminating namespace stamps a new deletion timestamp.',
    namespaceHandles('terminating', 'DELETE', {
      actions: 'setDeletionTimestamp',
      meta: { requirements: ['LC-3'] },
    }),
  ],
  [
    'delete-clears-finalizers',
    ['LC-6', 'LC-7', 'LC-9'],
    'Storage empties spec.finalizers when it sets the deletion timestamp, instead of leaving them to finalize.',
    storageAssigns('setDeletionTimestamp', ['DELETE', 'RECORD_FAILURE'], () => ({
      deletedSecondsAgo: 0,
      finalizers: [],
    })),
  ],
  // ---- Time and progress (FP-1, FP-2, FP-4, AC-2, IN-4, LC-5..LC-8): killed by the timing safety
  // properties or, where nothing bad ever happens at one step, by a liveness property with a lasso.
  [
    'timer-never-armed',
    ['FP-2', 'FP-5'],
    'The apiserver never arms the initializer timer when it creates an Initializing namespace.',
    (base) => ({
      ...base,
      timer: withDefinition(base.timer, (config) => {
        const states = config.states as Record<string, { on?: Record<string, unknown> }>;
        return {
          ...config,
          states: { ...states, disarmed: { ...states.disarmed, on: {} } },
        } as typeof config;
      }),
    }),
  ],
  [
    'timer-ignores-timeout',
    ['FP-1', 'FP-2'],
    "The initializer timer expires after one second, whatever the initializer's timeoutSeconds.",
    providing('timer', { guards: { tickReachesTimeout: () => true } }),
  ],
  [
    'fail-closed-timeout-removes',
    ['FP-1', 'IN-7'],
    "A fail-closed (Fail) initializer's timeout removes it from the pending list like a fail-open one.",
    providing('initializerTimeout', {
      guards: { timerExpiredFailOpen: ({ event }) => event.observed.timerExpired },
    }),
  ],
  [
    'fail-behaves-like-ignore',
    ['FP-1', 'FP-4', 'IN-7'],
    'The failure policy `Fail` behaves like `Ignore` everywhere: on timer expiry and on read-repair.',
    providing('initializerTimeout', {
      guards: {
        timerExpiredFailOpen: ({ event }) => event.observed.timerExpired,
        readRepairDueFailOpen: ({ event }) => event.observed.readRepairDue,
      },
    }),
  ],
  [
    'read-repair-disabled',
    ['FP-4', 'IN-8'],
    'A GET after the global timeout never repairs a namespace whose timer was lost.',
    providing('initializerTimeout', {
      guards: { readRepairDueFailOpen: () => false, readRepairDueFailClosed: () => false },
    }),
  ],
  [
    'read-repair-ignores-global-timeout',
    ['FP-4'],
    'Read-repair acts on every GET of an Initializing namespace, without waiting for the global timeout.',
    providing('initializerTimeout', {
      guards: {
        readRepairDueFailOpen: ({ event }) => event.observed.failurePolicy === 'Ignore',
        readRepairDueFailClosed: ({ event }) => event.observed.failurePolicy === 'Fail',
      },
    }),
  ],
  [
    'configuration-copy-never-updated',
    ['AC-1', 'AC-2', 'AC-3'],
    "Admission's configuration copy is never updated by a successful read (it goes stale and stays so).",
    providing('configSync', { actions: { rememberConfigurationsRead: assign(() => ({})) } }),
  ],
  [
    'initializer-never-completes',
    ['IN-3', 'IN-4'],
    'An initializer populates the namespace but never removes itself from the pending list.',
    providing('initializerController', {
      guards: { firstPendingAndPopulated: () => false },
    }),
  ],
  [
    'initializer-re-adds-itself',
    ['IN-2', 'IN-4'],
    'Removing the first pending initializer puts it back at the end of the list: initializers take turns forever.',
    providing('namespace', {
      actions: {
        removeFirstPendingInitializer: assign({
          pending: ({ context }) => [...context.pending.slice(1), ...context.pending.slice(0, 1)],
        }),
      },
    }),
  ],
  [
    'namespace-controller-stalls',
    ['LC-5', 'LC-7'],
    'The namespace controller never acts on a terminating namespace.',
    providing('namespaceController', {
      guards: {
        terminatingWithContent: () => false,
        terminatingWithKubernetesFinalizer: () => false,
        terminatingWithNoFinalizersLeft: () => false,
      },
    }),
  ],
  [
    'controller-never-finalizes',
    ['LC-5', 'LC-7'],
    'The namespace controller deletes the content but never removes the `kubernetes` finalizer, so the namespace is never purged.',
    providing('namespaceController', {
      guards: { terminatingWithKubernetesFinalizer: () => false },
    }),
  ],
  [
    'namespace-controller-purges-live-namespaces',
    ['LC-5', 'NS-2'],
    'The namespace controller deletes the content of every namespace it watches, not only of Terminating ones.',
    providing('namespaceController', {
      guards: { terminatingWithContent: ({ event }) => event.observed.contentRemains },
    }),
  ],
  [
    'owner-keeps-its-finalizer',
    ['LC-8', 'LC-7'],
    'A finalizer owner purges its external content but never removes its own finalizer (LC-8).',
    providing('finalizerOwner', { guards: { terminatingWithOwnFinalizer: () => false } }),
  ],
  [
    'owner-reprovisions-while-terminating',
    ['LC-8', 'LC-9'],
    'A finalizer owner provisions its external content again whenever it finds none, even in a terminating namespace: it purges and re-provisions forever and never gets to remove its finalizer (a livelock, not a stop).',
    providing('finalizerOwner', {
      guards: {
        activeWithOwnFinalizerAndNothingProvisioned: ({ event }) =>
          (event.observed.namespaceActive || event.observed.namespaceTerminating) &&
          event.observed.finalizers.includes(event.observed.owner) &&
          !event.observed.externalContentExists,
      },
    }),
  ],
  [
    'initialize-check-skipped-for-reads',
    ['IN-6'],
    'Admission asks for the initialize verb on writes into an initializing namespace but lets reads of its content through.',
    gateClosedOnlyWhen((facts) => facts.operation !== 'get'),
  ],
  [
    'view-role-gains-initialize',
    ['RB-3', 'IN-6'],
    'The bootstrap `view` ClusterRole also grants `initialize` on namespaces.',
    unchanged,
    withRoleRule('view', { apiGroups: [''], resources: ['namespaces'], verbs: ['initialize'] }),
  ],
  [
    'namespace-creator-gains-delete',
    ['RB-1', 'RB-5'],
    "Document 000's `namespace-creator` ClusterRole also grants `delete` on namespaces: a tenant can delete another tenant's namespace.",
    unchanged,
    withRoleRule('namespace-creator', {
      apiGroups: [''],
      resources: ['namespaces'],
      verbs: ['delete'],
    }),
  ],
  [
    'duplicate-content-accepted',
    ['NS-3'],
    'Storage creates content under a name that already exists in the namespace instead of refusing 409.',
    (base) => ({ ...base, storageChecks: { uniqueNames: false, validNames: true } }),
  ],
  [
    'finalize-names-not-validated',
    ['LC-2'],
    'Storage takes the finalizers a finalize sends without validating their names (no 422 for a name neither standard nor qualified); a create still validates them.',
    (base) => ({ ...base, storageChecks: { uniqueNames: true, validNames: true, finalizeNames: false } }),
  ],
  [
    'names-not-validated',
    ['NS-1', 'LC-2'],
    'Storage stores a namespace without validating its name or finalizers (no 422 for `Team_C`).',
    (base) => ({ ...base, storageChecks: { uniqueNames: true, validNames: false } }),
    undefined,
    // Each invalid name becomes a live namespace: quick's three make about 448 million states, one
    // (scopes/faults/names-not-validated.yaml) 398,688.
    'names-not-validated',
  ],
  [
    'escalation-check-skipped',
    ['RB-4', 'RB-5'],
    'Storage writes a RoleBinding or Role that grants more than its author holds: an admin of a namespace binds cluster-admin there (no ConfirmNoEscalation, D-23).',
    providing('pipeline', { guards: { grantsBeyondCallersPermissions: () => false } }),
  ],
  [
    'cluster-escalation-check-skipped',
    ['RB-4', 'RB-5'],
    'Storage writes a ClusterRole or ClusterRoleBinding that grants more than its author holds cluster-wide (no ConfirmNoEscalation in clusterrole/clusterrolebinding policybased storage, D-23); Roles and RoleBindings are still checked. The scope gains an RBAC manager who may write ClusterRoleBindings and tries to bind cluster-admin to itself, always refused by the model.',
    providing('pipeline', {
      guards: {
        grantsBeyondCallersPermissions: ({ event }) =>
          event.facts.escalation === 'forbidden' && event.facts.target !== 'cluster-object',
      },
    }),
    withClusterAdminBindingAttempt,
  ],
  [
    'namespace-creator-updates-default',
    ['RB-1'],
    "Document 000's `namespace-creator` ClusterRole also grants `update` on the `default` namespace object: a tenant acts on a namespace that belongs to nobody, which tenant isolation alone does not judge.",
    unchanged,
    withRoleRule('namespace-creator', {
      apiGroups: [''],
      resources: ['namespaces'],
      verbs: ['update'],
      resourceNames: ['default'],
    }),
  ],
  [
    'gate-opens-once-terminating',
    ['IN-6'],
    'The IN-6 gate looks at the phase instead of initialized: once a namespace deleted while initializing terminates, reads and lists of its content go through (D-19).',
    gateClosedOnlyWhen((facts) => !facts.namespaceTerminating),
  ],
  [
    'configurations-merged-in-list-order',
    ['IN-1'],
    'Admission merges the configurations in the order the store lists them, not sorted by name (D-21).',
    (base) => ({ ...base, configurationMerge: mergeInListOrder }),
  ],
  [
    'deletecollection-deletes-nothing',
    ['LC-5'],
    'Storage answers a deletecollection 200 without deleting what it lists: a cleanup in a terminating namespace leaves its objects behind (shipped Store.DeleteCollection deletes each item).',
    providing('pipeline', {
      actions: {
        deleteCollection: assign({
          outcome: {
            kind: 'served' as const,
            code: 200 as const,
            effect: 'readContent' as const,
            pending: 'none' as const,
          },
        }),
      },
    }),
  ],
  [
    'watch-opens-before-ready',
    ['IN-6', 'NS-7'],
    "The IN-6 gate answers a watch of a namespace not yet initialized 200 with an empty start instead of refusing it (as shipped generic initializers filtered uninitialized objects out of a watch): nothing shows yet, but the watch stays open on what the initializers create. The scope's tenants also watch their namespaces' content, so the fault is reachable.",
    providing('pipeline', {
      actions: {
        refuseNamespaceInitializing: assign({
          outcome: ({ event }) =>
            event.facts.watch
              ? {
                  kind: 'served' as const,
                  code: 200 as const,
                  effect: 'readContent' as const,
                  pending: 'none' as const,
                }
              : { kind: 'refused' as const, refusal: 'refuseNamespaceInitializing' as const },
        }),
      },
    }),
    (scope) => ({
      ...scope,
      principals: scope.principals.map((p) =>
        p.tenant && p.requests.includes('list-content')
          ? { ...p, requests: [...p.requests, 'watch-content' as const] }
          : p,
      ),
    }),
  ],
  [
    'failure-result-after-initialized',
    ['IN-4', 'IN-7'],
    'Storage takes a failure result on an Active namespace and deletes it, as if its initialization were still under way: a holder of initialize (the cluster admin) fails a namespace long initialized.',
    namespaceHandles('active', 'RECORD_FAILURE', {
      target: 'terminating',
      actions: ['recordFailureResult', 'setDeletionTimestamp'],
      meta: { requirements: ['IN-7'] },
    }),
  ],
  [
    'initializers-create-in-terminating',
    ['LC-4'],
    "Admission lets a holder of initialize create content in a terminating namespace (D-3's option not taken: an exemption for initializers still populating it). The scope's cluster admin also creates content where she deletes namespaces, so the fault is reachable.",
    // The same change as D-3's option not taken (open-initializers-create-in-terminating), seeded against LC-4.
    initializeHoldersCreateInTerminating,
    withClusterAdminsCreatingContent,
  ],
  [
    'merge-keeps-last-listed',
    ['IN-1'],
    "Admission's merge keeps a name listed twice at its last place, with its last entry, not its first (D-21). The scope's last configuration also lists, after its own, the first initializer of the first, so a name is listed twice.",
    (base) => ({ ...base, configurationMerge: mergeKeepingLastListed }),
    withInitializerListedTwice,
  ],
  [
    'initializer-completes-without-its-work',
    ['IN-3', 'RB-2'],
    "An initializer that reconciles a namespace where it is first pending removes itself at once, without creating what it creates (as if a stale cache showed its object): the namespace becomes Active without its quota or its creator's RoleBinding. A holder of initialize completing it by hand reaches the same states, so only the step that took the namespace there shows it.",
    (base) => ({
      ...base,
      initializerController: withDefinition(
        base.initializerController,
        (config) => {
          const running = config.states?.running as { on: { RECONCILE: { guard?: unknown }[] } };
          // The removal first, on a guard that no longer asks whether the object exists.
          const RECONCILE = [
            ...running.on.RECONCILE.filter((t) => t.guard === 'firstPendingAndPopulated').map((t) => ({
              ...t,
              guard: 'firstPendingWhateverItsWork',
            })),
            ...running.on.RECONCILE.filter((t) => t.guard !== 'firstPendingAndPopulated'),
          ];
          return {
            ...config,
            states: { ...config.states, running: { ...running, on: { ...running.on, RECONCILE } } },
          };
        },
        {
          firstPendingWhateverItsWork: ({ event }: { event: InitializerControllerEvent }) =>
            event.type === 'RECONCILE' && event.observed.firstPendingIsMe,
        },
      ),
    }),
  ],
  [
    'cluster-object-delete-kept',
    ['RB-4', 'RB-5'],
    "Storage answers 200 to the DELETE of a ClusterRole or ClusterRoleBinding but keeps it: a binding the RBAC manager deleted goes on granting (D-23). The scope gains the quick scope's RBAC manager and the ClusterRoleBinding it may create and delete (cluster-rbac's `labeller-view`), so the fault is reachable; the state space stays the same, a DELETE only loops.",
    providing('pipeline', {
      actions: {
        deleteContent: assign({
          outcome: ({ event }) => ({
            kind: 'served' as const,
            code: 200 as const,
            effect:
              event.facts.target === 'cluster-object' ? ('readContent' as const) : ('deleteContent' as const),
            pending: 'none' as const,
          }),
        }),
      },
    }),
    withDeletableClusterBinding,
  ],
  [
    'body-namespace-ignored',
    ['NS-4'],
    "The decoder no longer compares a body's metadata.namespace with the request path: a manifest written for another namespace is stored in the path's (201 instead of 400 BadRequest).",
    providing('pipeline', { guards: { bodyNamespaceDiffersFromPath: () => false } }),
  ],
  [
    'status-phase-not-validated',
    ['LC-3', 'IN-5'],
    "Storage skips validation of a namespace status update: a phase that contradicts the deletion timestamp (v1's default `Active` on a Terminating namespace) is answered 200 instead of 422 (D-30); the model keeps the phase its timestamp gives, so only the answer shows it.",
    providing('pipeline', {
      guards: { objectInvalid: ({ event }) => !event.facts.objectValid && !event.facts.status },
    }),
  ],
];

export const variants: Variant[] = [
  ...seededFaults.map(
    ([name, requirements, description, machines, scope, sweepScope]): Variant => ({
      name,
      kind: 'mutant',
      description,
      requirements,
      machines,
      ...(scope ? { scope } : {}),
      ...(sweepScope !== undefined ? { sweepScope } : {}),
    }),
  ),
  // The documents' design alternatives and the decisions' options not taken (docs/alternatives.md).
  ...designVariants,
];

export const baseVariantName = 'model';

export function variantByName(name: string): Variant | undefined {
  return variants.find((v) => v.name === name);
}

/** The seeded faults, in registry order. */
export const mutants: Variant[] = variants.filter((v) => v.kind === 'mutant');

/** The scope a variant runs on: the given one, with the variant's data fault applied if it has one. */
export function scopeFor(name: string, scope: Scope): Scope {
  return variantByName(name)?.scope?.(scope) ?? scope;
}

/** The machines of a variant built for `scope`, or of the model itself for `model`. */
export function machinesFor(name: string, scope: Scope): MachineSet | undefined {
  if (name === baseVariantName) return defaultMachines;
  const variant = variantByName(name);
  return variant ? variant.machines(defaultMachines, scope) : undefined;
}
