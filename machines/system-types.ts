import type { Operation } from './admission.ts';
import type { HttpOutcome } from './http.ts';
import type { NamespaceContext, NamespaceStateValue, PropagationPolicy } from './namespace.ts';

/**
 * The composed system: the API server's store, every actor's machine snapshot and the faults in force,
 * as plain data. Time is relative (docs/time.md): no absolute clock, only ages kept by the machines
 * that compare them, each capped at its largest constant. Machine snapshots are interned ids (see
 * MachineStepper), so a state is a handful of small integers and its key is a short string.
 */
export interface NamespaceState {
  /** Intern id: equal namespace states are one object with one id. */
  id: number;
  /** Interned snapshot of the namespace lifecycle machine. */
  lifecycle: number;
  /** Content objects present, one bit per object slot. */
  content: number;
  /** External content present, one bit per finalizer owner (LC-8). */
  external: number;
  /** Interned snapshot of the apiserver's initializer timer for this namespace (FP-2, FP-4). */
  timer: number;
}

export interface SystemState {
  /** Interned snapshot of the admission configuration sync machine. */
  configSync: number;
  /** Interned snapshot of the failure injector: whether configuration reads fail (AC-2). */
  faults: number;
  /**
   * Configurations present in the store: bit k for the scope's configuration k, and the version an
   * update gave it in 3 bits from bit (configurations + 3k) (see SystemViews.storedVersion).
   */
  registeredConfigs: number;
  namespaces: NamespaceState[];
  /** Interned snapshots of the initializer controllers, one per initializer. */
  initializers: number[];
  /**
   * The scope's requestable ClusterRoles and ClusterRoleBindings stored, bit k for `clusterObjects[k]`
   * (D-23); absent when the scope has none, so it is no part of such a scope's key.
   */
  clusterObjects?: number;
}

/** One API request, in the model's own terms. */
export interface ApiRequest {
  principal: { name: string; groups: string[] };
  verb: Operation;
  target: 'namespace' | 'content' | 'configuration' | 'cluster-object';
  /** Namespace slot; -1 for a list across all namespaces, and for configurations and cluster objects (cluster-scoped). */
  namespace: number;
  /** Configuration requests: the scope's configuration slot, and the version a create or update sends (FP-3). */
  configuration?: { slot: number; version: number };
  /** Object slot for content requests; -1 for a list. For a cluster object, its slot in the scope's `clusterObjects`. */
  object: number;
  /** Resource for lists across namespaces or within one. */
  resource?: string;
  /** `namespaces/NAME/status` (NS-5): read or written like the namespace; never changes its spec. */
  subresource?: 'status';
  /** A list sent as a watch: served as the list it starts with, authorized as the verb watch (NS-7, D-16). */
  watch?: true;
  /**
   * A DELETE of a collection (object -1): every object of `resource` in the namespace, authorized as the
   * verb deletecollection and admitted as a delete (shipped NamespaceLifecycle admits every delete).
   */
  collection?: true;
  body?: {
    /** metadata.namespace as sent; must be empty or the path's (NS-4, D-14). */
    namespace?: string;
    /** metadata.name as sent where the path names the object too; must be the path's (NS-4, D-38). */
    name?: string;
    /** A client-supplied pending list on create (only admission may set it: IN-3). */
    initializers?: string[];
    /** Remove this name from the pending list (the initializer protocol, IN-3). */
    removePending?: string;
    /** A RoleBinding update's roleRef, when it is not the stored one (RB-4, D-23: immutable). */
    roleRef?: { kind: 'ClusterRole' | 'Role'; name: string };
    /** status.phase a status update sends (D-30); absent means Active, v1's default. */
    phase?: string;
    /** metadata.labels as sent: keys qualified names, values label values (422 otherwise). */
    labels?: Record<string, string>;
    /**
     * A RoleBinding's or ClusterRoleBinding's roleRef and subject kinds as sent, when they are not of the
     * shapes the model keeps (another group, another kind, no name; a subject of no known kind): storage
     * validates them (422, RB-4) and nothing of the kind is ever stored.
     */
    sentRbac?: SentRbac;
    /** metadata.annotations as sent: keys qualified names once lowercased (422 otherwise). */
    annotations?: Record<string, string>;
    /** What decoding and validating a Secret's or ConfigMap's data found; absent when it stands. */
    data?: BodyData;
    /** spec.initializers.pending as an update sends it, whole; the API server works out the change (IN-3, D-18). */
    pending?: string[];
    /** Remove whichever initializer is first pending when the request is served (IN-3). */
    removeFirstPending?: true;
    /** Finalize with the stored spec.finalizers minus `kubernetes`, as the namespace controller does (LC-6). */
    finalizeWithoutKubernetes?: true;
    /** Set a failure result (IN-7). */
    failure?: string;
    /** spec.finalizers as sent (ordinary update or finalize). */
    finalizers?: string[];
    /** metadata.finalizers as a create or update sends them, whole (D-46). */
    metadataFinalizers?: string[];
    /** A DELETE's DeleteOptions.propagationPolicy (D-46). */
    propagationPolicy?: PropagationPolicy;
    /** A DELETE's DeleteOptions.preconditions as sent (D-46): storage compares them with the stored object. */
    preconditions?: DeletePreconditions;
    /** Finalizers a create asks for besides `kubernetes`. */
    extraFinalizers?: string[];
    /** metadata.generateName of a namespace create: the namespace slot is the name generated from it (D-45). */
    generateName?: string;
  };
}

export type ActorKind =
  | 'principal'
  | 'initializer'
  | 'namespace-controller'
  | 'finalizer-owner'
  | 'apiserver'
  | 'clock'
  | 'fault';

/** One labelled step of the system: who did what and how it ended. Interned: equal steps share one object. */
export interface SystemEvent {
  actor: string;
  actorKind: ActorKind;
  label: string;
  request?: ApiRequest & { callerMayInitialize: boolean; changesInitializers: boolean };
  /** The command that sent the request, as data: replay and random walks match its kind and fields. */
  command?: RequestCommandData;
  response?: HttpOutcome;
  /** The namespace slot the step addressed, or -1. */
  namespace: number;
  /** Machine transitions taken by the step, for coverage. */
  transitions: readonly string[];
  /** Names returned by a list. */
  items?: readonly string[];
  /** A fault's kind, as data: replay matches it, never the label's text. */
  fault?: FaultKind;
  /** The configuration a cluster administrator creates, updates or deletes (AC-3, FP-3). */
  configuration?: string;
}

/** The faults a scope may allow (P's FailureInjector): each is one step some actor can take. */
export type FaultKind =
  | 'initializer-crash'
  | 'initializer-restart'
  | 'apiserver-restart'
  | 'config-read-failing'
  | 'config-read-recovering';

/** One step the system may take: the labelled event and the state it leads to. */
export interface Enabled {
  event: SystemEvent;
  next: SystemState;
}

/** A view of one namespace that properties and reports read: the lifecycle machine's context, by name. */
export interface NamespaceView extends NamespaceContext {
  name: string;
  value: NamespaceStateValue;
  content: number;
  external: number;
  /** The apiserver's timer on the first pending initializer, armed or expired (FP-2); null when none runs. */
  failOpenTimer: { initializer: string; ageSeconds: number } | null;
  /** The apiserver that armed the timer restarted and lost it: only read-repair is left (FP-4). */
  timerLost: boolean;
  system: boolean;
}

/**
 * What a request across every namespace (a list or watch of content or of namespaces) reads of one
 * namespace: whether it exists, whether it finished initializing (IN-6, D-19) and its content. This is
 * such a request's whole footprint on a namespace: the list code reads namespaces only through it, and
 * the checker remembers a list's outcome under each namespace's listing and the RBAC and global context.
 */
export interface NamespaceListing {
  exists: boolean;
  initialized: boolean;
  content: number;
}

/** What the whole system shows besides its namespaces: admission's copy, the faults, the controllers. */
export interface SystemView {
  /** Seconds since the last successful configuration read, capped at the 5 s staleness bound (AC-2). */
  secondsSinceConfigRead: number;
  /** Admission's copy is fresh (the config-sync machine's state). */
  configurationFresh: boolean;
  /** The configuration-read fault is in force: every read fails. */
  configReadsFailing: boolean;
  /** Configurations in admission's copy, as last read (AC-3). */
  configurationsRead: string[];
  /** Configurations stored in the cluster. */
  configurationsRegistered: string[];
  /** FP-3: the version of each stored configuration an update changed (absent: as created). */
  configurationVersionsRegistered: Record<string, number>;
  /** FP-3: the version admission read of each configuration an update changed (absent: as created). */
  configurationVersionsRead: Record<string, number>;
  /** Initializer controllers that are down. */
  crashedInitializers: string[];
}

/** Content objects a scope may have: one bit each in a namespace's content mask (bit 31 is the sign). */
export const maxContentObjects = 31;

/** The kinds of local action, each an actor (or a principal's command) acting on one namespace slot. */
export const LocalKind = {
  Command: 0,
  Initializer: 1,
  NamespaceController: 2,
  FinalizerOwner: 3,
  ApiserverTimer: 4,
} as const;
export type LocalKind = (typeof LocalKind)[keyof typeof LocalKind];

/** A local action's step code: what actor k does to namespace slot i in state s, pushed onto out. */
export type LocalAction<M> = (m: M, s: SystemState, k: number, i: number, out: Enabled[]) => void;

/** The requests on one content object (machines/commands.ts gives each its verb). */
export type ContentKind = 'create-content' | 'get-content' | 'update-content' | 'delete-content';

/**
 * A Secret's or ConfigMap's data as the body sends it, which the model does not store: what decoding it
 * found (the decode error, 400 BadRequest) and what ValidateSecret or ValidateConfigMap refuse (422).
 */
export interface BodyData {
  /** The decode error, e.g. a base64 field whose value is not base64. */
  undecodable?: string;
  /** The data's field errors, rendered as NewInvalid renders them. */
  errors: readonly string[];
}

/** Who sends a command: the actor the step is credited to and the user the API server sees. */
export interface Sender {
  actor: string;
  actorKind: ActorKind;
  principal: ApiRequest['principal'];
}

/** What a binding's body sends beyond the shapes the model keeps (see ApiRequest's body.sentRbac). */
export interface SentRbac {
  roleRef?: { apiGroup?: string; kind: string; name: string };
  /** Each subject's kind as sent, `''` when it sends none. */
  subjectKinds?: string[];
}

/** DeleteOptions.preconditions (D-46): the uid and resourceVersion a client expects the object to carry. */
export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

type Namespaced = Sender & {
  namespace: number;
  /** A DELETE's DeleteOptions.preconditions, on a namespace or a content object (D-46). */
  preconditions?: DeletePreconditions;
  /** metadata.name as sent in the body of a request whose path names the object (NS-4, D-38); absent when it names none. */
  bodyName?: string;
  /** metadata.labels and metadata.annotations as sent; storage validates their keys and values. */
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** A binding's roleRef and subject kinds beyond the shapes the model keeps (RB-4). */
  sentRbac?: SentRbac;
};
type OnObject = Namespaced & {
  object: number;
  /** metadata.namespace as sent in the body (NS-4, D-14); absent when the body names none. */
  bodyNamespace?: string;
  /** A RoleBinding update's roleRef when it is not the stored one (immutable: RB-4, D-23). */
  roleRef?: { kind: 'ClusterRole' | 'Role'; name: string };
  /** What a Secret's or ConfigMap's data in the body amounts to; absent when it stands. */
  data?: BodyData;
};

export type RequestCommandData =
  | (Namespaced & {
      kind: 'create-namespace';
      /** A client-supplied pending list (only admission may set one: IN-3); absent when none is sent. */
      initializers?: string[];
      extraFinalizers: string[];
      /** metadata.finalizers a create sends (D-46). */
      metadataFinalizers?: string[];
      /** metadata.generateName; the command's namespace is the name generated from it (D-45). */
      generateName?: string;
    })
  | (Namespaced & { kind: 'get-namespace' })
  /** A watch of namespaces starts with the list; RBAC asks for the verb watch (D-16). */
  | (Namespaced & { kind: 'list-namespaces'; watch?: true })
  | (Namespaced & { kind: 'delete-namespace'; propagationPolicy?: PropagationPolicy })
  /** An update's spec.finalizers, and its metadata.finalizers when it sends them (D-46). */
  | (Namespaced & { kind: 'update-finalizers'; finalizers: string[]; metadataFinalizers?: string[] })
  | (Namespaced & { kind: 'remove-pending'; name: string })
  | (Namespaced & { kind: 'remove-first-pending' })
  /** spec.initializers.pending as an update sends it, whole (IN-3, IN-4, D-18). */
  | (Namespaced & { kind: 'update-pending'; pending: string[] })
  | (Namespaced & { kind: 'record-failure'; reason: string })
  | (Namespaced & { kind: 'finalize'; finalizers: string[] })
  | (Namespaced & { kind: 'finalize-without-kubernetes' })
  | (Namespaced & { kind: 'get-status' })
  /** status.phase as the body sends it; absent is defaulted to Active, as v1 decoding does (D-30). */
  | (Namespaced & { kind: 'update-status'; phase?: string })
  | (OnObject & { kind: ContentKind })
  | (Namespaced & { kind: 'list-content'; resource: string; watch?: true })
  /** DELETE of a collection (`namespaces/NS/RESOURCE`): every object of the resource there (RBAC verb deletecollection). */
  | (Namespaced & { kind: 'delete-collection'; resource: string })
  /** POST, GET, PUT or DELETE of the scope's cluster object `slot`, a ClusterRole or ClusterRoleBinding (D-23). */
  | (Namespaced & { kind: 'cluster-object'; verb: 'create' | 'get' | 'update' | 'delete'; slot: number })
  | (Namespaced & {
      kind: 'configuration';
      verb: 'create' | 'get' | 'update' | 'delete';
      /** The scope's configuration slot, and the version a create or update sends (FP-3). */
      slot: number;
      version: number;
    });
