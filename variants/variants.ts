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
import type { PolicyRule } from '../machines/k8s-types.ts';
import type { namespaceMachine } from '../machines/namespace.ts';
import { kubernetesFinalizer } from '../machines/namespace-controller.ts';
import type { Scope } from '../machines/scope.ts';
import { defaultMachines, type MachineSet } from '../machines/system.ts';
import { designVariants, unorderedInitializers } from './design-variants.ts';
import { withDefinition } from './machine-edit.ts';

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

/** Machines with one machine's guards or actions replaced through `.provide()`: a seeded fault's usual shape. */
function providing<K extends Exclude<keyof MachineSet, 'storageChecks' | 'configurationMerge'>>(
  key: K,
  implementations: Parameters<MachineSet[K]['provide']>[0],
): (base: MachineSet) => MachineSet {
  return (base) => {
    const provide = base[key].provide.bind(base[key]) as (i: typeof implementations) => MachineSet[K];
    return { ...base, [key]: provide(implementations) };
  };
}

type NamespaceConfig = (typeof namespaceMachine)['config'];
type NamespaceStates = NonNullable<NamespaceConfig['states']>;

/** Machines whose namespace machine answers one event in one state with another transition. */
function namespaceHandles(
  state: keyof NamespaceStates & string,
  event: string,
  transition: { actions: string; meta: { requirements: string[] } },
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

/** The pending list admission injects with the scope's initial configurations (IN-1). */
const configuredInitializers = (scope: Scope): string[] =>
  mergeInitializerConfigurations(
    scope.configurations
      .filter((c) => c.registered === 'initially')
      .map((c) => ({ metadata: { name: c.name }, initializers: c.initializers })),
  ).map((i) => i.name);

/** The merge of IN-1 without its sort: entries concatenated in list order, a repeated name kept once. */
function mergeInListOrder(configs: readonly MergeableConfiguration[]): EffectiveInitializer[] {
  const merged = configs.flatMap((c) => mergeInitializerConfigurations([c]));
  return merged.filter((e, i) => merged.findIndex((f) => f.name === e.name) === i);
}

export const variants: Variant[] = [
  {
    name: 'create-in-terminating',
    kind: 'mutant',
    description: 'Admission lets content be created in a terminating namespace.',
    requirements: ['LC-4'],
    machines: providing('admission', { guards: { createInTerminatingNamespace: () => false } }),
  },
  {
    name: 'initialize-check-skipped',
    kind: 'mutant',
    description:
      'Admission no longer asks for the initialize verb on content in an initializing namespace (ALT-4).',
    requirements: ['IN-6', 'ALT-4'],
    machines: providing('pipeline', {
      guards: { uninitializedContentWithoutInitializeVerb: () => false },
    }),
  },
  {
    name: 'initializers-set-at-create-by-anyone',
    kind: 'mutant',
    description:
      'Admission keeps a pending list that any creator sends with a new namespace, initialize verb or not.',
    requirements: ['IN-3', 'IN-1'],
    machines: providing('admission', {
      guards: { createCarriesInitializersWithoutInitializeVerb: () => false },
    }),
  },
  {
    name: 'pending-list-editable-by-anyone',
    kind: 'mutant',
    description:
      'Admission no longer asks for the initialize verb when a request changes the pending list or result: whoever RBAC lets update a namespace may.',
    requirements: ['IN-3'],
    machines: providing('admission', {
      guards: { changesInitializersWithoutInitializeVerb: () => false },
    }),
  },
  {
    name: 'initializer-out-of-order',
    kind: 'mutant',
    description:
      'Initializers act as soon as they are pending, not when first, and storage lets any pending initializer remove itself.',
    requirements: ['IN-2'],
    // The same change as the unordered designs (ALT-1, ALT-3), seeded as a fault against IN-2.
    machines: unorderedInitializers,
  },
  {
    name: 'removal-with-finalizers-left',
    kind: 'mutant',
    description: 'Storage removes a terminating namespace on DELETE even though finalizers are left.',
    requirements: ['LC-7'],
    machines: providing('namespace', { guards: { noFinalizersLeft: () => true } }),
  },
  {
    name: 'removal-with-metadata-finalizers-left',
    kind: 'mutant',
    description:
      "Storage removes a terminating namespace on DELETE once spec.finalizers are empty, though a metadata finalizer is left (D-46). The scope's created namespaces send metadata.finalizers [example.com/keep], which nothing removes, so the fault is reachable.",
    requirements: ['LC-7'],
    machines: providing('namespace', {
      guards: { noFinalizersLeft: ({ context }) => context.finalizers.length === 0 },
    }),
    scope: (scope) => ({
      ...scope,
      namespaces: scope.namespaces.map((ns) =>
        ns.system || ns.preexisting ? ns : { ...ns, metadataFinalizers: ['example.com/keep'] },
      ),
    }),
  },
  {
    name: 'finalize-before-content-gone',
    kind: 'mutant',
    description:
      'The namespace controller removes the kubernetes finalizer first and deletes content only afterwards.',
    requirements: ['LC-5', 'LC-9'],
    machines: providing('namespaceController', {
      guards: {
        terminatingWithContent: ({ event }) =>
          event.observed.terminating &&
          event.observed.contentRemains &&
          !event.observed.finalizers.includes(kubernetesFinalizer),
      },
    }),
  },
  {
    name: 'pending-grows-after-active',
    kind: 'mutant',
    description:
      'Deleting an Active namespace puts the configured initializers back into its pending list (the initializers plugin re-applied on a write other than create).',
    requirements: ['IN-4'],
    machines: (base, scope) => ({
      ...base,
      namespace: base.namespace.provide({
        actions: {
          // Deleting while initializing still clears the list afterwards (D-4): only Active namespaces regain it.
          setDeletionTimestamp: assign(({ context, event }) =>
            event.type === 'DELETE' || event.type === 'RECORD_FAILURE'
              ? {
                  deletedSecondsAgo: 0,
                  pending:
                    event.type === 'DELETE' && context.pending.length === 0
                      ? configuredInitializers(scope)
                      : context.pending,
                }
              : {},
          ),
        },
      }),
    }),
  },
  {
    name: 'failure-result-ignored',
    kind: 'mutant',
    description:
      'Storage records a failure result but neither deletes the namespace nor stops its initialization.',
    requirements: ['IN-7'],
    machines: namespaceHandles('initializing', 'RECORD_FAILURE', {
      actions: 'recordFailureResult',
      meta: { requirements: ['IN-7'] },
    }),
  },
  {
    name: 'stale-configuration-used',
    kind: 'mutant',
    description: 'Admission keeps using its configuration copy after 5 s without a successful read.',
    requirements: ['AC-2', 'AC-3'],
    machines: providing('configSync', { guards: { noSuccessfulReadWithinStaleWindow: () => false } }),
  },
  {
    name: 'rolebinding-grants-cluster-wide',
    kind: 'mutant',
    description: 'A RoleBinding grants in every namespace, not only its own.',
    requirements: ['RB-4', 'RB-5'],
    machines: (base) => ({ ...base, authorization: authorizationMachineHonouringForeignRoleBindings }),
  },
  {
    name: 'rolebinding-opens-cross-namespace-list',
    kind: 'mutant',
    description:
      "A RoleBinding in any namespace authorizes a list across all namespaces, which then returns every namespace's items.",
    requirements: ['NS-7', 'RB-6'],
    machines: (base) => ({ ...base, authorization: authorizationMachineOpeningListsByRoleBindings }),
  },
  {
    name: 'kubernetes-finalizer-not-added',
    kind: 'mutant',
    description: 'Storage does not add the kubernetes finalizer when a namespace is created.',
    requirements: ['LC-2', 'LC-5', 'LC-9'],
    machines: providing('namespace', {
      actions: {
        recordCreation: assign(({ event }) =>
          event.type === 'CREATE'
            ? {
                pending: [...event.pending],
                failure: null,
                finalizers: event.finalizers.filter((name) => name !== kubernetesFinalizer),
                deletedSecondsAgo: null,
                createdSecondsAgo: event.pending.length > 0 ? 0 : null,
              }
            : {},
        ),
      },
    }),
  },
  {
    name: 'owner-removes-foreign-finalizer',
    kind: 'mutant',
    description:
      "An external finalizer owner finalizes with an empty list, removing the other owners' finalizers (kubernetes included) with its own.",
    requirements: ['LC-8', 'LC-9'],
    machines: (base) => ({
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
  },
  {
    name: 'immortal-namespace-deletable',
    kind: 'mutant',
    description: 'Admission lets the default namespace be deleted like any other.',
    requirements: ['LC-10'],
    machines: providing('admission', { guards: { deleteOfImmortalNamespace: () => false } }),
  },
  {
    name: 'deletion-timestamp-reset',
    kind: 'mutant',
    description: 'A repeated DELETE of a terminating namespace stamps a new deletion timestamp.',
    requirements: ['LC-3'],
    machines: namespaceHandles('terminating', 'DELETE', {
      actions: 'setDeletionTimestamp',
      meta: { requirements: ['LC-3'] },
    }),
  },
  {
    name: 'delete-clears-finalizers',
    kind: 'mutant',
    description:
      'Storage empties spec.finalizers when it sets the deletion timestamp, instead of leaving them to finalize.',
    requirements: ['LC-6', 'LC-7', 'LC-9'],
    machines: providing('namespace', {
      actions: {
        setDeletionTimestamp: assign(({ event }) =>
          event.type === 'DELETE' || event.type === 'RECORD_FAILURE'
            ? { deletedSecondsAgo: 0, finalizers: [] }
            : {},
        ),
      },
    }),
  },
  // ---- Time and progress (FP-1, FP-2, FP-4, AC-2, IN-4, LC-5..LC-8): killed by the timing safety
  // properties or, where nothing bad ever happens at one step, by a liveness property with a lasso.
  {
    name: 'timer-never-armed',
    kind: 'mutant',
    description: 'The apiserver never arms the initializer timer when it creates an Initializing namespace.',
    requirements: ['FP-2', 'FP-5'],
    machines: (base) => ({
      ...base,
      timer: withDefinition(base.timer, (config) => {
        const states = config.states as Record<string, { on?: Record<string, unknown> }>;
        return {
          ...config,
          states: { ...states, disarmed: { ...states.disarmed, on: {} } },
        } as typeof config;
      }),
    }),
  },
  {
    name: 'timer-ignores-timeout',
    kind: 'mutant',
    description: "The initializer timer expires after one second, whatever the initializer's timeoutSeconds.",
    requirements: ['FP-1', 'FP-2'],
    machines: providing('timer', { guards: { tickReachesTimeout: () => true } }),
  },
  {
    name: 'fail-closed-timeout-removes',
    kind: 'mutant',
    description:
      "A fail-closed (Fail) initializer's timeout removes it from the pending list like a fail-open one.",
    requirements: ['FP-1', 'IN-7'],
    machines: providing('initializerTimeout', {
      guards: { timerExpiredFailOpen: ({ event }) => event.observed.timerExpired },
    }),
  },
  {
    name: 'fail-behaves-like-ignore',
    kind: 'mutant',
    description:
      'The failure policy `Fail` behaves like `Ignore` everywhere: on timer expiry and on read-repair.',
    requirements: ['FP-1', 'FP-4', 'IN-7'],
    machines: providing('initializerTimeout', {
      guards: {
        timerExpiredFailOpen: ({ event }) => event.observed.timerExpired,
        readRepairDueFailOpen: ({ event }) => event.observed.readRepairDue,
      },
    }),
  },
  {
    name: 'read-repair-disabled',
    kind: 'mutant',
    description: 'A GET after the global timeout never repairs a namespace whose timer was lost.',
    requirements: ['FP-4', 'IN-8'],
    machines: providing('initializerTimeout', {
      guards: { readRepairDueFailOpen: () => false, readRepairDueFailClosed: () => false },
    }),
  },
  {
    name: 'read-repair-ignores-global-timeout',
    kind: 'mutant',
    description:
      'Read-repair acts on every GET of an Initializing namespace, without waiting for the global timeout.',
    requirements: ['FP-4'],
    machines: providing('initializerTimeout', {
      guards: {
        readRepairDueFailOpen: ({ event }) => event.observed.failurePolicy === 'Ignore',
        readRepairDueFailClosed: ({ event }) => event.observed.failurePolicy === 'Fail',
      },
    }),
  },
  {
    name: 'configuration-copy-never-updated',
    kind: 'mutant',
    description:
      "Admission's configuration copy is never updated by a successful read (it goes stale and stays so).",
    requirements: ['AC-1', 'AC-2', 'AC-3'],
    machines: providing('configSync', { actions: { rememberConfigurationsRead: assign(() => ({})) } }),
  },
  {
    name: 'initializer-never-completes',
    kind: 'mutant',
    description: 'An initializer populates the namespace but never removes itself from the pending list.',
    requirements: ['IN-3', 'IN-4'],
    machines: providing('initializerController', {
      guards: { firstPendingAndPopulated: () => false },
    }),
  },
  {
    name: 'initializer-re-adds-itself',
    kind: 'mutant',
    description:
      'Removing the first pending initializer puts it back at the end of the list: initializers take turns forever.',
    requirements: ['IN-2', 'IN-4'],
    machines: providing('namespace', {
      actions: {
        removeFirstPendingInitializer: assign({
          pending: ({ context }) => [...context.pending.slice(1), ...context.pending.slice(0, 1)],
        }),
      },
    }),
  },
  {
    name: 'namespace-controller-stalls',
    kind: 'mutant',
    description: 'The namespace controller never acts on a terminating namespace.',
    requirements: ['LC-5', 'LC-7'],
    machines: providing('namespaceController', {
      guards: {
        terminatingWithContent: () => false,
        terminatingWithKubernetesFinalizer: () => false,
        terminatingWithNoFinalizersLeft: () => false,
      },
    }),
  },
  {
    name: 'controller-never-finalizes',
    kind: 'mutant',
    description:
      'The namespace controller deletes the content but never removes the `kubernetes` finalizer, so the namespace is never purged.',
    requirements: ['LC-5', 'LC-7'],
    machines: providing('namespaceController', {
      guards: { terminatingWithKubernetesFinalizer: () => false },
    }),
  },
  {
    name: 'namespace-controller-purges-live-namespaces',
    kind: 'mutant',
    description:
      'The namespace controller deletes the content of every namespace it watches, not only of Terminating ones.',
    requirements: ['LC-5', 'NS-2'],
    machines: providing('namespaceController', {
      guards: { terminatingWithContent: ({ event }) => event.observed.contentRemains },
    }),
  },
  {
    name: 'owner-keeps-its-finalizer',
    kind: 'mutant',
    description: 'A finalizer owner purges its external content but never removes its own finalizer (LC-8).',
    requirements: ['LC-8', 'LC-7'],
    machines: providing('finalizerOwner', { guards: { terminatingWithOwnFinalizer: () => false } }),
  },
  {
    name: 'owner-reprovisions-while-terminating',
    kind: 'mutant',
    description:
      'A finalizer owner provisions its external content again whenever it finds none, even in a terminating namespace: it purges and re-provisions forever and never gets to remove its finalizer (a livelock, not a stop).',
    requirements: ['LC-8', 'LC-9'],
    machines: providing('finalizerOwner', {
      guards: {
        activeWithOwnFinalizerAndNothingProvisioned: ({ event }) =>
          (event.observed.namespaceActive || event.observed.namespaceTerminating) &&
          event.observed.finalizers.includes(event.observed.owner) &&
          !event.observed.externalContentExists,
      },
    }),
  },
  {
    name: 'initialize-check-skipped-for-reads',
    kind: 'mutant',
    description:
      'Admission asks for the initialize verb on writes into an initializing namespace but lets reads of its content through.',
    requirements: ['IN-6'],
    machines: providing('pipeline', {
      guards: {
        uninitializedContentWithoutInitializeVerb: ({ event }) =>
          event.facts.target === 'content' &&
          event.facts.operation !== 'get' &&
          event.facts.namespaceExists &&
          !event.facts.namespaceInitialized &&
          !event.facts.callerMayInitialize,
      },
    }),
  },
  {
    name: 'view-role-gains-initialize',
    kind: 'mutant',
    description: 'The bootstrap `view` ClusterRole also grants `initialize` on namespaces.',
    requirements: ['RB-3', 'IN-6'],
    machines: (base) => base,
    scope: withRoleRule('view', { apiGroups: [''], resources: ['namespaces'], verbs: ['initialize'] }),
  },
  {
    name: 'namespace-creator-gains-delete',
    kind: 'mutant',
    description:
      "Document 000's `namespace-creator` ClusterRole also grants `delete` on namespaces: a tenant can delete another tenant's namespace.",
    requirements: ['RB-1', 'RB-5'],
    machines: (base) => base,
    scope: withRoleRule('namespace-creator', {
      apiGroups: [''],
      resources: ['namespaces'],
      verbs: ['delete'],
    }),
  },
  {
    name: 'duplicate-content-accepted',
    kind: 'mutant',
    description:
      'Storage creates content under a name that already exists in the namespace instead of refusing 409.',
    requirements: ['NS-3'],
    machines: (base) => ({ ...base, storageChecks: { uniqueNames: false, validNames: true } }),
  },
  {
    name: 'names-not-validated',
    kind: 'mutant',
    description:
      'Storage stores a namespace without validating its name or finalizers (no 422 for `Team_C`).',
    requirements: ['NS-1', 'LC-2'],
    machines: (base) => ({ ...base, storageChecks: { uniqueNames: true, validNames: false } }),
  },
  {
    name: 'escalation-check-skipped',
    kind: 'mutant',
    description:
      'Storage writes a RoleBinding or Role that grants more than its author holds: an admin of a namespace binds cluster-admin there (no ConfirmNoEscalation, D-23).',
    requirements: ['RB-4', 'RB-5'],
    machines: providing('pipeline', { guards: { grantsBeyondCallersPermissions: () => false } }),
  },
  {
    name: 'namespace-creator-updates-default',
    kind: 'mutant',
    description:
      "Document 000's `namespace-creator` ClusterRole also grants `update` on the `default` namespace object: a tenant acts on a namespace that belongs to nobody, which tenant isolation alone does not judge.",
    requirements: ['RB-1'],
    machines: (base) => base,
    scope: withRoleRule('namespace-creator', {
      apiGroups: [''],
      resources: ['namespaces'],
      verbs: ['update'],
      resourceNames: ['default'],
    }),
  },
  {
    name: 'gate-opens-once-terminating',
    kind: 'mutant',
    description:
      'The IN-6 gate looks at the phase instead of initialized: once a namespace deleted while initializing terminates, reads and lists of its content go through (D-19).',
    requirements: ['IN-6'],
    machines: providing('pipeline', {
      guards: {
        uninitializedContentWithoutInitializeVerb: ({ event }) =>
          event.facts.target === 'content' &&
          event.facts.namespaceExists &&
          !event.facts.namespaceInitialized &&
          !event.facts.callerMayInitialize &&
          !event.facts.namespaceTerminating,
      },
    }),
  },
  {
    name: 'configurations-merged-in-list-order',
    kind: 'mutant',
    description:
      'Admission merges the configurations in the order the store lists them, not sorted by name (D-21).',
    requirements: ['IN-1'],
    machines: (base) => ({ ...base, configurationMerge: mergeInListOrder }),
  },
  {
    name: 'deletecollection-deletes-nothing',
    kind: 'mutant',
    description:
      'Storage answers a deletecollection 200 without deleting what it lists: a cleanup in a terminating namespace leaves its objects behind (shipped Store.DeleteCollection deletes each item).',
    requirements: ['LC-5'],
    machines: providing('pipeline', {
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
  },
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
