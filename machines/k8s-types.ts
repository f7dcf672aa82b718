/**
 * Kubernetes objects in their own shapes, as `kubectl apply` takes them: the RBAC kinds
 * (rbac.authorization.k8s.io/v1), the NamespaceInitializerConfiguration of KEP-33 (doc 000) and the
 * admission `Rule` / `RuleWithVerbs` / `FailurePolicy` of the dynamic admission design (doc 004).
 * Field names follow the wire format (camelCase JSON), so YAML manifests parse straight into them.
 */

export const rbacApiGroup = 'rbac.authorization.k8s.io';
export const rbacApiVersion = 'rbac.authorization.k8s.io/v1';
export const initializerConfigurationApiVersion = 'admissionregistration.k8s.io/v1alpha1';

export interface ObjectMeta {
  name: string;
  /** Present on namespaced objects (Role, RoleBinding); absent on cluster-scoped ones. */
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** One grant: every verb on every resource of every group listed; `*` is a wildcard in each list. */
export interface PolicyRule {
  /** `''` is the core (legacy) group. */
  apiGroups: string[];
  /** `pods`, `pods/log` (a subresource), `*` (everything), `*\/scale` (that subresource of anything). */
  resources: string[];
  verbs: string[];
  /** When present and non-empty, the rule only covers requests naming one of these objects. */
  resourceNames?: string[];
  /**
   * Non-resource URLs (`/apis`, `/healthz/*`): a rule naming them grants only its verbs on those paths,
   * never a resource; valid in ClusterRoles only (ValidatePolicyRule). The model serves no such path:
   * they matter to validation and escalation prevention (Covers), RB-4, RB-5.
   */
  nonResourceURLs?: string[];
}

export interface ClusterRole {
  apiVersion?: typeof rbacApiVersion;
  kind?: 'ClusterRole';
  metadata: ObjectMeta;
  rules: PolicyRule[];
}

export interface Role {
  apiVersion?: typeof rbacApiVersion;
  kind?: 'Role';
  metadata: ObjectMeta & { namespace: string };
  rules: PolicyRule[];
}

export interface RoleRef {
  apiGroup: typeof rbacApiGroup;
  kind: 'ClusterRole' | 'Role';
  name: string;
}

export type SubjectKind = 'User' | 'Group' | 'ServiceAccount';

export interface Subject {
  kind: SubjectKind;
  /** `rbac.authorization.k8s.io` for User and Group, `''` (or absent) for ServiceAccount. */
  apiGroup?: string;
  name: string;
  /** ServiceAccount only; in a RoleBinding it defaults to the binding's namespace. */
  namespace?: string;
}

export interface ClusterRoleBinding {
  apiVersion?: typeof rbacApiVersion;
  kind?: 'ClusterRoleBinding';
  metadata: ObjectMeta;
  roleRef: RoleRef & { kind: 'ClusterRole' };
  subjects: Subject[];
}

export interface RoleBinding {
  apiVersion?: typeof rbacApiVersion;
  kind?: 'RoleBinding';
  metadata: ObjectMeta & { namespace: string };
  roleRef: RoleRef;
  subjects: Subject[];
}

/** Ignore = fail open, Fail = fail closed (doc 004, "FailurePolicyType"). */
export type FailurePolicy = 'Ignore' | 'Fail';

export const failurePolicies: readonly FailurePolicy[] = ['Ignore', 'Fail'];

/** One entry of a NamespaceInitializerConfiguration (doc 000), with doc 004's failure policy. */
export interface NamespaceInitializerEntry {
  /** Merge key: the name written into a new namespace's pending list. */
  name: string;
  failurePolicy?: FailurePolicy;
  timeoutSeconds?: number;
}

export interface NamespaceInitializerConfiguration {
  apiVersion: typeof initializerConfigurationApiVersion;
  kind: 'NamespaceInitializerConfiguration';
  metadata: ObjectMeta;
  /** Order-sensitive; configurations merge sorted by metadata.name. */
  initializers?: NamespaceInitializerEntry[];
}

/** Doc 004's `Rule`: which group/version/resource tuples an initializer or webhook cares about. */
export interface Rule {
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
}

/** Admission operations; `*` is every one of them (doc 004, "OperationType"). */
export type OperationType = '*' | 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export const operationTypes: readonly OperationType[] = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** Doc 004's `RuleWithVerbs`: a Rule plus the operations it covers (the Rule is inlined). */
export interface RuleWithVerbs extends Rule {
  verbs: OperationType[];
}
