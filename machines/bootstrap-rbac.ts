import type { ClusterRole, ClusterRoleBinding, PolicyRule } from './k8s-types.ts';
import { rbacApiGroup } from './k8s-types.ts';

/**
 * The RBAC manifests every cluster starts with, as data: shipped bootstrap policy
 * (`plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go`, `controller_policy.go`) restricted to
 * the resources the model has, and document 000's two ClusterRoles exactly as it writes them. A scope
 * replaces one by giving a ClusterRole of the same name, or adds its own (see resolveClusterRoles).
 */

const read = ['get', 'list', 'watch'];
const write = ['create', 'update', 'patch', 'delete', 'deletecollection'];

const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({
  apiGroups,
  resources,
  verbs,
});

const clusterRole = (name: string, rules: PolicyRule[]): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name },
  rules,
});

/**
 * `view` as shipped bootstrap policy aggregates it (system:aggregate-to-view), restricted to the
 * model's resources: read content, quotas, network policies and *this* namespace; never secrets.
 */
const viewRules: PolicyRule[] = [
  rule([''], ['pods', 'configmaps'], read),
  rule(
    [''],
    ['resourcequotas', 'resourcequotas/status', 'namespaces/status', 'pods/status', 'pods/log'],
    read,
  ),
  // Shipped comment: read access to namespaces at the namespace scope means you can read *this* namespace.
  rule([''], ['namespaces'], read),
  rule(['networking.k8s.io'], ['networkpolicies'], read),
];

/** `edit` (system:aggregate-to-edit + view): writes content and secrets; quotas stay read-only. */
const editRules: PolicyRule[] = [
  ...viewRules,
  rule([''], ['secrets'], read),
  rule([''], ['pods', 'configmaps', 'secrets'], write),
  rule(['networking.k8s.io'], ['networkpolicies'], write),
];

/** `admin` (system:aggregate-to-admin + edit): edit plus roles and rolebindings, to grant others. */
const adminRules: PolicyRule[] = [
  ...editRules,
  rule([rbacApiGroup], ['roles', 'rolebindings'], [...read, ...write]),
];

/**
 * The shipped user-facing ClusterRoles, restricted to the model's resources. None of admin, edit,
 * view may update, delete or finalize a namespace object: only cluster-admin can.
 */
export const builtInClusterRoles: readonly ClusterRole[] = [
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*'])]),
  clusterRole('admin', adminRules),
  clusterRole('edit', editRules),
  clusterRole('view', viewRules),
];

/** RB-1, document 000 verbatim: self-service creators may only get and create namespaces. */
export const namespaceCreatorClusterRole: ClusterRole = clusterRole('namespace-creator', [
  rule([''], ['namespaces'], ['get', 'create']),
]);

/** RB-3, document 000 verbatim: the `initialize` verb on namespaces, for the initializer controllers. */
export const namespaceInitializerClusterRole: ClusterRole = clusterRole('namespace-initializer', [
  rule([''], ['namespaces'], ['initialize']),
]);

/**
 * Shipped `system:controller:namespace-controller` (controller_policy.go), exactly: reads and deletes
 * namespaces, updates their finalize and status subresources, and deletes any content. No
 * `initialize`: it purges a namespace that never became ready because D-33 lets a DELETE of content
 * through the IN-6 gate once the namespace terminates.
 */
export const namespaceControllerClusterRole: ClusterRole = clusterRole(
  'system:controller:namespace-controller',
  [
    rule([''], ['namespaces'], ['get', 'list', 'watch', 'delete']),
    rule([''], ['namespaces/finalize', 'namespaces/status'], ['update']),
    rule(['*'], ['*'], ['get', 'list', 'delete', 'deletecollection']),
  ],
);

/**
 * D-17, D-23: what an initializer controller needs besides document 000's `namespace-initializer`:
 * `initialize` completes it, but watching namespaces and creating what it populates are ordinary
 * requests. Model-defined, least privilege for the model's initializers (shipped would also ask
 * `bind` on the roles its RoleBindings name; escalation is not modelled, D-23).
 */
export const namespacePopulatorClusterRole: ClusterRole = clusterRole('namespace-populator', [
  rule([''], ['namespaces'], ['get', 'list', 'watch']),
  // It reads back what it made, to act again after a crash without creating twice.
  rule([''], ['configmaps', 'resourcequotas', 'secrets'], [...read, 'create']),
  rule([rbacApiGroup], ['roles', 'rolebindings'], [...read, 'create']),
  // D-23: the namespace-admin RoleBinding it creates grants admin, which it may bind without holding it.
  { apiGroups: [rbacApiGroup], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['admin'] },
]);

/**
 * Model-defined, least privilege for an external finalizer owner (LC-8): it watches namespaces and
 * finalizes them, nothing else; document 000 binds no controller to cluster-admin.
 */
export const namespaceFinalizerClusterRole: ClusterRole = clusterRole('namespace-finalizer', [
  rule([''], ['namespaces'], ['get', 'list', 'watch']),
  rule([''], ['namespaces/finalize'], ['update']),
]);

/** Every ClusterRole a cluster starts with. */
export const bootstrapClusterRoles: readonly ClusterRole[] = [
  ...builtInClusterRoles,
  namespaceCreatorClusterRole,
  namespaceInitializerClusterRole,
  namespaceControllerClusterRole,
  namespacePopulatorClusterRole,
  namespaceFinalizerClusterRole,
];

/** Shipped bootstrap: ClusterRoleBinding `cluster-admin` binds group system:masters to cluster-admin. */
export const clusterAdminBinding: ClusterRoleBinding = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: 'cluster-admin' },
  roleRef: { apiGroup: rbacApiGroup, kind: 'ClusterRole', name: 'cluster-admin' },
  subjects: [{ kind: 'Group', apiGroup: rbacApiGroup, name: 'system:masters' }],
};

/** The bootstrap ClusterRoles with a scope's own: one of the same name replaces, others are added. */
export function resolveClusterRoles(own: readonly ClusterRole[] = []): ClusterRole[] {
  const byName = new Map(bootstrapClusterRoles.map((role) => [role.metadata.name, role]));
  for (const role of own) byName.set(role.metadata.name, role);
  return [...byName.values()];
}
