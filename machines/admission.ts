import { assign, setup } from 'xstate';
import { type Addressed, forbidden, type HttpOutcome, notFound } from './http.ts';
import { when } from './transition.ts';

/**
 * The admission chain of an authorized request, as a decision machine, in chain order (docs/decisions.md,
 * "Order of checks"): the NamespaceLifecycle plugin (NS-2, LC-4, LC-10), then the NamespaceInitializers
 * plugin: configuration freshness (AC-2, D-9), the initialize verb (IN-3) and the pending list (IN-1).
 * The request pipeline (pipeline.ts) consults it after RBAC; its final state says admitted or refused,
 * and its context holds the typed verdict: the refusal, or how the admitted request's pending list is set.
 */
export type Operation = 'create' | 'get' | 'list' | 'update' | 'delete' | 'finalize';

export interface AdmissionFacts {
  operation: Operation;
  /** What the request addresses: a namespace object, content inside a namespace, or a configuration. */
  target: 'namespace' | 'content' | 'configuration' | 'cluster-object';
  /** The admission configuration was read successfully within the last 5 s (AC-2; D-9: writes only). */
  configurationFresh: boolean;
  /** The namespace named by the request exists in storage. */
  namespaceExists: boolean;
  namespaceTerminating: boolean;
  /** `default`, `kube-system`, `kube-public` (LC-10). */
  namespaceImmortal: boolean;
  /** The caller holds the `initialize` verb on namespaces (IN-3, IN-6). */
  callerMayInitialize: boolean;
  /** The request changes spec.initializers (pending list or result) of an existing namespace. */
  changesInitializers: boolean;
  /** A namespace create whose body already carries initializers (IN-3). */
  createCarriesInitializers: boolean;
}

export type AdmissionRefusal =
  | 'refuseConfigurationUnavailable'
  | 'refuseNamespaceNotFound'
  | 'refuseNamespaceTerminating'
  | 'refuseImmortalNamespaceDeletion'
  | 'refuseInitializersSetAtCreate'
  | 'refuseInitializersChangeWithoutInitializeVerb';

/**
 * How each admission refusal reads on the wire, as shipped or as decided (docs/decisions.md). A
 * Record over the refusal union: a refusal without its response fails the typecheck.
 */
export const refusalResponse: Record<AdmissionRefusal, (a: Addressed) => HttpOutcome> = {
  // D-9
  refuseConfigurationUnavailable: () => ({
    code: 500,
    reason: 'LoadingConfiguration',
    cause: 'InitializerConfigurationFailure',
    message: 'Unable to refresh the initializer configuration: no successful read in the last 5s',
  }),
  // D-15
  refuseNamespaceNotFound: (a) => notFound(`namespaces "${a.namespace}" not found`),
  // D-3
  refuseNamespaceTerminating: (a) =>
    forbidden(
      `${a.resource} "${a.name}" is forbidden: unable to create new content in namespace ${a.namespace} because it is being terminated`,
      'NamespaceTerminating',
    ),
  // D-2
  refuseImmortalNamespaceDeletion: (a) =>
    forbidden(`namespaces "${a.namespace}" is forbidden: this namespace may not be deleted`),
  // D-17: shipped initializer.Admit appends RBAC's reason, which is empty, after ": ".
  refuseInitializersSetAtCreate: (a) =>
    forbidden(`namespaces "${a.namespace}" is forbidden: create with initializers denied: `),
  refuseInitializersChangeWithoutInitializeVerb: (a) =>
    forbidden(`namespaces "${a.namespace}" is forbidden: update to uninitialized resource denied: `),
};

export const admissionRefusals = Object.keys(refusalResponse) as readonly AdmissionRefusal[];

/** How an admitted namespace create gets its pending list (IN-1, IN-3); `none` for every other request. */
export type PendingSource = 'inject' | 'asSent' | 'none';

/** The typed result of admission: the composition dispatches on `kind`, never on an action's name. */
export type AdmissionVerdict =
  | { kind: 'admitted'; pending: PendingSource }
  | { kind: 'refused'; refusal: AdmissionRefusal };

export type AdmissionEvent = { type: 'ADMIT'; facts: AdmissionFacts };

interface AdmissionContext {
  verdict: AdmissionVerdict | null;
}

const refuse = (refusal: AdmissionRefusal) =>
  assign<AdmissionContext, AdmissionEvent, undefined, AdmissionEvent, never>({
    verdict: { kind: 'refused', refusal },
  });
const admit = (pending: PendingSource) =>
  assign<AdmissionContext, AdmissionEvent, undefined, AdmissionEvent, never>({
    verdict: { kind: 'admitted', pending },
  });

const facts = (event: AdmissionEvent): AdmissionFacts => event.facts;

export const admissionMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript types only; nothing reads them at run time.
  types: {
    context: {} as AdmissionContext,
    events: {} as AdmissionEvent,
  },
  guards: {
    // Reads never pass through admission (D-9): only writes are refused while the copy is stale.
    writeWithStaleConfiguration: ({ event }) =>
      !facts(event).configurationFresh &&
      facts(event).operation !== 'get' &&
      facts(event).operation !== 'list',
    // D-15: reads never pass admission and a DELETE of content is always admitted (shipped Lifecycle.Admit): storage answers them.
    contentInMissingNamespace: ({ event }) =>
      facts(event).target === 'content' &&
      (facts(event).operation === 'create' || facts(event).operation === 'update') &&
      !facts(event).namespaceExists,
    createInTerminatingNamespace: ({ event }) =>
      facts(event).target === 'content' &&
      facts(event).operation === 'create' &&
      facts(event).namespaceTerminating,
    deleteOfImmortalNamespace: ({ event }) =>
      facts(event).target === 'namespace' &&
      facts(event).operation === 'delete' &&
      facts(event).namespaceImmortal,
    // The API server sets createCarriesInitializers only for a create of a namespace (apiserver.ts):
    // the fact says the target and the operation already.
    createCarriesInitializersWithoutInitializeVerb: ({ event }) =>
      facts(event).createCarriesInitializers && !facts(event).callerMayInitialize,
    createCarriesInitializers: ({ event }) => facts(event).createCarriesInitializers,
    changesInitializersWithoutInitializeVerb: ({ event }) =>
      facts(event).changesInitializers && !facts(event).callerMayInitialize,
    createsNamespace: ({ event }) =>
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a weaker guard also gives other requests the pending source 'inject', which the API server reads only when it creates a namespace.
      facts(event).target === 'namespace' && facts(event).operation === 'create',
  },
  actions: {
    refuseConfigurationUnavailable: refuse('refuseConfigurationUnavailable'),
    refuseNamespaceNotFound: refuse('refuseNamespaceNotFound'),
    refuseNamespaceTerminating: refuse('refuseNamespaceTerminating'),
    refuseImmortalNamespaceDeletion: refuse('refuseImmortalNamespaceDeletion'),
    refuseInitializersSetAtCreate: refuse('refuseInitializersSetAtCreate'),
    refuseInitializersChangeWithoutInitializeVerb: refuse('refuseInitializersChangeWithoutInitializeVerb'),
    injectPendingInitializers: admit('inject'),
    keepInitializersOfInitializeHolder: admit('asSent'),
    // Stryker disable next-line StringLiteral: the pending source of a request that creates no namespace is never read.
    admitAsIs: admit('none'),
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: the id names the machine's transitions in coverage and diagrams; no verdict reads it.
  id: 'admission',
  // Stryker disable next-line ObjectLiteral: every path through the chain sets the verdict before anyone reads it.
  context: { verdict: null },
  // Stryker disable next-line StringLiteral: XState enters the first state, waiting, when initial is empty.
  initial: 'waiting',
  states: {
    waiting: {
      on: { ADMIT: { target: 'namespaceLifecycle', meta: { requirements: ['AC-1'] } } },
    },
    namespaceLifecycle: {
      description: 'NamespaceLifecycle plugin: content needs a live namespace; immortal namespaces stay.',
      always: [
        when('contentInMissingNamespace', 'refused', 'refuseNamespaceNotFound', ['NS-2']),
        when('createInTerminatingNamespace', 'refused', 'refuseNamespaceTerminating', ['LC-4']),
        when('deleteOfImmortalNamespace', 'refused', 'refuseImmortalNamespaceDeletion', ['LC-10']),
        { target: 'configurationCheck', meta: { requirements: ['NS-2', 'LC-4'] } },
      ],
    },
    configurationCheck: {
      description: 'NamespaceInitializers plugin, first: its configuration must have been read within 5 s.',
      always: [
        when('writeWithStaleConfiguration', 'refused', 'refuseConfigurationUnavailable', ['AC-2', 'AC-3']),
        { target: 'namespaceInitializers', meta: { requirements: ['AC-2'] } },
      ],
    },
    namespaceInitializers: {
      description:
        'NamespaceInitializers plugin: the initialize verb guards spec.initializers; creates get the pending list.',
      always: [
        when('createCarriesInitializersWithoutInitializeVerb', 'refused', 'refuseInitializersSetAtCreate', [
          'IN-3',
        ]),
        when(
          'changesInitializersWithoutInitializeVerb',
          'refused',
          'refuseInitializersChangeWithoutInitializeVerb',
          ['IN-3'],
        ),
        when('createCarriesInitializers', 'admitted', 'keepInitializersOfInitializeHolder', ['IN-3']),
        when('createsNamespace', 'admitted', 'injectPendingInitializers', ['IN-1']),
        { target: 'admitted', actions: 'admitAsIs', meta: { requirements: ['IN-3'] } },
      ],
    },
    // Stryker disable next-line ObjectLiteral,StringLiteral: the stepper reads the verdict from the context after the eventless chain; whether the resting state is final changes nothing it reads.
    admitted: { type: 'final' },
    // Stryker disable next-line ObjectLiteral,StringLiteral: as for admitted.
    refused: { type: 'final' },
  },
});
