import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { onStep, stepProperty } from './declare.ts';
import { type Intent, intentOf } from './intent.ts';
import { namespaceName, ownersOf, succeeded } from './steps.ts';

/**
 * Who acts cluster-wide is who the scope declares (`intent.clusterWide`, document 000): cluster admins,
 * controllers, cluster-wide editors and readers. Tenant isolation judges tenants against each other;
 * this judges everyone against the declaration, so a namespace that belongs to nobody (`default`) and
 * a principal that is nobody's tenant are covered too.
 */

type Request = NonNullable<SystemEvent['request']>;

/** A request only a cluster-wide principal may have granted: one addressing no namespace (a list across all of them, a cluster-scoped configuration), or a write of a namespace object. */
function actsClusterWide(r: Request): boolean {
  if (r.namespace < 0) return true;
  // RB-1: any creator may create a namespace of a free name; reads of namespace objects are RB-1's `get`.
  return r.target === 'namespace' && r.verb !== 'create' && r.verb !== 'get' && r.verb !== 'list';
}

/** Declared cluster-wide, or (for a namespace object) a declared tenant of that namespace. */
function declaredFor(intent: Intent, model: SystemModel, s: SystemState, r: Request): boolean {
  const who = r.principal.name;
  if (intent.clusterWide.includes(who)) return true;
  const ns = namespaceName(model, r.namespace);
  return ns !== null && (ownersOf(model, s, intent, ns) ?? []).includes(who);
}

export const clusterWideAsDeclared = stepProperty(
  'cluster-wide-as-declared',
  ['RB-1', 'RB-5', 'RB-6', 'NS-7'],
  {
    statement:
      'Only principals the scope declares cluster-wide list across all namespaces, act on cluster-scoped configurations, or change namespace objects they are not tenants of; such a request from anyone else is refused.',
    predicate: (model, before, event) => {
      const r = event.request;
      if (event.actorKind !== 'principal' || !r || !actsClusterWide(r) || !succeeded(event)) return true;
      if (declaredFor(intentOf(model.scope), model, before, r)) return true;
      const where =
        r.target === 'configuration'
          ? 'on a cluster-scoped configuration'
          : r.namespace < 0
            ? 'across all namespaces'
            : `on ${namespaceName(model, r.namespace)}`;
      return `${r.principal.name}, not declared cluster-wide, got ${event.response?.code} for "${event.label}" ${where}`;
    },
    witness: onStep(
      'a principal not declared cluster-wide lists across all namespaces or writes a namespace object it is no tenant of',
      (model, before, event) => {
        const r = event.request;
        return (
          event.actorKind === 'principal' &&
          r !== undefined &&
          actsClusterWide(r) &&
          !declaredFor(intentOf(model.scope), model, before, r)
        );
      },
    ),
  },
);
