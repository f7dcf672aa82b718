import { resolveClusterRoles } from '../machines/bootstrap-rbac.ts';
import type { PolicyRule } from '../machines/k8s-types.ts';
import type { SubjectSpec } from '../machines/scope.ts';
import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { onStep, stepProperty } from './declare.ts';
import { succeeded } from './steps.ts';

/**
 * RB-4, RB-5 (D-23): nobody outside system:masters gains, through a Role or RoleBinding they write, a
 * permission they did not hold. Judged from the RBAC objects as the scope and the namespace hold them
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
    'A Role or RoleBinding written by anyone outside system:masters grants, in its namespace, only permissions its author held there before, unless the author may bind that role (or escalate roles).',
  predicate: (model, before, event) => {
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
    'someone outside system:masters creates or updates a Role or RoleBinding',
    (model, _b, event) => rbacWrite(model, event) !== null,
  ),
});
