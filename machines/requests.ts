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
  switch (template) {
    case 'create-namespace':
      return namespaces
        .filter(({ ns }) => !ns.system)
        .map(({ ns, i }) => ({
          ...base,
          verb: 'create',
          target: 'namespace',
          namespace: i,
          body: { extraFinalizers: ns.extraFinalizers ?? [] },
        }));
    case 'create-namespace-with-initializers':
      return namespaces
        .filter(({ ns }) => !ns.system)
        .map(({ i }) => ({
          ...base,
          verb: 'create',
          target: 'namespace',
          namespace: i,
          body: { initializers: [] as string[], extraFinalizers: [] },
        }));
    case 'get-namespace':
      return namespaces.map(({ i }) => ({ ...base, verb: 'get', target: 'namespace', namespace: i }));
    case 'delete-namespace':
      return namespaces.map(({ i }) => ({ ...base, verb: 'delete', target: 'namespace', namespace: i }));
    case 'complete-first-initializer':
      return namespaces
        .filter(({ ns }) => !ns.system)
        .map(({ i }) => ({
          ...base,
          verb: 'update',
          target: 'namespace',
          namespace: i,
          body: { removeFirstPending: true },
        }));
    case 'update-finalizers':
      return namespaces.map(({ i }) => ({
        ...base,
        verb: 'update',
        target: 'namespace',
        namespace: i,
        body: { finalizers: [] },
      }));
    case 'finalize-remove-kubernetes':
      return namespaces.map(({ i }) => ({
        ...base,
        verb: 'finalize',
        target: 'namespace',
        namespace: i,
        body: { finalizeWithoutKubernetes: true },
      }));
    case 'create-content':
    case 'delete-content':
    case 'get-content': {
      const verb: Operation =
        template === 'create-content' ? 'create' : template === 'delete-content' ? 'delete' : 'get';
      return namespaces.flatMap(({ i }) =>
        contentSlots.map((object) => ({ ...base, verb, target: 'content' as const, namespace: i, object })),
      );
    }
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
