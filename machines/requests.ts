import type { Operation } from './admission.ts';
import type { ObjectSlot, RequestTemplate, Scope } from './scope.ts';
import type { ApiRequest } from './system.ts';

/** The requests a principal's template stands for, one per namespace (and object) it may address. */
export function expandTemplate(
  scope: Scope,
  objects: readonly ObjectSlot[],
  template: RequestTemplate,
  principal: ApiRequest['principal'],
  namespaces: { ns: Scope['namespaces'][number]; i: number }[],
): ApiRequest[] {
  const base = { principal, object: -1 };
  const contentSlots = scope.content.map((c) =>
    objects.findIndex((o) => o.resource === c.resource && o.name === c.name),
  );
  type Addressable = (typeof namespaces)[number];
  const userNamespaces = namespaces.filter(({ ns }) => !ns.system);
  /** One request on each namespace object of the list, with the body it sends there. */
  const onEach = (
    list: Addressable[],
    verb: Operation,
    body?: (ns: Addressable['ns']) => ApiRequest['body'],
  ): ApiRequest[] =>
    list.map(({ ns, i }) => ({
      ...base,
      verb,
      target: 'namespace',
      namespace: i,
      ...(body ? { body: body(ns) } : {}),
    }));
  switch (template) {
    case 'create-namespace':
      return onEach(userNamespaces, 'create', (ns) => ({ extraFinalizers: ns.extraFinalizers ?? [] }));
    case 'create-namespace-with-initializers':
      return onEach(userNamespaces, 'create', () => ({ initializers: [], extraFinalizers: [] }));
    case 'get-namespace':
      return onEach(namespaces, 'get');
    case 'delete-namespace':
      return onEach(namespaces, 'delete');
    case 'complete-first-initializer':
      return onEach(userNamespaces, 'update', () => ({ removeFirstPending: true }));
    case 'update-finalizers':
      return onEach(namespaces, 'update', () => ({ finalizers: [] }));
    case 'finalize-remove-kubernetes':
      return onEach(namespaces, 'finalize', () => ({ finalizeWithoutKubernetes: true }));
    case 'create-content':
    case 'delete-content':
    case 'get-content': {
      const verb: Operation =
        template === 'create-content' ? 'create' : template === 'delete-content' ? 'delete' : 'get';
      return namespaces.flatMap(({ i }) =>
        contentSlots.map((object) => ({ ...base, verb, target: 'content' as const, namespace: i, object })),
      );
    }
    case 'list-content':
      return namespaces.flatMap(({ i }) =>
        [...new Set(scope.content.map((c) => c.resource))].map((resource) => ({
          ...base,
          verb: 'list' as const,
          target: 'content' as const,
          namespace: i,
          resource,
        })),
      );
    case 'list-namespaces':
      return [{ ...base, verb: 'list', target: 'namespace', namespace: -1 }];
    case 'get-namespace-status':
    case 'update-namespace-status':
      return onEach(namespaces, template === 'get-namespace-status' ? 'get' : 'update').map((r) => ({
        ...r,
        subresource: 'status' as const,
      }));
    case 'finalize-as-created':
      return onEach(namespaces, 'finalize', (ns) => ({
        finalizers: ns.initialFinalizers ?? ['kubernetes', ...(ns.extraFinalizers ?? [])],
      }));
    case 'complete-each-initializer': {
      const names = [...new Set(scope.configurations.flatMap((c) => c.initializers.map((i) => i.name)))];
      return names.flatMap((name) => onEach(userNamespaces, 'update', () => ({ removePending: name })));
    }
    case 'fail-initialization':
      return onEach(userNamespaces, 'update', () => ({ failure: 'ProvisioningFailed' }));
    case 'create-content-naming-another-namespace':
      // A manifest written for one namespace applied to another's path (NS-4).
      return namespaces.flatMap(({ ns, i }) => {
        const other = scope.namespaces.find((n) => n.name !== ns.name);
        return other
          ? contentSlots.map((object) => ({
              ...base,
              verb: 'create' as const,
              target: 'content' as const,
              namespace: i,
              object,
              body: { namespace: other.name },
            }))
          : [];
      });
    case 'list-content-all-namespaces':
      return [...new Set(scope.content.map((c) => c.resource))].map((resource) => ({
        ...base,
        verb: 'list',
        target: 'content',
        namespace: -1,
        resource,
      }));
  }
}
