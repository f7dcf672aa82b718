import { setup } from 'xstate';

/**
 * The admission chain one API request goes through, as a decision machine: configuration freshness
 * (AC-2), authorization (RB), the NamespaceLifecycle plugin (NS-2, LC-4, LC-10) and the
 * NamespaceInitializers plugin (IN-1, IN-3, IN-6). The system computes the facts of a request; the
 * machine decides. Its final state says admitted or refused, and the refusal action names the reason.
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

export const admissionRefusals: readonly AdmissionRefusal[] = [
  'refuseConfigurationUnavailable',
  'refuseForbidden',
  'refuseNamespaceNotFound',
  'refuseNamespaceTerminating',
  'refuseImmortalNamespaceDeletion',
  'refuseInitializersSetAtCreate',
  'refuseInitializersChangeWithoutInitializeVerb',
  'refuseNamespaceInitializing',
];

export type AdmissionEvent = { type: 'ADMIT'; facts: AdmissionFacts };

const facts = (event: AdmissionEvent): AdmissionFacts => event.facts;

export const admissionMachine = setup({
  types: {
    events: {} as AdmissionEvent,
  },
  guards: {
    // Reads never pass through admission (D-9): only writes are refused while the copy is stale.
    writeWithStaleConfiguration: ({ event }) =>
      !facts(event).configurationFresh &&
      facts(event).operation !== 'get' &&
      facts(event).operation !== 'list',
    callerNotAuthorized: ({ event }) => !facts(event).authorized,
    contentInMissingNamespace: ({ event }) =>
      facts(event).target === 'content' && !facts(event).namespaceExists,
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
    refuseConfigurationUnavailable: () => {},
    refuseForbidden: () => {},
    refuseNamespaceNotFound: () => {},
    refuseNamespaceTerminating: () => {},
    refuseImmortalNamespaceDeletion: () => {},
    refuseInitializersSetAtCreate: () => {},
    refuseInitializersChangeWithoutInitializeVerb: () => {},
    refuseNamespaceInitializing: () => {},
    injectPendingInitializers: () => {},
    keepInitializersOfInitializeHolder: () => {},
  },
}).createMachine({
  id: 'admission',
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
        { target: 'admitted', meta: { requirements: ['IN-6'] } },
      ],
    },
    admitted: { type: 'final' },
    refused: { type: 'final' },
  },
});
