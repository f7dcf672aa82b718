import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { onStep, stepProperty } from './declare.ts';
import { describeContent, eachChanged, someChanged, succeeded } from './steps.ts';

/** The content object a step's successful request of this verb names in namespace slot `slot`, as a bit; 0 for any other step. */
const requestedBit = (event: SystemEvent, slot: number, verb: 'create' | 'delete'): number => {
  const r = event.request;
  return r &&
    r.target === 'content' &&
    r.namespace === slot &&
    r.verb === verb &&
    r.object >= 0 &&
    succeeded(event)
    ? 1 << r.object
    : 0;
};

/**
 * The objects a step's successful deletecollection may remove in namespace slot `slot`: every object of
 * its resource, as the scope declares the objects; 0 for any other step.
 */
const collectionBits = (model: SystemModel, event: SystemEvent, slot: number): number => {
  const r = event.request;
  if (!r?.collection || r.target !== 'content' || r.namespace !== slot || !succeeded(event)) return 0;
  return model.objects.reduce((mask, o, k) => (o.resource === r.resource ? mask | (1 << k) : mask), 0);
};

/** The request's own object after a successful create or DELETE (or update of a cluster RBAC object): stored as sent, or gone. */
function requestTookEffect(model: SystemModel, event: SystemEvent, after: SystemState): true | string {
  const r = event.request;
  if (!r || !succeeded(event) || r.object < 0) return true;
  // NS-4: the path names the namespace; a body naming another is refused, never stored in either.
  const path = r.namespace >= 0 ? model.scope.namespaces[r.namespace].name : undefined;
  if (r.target === 'content' && path !== undefined && r.body?.namespace && r.body.namespace !== path)
    return `"${event.label}" was answered ${event.response?.code}, though its body names namespace ${r.body.namespace}, not ${path}`;
  if (r.target === 'cluster-object') {
    if (r.verb !== 'create' && r.verb !== 'update' && r.verb !== 'delete') return true;
    const o = model.scope.clusterObjects?.[r.object];
    const a = model.storedClusterObjects(after);
    // D-23: a create or an update stores the version it sends; a DELETE leaves no version of the name stored.
    if (r.verb === 'delete' ? (a & sameName(model, r.object)) === 0 : (a & (1 << r.object)) !== 0)
      return true;
    return `"${event.label}" was answered ${event.response?.code}, yet ${o?.kind}/${o?.name} is ${r.verb === 'delete' ? 'still stored' : 'not stored as sent'}`;
  }
  if (r.verb !== 'create' && r.verb !== 'delete') return true;
  if (r.target === 'content' && r.namespace >= 0) {
    const v = model.view(after, r.namespace);
    const stored = (v.content & (1 << r.object)) !== 0;
    if (r.verb === 'create' ? stored : !stored) return true;
    return `"${event.label}" was answered ${event.response?.code}, yet ${describeContent(model, 1 << r.object)} is ${stored ? 'still stored' : 'not stored'} in ${v.name}`;
  }
  return true;
}

/** D-23: the scope's entries of one kind and name are versions of one object, as a mask of their slots. */
function sameName(model: SystemModel, slot: number): number {
  const objects = model.scope.clusterObjects ?? [];
  const o = objects[slot];
  return objects.reduce(
    (mask, v, k) => (o && v.kind === o.kind && v.name === o.name ? mask | (1 << k) : mask),
    0,
  );
}

/** The names (kind/name) stored in a mask of cluster object slots. */
function storedNames(model: SystemModel, mask: number): Set<string> {
  const names = new Set<string>();
  (model.scope.clusterObjects ?? []).forEach((o, k) => {
    if ((mask & (1 << k)) !== 0) names.add(`${o.kind}/${o.name}`);
  });
  return names;
}

/** D-23: the requestable ClusterRoles and ClusterRoleBindings change only by a successful create or DELETE of the one changed, or an update storing the version it sends. */
function clusterObjectsFramed(
  model: SystemModel,
  before: SystemState,
  event: SystemEvent,
  after: SystemState,
): true | string {
  // A scope with no requestable cluster objects stores none: nothing to read (nor for the memo to key by).
  if ((model.scope.clusterObjects?.length ?? 0) === 0) return true;
  const b = model.storedClusterObjects(before);
  const a = model.storedClusterObjects(after);
  if (a === b) return true;
  const r = event.request;
  const own = r?.target === 'cluster-object' && r.object >= 0 && succeeded(event) ? r : undefined;
  const named = own ? storedNames(model, 1 << own.object) : new Set<string>();
  const was = storedNames(model, b);
  const is = storedNames(model, a);
  const added = [...is].filter((n) => !was.has(n));
  const removed = [...was].filter((n) => !is.has(n));
  const only = (names: string[]) => names.length === 1 && named.has(names[0]);
  if (added.length > 0 && (own?.verb !== 'create' || !only(added)))
    return `${added.join(', ')} was stored without a successful create of it ("${event.label}")`;
  if (removed.length > 0 && (own?.verb !== 'delete' || !only(removed)))
    return `${removed.join(', ')} was removed without a successful DELETE of it ("${event.label}")`;
  // Names kept, so a version changed: only a successful update of that name, sending it, replaces it (D-23).
  if (added.length === 0 && removed.length === 0) {
    const changed = storedNames(model, a ^ b);
    if (
      own?.verb !== 'update' ||
      changed.size !== 1 ||
      !named.has([...changed][0]) ||
      (a & (1 << own.object)) === 0
    )
      return `${[...changed].join(', ')} changed version without a successful update sending that version ("${event.label}")`;
  }
  return true;
}

const namespaceContentFramed = eachChanged(({ b, a, model, event }) => {
  const slot = model.scope.namespaces.findIndex((ns) => ns.name === b.name);
  const added = a.content & ~b.content;
  const removed = b.content & ~a.content;
  if (added !== 0 && added !== requestedBit(event, slot, 'create'))
    return `${describeContent(model, added)} appeared in ${b.name} without a successful create of it`;
  const collection = collectionBits(model, event, slot);
  if (
    removed !== 0 &&
    (collection !== 0 ? (removed & ~collection) !== 0 : removed !== requestedBit(event, slot, 'delete'))
  )
    return `${describeContent(model, removed)} vanished from ${b.name} without a successful DELETE of it`;
  if (removed !== 0 && event.actorKind === 'namespace-controller' && b.value !== 'terminating')
    return `the namespace controller deleted ${describeContent(model, removed)} from ${b.name}, which is ${b.value}, not Terminating`;
  return true;
});

/**
 * The frame condition of stored objects (TLA+'s UNCHANGED, for a namespace's objects and the
 * requestable cluster RBAC objects), judged from the step's request and response as an API server's
 * audit log shows them, never from the code that stored them.
 */
export const contentChangesOnlyByRequests = stepProperty(
  'content-changes-only-by-requests',
  ['NS-2', 'NS-4', 'LC-5', 'RB-4'],
  {
    statement:
      "A namespace's content changes only by one successful request: a create adds the object it names, a DELETE removes the object it names, a deletecollection only objects of its resource, nothing else appears or vanishes; and the namespace controller deletes content only from a Terminating namespace. A request answered 2xx took effect: after a create its object is stored, after a DELETE it is gone; and none was answered 2xx whose body names another namespace than its path (NS-4). The same holds for the ClusterRoles and ClusterRoleBindings users may create and delete (D-23), whose versions of one name are one object: a create stores the version it sends, an update answered 200 replaces the stored version by the one it sends, and a DELETE answered 200 leaves no version of the name stored, so no binding granting.",
    predicate: (model, before, event, after) => {
      const took = requestTookEffect(model, event, after);
      if (took !== true) return took;
      const cluster = clusterObjectsFramed(model, before, event, after);
      if (cluster !== true) return cluster;
      return namespaceContentFramed(model, before, event, after);
    },
    witness: onStep(
      'a step removes content from a namespace',
      someChanged(({ b, a }) => (b.content & ~a.content) !== 0),
    ),
  },
);
