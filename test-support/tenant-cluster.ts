import {
  authenticatedUser,
  bootstrapPolicy,
  namespaceAdminRoleBinding,
  namespaceCreatorsBinding,
  namespaceInitializerBinding,
  type RbacPolicy,
  serviceAccountUser,
  withClusterRoleBinding,
  withRoleBinding,
} from '../machines/rbac.ts';

/** Doc 000's cluster: self-service creators, the initializer's binding, and two populated tenants. */
export const tenantPolicy: RbacPolicy = [
  (p: RbacPolicy) => withClusterRoleBinding(p, namespaceCreatorsBinding()),
  (p: RbacPolicy) => withClusterRoleBinding(p, namespaceInitializerBinding()),
  (p: RbacPolicy) => withRoleBinding(p, namespaceAdminRoleBinding('team-a', 'alice')),
  (p: RbacPolicy) => withRoleBinding(p, namespaceAdminRoleBinding('team-b', 'bob')),
].reduce((policy, step) => step(policy), bootstrapPolicy());

/** Its people: alice and bob administer team-a and team-b, root is a system master. */
export const alice = authenticatedUser('alice', ['teams@corp.com']);
export const bob = authenticatedUser('bob', ['teams@corp.com']);
export const root = authenticatedUser('root', ['system:masters']);
export const initializerSa = serviceAccountUser('kube-system', 'ns-initializer-sa');
