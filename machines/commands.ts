import type { ActorKind, ApiRequest, Enabled, SystemState } from './system-types.ts';

/**
 * Requests as commands, in fast-check's command shape: one type per request kind, with its
 * precondition (`check`) and its run (`run`). Exhaustive search expands the scope's templates into
 * commands, controllers send commands, random walks take the steps they lead to, and scenario replay
 * builds one per request line and matches steps by kind and fields, never by label text.
 */

/** Who sends a command: the actor the step is credited to and the user the API server sees. */
interface Sender {
  actor: string;
  actorKind: ActorKind;
  principal: ApiRequest['principal'];
}

type Namespaced = Sender & {
  namespace: number;
  /** metadata.name as sent in the body of a request whose path names the object (NS-4, D-38); absent when it names none. */
  bodyName?: string;
  /** metadata.labels and metadata.annotations as sent; storage validates their keys and values. */
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
type OnObject = Namespaced & {
  object: number;
  /** metadata.namespace as sent in the body (NS-4, D-14); absent when the body names none. */
  bodyNamespace?: string;
  /** A RoleBinding update's roleRef when it is not the stored one (immutable: RB-4, D-23). */
  roleRef?: { kind: 'ClusterRole' | 'Role'; name: string };
};

export type RequestCommandData =
  | (Namespaced & {
      kind: 'create-namespace';
      /** A client-supplied pending list (only admission may set one: IN-3); absent when none is sent. */
      initializers?: string[];
      extraFinalizers: string[];
      /** metadata.generateName; the command's namespace is the name generated from it (D-45). */
      generateName?: string;
    })
  | (Namespaced & { kind: 'get-namespace' })
  /** A watch of namespaces starts with the list; RBAC asks for the verb watch (D-16). */
  | (Namespaced & { kind: 'list-namespaces'; watch?: true })
  | (Namespaced & { kind: 'delete-namespace' })
  | (Namespaced & { kind: 'update-finalizers'; finalizers: string[] })
  | (Namespaced & { kind: 'remove-pending'; name: string })
  | (Namespaced & { kind: 'remove-first-pending' })
  /** spec.initializers.pending as an update sends it, whole (IN-3, IN-4, D-18). */
  | (Namespaced & { kind: 'update-pending'; pending: string[] })
  | (Namespaced & { kind: 'record-failure'; reason: string })
  | (Namespaced & { kind: 'finalize'; finalizers: string[] })
  | (Namespaced & { kind: 'finalize-without-kubernetes' })
  | (Namespaced & { kind: 'get-status' })
  /** status.phase as the body sends it; absent is defaulted to Active, as v1 decoding does (D-30). */
  | (Namespaced & { kind: 'update-status'; phase?: string })
  | (OnObject & { kind: ContentKind })
  | (Namespaced & { kind: 'list-content'; resource: string; watch?: true })
  /** DELETE of a collection (`namespaces/NS/RESOURCE`): every object of the resource there (RBAC verb deletecollection). */
  | (Namespaced & { kind: 'delete-collection'; resource: string })
  | (Namespaced & {
      kind: 'configuration';
      verb: 'create' | 'get' | 'update' | 'delete';
      /** The scope's configuration slot, and the version a create or update sends (FP-3). */
      slot: number;
      version: number;
    });

export type RequestKind = RequestCommandData['kind'];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A command's own fields, without its sender and namespace. */
export type CommandFields = DistributiveOmit<RequestCommandData, keyof Sender | 'namespace'>;

/** The verb each request on one content object sends. */
const contentVerbs = {
  'create-content': 'create',
  'get-content': 'get',
  'update-content': 'update',
  'delete-content': 'delete',
} as const satisfies Record<string, ApiRequest['verb']>;
type ContentKind = keyof typeof contentVerbs;

/** The verb each request on the namespace object sends (the status sub-resource aside). */
const namespaceVerbs = {
  'create-namespace': 'create',
  'get-namespace': 'get',
  'list-namespaces': 'list',
  'delete-namespace': 'delete',
  'update-finalizers': 'update',
  'remove-pending': 'update',
  'remove-first-pending': 'update',
  'update-pending': 'update',
  'record-failure': 'update',
  finalize: 'finalize',
  'finalize-without-kubernetes': 'finalize',
} as const satisfies Record<string, ApiRequest['verb']>;
type OnNamespaceObject = Extract<RequestCommandData, { kind: keyof typeof namespaceVerbs }>;

const onNamespaceObject = (c: RequestCommandData): c is OnNamespaceObject =>
  Object.hasOwn(namespaceVerbs, c.kind);

/** The body a request on the namespace object sends, from the command's own fields; none for a read or a DELETE. */
function namespaceBody(c: OnNamespaceObject): ApiRequest['body'] {
  switch (c.kind) {
    case 'create-namespace':
      return {
        ...(c.initializers ? { initializers: c.initializers } : {}),
        extraFinalizers: c.extraFinalizers,
        ...(c.generateName !== undefined ? { generateName: c.generateName } : {}),
      };
    case 'update-finalizers':
    case 'finalize':
      return { finalizers: c.finalizers };
    case 'remove-pending':
      return { removePending: c.name };
    case 'remove-first-pending':
      return { removeFirstPending: true };
    case 'update-pending':
      return { pending: c.pending };
    case 'record-failure':
      return { failure: c.reason };
    case 'finalize-without-kubernetes':
      return { finalizeWithoutKubernetes: true };
    default:
      return undefined;
  }
}

/** What the API server is sent for a command: the one translation from a command to the wire request. */
export function requestOf(c: RequestCommandData): ApiRequest {
  const r = wireRequest(c);
  const metadata = {
    ...(c.bodyName !== undefined ? { name: c.bodyName } : {}),
    ...(c.labels ? { labels: c.labels } : {}),
    ...(c.annotations ? { annotations: c.annotations } : {}),
  };
  return Object.keys(metadata).length === 0 ? r : { ...r, body: { ...r.body, ...metadata } };
}

function wireRequest(c: RequestCommandData): ApiRequest {
  const base = { principal: c.principal, namespace: c.namespace, object: -1 };
  const onNamespace = { ...base, target: 'namespace' as const };
  if (onNamespaceObject(c)) {
    const body = namespaceBody(c);
    return {
      ...onNamespace,
      verb: namespaceVerbs[c.kind],
      ...(body ? { body } : {}),
      ...(c.kind === 'list-namespaces' && c.watch ? { watch: true as const } : {}),
    };
  }
  switch (c.kind) {
    case 'get-status':
      return { ...onNamespace, verb: 'get', subresource: 'status' };
    case 'update-status':
      return {
        ...onNamespace,
        verb: 'update',
        subresource: 'status',
        ...(c.phase !== undefined ? { body: { phase: c.phase } } : {}),
      };
    case 'create-content':
    case 'get-content':
    case 'update-content':
    case 'delete-content':
      return {
        ...base,
        verb: contentVerbs[c.kind],
        target: 'content',
        object: c.object,
        ...(c.bodyNamespace || c.roleRef
          ? {
              body: {
                ...(c.bodyNamespace ? { namespace: c.bodyNamespace } : {}),
                ...(c.roleRef ? { roleRef: c.roleRef } : {}),
              },
            }
          : {}),
      };
    case 'list-content':
      return {
        ...base,
        verb: 'list',
        target: 'content',
        resource: c.resource,
        ...(c.watch ? { watch: true as const } : {}),
      };
    case 'delete-collection':
      return { ...base, verb: 'delete', target: 'content', resource: c.resource, collection: true };
    case 'configuration':
      return {
        ...base,
        verb: c.verb,
        target: 'configuration',
        configuration: { slot: c.slot, version: c.version },
      };
  }
}

/** What a command needs of the system it runs on; the composition (SystemModel) provides it. */
export interface CommandRunner {
  readonly scope: { namespaces: readonly unknown[] };
  readonly objects: readonly unknown[];
  perform(s: SystemState, command: RequestCommand): Enabled;
}

/**
 * A command's precondition: a client may send any request at any time (the API server decides the
 * answer), so a command only has to address a namespace and an object the scope has.
 */
const addressable = (c: RequestCommandData, m: CommandRunner): true | string => {
  if (c.namespace >= m.scope.namespaces.length) return `no namespace slot ${c.namespace} in the scope`;
  if ('object' in c && (c.object < 0 || c.object >= m.objects.length))
    return `no object slot ${c.object} in the scope`;
  return true;
};

/** A request kind's command: its data, its precondition and its run (fast-check's `check` and `run`). */
export class RequestCommand {
  /** The wire request, built once: the API server caches refusal texts per request object. */
  readonly request: ApiRequest;

  constructor(readonly data: RequestCommandData) {
    this.request = requestOf(data);
  }

  get kind(): RequestKind {
    return this.data.kind;
  }

  get actor(): string {
    return this.data.actor;
  }

  get actorKind(): ActorKind {
    return this.data.actorKind;
  }

  check(m: CommandRunner): true | string {
    return addressable(this.data, m);
  }

  /** Sends the request (after `check`): the step it takes (its event, the API server's answer) and the state after. */
  run(m: CommandRunner, s: SystemState): Enabled {
    return m.perform(s, this);
  }

  toString(): string {
    const { actor, actorKind, principal, ...fields } = this.data;
    return `${actor}: ${JSON.stringify(fields)}`;
  }
}

/** Builds a command from its data. */
export const command = (data: RequestCommandData): RequestCommand => new RequestCommand(data);
