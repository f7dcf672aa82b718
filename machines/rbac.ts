import { KeyedCache, ObjectCache } from '../checker/engine/caches.ts';
import { clusterAdminBinding, resolveClusterRoles } from './bootstrap-rbac.ts';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  Role,
  RoleBinding,
  RoleRef,
  Subject,
} from './k8s-types.ts';
import { rbacApiGroup } from './k8s-types.ts';

/**
 * RBAC as shipped Kubernetes evaluates it (plugin/pkg/auth/authorizer/rbac, pkg/registry/rbac/validation):
 * rules only grant, ClusterRoleBindings grant everywhere, RoleBindings only inside their own
 * namespace, and the group `system:masters` may do anything (RB-1..RB-6).
 */

/** The RBAC objects in the store: the whole input of an authorization decision. */
export interface RbacPolicy {
  clusterRoles: readonly ClusterRole[];
  roles: readonly Role[];
  clusterRoleBindings: readonly ClusterRoleBinding[];
  roleBindings: readonly RoleBinding[];
}

/** An authenticated principal, as the authenticator hands it to the authorizer. */
export interface User {
  name: string;
  groups: readonly string[];
}

/** One request, in the authorizer's terms (k8s.io/apiserver RequestInfo). */
export interface AuthorizationAttributes {
  verb: string;
  resource: string;
  subresource?: string;
  /** Absent (or empty) = a cluster-scoped object, or a list/watch across all namespaces. */
  namespace?: string;
  name?: string;
  /** Defaults to the group the model's resource lives in (see apiGroupOfResource). */
  apiGroup?: string;
}

export interface AuthorizationResult {
  allowed: boolean;
  /** `group system:masters`, `ClusterRoleBinding/NAME` or `RoleBinding NAMESPACE/NAME`. */
  grantedBy?: string;
  /** Why, in the words of the RBAC authorizer or of a 403 Forbidden message. */
  reason: string;
}

/** Which kinds of grant apply to one request; each names the first granting binding, in store order. */
export interface GrantSources {
  systemMaster: boolean;
  clusterRoleBinding?: string;
  roleBindingInRequestNamespace?: string;
  /** A RoleBinding elsewhere that would grant the request if bindings ignored their namespace. */
  roleBindingInOtherNamespace?: string;
  /** The namespace the request was authorized in, after the namespace-object rule. */
  requestNamespace?: string;
}

export const systemMastersGroup = 'system:masters';
export const authenticatedGroup = 'system:authenticated';
/** The anonymous authenticator's user and group: a request without credentials (never authenticated). */
export const anonymousUser = 'system:anonymous';
export const unauthenticatedGroup = 'system:unauthenticated';

/** Whether a user is authenticated: everyone but a member of `system:unauthenticated` (the anonymous user). */
export const isAuthenticated = (user: { groups: readonly string[] }): boolean =>
  !user.groups.includes(unauthenticatedGroup);
export const serviceAccountsGroup = 'system:serviceaccounts';
const serviceAccountUserPrefix = 'system:serviceaccount:';

/** The user name a service account authenticates as. */
export function serviceAccountUserName(namespace: string, name: string): string {
  return `${serviceAccountUserPrefix}${namespace}:${name}`;
}

/** Splits `system:serviceaccount:NS:NAME`; undefined for any other user name. */
export function parseServiceAccountUserName(
  userName: string,
): { namespace: string; name: string } | undefined {
  if (!userName.startsWith(serviceAccountUserPrefix)) return undefined;
  const [namespace, name, ...rest] = userName.slice(serviceAccountUserPrefix.length).split(':');
  if (!namespace || !name || rest.length > 0) return undefined;
  return { namespace, name };
}

/** A user as the authenticator presents it: its own groups plus `system:authenticated`. */
export function authenticatedUser(name: string, groups: readonly string[] = []): User {
  return {
    name,
    groups: groups.includes(authenticatedGroup) ? [...groups] : [...groups, authenticatedGroup],
  };
}

/** A service account's identity: its user name and the service-account groups it belongs to. */
export function serviceAccountUser(namespace: string, name: string): User {
  return authenticatedUser(serviceAccountUserName(namespace, name), [
    serviceAccountsGroup,
    `${serviceAccountsGroup}:${namespace}`,
  ]);
}

const resourceGroups: Readonly<Record<string, string>> = {
  namespaces: '',
  configmaps: '',
  secrets: '',
  pods: '',
  resourcequotas: '',
  roles: rbacApiGroup,
  rolebindings: rbacApiGroup,
  clusterroles: rbacApiGroup,
  clusterrolebindings: rbacApiGroup,
  networkpolicies: 'networking.k8s.io',
  namespaceinitializerconfigurations: 'admissionregistration.k8s.io',
};

const resourceKinds: Readonly<Record<string, string>> = {
  configmaps: 'ConfigMap',
  secrets: 'Secret',
  pods: 'Pod',
  resourcequotas: 'ResourceQuota',
  roles: 'Role',
  rolebindings: 'RoleBinding',
  networkpolicies: 'NetworkPolicy',
};

/** `RoleBinding.rbac.authorization.k8s.io` or `ConfigMap`: the GroupKind a 422 names (NewInvalid). */
export function qualifiedKindOfResource(resource: string): string {
  const kind = resourceKinds[resource] ?? resource;
  const group = apiGroupOfResource(resource);
  return group ? `${kind}.${group}` : kind;
}

/**
 * A content kind a scope declares outside the core group is named in the model by its GroupResource
 * string, `RESOURCE.GROUP` (`events.events.k8s.io`), as schema.ParseGroupResource reads it and kubectl
 * accepts it: resource names are DNS labels, so the first dot always ends the resource. Two groups may
 * so share a resource name (`events` and `events.events.k8s.io`) and stay two kinds.
 */
export function splitResourceId(id: string): { resource: string; group?: string } {
  const dot = id.indexOf('.');
  return dot < 0 ? { resource: id } : { resource: id.slice(0, dot), group: id.slice(dot + 1) };
}

/** The API group of a resource the model uses: a declared kind's own group, else the built-in's, else `''` (core). */
export function apiGroupOfResource(resource: string): string {
  return splitResourceId(resource).group ?? resourceGroups[resource] ?? '';
}

/**
 * The namespace RBAC authorizes a request in. Shipped request parsing sets it from the path, and for
 * /api/v1/namespaces/NAME[/status|/finalize] the path's NAME is the namespace: a RoleBinding inside a
 * namespace can grant access to that namespace object. A create has no name in its path.
 */
export function requestNamespace(attrs: AuthorizationAttributes): string | undefined {
  if (attrs.namespace) return attrs.namespace;
  if (attrs.resource === 'namespaces' && attrs.name && attrs.verb !== 'create') return attrs.name;
  return undefined;
}

/**
 * RB-1..RB-6: rule matching as rbac/v1 evaluation_helpers: `*` verbs include every verb (also
 * `initialize`); `*` resources include subresources; `*\/sub` matches that subresource of anything;
 * `pods/*` is no wildcard; resourceNames restrict to named requests.
 */
export function policyRuleAllows(rule: PolicyRule, attrs: AuthorizationAttributes): boolean {
  const apiGroup = attrs.apiGroup ?? apiGroupOfResource(attrs.resource);
  const subresource = attrs.subresource ?? '';
  const combined = subresource ? `${attrs.resource}/${subresource}` : attrs.resource;
  return (
    rule.verbs.some((verb) => verb === '*' || verb === attrs.verb) &&
    rule.apiGroups.some((group) => group === '*' || group === apiGroup) &&
    rule.resources.some(
      (resource) =>
        resource === '*' || resource === combined || (subresource !== '' && resource === `*/${subresource}`),
    ) &&
    (!rule.resourceNames || rule.resourceNames.length === 0 || rule.resourceNames.includes(attrs.name ?? ''))
  );
}

/**
 * RB-3, RB-4: subject matching as rbac validation appliesToUser: User by name, Group by membership,
 * ServiceAccount by its user name, its namespace defaulting to the RoleBinding's (never in a
 * ClusterRoleBinding). Every authenticated user is in `system:authenticated`.
 */
export function subjectAppliesToUser(subject: Subject, user: User, bindingNamespace?: string): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.name;
    case 'Group':
      return (
        (subject.name === authenticatedGroup && isAuthenticated(user)) || user.groups.includes(subject.name)
      );
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return (
        namespace !== undefined &&
        namespace !== '' &&
        user.name === serviceAccountUserName(namespace, subject.name)
      );
    }
    default:
      return false;
  }
}

/** The rules a binding's roleRef points at; none when the role does not exist (RB-4). */
export function roleRefRules(
  policy: RbacPolicy,
  roleRef: RoleRef,
  bindingNamespace?: string,
): readonly PolicyRule[] {
  if (roleRef.kind === 'ClusterRole')
    return policy.clusterRoles.find((role) => role.metadata.name === roleRef.name)?.rules ?? [];
  if (bindingNamespace === undefined) return [];
  return (
    policy.roles.find(
      (role) => role.metadata.namespace === bindingNamespace && role.metadata.name === roleRef.name,
    )?.rules ?? []
  );
}

export const describeClusterRoleBinding = (binding: ClusterRoleBinding): string =>
  `ClusterRoleBinding/${binding.metadata.name}`;
export const describeRoleBinding = (binding: RoleBinding): string =>
  `RoleBinding ${binding.metadata.namespace}/${binding.metadata.name}`;
const systemMastersGrant = `group ${systemMastersGroup}`;

/**
 * RB-4, RB-6: the grants that apply to one request, by scanning the store as the shipped rule
 * resolver does (ClusterRoleBindings, then the request namespace's RoleBindings). The reference
 * the compiled authorizer is checked against.
 */
export function grantSources(policy: RbacPolicy, user: User, attrs: AuthorizationAttributes): GrantSources {
  const namespace = requestNamespace(attrs);
  const sources: GrantSources = {
    systemMaster: user.groups.includes(systemMastersGroup),
    requestNamespace: namespace,
  };
  const allows = (rules: readonly PolicyRule[]) => rules.some((rule) => policyRuleAllows(rule, attrs));
  for (const binding of policy.clusterRoleBindings) {
    if (binding.roleRef.kind !== 'ClusterRole') continue;
    if (!binding.subjects.some((subject) => subjectAppliesToUser(subject, user))) continue;
    if (allows(roleRefRules(policy, binding.roleRef))) {
      sources.clusterRoleBinding = describeClusterRoleBinding(binding);
      break;
    }
  }
  for (const binding of policy.roleBindings) {
    const bindingNamespace = binding.metadata.namespace;
    const inRequestNamespace = bindingNamespace === namespace;
    if (inRequestNamespace ? sources.roleBindingInRequestNamespace : sources.roleBindingInOtherNamespace)
      continue;
    if (!binding.subjects.some((subject) => subjectAppliesToUser(subject, user, bindingNamespace))) continue;
    if (!allows(roleRefRules(policy, binding.roleRef, bindingNamespace))) continue;
    if (inRequestNamespace) sources.roleBindingInRequestNamespace = describeRoleBinding(binding);
    else sources.roleBindingInOtherNamespace = describeRoleBinding(binding);
  }
  return sources;
}

/**
 * RB-4: every binding that names `user`, with the role it refers to and where it grants, in store
 * order (ClusterRoleBindings first): why RBAC answers what it answers.
 */
export function grantsHeldBy(policy: RbacPolicy, user: User): string[] {
  const grants: string[] = [];
  if (user.groups.includes(systemMastersGroup)) grants.push(`group ${systemMastersGroup} (all-powerful)`);
  for (const binding of policy.clusterRoleBindings)
    if (binding.subjects.some((subject) => subjectAppliesToUser(subject, user)))
      grants.push(
        `${describeClusterRoleBinding(binding)} → ClusterRole ${binding.roleRef.name} (everywhere)`,
      );
  for (const binding of policy.roleBindings) {
    const namespace = binding.metadata.namespace;
    if (binding.subjects.some((subject) => subjectAppliesToUser(subject, user, namespace)))
      grants.push(
        `${describeRoleBinding(binding)} → ${binding.roleRef.kind} ${binding.roleRef.name} (only in ${namespace})`,
      );
  }
  return grants;
}

/** The 403 wording: `User "alice" cannot list resource "pods" in API group "" at the cluster scope`. */
export function forbiddenReason(user: User, attrs: AuthorizationAttributes): string {
  const namespace = requestNamespace(attrs);
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const group = attrs.apiGroup ?? apiGroupOfResource(attrs.resource);
  const named = attrs.name ? ` ${JSON.stringify(attrs.name)}` : '';
  const where = namespace ? `in the namespace ${JSON.stringify(namespace)}` : 'at the cluster scope';
  return `User ${JSON.stringify(user.name)} cannot ${attrs.verb} resource ${JSON.stringify(resource)}${named} in API group ${JSON.stringify(group)} ${where}`;
}

/** RB-4, RB-5, RB-6: the decision the grants add up to; RoleBindings of other namespaces never count. */
export function decisionFromGrants(
  sources: GrantSources,
  user: User,
  attrs: AuthorizationAttributes,
): AuthorizationResult {
  if (sources.systemMaster)
    return { allowed: true, grantedBy: systemMastersGrant, reason: `member of group ${systemMastersGroup}` };
  const grantedBy = sources.clusterRoleBinding ?? sources.roleBindingInRequestNamespace;
  if (grantedBy) return { allowed: true, grantedBy, reason: `RBAC: allowed by ${grantedBy}` };
  return { allowed: false, reason: forbiddenReason(user, attrs) };
}

/** RB-1..RB-6: may `user` do `attrs` under `policy`? Straight from the store; see compileAuthorizer. */
export function authorize(
  policy: RbacPolicy,
  user: User,
  attrs: AuthorizationAttributes,
): AuthorizationResult {
  return decisionFromGrants(grantSources(policy, user, attrs), user, attrs);
}

interface IndexedGrant {
  /** Undefined for a ClusterRoleBinding. */
  bindingNamespace?: string;
  rules: readonly PolicyRule[];
  grantedBy: string;
  /** Store order, so the compiled authorizer names the same binding as the scan. */
  order: number;
}

/** An authorizer with every binding resolved and indexed by subject, answers memoized. */
export interface CompiledAuthorizer {
  (user: User, attrs: AuthorizationAttributes): AuthorizationResult;
  grantSources(user: User, attrs: AuthorizationAttributes): GrantSources;
  readonly policy: RbacPolicy;
}

const memoLimit = 1 << 20;

/**
 * RB-1..RB-6, fast: resolves each binding's role once and indexes its grants by subject, so a
 * request only looks at the bindings naming its user or groups; answers are memoized by a key of
 * the arguments (the policy is treated as immutable).
 */
export function compileAuthorizer(policy: RbacPolicy): CompiledAuthorizer {
  // The grants by subject, users and groups apart: the index's own entry names.
  const userKey = (name: string) => `u\u0000${name}`;
  const groupKey = (name: string) => `g\u0000${name}`;
  const index = new Map<string, IndexedGrant[]>();
  const add = (key: string, grant: IndexedGrant) => {
    const grants = index.get(key);
    if (grants) grants.push(grant);
    else index.set(key, [grant]);
  };
  const subjectKey = (subject: Subject, bindingNamespace?: string): string | undefined => {
    if (subject.kind === 'User') return userKey(subject.name);
    if (subject.kind === 'Group') return groupKey(subject.name);
    if (subject.kind !== 'ServiceAccount') return undefined;
    const namespace = subject.namespace || bindingNamespace;
    return namespace ? userKey(serviceAccountUserName(namespace, subject.name)) : undefined;
  };
  policy.clusterRoleBindings.forEach((binding, order) => {
    if (binding.roleRef.kind !== 'ClusterRole') return;
    const grant = {
      rules: roleRefRules(policy, binding.roleRef),
      grantedBy: describeClusterRoleBinding(binding),
      order,
    };
    for (const key of new Set(binding.subjects.map((s) => subjectKey(s)))) if (key) add(key, grant);
  });
  policy.roleBindings.forEach((binding, order) => {
    const bindingNamespace = binding.metadata.namespace;
    const grant = {
      bindingNamespace,
      rules: roleRefRules(policy, binding.roleRef, bindingNamespace),
      grantedBy: describeRoleBinding(binding),
      order,
    };
    for (const key of new Set(binding.subjects.map((s) => subjectKey(s, bindingNamespace))))
      if (key) add(key, grant);
  });

  // Answers are remembered in the engine's caches (checker/engine/caches.ts).
  const principalKeys = new ObjectCache<User, { key: string; lookups: string[] }>();
  const principal = (user: User) => {
    let cached = principalKeys.find(user);
    if (!cached) {
      // Anonymous requests are in system:unauthenticated only, never system:authenticated.
      const groups =
        user.groups.includes(authenticatedGroup) || !isAuthenticated(user)
          ? user.groups
          : [...user.groups, authenticatedGroup];
      cached = {
        key: `${user.name}\u0001${user.groups.join('\u0002')}`,
        lookups: [userKey(user.name), ...groups.map(groupKey)],
      };
      principalKeys.set(user, cached);
    }
    return cached;
  };
  const sourcesMemo = new KeyedCache<string, GrantSources>();
  const decisionMemo = new KeyedCache<string, AuthorizationResult>();
  const attrsKey = (attrs: AuthorizationAttributes) =>
    `${attrs.verb}\u0001${attrs.apiGroup ?? ''}\u0001${attrs.resource}\u0001${attrs.subresource ?? ''}\u0001${attrs.namespace ?? ''}\u0001${attrs.name ?? ''}`;

  const computeSources = (
    user: User,
    lookups: readonly string[],
    attrs: AuthorizationAttributes,
  ): GrantSources => {
    const namespace = requestNamespace(attrs);
    let cluster: IndexedGrant | undefined;
    let local: IndexedGrant | undefined;
    let foreign: IndexedGrant | undefined;
    for (const key of lookups) {
      for (const grant of index.get(key) ?? []) {
        const slot =
          grant.bindingNamespace === undefined
            ? cluster
            : grant.bindingNamespace === namespace
              ? local
              : foreign;
        if (slot && slot.order <= grant.order) continue;
        if (!grant.rules.some((rule) => policyRuleAllows(rule, attrs))) continue;
        if (grant.bindingNamespace === undefined) cluster = grant;
        else if (grant.bindingNamespace === namespace) local = grant;
        else foreign = grant;
      }
    }
    return {
      systemMaster: user.groups.includes(systemMastersGroup),
      requestNamespace: namespace,
      clusterRoleBinding: cluster?.grantedBy,
      roleBindingInRequestNamespace: local?.grantedBy,
      roleBindingInOtherNamespace: foreign?.grantedBy,
    };
  };

  const sourcesFor = (user: User, attrs: AuthorizationAttributes): [string, GrantSources] => {
    const who = principal(user);
    const key = `${who.key}\u0000${attrsKey(attrs)}`;
    let sources = sourcesMemo.find(key);
    if (!sources) {
      if (sourcesMemo.size >= memoLimit) sourcesMemo.clear();
      sources = computeSources(user, who.lookups, attrs);
      sourcesMemo.set(key, sources);
    }
    return [key, sources];
  };

  const decide = (user: User, attrs: AuthorizationAttributes): AuthorizationResult => {
    const [key, sources] = sourcesFor(user, attrs);
    let decision = decisionMemo.find(key);
    if (!decision) {
      if (decisionMemo.size >= memoLimit) decisionMemo.clear();
      decision = decisionFromGrants(sources, user, attrs);
      decisionMemo.set(key, decision);
    }
    return decision;
  };
  return Object.assign(decide, {
    grantSources: (user: User, attrs: AuthorizationAttributes) => sourcesFor(user, attrs)[1],
    policy,
  });
}

// ------------------------------------------------------------------ built-in and document roles

export {
  builtInClusterRoles,
  clusterAdminBinding,
  namespaceCreatorClusterRole,
  namespaceInitializerClusterRole,
} from './bootstrap-rbac.ts';

const roleRefTo = (name: string): RoleRef & { kind: 'ClusterRole' } => ({
  apiGroup: rbacApiGroup,
  kind: 'ClusterRole',
  name,
});

/** A ClusterRoleBinding of a ClusterRole to subjects (RB-4: it grants everywhere). */
export function clusterRoleBinding(
  name: string,
  clusterRoleName: string,
  subjects: Subject[],
): ClusterRoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: roleRefTo(clusterRoleName),
    subjects,
  };
}

/** A RoleBinding in `namespace` (RB-4: it grants only there, even when it binds a ClusterRole). */
export function roleBinding(
  namespace: string,
  name: string,
  roleRef: RoleRef,
  subjects: Subject[],
): RoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef,
    subjects,
  };
}

export const userSubject = (name: string): Subject => ({ kind: 'User', apiGroup: rbacApiGroup, name });
export const groupSubject = (name: string): Subject => ({ kind: 'Group', apiGroup: rbacApiGroup, name });
export const serviceAccountSubject = (namespace: string, name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace,
});

/** RB-1 (doc 000): `namespace-creators` binds namespace-creator to the creators' group. */
export function namespaceCreatorsBinding(
  subjects: Subject[] = [groupSubject('teams@corp.com')],
): ClusterRoleBinding {
  return clusterRoleBinding('namespace-creators', 'namespace-creator', subjects);
}

/** RB-3 (doc 000): `namespace-initializer` binds the role to kube-system/ns-initializer-sa. */
export function namespaceInitializerBinding(
  subjects: Subject[] = [serviceAccountSubject('kube-system', 'ns-initializer-sa')],
): ClusterRoleBinding {
  return clusterRoleBinding('namespace-initializer', 'namespace-initializer', subjects);
}

/** RB-2 (doc 000): the RoleBinding policy population creates, granting the creator admin in its namespace. */
export function namespaceAdminRoleBinding(namespace: string, creator: string): RoleBinding {
  return roleBinding(namespace, 'namespace-admin', roleRefTo('admin'), [userSubject(creator)]);
}

export function emptyPolicy(): RbacPolicy {
  return { clusterRoles: [], roles: [], clusterRoleBindings: [], roleBindings: [] };
}

/** Shipped bootstrap (restricted) plus doc 000's two ClusterRoles; bindings other than cluster-admin are the scope's. */
export function bootstrapPolicy(): RbacPolicy {
  return {
    clusterRoles: resolveClusterRoles(),
    roles: [],
    clusterRoleBindings: [clusterAdminBinding],
    roleBindings: [],
  };
}

/** The policy with one more object in its list `key`; the given policy is left as it was. */
const withEntry =
  <K extends 'clusterRoles' | 'roles' | 'clusterRoleBindings' | 'roleBindings'>(key: K) =>
  (policy: RbacPolicy, entry: RbacPolicy[K][number]): RbacPolicy => ({
    ...policy,
    [key]: [...policy[key], entry],
  });
export const withClusterRole: (policy: RbacPolicy, role: ClusterRole) => RbacPolicy =
  withEntry('clusterRoles');
export const withRole: (policy: RbacPolicy, role: Role) => RbacPolicy = withEntry('roles');
export const withClusterRoleBinding: (policy: RbacPolicy, binding: ClusterRoleBinding) => RbacPolicy =
  withEntry('clusterRoleBindings');
export const withRoleBinding: (policy: RbacPolicy, binding: RoleBinding) => RbacPolicy =
  withEntry('roleBindings');
