import { assign, setup } from 'xstate';
import { type Addressed, forbidden, type HttpOutcome, notFound } from './http.ts';

/**
 * The admission chain one API request goes through, as a decision machine: configuration freshness
 * (AC-2), authorization (RB), the NamespaceLifecycle plugin (NS-2, LC-4, LC-10) and the
 * NamespaceInitializers plugin (IN-1, IN-3, IN-6). The system computes the facts of a request; the
 * machine decides. Its final state says admitted or refused, and its context holds the typed verdict:
 * the refusal with its response, or how the admitted request's pending list is set.
 */
export type Operation = 'create' | 'get' | 'list' | 'update' | 'delete' | 'finalize';

export interface AdmissionFacts {
  operation: Operation;
  /** What the request addresses: a namespace object, or content inside a namespace. */
  target: 'namespace' | 'content';
  /** The admission configuration was read successfully within the last 5 s (AC-2; D-9: writes only). */
  configurationFresh: boolean;
  /** RBAC allowed the request (decided by the authorization machine). */
  authorized: boolean;
  /** The namespace named by the request exists in storage. */
  namespaceExists: boolean;
  namespaceInitializing: boolean;
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
  | 'refuseForbidden'
  | 'refuseNamespaceNotFound'
  | 'refuseNamespaceTerminating'
  | 'refuseImmortalNamespaceDeletion'
  | 'refuseInitializersSetAtCreate'
  | 'refuseInitializersChangeWithoutInitializeVerb'
  | 'refuseNamespaceInitializing';

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
  // D-16, D-23
  refuseForbidden: (a) => forbidden(`${a.resource} "${a.name}" is forbidden: RBAC: access denied`),
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
  // D-17
  refuseInitializersSetAtCreate: (a) =>
    forbidden(`namespaces "${a.namespace}" is forbidden: create with initializers denied`),
  refuseInitializersChangeWithoutInitializeVerb: (a) =>
    forbidden(`namespaces "${a.namespace}" is forbidden: update to uninitialized resource denied`),
  // D-19
  refuseNamespaceInitializing: (a) =>
    forbidden(
      `${a.resource} "${a.name}" is forbidden: unable to access content in namespace ${a.namespace} because it is being initialized`,
      'NamespaceInitializing',
    ),
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
    callerNotAuthorized: ({ event }) => !facts(event).authorized,
    // D-15: reads never pass admission, so a list in a missing namespace (or across all) reaches storage.
    contentInMissingNamespace: ({ event }) =>
      facts(event).target === 'content' && facts(event).operation !== 'list' && !facts(event).namespaceExists,
    createInTerminatingNamespace: ({ event }) =>
      facts(event).target === 'content' &&
      facts(event).operation === 'create' &&
      facts(event).namespaceTerminating,
    deleteOfImmortalNamespace: ({ event }) =>
      facts(event).target === 'namespace' &&
      facts(event).operation === 'delete' &&
      facts(event).namespaceImmortal,
    createCarriesInitializersWithoutInitializeVerb: ({ event }) =>
      facts(event).target === 'namespace' &&
      facts(event).operation === 'create' &&
      facts(event).createCarriesInitializers &&
      !facts(event).callerMayInitialize,
    createCarriesInitializers: ({ event }) =>
      facts(event).target === 'namespace' &&
      facts(event).operation === 'create' &&
      facts(event).createCarriesInitializers,
    changesInitializersWithoutInitializeVerb: ({ event }) =>
      facts(event).changesInitializers && !facts(event).callerMayInitialize,
    contentInInitializingNamespaceWithoutInitializeVerb: ({ event }) =>
      facts(event).target === 'content' &&
      facts(event).namespaceInitializing &&
      !facts(event).callerMayInitialize,
    createsNamespace: ({ event }) =>
      facts(event).target === 'namespace' && facts(event).operation === 'create',
  },
  actions: {
    refuseConfigurationUnavailable: refuse('refuseConfigurationUnavailable'),
    refuseForbidden: refuse('refuseForbidden'),
    refuseNamespaceNotFound: refuse('refuseNamespaceNotFound'),
    refuseNamespaceTerminating: refuse('refuseNamespaceTerminating'),
    refuseImmortalNamespaceDeletion: refuse('refuseImmortalNamespaceDeletion'),
    refuseInitializersSetAtCreate: refuse('refuseInitializersSetAtCreate'),
    refuseInitializersChangeWithoutInitializeVerb: refuse('refuseInitializersChangeWithoutInitializeVerb'),
    refuseNamespaceInitializing: refuse('refuseNamespaceInitializing'),
    injectPendingInitializers: admit('inject'),
    keepInitializersOfInitializeHolder: admit('asSent'),
    admitAsIs: admit('none'),
  },
}).createMachine({
  id: 'admission',
  context: { verdict: null },
  initial: 'waiting',
  states: {
    waiting: {
      on: { ADMIT: { target: 'configurationCheck', meta: { requirements: ['AC-1'] } } },
    },
    configurationCheck: {
      description: 'Dynamic admission configuration must have been read within 5 s.',
      always: [
        {
          guard: 'writeWithStaleConfiguration',
          target: 'refused',
          actions: 'refuseConfigurationUnavailable',
          meta: { requirements: ['AC-2', 'AC-3'] },
        },
        { target: 'authorization', meta: { requirements: ['AC-2'] } },
      ],
    },
    authorization: {
      description: 'RBAC: ClusterRoleBindings grant everywhere, RoleBindings only in their namespace.',
      always: [
        {
          guard: 'callerNotAuthorized',
          target: 'refused',
          actions: 'refuseForbidden',
          meta: { requirements: ['RB-4', 'RB-5', 'RB-6', 'NS-7'] },
        },
        { target: 'namespaceLifecycle', meta: { requirements: ['RB-4'] } },
      ],
    },
    namespaceLifecycle: {
      description: 'NamespaceLifecycle plugin: content needs a live namespace; immortal namespaces stay.',
      always: [
        {
          guard: 'contentInMissingNamespace',
          target: 'refused',
          actions: 'refuseNamespaceNotFound',
          meta: { requirements: ['NS-2'] },
        },
        {
          guard: 'createInTerminatingNamespace',
          target: 'refused',
          actions: 'refuseNamespaceTerminating',
          meta: { requirements: ['LC-4'] },
        },
        {
          guard: 'deleteOfImmortalNamespace',
          target: 'refused',
          actions: 'refuseImmortalNamespaceDeletion',
          meta: { requirements: ['LC-10'] },
        },
        { target: 'namespaceInitializers', meta: { requirements: ['NS-2', 'LC-4'] } },
      ],
    },
    namespaceInitializers: {
      description:
        'NamespaceInitializers plugin: injects pending initializers, guards initializing namespaces.',
      always: [
        {
          guard: 'createCarriesInitializersWithoutInitializeVerb',
          target: 'refused',
          actions: 'refuseInitializersSetAtCreate',
          meta: { requirements: ['IN-3'] },
        },
        {
          guard: 'changesInitializersWithoutInitializeVerb',
          target: 'refused',
          actions: 'refuseInitializersChangeWithoutInitializeVerb',
          meta: { requirements: ['IN-3'] },
        },
        {
          guard: 'contentInInitializingNamespaceWithoutInitializeVerb',
          target: 'refused',
          actions: 'refuseNamespaceInitializing',
          meta: { requirements: ['IN-6'] },
        },
        {
          guard: 'createCarriesInitializers',
          target: 'admitted',
          actions: 'keepInitializersOfInitializeHolder',
          meta: { requirements: ['IN-3'] },
        },
        {
          guard: 'createsNamespace',
          target: 'admitted',
          actions: 'injectPendingInitializers',
          meta: { requirements: ['IN-1'] },
        },
        { target: 'admitted', actions: 'admitAsIs', meta: { requirements: ['IN-6'] } },
      ],
    },
    admitted: { type: 'final' },
    refused: { type: 'final' },
  },
});
