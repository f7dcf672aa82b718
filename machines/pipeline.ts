import { assign, setup } from 'xstate';
import {
  type AdmissionRefusal,
  type AdmissionVerdict,
  type Operation,
  type PendingSource,
  refusalResponse,
} from './admission.ts';
import { badRequest, forbidden, type HttpOutcome, invalidObject, type RequestSubject } from './http.ts';
import { forbiddenReason } from './rbac.ts';
import { type StorageRefusal, storageResponse } from './storage.ts';
import { orElse, otherwise, route, when } from './transition.ts';

/**
 * The API server's request pipeline, one request at a time, in the order of checks of
 * docs/decisions.md: authorizing (RBAC, then the IN-6 gate of D-19) → decoding (the body's namespace
 * against the path, D-14) → admitting (the admission chain's verdict) → validating (storage
 * validation, 422) → storing (the namespace machine and the content store) → responded. The system
 * computes the facts of a request; this machine decides its typed outcome: refused with the refusal
 * whose response a table gives, or served with the effect storage applies and the status it answers.
 */
export interface PipelineFacts {
  operation: Operation;
  /** `cluster-object`: a ClusterRole or ClusterRoleBinding (D-23), stored like content, by name. */
  target: 'namespace' | 'content' | 'configuration' | 'cluster-object';
  /** `namespaces/NAME/status` (NS-5, D-16): read and written like the namespace, never its spec. */
  status: boolean;
  /** RBAC allowed the request (the authorization machine decided). */
  authorized: boolean;
  /** The request changes spec.initializers (pending list or result) and nothing else (D-17). */
  changesInitializers: boolean;
  /** The change is a failure result (IN-7), not the removal of a pending initializer. */
  recordsFailure: boolean;
  namespaceExists: boolean;
  /** D-25: the namespace's pending list once emptied without a failure result (forever true). */
  namespaceInitialized: boolean;
  namespaceTerminating: boolean;
  /** The caller holds `initialize` on the namespace (IN-6). */
  callerMayInitialize: boolean;
  /** The body names no namespace, or the one of the path (D-14). */
  bodyNamespaceMatchesPath: boolean;
  /** The body names no object, or the one of the path (D-38). */
  bodyNameMatchesPath: boolean;
  /** The body decodes: a Secret's data sends base64 (400 BadRequest otherwise). */
  bodyDecodable: boolean;
  /** A Secret's or ConfigMap's data passes ValidateSecret or ValidateConfigMap (422 Invalid otherwise). */
  dataValid: boolean;
  /** The admission chain's typed verdict (machines/admission.ts). */
  admission: AdmissionVerdict;
  /** Storage validation of the object as sent: name and finalizers (NS-1, LC-2). */
  objectValid: boolean;
  /** RB-4, RB-5 (D-23): a Role or RoleBinding write grants only what its author holds (or may bind). */
  escalation: 'allowed' | 'forbidden' | 'roleNotFound';
  /** What the namespace machine says to the event the request amounts to (`ignored`: it takes none). */
  namespaceMachine: 'accepts' | 'ignores' | 'none';
  /** Why the namespace machine ignores an initializer change (D-18): which 422 applies. */
  initializerChange: 'notFirst' | 'completed' | 'none';
  /** The content object addressed is stored. */
  contentPresent: boolean;
  /**
   * An update of content that is not stored, of a kind whose storage creates on update (NS-3, D-23's
   * AllowCreateOnUpdate table): admitted as a create, then authorized as a create before it is stored.
   */
  createOnUpdate: boolean;
  /** RBAC allows the caller `create` on the object a create-on-update would make (withAuthorization). */
  createOnUpdateAuthorized: boolean;
  /** The initializer or webhook configuration addressed is stored (AC-3, FP-3). */
  configurationExists: boolean;
  /** A DELETE of a collection (deletecollection): every object of its resource in the namespace. */
  collection: boolean;
  /** A namespace create whose name the server generated from metadata.generateName (D-45). */
  generatedName: boolean;
  /**
   * A DELETE's DeleteOptions precondition the stored object does not meet, the uid's first as storage
   * compares them (D-46); `none` when every one sent is met, or none is sent.
   */
  preconditionUnmet: 'uid' | 'resourceVersion' | 'none';
  /** A namespace update that sends metadata.finalizers (D-46). */
  metadataFinalizersSent: boolean;
  /**
   * A list sent as a watch (`?watch=true`, D-16). RBAC asks for the verb watch; every stage after it
   * serves the watch as the list it starts with, so no guard of the model reads this.
   */
  watch: boolean;
}

/** What storage does for a served request; the composition applies it, one case per effect. */
export type PipelineEffect =
  | 'createNamespace'
  | 'readNamespace'
  | 'readStatus'
  | 'writeStatus'
  | 'listNamespaces'
  | 'deleteNamespace'
  | 'purgeNamespace'
  | 'keepTerminating'
  | 'removePending'
  | 'recordFailure'
  | 'keepSpec'
  | 'finalize'
  | 'updateMetadataFinalizers'
  | 'createContent'
  | 'readContent'
  | 'deleteContent'
  | 'replaceClusterObject'
  | 'deleteCollection'
  | 'listContent'
  | 'createConfiguration'
  | 'readConfiguration'
  | 'updateConfiguration'
  | 'deleteConfiguration';

/** Refusals the pipeline decides itself, before admission. */
export type PipelineRefusal =
  | 'refuseForbidden'
  | 'refuseNamespaceInitializing'
  | 'refuseUndecodableBody'
  | 'refuseNameMismatch'
  | 'refuseNamespaceMismatch'
  | 'refuseInvalidData';

/** Every way a request is refused; each has exactly one response (see `responseFor`). */
export type RequestRefusal = PipelineRefusal | AdmissionRefusal | StorageRefusal;

export type PipelineOutcome =
  | { kind: 'served'; code: 200 | 201; effect: PipelineEffect; pending: PendingSource }
  | { kind: 'refused'; refusal: RequestRefusal };

/**
 * How the pipeline's own refusals read on the wire (D-14, D-16, D-19). A Record over the union, so a
 * refusal without its response fails the typecheck.
 */
export const pipelineResponse: Record<PipelineRefusal, (a: RequestSubject) => HttpOutcome> = {
  // D-16: shipped forbiddenMessage; the object's name only before "is forbidden", none for create and list.
  refuseForbidden: (a) =>
    forbidden(
      `${qualifiedResource(a)}${a.verb === 'create' || a.verb === 'list' || !a.name ? '' : ` ${JSON.stringify(a.name)}`} is forbidden: ${forbiddenReason(
        { name: a.user ?? '', groups: [] },
        {
          verb: a.verb ?? '',
          resource: a.resource,
          ...(a.subresource ? { subresource: a.subresource } : {}),
          ...(a.namespace && !(a.resource === 'namespaces' && a.verb === 'create')
            ? { namespace: a.namespace }
            : {}),
          ...(a.group !== undefined ? { apiGroup: a.group } : {}),
        },
      )}`,
    ),
  // D-19
  refuseNamespaceInitializing: (a) =>
    forbidden(
      `${qualifiedResource(a)}${a.name ? ` ${JSON.stringify(a.name)}` : ''} is forbidden: unable to access content in namespace ${a.namespace} because it is being initialized`,
      'NamespaceInitializing',
    ),
  // Shipped handlers decode the body (runtime.Decode) after authorization, before checkName and admission.
  refuseUndecodableBody: (a) => badRequest(a.decodeError ?? ''),
  // Shipped ValidateSecret / ValidateConfigMap: the metadata's errors first, then the data's.
  refuseInvalidData: (a) => invalidObject(a.kind ?? a.resource, a.name, a.errors ?? []),
  // D-38: shipped checkName (endpoints/handlers/rest.go), before the namespace is compared
  refuseNameMismatch: (a) =>
    badRequest(
      `the name of the object (${a.bodyName ?? ''}) does not match the name on the URL (${a.name ?? ''})`,
    ),
  // D-14: shipped EnsureObjectNamespaceMatchesRequestNamespace
  refuseNamespaceMismatch: () =>
    badRequest('the namespace of the provided object does not match the namespace sent on the request'),
};

/** `configmaps`, or `rolebindings.rbac.authorization.k8s.io` outside the core group (NewForbidden's GroupResource). */
export function qualifiedResource(a: RequestSubject): string {
  return a.group ? `${a.resource}.${a.group}` : a.resource;
}

/** Admission's messages name the group-qualified resource, as admission.NewForbidden does. */
const admissionResponse = Object.fromEntries(
  Object.entries(refusalResponse).map(([refusal, respond]) => [
    refusal,
    (a: RequestSubject) => respond({ ...a, resource: qualifiedResource(a) }),
  ]),
) as Record<AdmissionRefusal, (a: RequestSubject) => HttpOutcome>;

/** Every refusal's response, in one Record over the whole union: a missing one fails the typecheck. */
export const requestResponse: Record<RequestRefusal, (a: RequestSubject) => HttpOutcome> = {
  ...pipelineResponse,
  ...admissionResponse,
  ...storageResponse,
};

/** The HTTP answer to a refused request. */
export function responseFor(refusal: RequestRefusal, subject: RequestSubject): HttpOutcome {
  return requestResponse[refusal](subject);
}

export type PipelineEvent = { type: 'SERVE'; facts: PipelineFacts };

/** D-32: what storing a configuration does, by verb (a configuration is never listed or finalized). */
const configurationEffect: Record<Operation, PipelineEffect> = {
  create: 'createConfiguration',
  get: 'readConfiguration',
  update: 'updateConfiguration',
  delete: 'deleteConfiguration',
  list: 'readConfiguration',
  finalize: 'updateConfiguration',
};

interface PipelineContext {
  outcome: PipelineOutcome | null;
}

type Facts = { event: PipelineEvent };
const f = ({ event }: Facts): PipelineFacts => event.facts;
const isNamespace = (x: Facts) => f(x).target === 'namespace';
const isContent = (x: Facts) => f(x).target === 'content';
const isConfiguration = (x: Facts) => f(x).target === 'configuration';
const op = (x: Facts, operation: Operation) => f(x).operation === operation;

const refuse = (refusal: RequestRefusal) =>
  assign<PipelineContext, PipelineEvent, undefined, PipelineEvent, never>({
    outcome: { kind: 'refused', refusal },
  });
const serve = (effect: PipelineEffect, code: 200 | 201 = 200) =>
  assign<PipelineContext, PipelineEvent, undefined, PipelineEvent, never>({
    outcome: ({ event }) => ({
      kind: 'served',
      code,
      effect,
      pending: event.facts.admission.kind === 'admitted' ? event.facts.admission.pending : 'none',
    }),
  });

const responded = '#pipeline.responded';
const refused = '#pipeline.refused';

/** The namespace object's storage, one state per verb, each a short chain (the namespace machine applies it). */
const namespaceStorage = {
  description:
    'The namespace machine is the storage of record: the verb picks the rule, the machine decides.',
  initial: 'byVerb',
  states: {
    byVerb: {
      always: [
        route('createOfNamespace', 'creating', ['NS-3', 'LC-1']),
        when('listOfNamespaces', responded, 'listNamespaces', ['NS-7']),
        when('namespaceMissing', refused, 'refuseNamespaceNotFound', ['NS-2']),
        route('deleteOfNamespace', 'deleting', ['LC-3']),
        route('statusOfNamespace', 'status', ['NS-5']),
        route('finalizeOfNamespace', 'finalizing', ['LC-6']),
        route('updateOfNamespace', 'updating', ['LC-6', 'IN-2']),
        // Only a GET is left: the longest branches hang early, so the picture stays short.
        orElse(responded, 'readNamespace', ['IN-8', 'FP-4']),
      ],
    },
    creating: {
      always: [
        when('generatedNameTaken', refused, 'refuseGeneratedNameTaken', ['NS-3']),
        when('createOfExistingNamespace', refused, 'refuseNamespaceAlreadyExists', ['NS-3']),
        orElse(responded, 'createNamespace', ['LC-1', 'IN-1']),
      ],
    },
    status: {
      description:
        '`namespaces/NAME/status` (NS-5, D-16): read and written like the namespace, never its spec.',
      always: [
        when('readOfStatus', responded, 'readStatus', ['NS-5', 'IN-5']),
        orElse(responded, 'writeStatus', ['NS-5']),
      ],
    },
    deleting: {
      description:
        'D-46: preconditions first, as REST.Delete compares them after its Get; D-10: a DELETE of a terminating namespace with no finalizers left removes it.',
      always: [
        when('preconditionUnmet', refused, 'refusePreconditionFailed', ['LC-3']),
        when('deleteOfTerminatingWithoutFinalizers', responded, 'purgeNamespace', ['LC-7']),
        when('deleteOfTerminating', responded, 'keepTerminating', ['LC-3']),
        orElse(responded, 'deleteNamespace', ['LC-3']),
      ],
    },
    updating: {
      description: 'An update changes the pending list or records a failure (D-17, D-18), or keeps the spec.',
      always: [
        when('pendingChangeOutOfOrder', refused, 'refusePendingNotFirst', ['IN-2']),
        when('initializersChangedAfterCompletion', refused, 'refuseInitializersImmutable', ['IN-4']),
        when('recordsFailure', responded, 'recordFailure', ['IN-7']),
        when('failureIgnoredByStorage', refused, 'refuseFailureWhileNotInitializing', ['IN-7']),
        when('removesPending', responded, 'removePending', ['IN-3', 'IN-2']),
        when('setsMetadataFinalizers', responded, 'updateMetadataFinalizers', ['LC-7']),
        when('metadataFinalizerAddedWhileDeleting', refused, 'refuseMetadataFinalizerAdded', ['LC-7']),
        orElse(responded, 'keepSpec', ['LC-6']),
      ],
    },
    finalizing: {
      always: [
        when('finalizeAccepted', responded, 'finalize', ['LC-6']),
        orElse(refused, 'refuseFinalizerAddedWhileDeleting', ['LC-6']),
      ],
    },
  },
};

/** A content object or a list of content: one presence bit per object (NS-3). */
const contentStorage = {
  description:
    'The content store: one presence bit per object (NS-3), ClusterRoles and ClusterRoleBindings too (D-23).',
  always: [
    route('contentUpdate', 'updates', ['NS-2', 'NS-3']),
    when('listOfContent', responded, 'listContent', ['NS-7', 'IN-6']),
    when('deleteOfCollection', responded, 'deleteCollection', ['LC-5']),
    when('createOfPresentContent', refused, 'refuseContentAlreadyExists', ['NS-3']),
    when('createOfContent', responded, 'createContent', ['NS-3']),
    when('absentContent', refused, 'refuseContentNotFound', ['NS-2']),
    when('deleteWithUnmetPrecondition', refused, 'refusePreconditionFailed', ['LC-5']),
    when('deleteOfContent', responded, 'deleteContent', ['LC-5']),
    orElse(responded, 'readContent', ['NS-2']),
  ],
};

/** An update of content or of a cluster RBAC object: its own store chain, so each diagram stays short. */
const contentUpdateStorage = {
  description:
    'An update in the content store: a PUT that creates (NS-3, D-23), 404 for an object not stored, a cluster RBAC object replaced by the version sent (D-23).',
  always: [
    when('createOnUpdateUnauthorized', refused, 'refuseCreateOnUpdateForbidden', ['RB-4']),
    when('createOnUpdate', responded, 'createContent', ['NS-3']),
    when('absentContent', refused, 'refuseContentNotFound', ['NS-2']),
    when('updateOfClusterObject', responded, 'replaceClusterObject', ['RB-4', 'RB-5']),
    orElse(responded, 'readContent', ['NS-2']),
  ],
};

/** An initializer or webhook configuration: cluster-scoped, stored by name (AC-3, FP-3, D-32). */
const configurationStorage = {
  description: 'The configuration store: cluster-scoped objects stored by name (AC-3, FP-3, D-32).',
  always: [
    when('createOfExistingConfiguration', refused, 'refuseConfigurationAlreadyExists', ['NS-3']),
    when('configurationMissing', refused, 'refuseConfigurationNotFound', ['AC-3']),
    orElse(responded, 'storeConfiguration', ['AC-1', 'AC-3', 'FP-3']),
  ],
};

export const pipelineMachine = setup({
  types: {
    context: {} as PipelineContext,
    events: {} as PipelineEvent,
  },
  guards: {
    callerNotAuthorized: (x) => !f(x).authorized,
    // D-19: every verb on content of a namespace never initialized, whatever its phase; D-33: but a
    // DELETE once it terminates, which is cleanup and reveals nothing, so purging needs no `initialize`.
    uninitializedContentWithoutInitializeVerb: (x) =>
      isContent(x) &&
      f(x).namespaceExists &&
      !f(x).namespaceInitialized &&
      !f(x).callerMayInitialize &&
      !(op(x, 'delete') && f(x).namespaceTerminating),
    bodyUndecodable: (x) => !f(x).bodyDecodable,
    bodyNameDiffersFromPath: (x) => !f(x).bodyNameMatchesPath,
    bodyNamespaceDiffersFromPath: (x) => !f(x).bodyNamespaceMatchesPath,
    admissionRefused: (x) => f(x).admission.kind === 'refused',
    objectInvalid: (x) => !f(x).objectValid,
    dataInvalid: (x) => !f(x).dataValid,
    // D-23: shipped policybased storage checks escalation before the strategy validates.
    grantsBeyondCallersPermissions: (x) => f(x).escalation === 'forbidden',
    bindsRoleThatDoesNotExist: (x) => f(x).escalation === 'roleNotFound',
    // Storage by target: each store's chain tries only requests for it.
    namespaceRequest: (x) => isNamespace(x),
    configurationRequest: (x) => isConfiguration(x),
    // Namespace objects, by verb: the namespace machine is the storage of record.
    createOfNamespace: (x) => op(x, 'create'),
    listOfNamespaces: (x) => op(x, 'list'),
    namespaceMissing: (x) => !f(x).namespaceExists,
    statusOfNamespace: (x) => f(x).status,
    finalizeOfNamespace: (x) => op(x, 'finalize'),
    deleteOfNamespace: (x) => op(x, 'delete'),
    updateOfNamespace: (x) => op(x, 'update'),
    createOfExistingNamespace: (x) => f(x).namespaceExists,
    // D-45: the name the server generated is taken; the client is told to try again (a new name).
    generatedNameTaken: (x) => f(x).namespaceExists && f(x).generatedName,
    readOfStatus: (x) => op(x, 'get'),
    // D-10: a DELETE of a terminating namespace with no finalizers left removes it; otherwise nothing changes.
    deleteOfTerminatingWithoutFinalizers: (x) =>
      f(x).namespaceTerminating && f(x).namespaceMachine === 'accepts',
    deleteOfTerminating: (x) => f(x).namespaceTerminating,
    // D-46: namespace storage's REST.Delete, before the deletion timestamp and the finalizers are looked at.
    preconditionUnmet: (x) => f(x).preconditionUnmet !== 'none',
    // Initializing and Active both take DELETE (LC-3, D-4): only the design that refuses it (D-4 a) adds this rule.
    deleteIgnoredByNamespace: (x) => f(x).namespaceMachine === 'ignores',
    pendingChangeOutOfOrder: (x) => f(x).initializerChange === 'notFirst',
    initializersChangedAfterCompletion: (x) => f(x).initializerChange === 'completed',
    recordsFailure: (x) => f(x).recordsFailure && f(x).namespaceMachine === 'accepts',
    failureIgnoredByStorage: (x) => f(x).recordsFailure,
    removesPending: (x) => f(x).changesInitializers && f(x).namespaceMachine === 'accepts',
    finalizeAccepted: (x) => f(x).namespaceMachine === 'accepts',
    // D-46: metadata.finalizers as sent, which the namespace machine takes unless one is new while deleting.
    setsMetadataFinalizers: (x) => f(x).metadataFinalizersSent && f(x).namespaceMachine === 'accepts',
    metadataFinalizerAddedWhileDeleting: (x) => f(x).metadataFinalizersSent && f(x).namespaceTerminating,
    // Content: one presence bit per object (NS-3); an update has a chain of its own (a PUT may create, D-23).
    contentUpdate: (x) => op(x, 'update'),
    listOfContent: (x) => op(x, 'list'),
    // Shipped Store.DeleteCollection: deletes what a list of the collection finds, none an error.
    deleteOfCollection: (x) => op(x, 'delete') && f(x).collection,
    createOfPresentContent: (x) => op(x, 'create') && f(x).contentPresent,
    createOfContent: (x) => op(x, 'create'),
    absentContent: (x) => !f(x).contentPresent,
    // A PUT that would create is authorized as a create too, after validation (shipped withAuthorization).
    createOnUpdateUnauthorized: (x) => f(x).createOnUpdate && !f(x).createOnUpdateAuthorized,
    createOnUpdate: (x) => f(x).createOnUpdate,
    // D-46: rest.BeforeDelete, before graceful deletion and finalizers are looked at.
    deleteWithUnmetPrecondition: (x) => op(x, 'delete') && f(x).preconditionUnmet !== 'none',
    deleteOfContent: (x) => op(x, 'delete'),
    // D-23: a ClusterRole's or ClusterRoleBinding's update stores the version it sends.
    updateOfClusterObject: (x) => op(x, 'update') && f(x).target === 'cluster-object',
    // Configurations: cluster-scoped objects stored by name (AC-3, FP-3, D-32).
    createOfExistingConfiguration: (x) => op(x, 'create') && f(x).configurationExists,
    configurationMissing: (x) => !op(x, 'create') && !f(x).configurationExists,
  },
  actions: {
    refuseForbidden: refuse('refuseForbidden'),
    refuseNamespaceInitializing: refuse('refuseNamespaceInitializing'),
    refuseUndecodableBody: refuse('refuseUndecodableBody'),
    refuseNameMismatch: refuse('refuseNameMismatch'),
    refuseInvalidData: refuse('refuseInvalidData'),
    refuseNamespaceMismatch: refuse('refuseNamespaceMismatch'),
    refuseAsAdmissionSaid: assign({
      outcome: ({ event }) =>
        event.facts.admission.kind === 'refused'
          ? { kind: 'refused' as const, refusal: event.facts.admission.refusal }
          : null,
    }),
    refuseInvalidObject: assign({
      outcome: ({ event }) => ({
        kind: 'refused' as const,
        refusal:
          event.facts.target === 'configuration'
            ? ('configurationInvalid' as const)
            : // Content and cluster RBAC objects are named by their kind, as NewInvalid names them (D-23).
              event.facts.target === 'content' || event.facts.target === 'cluster-object'
              ? ('contentInvalid' as const)
              : event.facts.operation === 'finalize'
                ? ('finalizerNamesInvalid' as const)
                : ('namespaceNameInvalid' as const),
      }),
    }),
    refuseEscalation: refuse('escalationForbidden'),
    refuseRoleRefNotFound: refuse('roleRefNotFound'),
    refuseNamespaceAlreadyExists: refuse('namespaceAlreadyExists'),
    refuseGeneratedNameTaken: refuse('generatedNameTaken'),
    refuseNamespaceNotFound: refuse('namespaceNotFound'),
    refusePendingNotFirst: refuse('pendingNotFirst'),
    // Used by the design `open-delete-while-initializing-refused` only (D-4 a): the base never ignores a DELETE.
    refuseNamespaceDeleteRefused: refuse('namespaceDeleteRefused'),
    refuseInitializersImmutable: refuse('initializersImmutable'),
    refuseFailureWhileNotInitializing: refuse('failureWhileNotInitializing'),
    refuseFinalizerAddedWhileDeleting: refuse('finalizerAddedWhileDeleting'),
    refuseMetadataFinalizerAdded: refuse('metadataFinalizerAddedWhileDeleting'),
    refuseContentAlreadyExists: refuse('contentAlreadyExists'),
    // D-46: one rule for both stores; each answers with its own text.
    refusePreconditionFailed: assign({
      outcome: ({ event }) => ({
        kind: 'refused' as const,
        refusal:
          event.facts.target === 'namespace'
            ? ('namespacePreconditionFailed' as const)
            : ('contentPreconditionFailed' as const),
      }),
    }),
    refuseContentNotFound: refuse('contentNotFound'),
    refuseCreateOnUpdateForbidden: refuse('createOnUpdateForbidden'),
    refuseConfigurationAlreadyExists: refuse('configurationAlreadyExists'),
    refuseConfigurationNotFound: refuse('configurationNotFound'),
    // One rule for the configuration store (a short chain keeps the diagram readable): the verb picks the effect.
    storeConfiguration: assign({
      outcome: ({ event }) => ({
        kind: 'served' as const,
        code: event.facts.operation === 'create' ? (201 as const) : (200 as const),
        effect: configurationEffect[event.facts.operation],
        pending: 'none' as const,
      }),
    }),
    createNamespace: serve('createNamespace', 201),
    listNamespaces: serve('listNamespaces'),
    readStatus: serve('readStatus'),
    writeStatus: serve('writeStatus'),
    readNamespace: serve('readNamespace'),
    purgeNamespace: serve('purgeNamespace'),
    keepTerminating: serve('keepTerminating'),
    deleteNamespace: serve('deleteNamespace'),
    removePending: serve('removePending'),
    recordFailure: serve('recordFailure'),
    keepSpec: serve('keepSpec'),
    finalize: serve('finalize'),
    updateMetadataFinalizers: serve('updateMetadataFinalizers'),
    listContent: serve('listContent'),
    createContent: serve('createContent', 201),
    deleteContent: serve('deleteContent'),
    replaceClusterObject: serve('replaceClusterObject'),
    deleteCollection: serve('deleteCollection'),
    readContent: serve('readContent'),
  },
}).createMachine({
  id: 'pipeline',
  context: { outcome: null },
  initial: 'waiting',
  states: {
    waiting: {
      on: { SERVE: otherwise('authorizing', ['RB-4']) },
    },
    authorizing: {
      description:
        'RBAC (authorization machine), then the IN-6 gate on content of a namespace never initialized.',
      always: [
        when('callerNotAuthorized', 'refused', 'refuseForbidden', ['RB-4', 'RB-5', 'RB-6', 'NS-7']),
        when('uninitializedContentWithoutInitializeVerb', 'refused', 'refuseNamespaceInitializing', ['IN-6']),
        otherwise('decoding', ['RB-4', 'IN-6']),
      ],
    },
    decoding: {
      description:
        "The body must decode (a Secret's data base64); its metadata.name must be the path's (D-38), its metadata.namespace empty or the path's (D-14).",
      always: [
        when('bodyUndecodable', 'refused', 'refuseUndecodableBody', ['NS-4']),
        when('bodyNameDiffersFromPath', 'refused', 'refuseNameMismatch', ['NS-4']),
        when('bodyNamespaceDiffersFromPath', 'refused', 'refuseNamespaceMismatch', ['NS-4']),
        otherwise('admitting', ['NS-4']),
      ],
    },
    admitting: {
      description: 'The admission chain (NamespaceLifecycle, then NamespaceInitializers) gave its verdict.',
      always: [
        when('admissionRefused', 'refused', 'refuseAsAdmissionSaid', [
          'AC-2',
          'NS-2',
          'LC-4',
          'LC-10',
          'IN-3',
        ]),
        otherwise('validating', ['AC-1']),
      ],
    },
    validating: {
      description:
        "Storage validation: namespace name and finalizer names, a configuration and its entries, a Secret's or ConfigMap's data (422 Invalid).",
      always: [
        when('grantsBeyondCallersPermissions', 'refused', 'refuseEscalation', ['RB-4', 'RB-5']),
        when('bindsRoleThatDoesNotExist', 'refused', 'refuseRoleRefNotFound', ['RB-4']),
        when('objectInvalid', 'refused', 'refuseInvalidObject', ['NS-1', 'LC-2', 'FP-3', 'AC-4', 'AC-5']),
        // A Secret's or ConfigMap's data: validated after admission, before storage's AlreadyExists.
        when('dataInvalid', 'refused', 'refuseInvalidData', ['NS-1']),
        otherwise('storing', ['NS-1', 'LC-2']),
      ],
    },
    storing: {
      description: 'Storage by target: the namespace machine, the configuration store or the content store.',
      always: [
        route('namespaceRequest', 'namespaces', ['NS-5']),
        route('configurationRequest', 'configurations', ['AC-3']),
        otherwise('content', ['NS-2', 'NS-3']),
      ],
    },
    namespaces: namespaceStorage,
    content: contentStorage,
    configurations: configurationStorage,
    updates: contentUpdateStorage,
    responded: { type: 'final' },
    refused: { type: 'final' },
  },
});
