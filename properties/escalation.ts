import { resolveClusterRoles } from '../machines/bootstrap-rbac.ts';
import type { PolicyRule } from '../machines/k8s-types.ts';
import type { SubjectSpec } from '../machines/scope.ts';
import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { onStep, stepProperty } from './declare.ts';
import { succeeded } from './steps.ts';

/**
 * RB-4, RB-5 (D-23): nobody outside system:masters gains, through a Role or RoleBinding (or a
 * ClusterRole or ClusterRoleBinding) they write, a permission they did not hold. Judged from the RBAC objects as the scope and the namespace hold them
 * before the step, with this file's own reading of rules and subjects: never the escalation check or
 * the RBAC decision code it judges.
 */

const rbacGroup = 'rbac.authorization.k8s.io';
const masters = 'system:masters';

type Principal = NonNullable<SystemEvent['request']>['principal'];

/** A subject names the principal: by user name, group (everyone is authenticated), or service account. */
function names(subject: SubjectSpec, who: Principal, namespace: string, creator: string | null): boolean {
  const name = subject.name === '$creator' ? creator : subject.name;
  if (name === null) return false;
  if (subject.kind === 'User') return who.name === name;
  if (subject.kind === 'Group')
    return (
      (name === 'system:authenticated' && !who.groups.includes('system:unauthenticated')) ||
      who.groups.includes(name)
    );
  return who.name === `system:serviceaccount:${subject.namespace ?? namespace}:${name}`;
}

/** One permission: a verb on a resource of a group, maybe of one named object. */
interface Permission {
  group: string;
  resource: string;
  verb: string;
  name?: string;
}

const matches = (listed: readonly string[], wanted: string) =>
  listed.includes('*') || listed.includes(wanted);

/** A held rule includes a permission; a wildcard in the permission needs the same wildcard held. */
function includes(rule: PolicyRule, p: Permission): boolean {
  const slash = p.resource.indexOf('/');
  const resourceHeld =
    matches(rule.resources, p.resource) ||
    (slash >= 0 && rule.resources.includes(`*${p.resource.slice(slash)}`));
  const held = rule.resourceNames ?? [];
  const nameHeld = held.length === 0 || (p.name !== undefined && held.includes(p.name));
  return matches(rule.verbs, p.verb) && matches(rule.apiGroups, p.group) && resourceHeld && nameHeld;
}

/** Every single permission a list of rules grants. */
const permissionsOf = (rules: readonly PolicyRule[]): Permission[] =>
  rules.flatMap((rule) =>
    rule.apiGroups.flatMap((group) =>
      rule.resources.flatMap((resource) =>
        rule.verbs.flatMap((verb) =>
          (rule.resourceNames ?? []).length > 0
            ? (rule.resourceNames ?? []).map((name) => ({ group, resource, verb, name }))
            : [{ group, resource, verb }],
        ),
      ),
    ),
  );

/** The rules of the principal in namespace slot `i` before the step, and the rules the write grants. */
function rulesAround(model: SystemModel, before: SystemState, i: number, object: number, who: Principal) {
  const view = model.view(before, i);
  const clusterRoles = resolveClusterRoles(model.scope.clusterRoles);
  const clusterRole = (name: string) => clusterRoles.find((r) => r.metadata.name === name)?.rules ?? [];
  const definitionOf = (slot: number) => {
    const o = model.objects[slot];
    return o.byNamespace?.[view.name] ?? o;
  };
  const present = model.objects.map((_, slot) => slot).filter((slot) => (view.content & (1 << slot)) !== 0);
  const role = (name: string) =>
    present.map(definitionOf).find((d, k) => d.role && model.objects[present[k]].name === name)?.role
      ?.rules ?? [];
  const held: PolicyRule[] = [];
  for (const b of model.scope.clusterRoleBindings)
    if (b.subjects.some((s) => names(s, who, view.name, view.creator)))
      held.push(...clusterRole(b.clusterRole));
  for (const slot of present) {
    const rb = definitionOf(slot).roleBinding;
    if (!rb) continue;
    const subjects: SubjectSpec[] = [
      {
        kind: rb.subjectKind ?? 'User',
        name: rb.subject,
        ...(rb.subjectNamespace ? { namespace: rb.subjectNamespace } : {}),
      },
      ...(rb.moreSubjects ?? []),
    ];
    if (subjects.some((s) => names(s, who, view.name, view.creator)))
      held.push(...(rb.roleKind === 'Role' ? role(rb.clusterRole) : clusterRole(rb.clusterRole)));
  }
  const written = definitionOf(object);
  const rb = written.roleBinding;
  const granted = rb
    ? rb.roleKind === 'Role'
      ? role(rb.clusterRole)
      : clusterRole(rb.clusterRole)
    : (written.role?.rules ?? []);
  // The one delegation shipped RBAC allows: `bind` on the bound role, or `escalate` on roles.
  const delegation: Permission = rb
    ? {
        group: rbacGroup,
        resource: rb.roleKind === 'Role' ? 'roles' : 'clusterroles',
        verb: 'bind',
        name: rb.clusterRole,
      }
    : { group: rbacGroup, resource: 'roles', verb: 'escalate', name: model.objects[object].name };
  return { held, granted, delegated: held.some((r) => includes(r, delegation)), namespace: view.name };
}

/**
 * At the cluster scope (D-23): the rules the principal holds through ClusterRoleBindings, the scope's
 * fixed ones and the requestable ones stored before the step, and what the written ClusterRole or
 * ClusterRoleBinding grants. A binding to a ClusterRole that is not stored grants nothing.
 */
function clusterRulesAround(model: SystemModel, before: SystemState, slot: number, who: Principal) {
  const requestable = model.scope.clusterObjects ?? [];
  const stored = requestable.filter((_, k) => (model.storedClusterObjects(before) & (1 << k)) !== 0);
  const fixedRoles = resolveClusterRoles(model.scope.clusterRoles);
  const clusterRole = (name: string): PolicyRule[] =>
    fixedRoles.find((r) => r.metadata.name === name)?.rules ??
    stored.find((o) => o.kind === 'ClusterRole' && o.name === name)?.rules ??
    [];
  const bindings = [
    ...model.scope.clusterRoleBindings,
    ...stored.flatMap((o) =>
      o.kind === 'ClusterRoleBinding'
        ? [{ clusterRole: o.clusterRole ?? '', subjects: o.subjects ?? [] }]
        : [],
    ),
  ];
  const held: PolicyRule[] = [];
  // A ServiceAccount subject of a ClusterRoleBinding names its namespace, or no one.
  const applies = (s: SubjectSpec) =>
    (s.kind !== 'ServiceAccount' || s.namespace !== undefined) && names(s, who, s.namespace ?? '', null);
  for (const b of bindings) if (b.subjects.some(applies)) held.push(...clusterRole(b.clusterRole));
  const written = requestable[slot];
  const granted =
    written.kind === 'ClusterRole' ? (written.rules ?? []) : clusterRole(written.clusterRole ?? '');
  const delegation: Permission =
    written.kind === 'ClusterRole'
      ? { group: rbacGroup, resource: 'clusterroles', verb: 'escalate', name: written.name }
      : { group: rbacGroup, resource: 'clusterroles', verb: 'bind', name: written.clusterRole ?? '' };
  return { held, granted, delegated: held.some((r) => includes(r, delegation)) };
}

/** A successful create or update of a ClusterRole or ClusterRoleBinding by someone outside system:masters. */
function clusterWrite(event: SystemEvent) {
  const r = event.request;
  if (r?.target !== 'cluster-object' || (r.verb !== 'create' && r.verb !== 'update')) return null;
  if (r.principal.groups.includes(masters) || !succeeded(event)) return null;
  return r;
}

/** A successful create or update of a Role or RoleBinding by someone outside system:masters. */
function rbacWrite(model: SystemModel, event: SystemEvent) {
  const r = event.request;
  if (r?.target !== 'content' || (r.verb !== 'create' && r.verb !== 'update') || r.object < 0) return null;
  const resource = model.objects[r.object]?.resource;
  if (resource !== 'roles' && resource !== 'rolebindings') return null;
  if (r.principal.groups.includes(masters) || !succeeded(event)) return null;
  return r;
}

export const noEscalationThroughBindings = stepProperty('no-escalation-through-bindings', ['RB-4', 'RB-5'], {
  statement:
    'A Role or RoleBinding written by anyone outside system:masters grants, in its namespace, only permissions its author held there before, unless the author may bind that role (or escalate roles); a ClusterRole or ClusterRoleBinding grants only what its author held cluster-wide, unless it may escalate clusterroles or bind that ClusterRole.',
  predicate: (model, before, event) => {
    const c = clusterWrite(event);
    if (c) {
      const { held, granted, delegated } = clusterRulesAround(model, before, c.object, c.principal);
      if (delegated) return true;
      const gained = permissionsOf(granted).find((p) => !held.some((rule) => includes(rule, p)));
      const o = model.scope.clusterObjects?.[c.object];
      return gained
        ? `${c.principal.name} wrote ${o?.kind}/${o?.name}, granting ${gained.verb} on ${gained.group || 'core'}/${gained.resource}${gained.name ? `/${gained.name}` : ''} cluster-wide, which it did not hold`
        : true;
    }
    const r = rbacWrite(model, event);
    if (!r) return true;
    const { held, granted, delegated, namespace } = rulesAround(
      model,
      before,
      r.namespace,
      r.object,
      r.principal,
    );
    if (delegated) return true;
    const gained = permissionsOf(granted).find((p) => !held.some((rule) => includes(rule, p)));
    return gained
      ? `${r.principal.name} wrote ${model.objects[r.object].resource}/${model.objects[r.object].name} in ${namespace}, granting ${gained.verb} on ${gained.group || 'core'}/${gained.resource}${gained.name ? `/${gained.name}` : ''}, which it did not hold`
      : true;
  },
  witness: onStep(
    'someone outside system:masters creates or updates a Role, RoleBinding, ClusterRole or ClusterRoleBinding',
    (model, _b, event) => rbacWrite(model, event) !== null || clusterWrite(event) !== null,
  ),
});
