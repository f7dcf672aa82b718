/**
 * The scope of a check in one typed object: which namespaces, configurations, principals, content,
 * finalizer owners and faults exist, and how far the logical clock runs. Everything the system
 * model can do is enumerated from it, so the same machines explore a small scope in CI and a large
 * one in benchmarks.
 */

export type FailurePolicy = 'Ignore' | 'Fail';

import type { ClusterRole, OperationType, PolicyRule, Rule } from './k8s-types.ts';

/** An RBAC subject; the name `$creator` stands for whoever sent the create of the namespace the binding is in. */
export interface SubjectSpec {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  /** ServiceAccounts: defaults to the binding's namespace, as RBAC does. */
  namespace?: string;
  /** As sent; absent is rbac/v1's default (the RBAC group for User and Group, core for ServiceAccount). */
  apiGroup?: string;
}

/** A content object a namespace may hold, addressed as RESOURCE/NAME. */
export interface ObjectSlot {
  /** A built-in resource (`configmaps`), or a declared kind's: `events` in core, `RESOURCE.GROUP` in a group. */
  resource: string;
  name: string;
  /** A declared kind's Kind (`Event`), which its 422s name; built-in kinds are known by resource. */
  kind?: string;
  /**
   * For rolebindings: the role it binds (a ClusterRole, or with `roleKind: 'Role'` the Role of that
   * name in the binding's own namespace) and to whom (`$creator` = who sent the namespace's create, D-34). It
   * grants while it exists in a namespace, and only there (RB-4).
   */
  roleBinding?: {
    clusterRole: string;
    roleKind?: 'ClusterRole' | 'Role';
    subject: string;
    subjectKind?: 'User' | 'Group' | 'ServiceAccount';
    subjectNamespace?: string;
    /** The first subject's apiGroup as sent (validated on create, RB-4). */
    subjectApiGroup?: string;
    /** Subjects beyond the first: a RoleBinding may name several. */
    moreSubjects?: SubjectSpec[];
  };
  /** For roles: its rules, which RoleBindings of the same namespace can bind while it exists. */
  role?: { rules: PolicyRule[] };
  /** Namespaces where the same-named Role or RoleBinding says something else (by namespace name). */
  byNamespace?: Record<string, Pick<ObjectSlot, 'roleBinding' | 'role'>>;
  /** Only these principals' request templates address it; absent: every principal's do. */
  requestedBy?: string[];
}

export interface InitializerSpec {
  name: string;
  failurePolicy: FailurePolicy;
  timeoutSeconds: number;
  /** The object it creates in each namespace before removing itself (RB-2: the namespace-admin RoleBinding). */
  populates: ObjectSlot;
  /** Its provisioning can fail, and then it records a failure result (IN-7). */
  canFail: boolean;
  /** With `faults.initializerCrash`, its controller may crash and restart (default: it may). */
  canCrash?: boolean;
  /** Doc 004's rules (AC-4) of an InitializerConfiguration entry, with verbs for a webhook's (AC-5). */
  rules?: (Rule & { verbs?: OperationType[] })[];
}

/** The three kinds of admission configuration (docs 000 and 004); all cluster-scoped. */
export type ConfigurationKind =
  | 'NamespaceInitializerConfiguration'
  | 'InitializerConfiguration'
  | 'ExternalAdmissionHookConfiguration';

/** Plural resource names of each configuration kind, as RBAC and the URL name them. */
export const configurationResource: Record<ConfigurationKind, string> = {
  NamespaceInitializerConfiguration: 'namespaceinitializerconfigurations',
  InitializerConfiguration: 'initializerconfigurations',
  ExternalAdmissionHookConfiguration: 'externaladmissionhookconfigurations',
};

/** One content a configuration may be given by an update (FP-3: e.g. an entry made fail-closed). */
export interface ConfigurationVersion {
  initializers: InitializerSpec[];
}

export interface ConfigurationSpec {
  /** NamespaceInitializerConfiguration name: configurations merge sorted by it (IN-1). */
  name: string;
  initializers: InitializerSpec[];
  /** Present from the start, or created by a cluster admin during the run (AC-3). */
  registered: 'initially' | 'later';
  /** Default `NamespaceInitializerConfiguration` (000); doc 004's rule-based kinds otherwise. */
  kind?: ConfigurationKind;
  /** FP-3: successive contents a cluster admin may update it to during the run, in order; version v > 0 is `updates[v - 1]`. */
  updates?: ConfigurationVersion[];
  /** A cluster admin may delete it during the run (and create it again, as created first). */
  deletable?: boolean;
}

/** The entries of a configuration's version: 0 as created, v > 0 as `updates[v - 1]` sets them. */
export function configurationEntries(c: ConfigurationSpec, version: number): InitializerSpec[] {
  return version === 0 ? c.initializers : (c.updates?.[version - 1]?.initializers ?? []);
}

export interface NamespaceSpec {
  name: string;
  /** The user the scope has create it, its tenant; for a namespace made before the run, its recorded creator (D-34). */
  creator?: string;
  /** Finalizers the creator asks for besides `kubernetes` (LC-2, LC-8). */
  extraFinalizers?: string[];
  /** metadata.finalizers the creator's create sends (D-46). */
  metadataFinalizers?: string[];
  /** Exists from the start and can never be removed (LC-10). */
  system?: boolean;
  /** Exists, initialized (Active), from the start. */
  preexisting?: boolean;
  /** For system or pre-existing namespaces: spec.finalizers at the start (default `[kubernetes]`). */
  initialFinalizers?: string[];
  /** For system or pre-existing namespaces: content present at the start, as RESOURCE/NAME. */
  initialContent?: string[];
}

export type RequestTemplate =
  | 'create-namespace'
  | 'create-namespace-with-initializers'
  | 'get-namespace'
  | 'delete-namespace'
  | 'complete-first-initializer'
  | 'update-finalizers'
  | 'finalize-remove-kubernetes'
  | 'create-content'
  | 'delete-content'
  /** DELETE namespaces/NS/RESOURCE for each resource of the scope's content (RBAC verb deletecollection). */
  | 'delete-collection'
  | 'get-content'
  | 'list-content'
  /** GET namespaces/NS/RESOURCE?watch=true for each resource of the scope's content (RBAC verb watch, D-16). */
  | 'watch-content'
  | 'list-content-all-namespaces'
  /** GET /api/v1/RESOURCE?watch=true for each resource of the scope's content, across all namespaces (RBAC verb watch, D-16). */
  | 'watch-content-all-namespaces'
  /** GET /api/v1/namespaces (NS-7). */
  | 'list-namespaces'
  /** GET and PUT namespaces/NAME/status (NS-5). */
  | 'get-namespace-status'
  | 'update-namespace-status'
  /** PUT /finalize with the finalizers the namespace was created with: a no-op while live, adding back a removed one once terminating (LC-6). */
  | 'finalize-as-created'
  /** PUT /finalize with the finalizers the namespace was created with plus `unqualified`, a name neither standard nor qualified (LC-2: 422). */
  | 'finalize-with-unqualified-name'
  /** Removes each initializer by name, whether first pending or not (IN-2, IN-3, IN-4). */
  | 'complete-each-initializer'
  /** Records a failure result (IN-7). */
  | 'fail-initialization'
  /** Creates content whose body names another namespace of the scope than the path (NS-4). */
  | 'create-content-naming-another-namespace'
  | 'update-finalizers-naming-another-namespace'
  /** POST, PUT and DELETE of each of the scope's requestable cluster RBAC objects (`clusterObjects`, D-23). */
  | 'create-cluster-object'
  | 'update-cluster-object'
  | 'delete-cluster-object';

export interface PrincipalSpec {
  /** User name, or system:serviceaccount:NS:NAME. */
  name: string;
  groups: string[];
  /** What this principal tries; each template is enumerated over every namespace and object slot. */
  requests: RequestTemplate[];
  /** Restrict requests to these namespaces (default: all of the scope's namespaces). */
  namespaces?: string[];
  /** A member of one community: tenant isolation (RB-5) forbids it any access to other creators' namespaces. */
  tenant?: boolean;
}

/**
 * A ClusterRole or ClusterRoleBinding users may create, update and delete during the run (D-23):
 * cluster-scoped, stored by name, one presence bit each. While it exists RBAC evaluates it like the
 * scope's fixed ones.
 */
export interface ClusterObjectSpec {
  kind: 'ClusterRole' | 'ClusterRoleBinding';
  name: string;
  /** A ClusterRole's rules. */
  rules?: PolicyRule[];
  /** A ClusterRoleBinding's roleRef name and subjects. */
  clusterRole?: string;
  /**
   * A ClusterRoleBinding's roleRef kind when a request sends `Role`: never stored (ValidateClusterRoleBinding
   * answers 422, roleRef.kind NotSupported), and its escalation check looks for a Role with no namespace.
   */
  roleKind?: 'Role';
  subjects?: SubjectSpec[];
  /** Stored from the start. */
  initially?: boolean;
  /** Only these principals' templates address it; absent: every principal's do. */
  requestedBy?: string[];
}

export interface ClusterRoleBindingSpec {
  name: string;
  clusterRole: string;
  subjects: { kind: 'User' | 'Group' | 'ServiceAccount'; name: string; namespace?: string }[];
}

/**
 * What the documents intend, declared by the scope as plain data: the oracle the properties judge
 * against. It restates document 000 (who holds `initialize`, who is whose tenant, who acts
 * cluster-wide) and the numbers of documents 004/005, and is never computed from RBAC, admission,
 * timers or configuration code, so a fault in those cannot also bend the verdict.
 */
export interface ScopeIntent {
  /** RB-3, D-17: principals meant to hold `initialize` on namespaces (initializer accounts, cluster admins). */
  initializeHolders: string[];
  /** IN-3: each initializer's name → the service account meant to complete it. */
  initializerAccounts: Record<string, string>;
  /** RB-5: namespace name → its tenants (its creator and whoever the scope binds there); names not listed belong to nobody. */
  tenants: Record<string, string[]>;
  /** Principals meant to act cluster-wide: cluster admins, controllers, cluster-wide editors and readers. */
  clusterWide: string[];
  /** LC-8: finalizer name → the principal that owns it, the only one meant to remove it. */
  finalizerOwners: Record<string, string>;
  /** RB-1: document 000's `namespace-creator` grants `get` on every namespace object, so a tenant may read another's (its name and phase, never its content). */
  tenantsMayGetNamespaceObjects: boolean;
  /** The documents' numbers, in seconds. */
  timeouts: {
    /** AC-2: admission refuses writes when its last successful configuration read is this old. */
    configurationStaleAfterSeconds: number;
    /** FP-4: the global initializer timeout after which read-repair acts. */
    readRepairSeconds: number;
    /** FP-2: each initializer's `timeoutSeconds`. */
    initializers: Record<string, number>;
  };
}

export interface Scope {
  name: string;
  description: string;
  namespaces: NamespaceSpec[];
  configurations: ConfigurationSpec[];
  principals: PrincipalSpec[];
  /** Cluster-wide grants (ClusterRoleBindings to bootstrap or the scope's own ClusterRoles). */
  clusterRoleBindings: ClusterRoleBindingSpec[];
  /** ClusterRoles besides the bootstrap ones (bootstrap-rbac.ts); one of the same name replaces it. */
  clusterRoles?: ClusterRole[];
  /** Content tenants may create in namespaces (initializers' objects are added from their specs). */
  content: ObjectSlot[];
  /** ClusterRoles and ClusterRoleBindings users may request (D-23); absent: the cluster's RBAC objects are fixed. */
  clusterObjects?: ClusterObjectSpec[];
  /**
   * Content kinds the scope declares besides the built-in seven; their objects are in `content`, with
   * the resource `RESOURCE` (core) or `RESOURCE.GROUP` and the declared Kind.
   */
  kinds?: { group: string; version: string; resource: string; kind: string }[];
  /** External finalizer owners, by finalizer name (e.g. `openshift.com/origin`). */
  finalizerOwners: string[];
  faults: {
    initializerCrash: boolean;
    configReadFailure: boolean;
    apiserverRestart: boolean;
  };
  /** Time is relative and never runs out (docs/time.md): the clock holds only timeouts, no horizon. */
  clock: {
    /** FP-4's global initializer timeout (600 s in the document); scaled down in small scopes. */
    readRepairTimeoutSeconds: number;
  };
  /** What the documents intend, for the properties; when absent it is read off the scope's declarations (properties/intent.ts). */
  intent?: ScopeIntent;
  /** Interchangeable users and namespaces, by name: stored for symmetry reduction, not used by the search yet. */
  symmetry?: { users?: string[][]; namespaces?: string[][] };
}

/** Service accounts of the built-in actors, and the principals they act as. */
/** The cluster administrator (group system:masters) who creates, updates and deletes configurations during a run (AC-3, FP-3). */
export const configurationAdministrator = { name: 'cluster-admin', groups: ['system:masters'] };
export const namespaceControllerAccount = 'system:serviceaccount:kube-system:namespace-controller';
export const initializerAccount = 'system:serviceaccount:kube-system:ns-initializer-sa';
export const finalizerOwnerAccount = (owner: string) =>
  `system:serviceaccount:kube-system:finalizer-${owner.replace(/[^a-z0-9-]/g, '-')}`;

/** Namespaces that exist from the start and are never removed, as in shipped Kubernetes (LC-10). */
export const immortalNamespaces = ['default', 'kube-system', 'kube-public'];

/** Cluster-wide grants every scope needs: the documents' roles and the built-in actors' accounts. */
export const builtInActorBindings: ClusterRoleBindingSpec[] = [
  // RB-1: self-service creators hold get and create on namespaces (document 000).
  {
    name: 'namespace-creators',
    clusterRole: 'namespace-creator',
    subjects: [{ kind: 'Group', name: 'teams@corp.com' }],
  },
  // RB-3: the initializer controllers' service account holds `initialize`.
  {
    name: 'namespace-initializer',
    clusterRole: 'namespace-initializer',
    subjects: [{ kind: 'ServiceAccount', name: 'ns-initializer-sa', namespace: 'kube-system' }],
  },
  // D-17, D-23: besides `initialize`, it watches namespaces and creates what it populates.
  {
    name: 'namespace-populator',
    clusterRole: 'namespace-populator',
    subjects: [{ kind: 'ServiceAccount', name: 'ns-initializer-sa', namespace: 'kube-system' }],
  },
  // Shipped bootstrap controller policy, restricted to the model's resources.
  {
    name: 'system:controller:namespace-controller',
    clusterRole: 'system:controller:namespace-controller',
    subjects: [{ kind: 'User', name: namespaceControllerAccount }],
  },
];
