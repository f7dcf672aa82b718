import type { PolicyRule, RoleRef } from './k8s-types.ts';
import {
  type RbacPolicy,
  roleRefRules,
  subjectAppliesToUser,
  systemMastersGroup,
  type User,
} from './rbac.ts';

/**
 * RBAC escalation prevention (RB-4, RB-5, D-23), as shipped pkg/registry/rbac/validation does it: a
 * Role or RoleBinding may only grant what its author holds in that namespace (ConfirmNoEscalation with
 * Covers), unless the author is in system:masters (EscalationAllowed) or may `bind` the role
 * (BindingAuthorized) or `escalate` roles (RoleEscalationAuthorized), which the authorizer decides.
 */

/** What the escalation check says of one Role or RoleBinding write. */
export type EscalationVerdict =
  | { kind: 'allowed' }
  /** Subrules the author does not hold, compacted as the 403 lists them. */
  | { kind: 'forbidden'; missing: PolicyRule[] }
  /** A RoleBinding's role does not exist and its author may not bind it (GetRoleReferenceRules: 404). */
  | { kind: 'roleNotFound'; resource: 'roles' | 'clusterroles'; name: string };

/** Every rule the user holds in a namespace: ClusterRoleBindings, then that namespace's RoleBindings (RulesFor). */
export function rulesFor(policy: RbacPolicy, user: User, namespace: string): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const binding of policy.clusterRoleBindings)
    if (binding.subjects.some((s) => subjectAppliesToUser(s, user)))
      rules.push(...roleRefRules(policy, binding.roleRef));
  for (const binding of policy.roleBindings)
    if (
      binding.metadata.namespace === namespace &&
      binding.subjects.some((s) => subjectAppliesToUser(s, user, namespace))
    )
      rules.push(...roleRefRules(policy, binding.roleRef, namespace));
  return rules;
}

/** The role a roleRef names exists in the policy (ClusterRoles for run, Roles as stored in the namespace). */
export function roleExists(policy: RbacPolicy, roleRef: RoleRef, namespace: string): boolean {
  return roleRef.kind === 'ClusterRole'
    ? policy.clusterRoles.some((r) => r.metadata.name === roleRef.name)
    : policy.roles.some((r) => r.metadata.namespace === namespace && r.metadata.name === roleRef.name);
}

/**
 * BreakdownRule: one group, one resource, one verb (and one name) per subrule; a non-resource URL
 * combines with the verbs only.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const urls = (rule.nonResourceURLs ?? []).flatMap((url) =>
    rule.verbs.map((verb) => ({ apiGroups: [], resources: [], verbs: [verb], nonResourceURLs: [url] })),
  );
  return [...resourceSubrules(rule), ...urls];
}

function resourceSubrules(rule: PolicyRule): PolicyRule[] {
  return rule.apiGroups.flatMap((group) =>
    rule.resources.flatMap((resource) =>
      rule.verbs.flatMap((verb) =>
        rule.resourceNames && rule.resourceNames.length > 0
          ? rule.resourceNames.map((name) => ({
              apiGroups: [group],
              resources: [resource],
              verbs: [verb],
              resourceNames: [name],
            }))
          : [{ apiGroups: [group], resources: [resource], verbs: [verb] }],
      ),
    ),
  );
}

const hasAll = (owner: readonly string[], wanted: readonly string[]) =>
  wanted.every((w) => owner.includes(w));

/** resourceCoversAll: `*`, the same resources, or `*\/sub` for a subresource. */
function resourcesCovered(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes('*') || hasAll(owner, wanted)) return true;
  return wanted.every((resource) => {
    const slash = resource.indexOf('/');
    return slash >= 0 && owner.includes(`*${resource.slice(slash)}`);
  });
}

/** nonResourceURLCovers: the same path, or an owner ending in `*` whose prefix the path starts with. */
const urlCovers = (owner: string, path: string): boolean =>
  owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));

/** ruleCovers of policy_comparator.go. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const names = owner.resourceNames ?? [];
  const wantedNames = sub.resourceNames ?? [];
  const ownerUrls = owner.nonResourceURLs ?? [];
  return (
    (owner.verbs.includes('*') || hasAll(owner.verbs, sub.verbs)) &&
    (owner.apiGroups.includes('*') || hasAll(owner.apiGroups, sub.apiGroups)) &&
    resourcesCovered(owner.resources, sub.resources) &&
    (sub.nonResourceURLs ?? []).every((path) => ownerUrls.some((o) => urlCovers(o, path))) &&
    (wantedNames.length === 0 ? names.length === 0 : names.length === 0 || hasAll(names, wantedNames))
  );
}

/** Covers: the subrules of `servant` no rule of `owner` covers (empty when every one is covered). */
export function uncovered(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** CompactRules: simple subrules of one group, resource and name merged into one rule with their verbs. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const simple = new Map<string, PolicyRule>();
  const other: PolicyRule[] = [];
  for (const rule of rules) {
    const names = rule.resourceNames ?? [];
    if (rule.apiGroups.length !== 1 || rule.resources.length !== 1 || names.length > 1) {
      other.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups[0], rule.resources[0], names]);
    const known = simple.get(key);
    if (known) known.verbs.push(...rule.verbs);
    else simple.set(key, { ...rule, verbs: [...rule.verbs] });
  }
  return [...other, ...simple.values()];
}

/** Go's %q of a []string: `["a" "b"]`. */
const goQuoted = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

/** rbacv1helpers.CompactString: `{APIGroups:["" ], Resources:["pods"], Verbs:["get"]}` without empty fields. */
export function compactString(rule: PolicyRule): string {
  const parts = [
    ...(rule.apiGroups.length > 0 ? [`APIGroups:${goQuoted(rule.apiGroups)}`] : []),
    ...(rule.resources.length > 0 ? [`Resources:${goQuoted(rule.resources)}`] : []),
    ...(rule.nonResourceURLs && rule.nonResourceURLs.length > 0
      ? [`NonResourceURLs:${goQuoted(rule.nonResourceURLs)}`]
      : []),
    ...(rule.resourceNames && rule.resourceNames.length > 0
      ? [`ResourceNames:${goQuoted(rule.resourceNames)}`]
      : []),
    ...(rule.verbs.length > 0 ? [`Verbs:${goQuoted(rule.verbs)}`] : []),
  ];
  return `{${parts.join(', ')}}`;
}

/** ConfirmNoEscalation's error text, after the object's `is forbidden: `. */
export function escalationMessage(user: User, missing: readonly PolicyRule[]): string {
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  return `user ${JSON.stringify(user.name)} (groups=${goQuoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
}

/**
 * The check of one write of a Role (its rules) or RoleBinding (its roleRef) in `namespace`, given
 * whether the authorizer lets the author `bind` the role or `escalate` roles there.
 */
export function escalationVerdict(
  policy: RbacPolicy,
  user: User,
  namespace: string,
  write: { roleRef: RoleRef } | { rules: readonly PolicyRule[] },
  mayBindOrEscalate: boolean,
): EscalationVerdict {
  if (user.groups.includes(systemMastersGroup) || mayBindOrEscalate) return { kind: 'allowed' };
  if ('roleRef' in write && !roleExists(policy, write.roleRef, namespace))
    return {
      kind: 'roleNotFound',
      resource: write.roleRef.kind === 'ClusterRole' ? 'clusterroles' : 'roles',
      name: write.roleRef.name,
    };
  const granted = 'roleRef' in write ? roleRefRules(policy, write.roleRef, namespace) : write.rules;
  const missing = uncovered(rulesFor(policy, user, namespace), granted);
  return missing.length === 0 ? { kind: 'allowed' } : { kind: 'forbidden', missing };
}
