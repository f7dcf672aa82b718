import { type CommandFields, RequestCommand } from './commands.ts';
import type { NamespaceSpec, ObjectSlot, PrincipalSpec, RequestTemplate, Scope } from './scope.ts';

/** A finalizer name neither standard nor qualified (no `prefix/`): what `finalize-with-unqualified-name` adds (LC-2). */
export const unqualifiedFinalizerName = 'unqualified';

/** The spec.finalizers a namespace of the scope is created with (or starts with). */
function finalizersAsCreated(ns: NamespaceSpec): string[] {
  return ns.initialFinalizers ?? ['kubernetes', ...(ns.extraFinalizers ?? [])];
}

/** The commands a principal's template stands for, one per namespace (and object) it may address. */
export function expandTemplate(
  scope: Scope,
  objects: readonly ObjectSlot[],
  template: RequestTemplate,
  principal: PrincipalSpec,
): RequestCommand[] {
  const sender = {
    actor: principal.name,
    actorKind: 'principal' as const,
    principal: { name: principal.name, groups: principal.groups },
  };
  const namespaces = scope.namespaces
    .map((ns, i) => ({ ns, i }))
    .filter(({ ns }) => !principal.namespaces || principal.namespaces.includes(ns.name));
  // An object one principal is meant to try (D-23's escalation attempt) stays out of everyone else's requests.
  const requested = scope.content.filter((c) => !c.requestedBy || c.requestedBy.includes(principal.name));
  const contentSlots = requested.map((c) =>
    objects.findIndex((o) => o.resource === c.resource && o.name === c.name),
  );
  const resources = [...new Set(requested.map((c) => c.resource))];
  type Addressable = (typeof namespaces)[number];
  const userNamespaces = namespaces.filter(({ ns }) => !ns.system);
  /** One command on each namespace of the list, with the fields it sends there. */
  const onEach = (list: Addressable[], fields: (ns: Addressable['ns']) => CommandFields) =>
    list.map(({ ns, i }) => new RequestCommand({ ...sender, namespace: i, ...fields(ns) }));
  switch (template) {
    case 'create-namespace':
      return onEach(userNamespaces, (ns) => ({
        kind: 'create-namespace',
        extraFinalizers: ns.extraFinalizers ?? [],
        ...(ns.metadataFinalizers ? { metadataFinalizers: ns.metadataFinalizers } : {}),
      }));
    case 'create-namespace-with-initializers':
      return onEach(userNamespaces, () => ({
        kind: 'create-namespace',
        initializers: [],
        extraFinalizers: [],
      }));
    case 'get-namespace':
      return onEach(namespaces, () => ({ kind: 'get-namespace' }));
    case 'delete-namespace':
      return onEach(namespaces, () => ({ kind: 'delete-namespace' }));
    case 'complete-first-initializer':
      return onEach(userNamespaces, () => ({ kind: 'remove-first-pending' }));
    case 'update-finalizers':
      return onEach(namespaces, () => ({ kind: 'update-finalizers', finalizers: [] }));
    case 'finalize-remove-kubernetes':
      return onEach(namespaces, () => ({ kind: 'finalize-without-kubernetes' }));
    case 'create-content':
    case 'delete-content':
    case 'get-content':
      return namespaces.flatMap(({ i }) =>
        contentSlots.map((object) => new RequestCommand({ ...sender, kind: template, namespace: i, object })),
      );
    case 'list-content':
    case 'watch-content':
      return namespaces.flatMap(({ i }) =>
        resources.map(
          (resource) =>
            new RequestCommand({
              ...sender,
              kind: 'list-content',
              namespace: i,
              resource,
              ...(template === 'watch-content' ? { watch: true as const } : {}),
            }),
        ),
      );
    case 'delete-collection':
      return namespaces.flatMap(({ i }) =>
        resources.map(
          (resource) => new RequestCommand({ ...sender, kind: 'delete-collection', namespace: i, resource }),
        ),
      );
    case 'list-namespaces':
      return [new RequestCommand({ ...sender, kind: 'list-namespaces', namespace: -1 })];
    case 'get-namespace-status':
      return onEach(namespaces, () => ({ kind: 'get-status' }));
    case 'update-namespace-status':
      return onEach(namespaces, () => ({ kind: 'update-status' }));
    case 'finalize-as-created':
      return onEach(namespaces, (ns) => ({ kind: 'finalize', finalizers: finalizersAsCreated(ns) }));
    case 'finalize-with-unqualified-name':
      // LC-2: a name without a `/` prefix that is not a standard finalizer name; validation answers 422.
      return onEach(namespaces, (ns) => ({
        kind: 'finalize',
        finalizers: [...finalizersAsCreated(ns), unqualifiedFinalizerName],
      }));
    case 'complete-each-initializer': {
      const names = [...new Set(scope.configurations.flatMap((c) => c.initializers.map((i) => i.name)))];
      return names.flatMap((name) => onEach(userNamespaces, () => ({ kind: 'remove-pending', name })));
    }
    case 'fail-initialization':
      return onEach(userNamespaces, () => ({ kind: 'record-failure', reason: 'ProvisioningFailed' }));
    case 'create-content-naming-another-namespace':
      // A manifest written for one namespace applied to another's path (NS-4).
      return namespaces.flatMap(({ ns, i }) => {
        const other = scope.namespaces.find((n) => n.name !== ns.name);
        return other
          ? contentSlots.map(
              (object) =>
                new RequestCommand({
                  ...sender,
                  kind: 'create-content',
                  namespace: i,
                  object,
                  bodyNamespace: other.name,
                }),
            )
          : [];
      });
    case 'update-finalizers-naming-another-namespace':
      // `kubectl replace` of one namespace with another's manifest: the body's name is not the path's (NS-4).
      return namespaces.flatMap(({ ns, i }) => {
        const other = scope.namespaces.find((n) => n.name !== ns.name);
        return other
          ? [
              new RequestCommand({
                ...sender,
                kind: 'update-finalizers',
                namespace: i,
                finalizers: [],
                bodyName: other.name,
              }),
            ]
          : [];
      });
    case 'create-cluster-object':
    case 'update-cluster-object':
    case 'delete-cluster-object': {
      const verb =
        template === 'create-cluster-object'
          ? 'create'
          : template === 'update-cluster-object'
            ? 'update'
            : 'delete';
      return (scope.clusterObjects ?? []).flatMap((o, slot) =>
        !o.requestedBy || o.requestedBy.includes(principal.name)
          ? [new RequestCommand({ ...sender, kind: 'cluster-object', namespace: -1, verb, slot })]
          : [],
      );
    }
    case 'list-content-all-namespaces':
    case 'watch-content-all-namespaces':
      return resources.map(
        (resource) =>
          new RequestCommand({
            ...sender,
            kind: 'list-content',
            namespace: -1,
            resource,
            ...(template === 'watch-content-all-namespaces' ? { watch: true as const } : {}),
          }),
      );
  }
}
