import { subjectAppliesToUser } from '../../machines/rbac.ts';
import { configurationResource, type Scope } from '../../machines/scope.ts';
import type { TransitionInfo } from '../../machines/stepper.ts';
import type { ApiRequest, SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import { stateDiff, stateFacts } from './describe.ts';

/**
 * A counterexample told for a Kubernetes reviewer: who is who in the scope, the initial state, each
 * request as the HTTP call it is, the rule that decided it, and one plain line saying what broke.
 */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
export const stepCount = (n: number) => plural(n, 'step');

const apiPrefix: Record<string, string> = {
  rolebindings: '/apis/rbac.authorization.k8s.io/v1',
  roles: '/apis/rbac.authorization.k8s.io/v1',
  networkpolicies: '/apis/networking.k8s.io/v1',
};
const prefixOf = (resource: string) => apiPrefix[resource] ?? '/api/v1';
const method: Record<ApiRequest['verb'], string> = {
  create: 'POST',
  get: 'GET',
  list: 'GET',
  update: 'PUT',
  delete: 'DELETE',
  finalize: 'PUT',
};

/** `POST /api/v1/namespaces/team-a/configmaps (app)`: the HTTP call a request is. */
export function httpLine(model: SystemModel, r: ApiRequest): string {
  const ns = r.namespace >= 0 ? model.scope.namespaces[r.namespace].name : undefined;
  const verb = method[r.verb];
  // D-16: a watch is the list's GET with ?watch=true.
  const watch = r.watch ? '?watch=true' : '';
  if (r.target === 'configuration' && r.configuration) {
    // Cluster-scoped, in admissionregistration.k8s.io (D-32).
    const c = model.scope.configurations[r.configuration.slot];
    const base = `/apis/admissionregistration.k8s.io/v1alpha1/${configurationResource[c.kind ?? 'NamespaceInitializerConfiguration']}`;
    return r.verb === 'create' ? `${verb} ${base} (${c.name})` : `${verb} ${base}/${c.name}`;
  }
  const cluster = r.target === 'cluster-object' ? model.scope.clusterObjects?.[r.object] : undefined;
  if (cluster) {
    // Cluster-scoped, in rbac.authorization.k8s.io (D-23).
    const base = `/apis/rbac.authorization.k8s.io/v1/${cluster.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings'}`;
    return r.verb === 'create' ? `${verb} ${base} (${cluster.name})` : `${verb} ${base}/${cluster.name}`;
  }
  if (r.target === 'namespace') {
    if (r.verb === 'list' || !ns) return `${verb} /api/v1/namespaces${watch}`;
    if (r.verb === 'create') return `${verb} /api/v1/namespaces (${ns})`;
    return `${verb} /api/v1/namespaces/${ns}${r.verb === 'finalize' ? '/finalize' : ''}`;
  }
  const object = r.object >= 0 ? model.objects[r.object] : undefined;
  const resource = object?.resource ?? r.resource ?? 'objects';
  const base = ns
    ? `${prefixOf(resource)}/namespaces/${ns}/${resource}`
    : `${prefixOf(resource)}/${resource}`;
  if (r.verb === 'list' || !object) return `${verb} ${base}${watch}`;
  return r.verb === 'create' ? `${verb} ${base} (${object.name})` : `${verb} ${base}/${object.name}`;
}

/** What a step did, in Kubernetes words where it is a request; the machine's own label otherwise. */
export function stepLine(model: SystemModel, event: SystemEvent): string {
  return event.request && event.actorKind === 'principal' ? httpLine(model, event.request) : event.label;
}

export const responseText = (event: SystemEvent): string =>
  event.response
    ? `${event.response.code} ${event.response.reason}${event.response.cause ? ` (${event.response.cause})` : ''}`
    : '';

/**
 * The rules that decided a request, in one sentence with their requirement IDs: the check that refused
 * it, or the grant that authorized it and the admission checks it passed.
 */
export function ruleNote(
  event: SystemEvent,
  transitions: ReadonlyMap<string, TransitionInfo>,
): string | undefined {
  if (!event.request || !event.response) return undefined;
  const taken = event.transitions.map((id) => transitions.get(id)).filter((t): t is TransitionInfo => !!t);
  const ids = (ts: readonly TransitionInfo[]) => [...new Set(ts.flatMap((t) => t.requirements))].join(', ');
  if (event.response.code >= 400) {
    const deciding = taken.filter((t) => t.machine !== 'namespace').at(-1) ?? taken.at(-1);
    if (!deciding) return undefined;
    const guard = deciding.guard ? ` (${deciding.guard})` : '';
    return `${deciding.machine}'s ${deciding.source} check${guard} refused it (${ids([deciding])}).`;
  }
  const grant = taken.filter((t) => t.machine === 'authorization' && t.guard);
  const checks = taken.filter(
    (t) => t.machine === 'admission' && !['waiting', 'authorization'].includes(t.source),
  );
  const parts = [
    ...(grant.length > 0 ? [`RBAC allowed it (${grant.map((t) => t.guard).join(', ')}: ${ids(grant)})`] : []),
    ...(checks.length > 0
      ? [`admission passed ${checks.map((t) => t.source).join(', ')} (${ids(checks)})`]
      : []),
  ];
  return parts.length > 0 ? `${parts.join('; ')}.`.replace(/^./, (c) => c.toUpperCase()) : undefined;
}

/** A change worth a reviewer's eye: not a new object's empty or unset fields. */
export const noteworthy = (change: string): boolean =>
  !/: - → (none|unset|\[\]|no)$/.test(change) && !change.startsWith('clock:');

/** The cluster-wide grants of a user: system:masters, and each ClusterRoleBinding naming it or its groups. */
export function clusterGrants(scope: Scope, name: string, groups: readonly string[]): string[] {
  const user = { name, groups: [...groups] };
  const grants: string[] = [];
  if (groups.includes('system:masters')) grants.push('group system:masters (all-powerful)');
  for (const b of scope.clusterRoleBindings) {
    const applies = b.subjects.some((s) =>
      subjectAppliesToUser(
        s.kind === 'ServiceAccount'
          ? { kind: s.kind, name: s.name, namespace: s.namespace ?? 'default' }
          : { kind: s.kind, apiGroup: 'rbac.authorization.k8s.io', name: s.name },
        user,
      ),
    );
    if (applies) grants.push(`ClusterRoleBinding/${b.name} → ClusterRole ${b.clusterRole}`);
  }
  return grants;
}

/** The bindings that grant a principal anything, as a reviewer names them. */
function grantsOf(scope: Scope, name: string, groups: readonly string[]): string[] {
  const grants = clusterGrants(scope, name, groups);
  const bindings = [
    ...scope.content,
    ...scope.configurations.flatMap((c) => c.initializers.map((i) => i.populates)),
  ].filter((o) => o.roleBinding?.subject === '$creator');
  if (scope.namespaces.some((n) => n.creator === name))
    for (const o of bindings)
      grants.push(
        `RoleBinding ${o.name} → ${o.roleBinding?.roleKind ?? 'ClusterRole'} ${o.roleBinding?.clusterRole}, in the namespaces it creates`,
      );
  return grants;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const list = (items: readonly string[]) => (items.length > 0 ? items.join(', ') : '—');

/** Who is who: principals and their grants, namespaces, initializer configurations, faults and clock. */
export function whoIsWho(scope: Scope): string[] {
  const initializers = scope.configurations.flatMap((c) =>
    c.initializers.map(
      (i) =>
        `| ${c.name} | ${i.name} | ${i.failurePolicy} | ${i.timeoutSeconds} s | ${c.registered === 'later' ? 'during the run' : 'from the start'} | ${i.populates.resource}/${i.populates.name}${i.canFail ? ' (can fail)' : ''} |`,
    ),
  );
  const faults = Object.entries(scope.faults)
    .filter(([, on]) => on)
    .map(([name]) => name);
  return [
    '## Who is who',
    '',
    `Scope \`${scope.name}\`: ${scope.description}`,
    '',
    '| principal | groups | granted by | may send |',
    '| --- | --- | --- | --- |',
    ...scope.principals.map(
      (p) =>
        `| ${cell(p.name)} | ${cell(list(p.groups))} | ${cell(list(grantsOf(scope, p.name, p.groups)))} | ${cell(list(p.requests))}${p.namespaces ? ` (in ${p.namespaces.join(', ')})` : ''} |`,
    ),
    '',
    '| namespace | creator | at the start | finalizers asked |',
    '| --- | --- | --- | --- |',
    ...scope.namespaces.map(
      (n) =>
        `| ${cell(n.name)} | ${n.creator ?? '—'} | ${n.system ? 'exists (system)' : n.preexisting ? 'exists' : 'absent'} | ${list(n.extraFinalizers ?? [])} |`,
    ),
    '',
    '| NamespaceInitializerConfiguration | initializer | failurePolicy | timeoutSeconds | registered | creates |',
    '| --- | --- | --- | --- | --- | --- |',
    ...initializers,
    '',
    `Faults on: ${list(faults)}. Finalizer owners: ${list(scope.finalizerOwners)}. Read-repair after ${scope.clock.readRepairTimeoutSeconds} s (FP-4).`,
    '',
  ];
}

/** The state as one line per namespace, leaving out what is empty or unset. */
export function stateSummary(model: SystemModel, state: SystemState): string[] {
  const facts = stateFacts(model, state);
  const dull = new Set(['[]', 'none', 'unset']);
  const global: string[] = [];
  const byNamespace = new Map<string, string[]>();
  for (const [key, value] of facts) {
    const ns = model.scope.namespaces.find((n) => key.startsWith(`${n.name}.`));
    if (!ns) {
      global.push(`${key} ${value}`);
      continue;
    }
    const field = key.slice(ns.name.length + 1);
    if (dull.has(value) || field === 'exists') continue;
    byNamespace.set(ns.name, [...(byNamespace.get(ns.name) ?? []), `${field} ${value}`]);
  }
  return [
    ...model.scope.namespaces.map((n) => {
      const exists = facts.get(`${n.name}.exists`) === 'yes';
      return `- **${n.name}**: ${exists ? (byNamespace.get(n.name) ?? []).join(' · ') : 'does not exist'}`;
    }),
    `- ${global.join(' · ')}`,
  ];
}

/** One step of a counterexample as the report shows it. */
export interface CounterexampleStep {
  actor: string;
  event: string;
  summary: string;
}

/** A trace told step by step: who acted, the request line, and what changed (what a judge of a walk needs, not the report). */
export function traceSteps(
  model: SystemModel,
  trace: { initial: SystemState; steps: readonly { event: SystemEvent; state: SystemState }[] },
): CounterexampleStep[] {
  let previous = trace.initial;
  return trace.steps.map(({ event, state }) => {
    const changes = stateDiff(model, previous, state).filter(
      (line) => !line.startsWith('clock:') || event.actorKind === 'clock',
    );
    previous = state;
    const summary = [responseText(event), changes.length > 0 ? changes.join('; ') : 'nothing changed']
      .filter(Boolean)
      .join(' — ');
    return { actor: event.actor, event: stepLine(model, event), summary };
  });
}
