import type {
  ActorKind,
  ApiRequest,
  ContentKind,
  Enabled,
  RequestCommandData,
  Sender,
  SystemState,
} from './system-types.ts';

/**
 * Requests as commands, in fast-check's command shape: one type per request kind, with its
 * precondition (`check`) and its run (`run`). Exhaustive search expands the scope's templates into
 * commands, controllers send commands, random walks take the steps they lead to, and scenario replay
 * builds one per request line and matches steps by kind and fields, never by label text.
 */

export type { RequestCommandData };

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
} as const satisfies Record<ContentKind, ApiRequest['verb']>;

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
        ...(c.metadataFinalizers ? { metadataFinalizers: c.metadataFinalizers } : {}),
        ...(c.generateName !== undefined ? { generateName: c.generateName } : {}),
      };
    case 'update-finalizers':
      return {
        finalizers: c.finalizers,
        ...(c.metadataFinalizers ? { metadataFinalizers: c.metadataFinalizers } : {}),
      };
    case 'finalize':
      return { finalizers: c.finalizers };
    case 'delete-namespace':
      return c.propagationPolicy ? { propagationPolicy: c.propagationPolicy } : undefined;
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
    ...(c.sentRbac ? { sentRbac: c.sentRbac } : {}),
    ...(c.preconditions ? { preconditions: c.preconditions } : {}),
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
        ...(c.bodyNamespace || c.roleRef || c.data
          ? {
              body: {
                ...(c.bodyNamespace ? { namespace: c.bodyNamespace } : {}),
                ...(c.roleRef ? { roleRef: c.roleRef } : {}),
                ...(c.data ? { data: c.data } : {}),
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
    case 'cluster-object':
      return { ...base, verb: c.verb, target: 'cluster-object', object: c.slot };
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
  readonly scope: { namespaces: readonly unknown[]; clusterObjects?: readonly unknown[] };
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
  if (c.kind === 'cluster-object' && (c.slot < 0 || c.slot >= (m.scope.clusterObjects?.length ?? 0)))
    return `no cluster object slot ${c.slot} in the scope`;
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
