/**
 * `VERB PATH` as a scenario writes it (`create namespaces/team-a/configmaps/settings`), parsed into
 * what the request addresses. Paths follow shipped v1 shapes without the `/api/v1/` prefix (D-16):
 * `namespaces[/NAME[/finalize|/status]]`, `namespaces/NS/RESOURCE[/NAME]`, a bare `RESOURCE` for a
 * list across namespaces, legacy `RESOURCE/NAME` in `default` (NS-6), and cluster-scoped kinds.
 */

export const verbs = [
  'create',
  'get',
  'list',
  'watch',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'finalize',
] as const;
export type Verb = (typeof verbs)[number];

/** Namespaced resources a scenario may address (NS-5: only namespaced kinds live in a namespace). */
export const namespacedResources = [
  'configmaps',
  'secrets',
  'pods',
  'rolebindings',
  'roles',
  'resourcequotas',
  'networkpolicies',
] as const;

/** Cluster-scoped resources besides namespaces: initializer and webhook configurations (docs 000, 004), ClusterRoles and ClusterRoleBindings (D-23). */
export const clusterResources = [
  'namespaceinitializerconfigurations',
  'initializerconfigurations',
  'externaladmissionhookconfigurations',
  'clusterroles',
  'clusterrolebindings',
] as const;

export type ParsedPath =
  | { kind: 'namespaces' }
  | { kind: 'namespace'; name: string; subresource?: 'finalize' | 'status' }
  | { kind: 'content-list'; namespace: string; resource: string }
  | { kind: 'content'; namespace: string; resource: string; name?: string; legacy: boolean }
  | { kind: 'all-namespaces'; resource: string }
  | { kind: 'cluster'; resource: string; name?: string };

export interface RequestLine {
  verb: Verb;
  path: ParsedPath;
}

export class RequestLineError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The closest candidate within a small edit distance, for "did you mean" hints. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

const pathForms =
  'paths: namespaces, namespaces/NAME, namespaces/NAME/finalize, namespaces/NAME/status, namespaces/NS/RESOURCE, namespaces/NS/RESOURCE/NAME, RESOURCE (all namespaces), RESOURCE/NAME (default namespace), apis/GROUP/VERSION/namespaces/NS/RESOURCE[/NAME], apis/GROUP/VERSION/RESOURCE (all namespaces)';

/** The built-in kinds served under a group, by `GROUP/RESOURCE`, with the one version the model serves. */
const builtInGroupKinds: Readonly<Record<string, string>> = {
  'networking.k8s.io/networkpolicies': 'v1',
  'rbac.authorization.k8s.io/rolebindings': 'v1',
  'rbac.authorization.k8s.io/roles': 'v1',
};

/**
 * `apis/GROUP/VERSION/namespaces/NS/RESOURCE[/NAME]` and `apis/GROUP/VERSION/RESOURCE`, the paths shipped
 * clients send for a kind of a named group: the resource named as the short form does (`RESOURCE.GROUP`
 * for a declared kind, the bare resource for a built-in one), the version the one declared.
 */
function parseGroupPath(
  path: string,
  parts: string[],
  declared: readonly string[],
  versions: ReadonlyMap<string, string>,
): ParsedPath {
  const [, group, version, ...rest] = parts;
  const namespaced = rest[0] === 'namespaces';
  const segment = namespaced ? rest[2] : rest[0];
  if (
    group === undefined ||
    version === undefined ||
    segment === undefined ||
    rest.length > (namespaced ? 4 : 1)
  )
    throw new RequestLineError(`bad path "${path}"`, pathForms);
  const builtInVersion = builtInGroupKinds[`${group}/${segment}`];
  const id = builtInVersion !== undefined ? segment : `${segment}.${group}`;
  if (builtInVersion === undefined && !declared.includes(id))
    throw new RequestLineError(
      `resource "${segment}" in group "${group}" (${path}) is not a declared kind`,
      didYouMean(
        id,
        declared,
        `declare it under given.kinds (group: ${group}, version: ${version}, resource: ${segment}, kind)${declared.length > 0 ? `; declared: ${declared.join(', ')}` : ''}`,
      ),
    );
  const served = builtInVersion ?? versions.get(id);
  if (served !== undefined && served !== version)
    throw new RequestLineError(
      `${segment} in group "${group}" is served at version ${served}, not ${version} (${path})`,
      `write apis/${group}/${served}/...`,
    );
  if (!namespaced) return { kind: 'all-namespaces', resource: id };
  const namespace = rest[1];
  if (rest.length === 3) return { kind: 'content-list', namespace, resource: id };
  return { kind: 'content', namespace, resource: id, name: rest[3], legacy: false };
}

const didYouMean = (word: string, candidates: readonly string[], otherwise: string): string => {
  const guess = closest(word, candidates);
  return guess ? `did you mean "${guess}"? ${otherwise}` : otherwise;
};

function resourceOf(segment: string, where: string, declared: readonly string[]): string {
  if ((namespacedResources as readonly string[]).includes(segment) || declared.includes(segment))
    return segment;
  if (segment.includes('.'))
    throw new RequestLineError(
      `resource "${segment}" ${where} is not a declared kind`,
      didYouMean(
        segment,
        declared,
        `declare it under given.kinds (group, version, resource, kind)${declared.length > 0 ? `; declared: ${declared.join(', ')}` : ''}`,
      ),
    );
  if (segment === 'finalize' || segment === 'status')
    throw new RequestLineError(
      `"${segment}" is a sub-resource of a namespace, not a kind inside it (NS-5)`,
      `use namespaces/NAME/${segment}`,
    );
  throw new RequestLineError(
    `unknown resource "${segment}" ${where}`,
    didYouMean(
      segment,
      [...namespacedResources, ...declared, ...clusterResources, 'namespaces'],
      `resources: ${[...namespacedResources, ...declared].join(', ')}, or a kind declared under given.kinds`,
    ),
  );
}

function parsePath(
  path: string,
  declared: readonly string[],
  versions: ReadonlyMap<string, string>,
): ParsedPath {
  if (path.startsWith('/') || path.endsWith('/') || path.includes('//'))
    throw new RequestLineError(
      `bad path "${path}"`,
      'write paths without leading, trailing or double slashes',
    );
  if (path.startsWith('api/'))
    throw new RequestLineError(
      `bad path "${path}"`,
      'leave out the /api/v1/ prefix: namespaces/NS/configmaps/NAME',
    );
  const parts = path.split('/');
  if (parts[0] === 'apis') return parseGroupPath(path, parts, declared, versions);
  if (parts[0] === 'namespaces') {
    if (parts.length === 1) return { kind: 'namespaces' };
    if (parts.length === 2) return { kind: 'namespace', name: parts[1] };
    if (parts[2] === 'finalize' || parts[2] === 'status') {
      if (parts.length > 3)
        throw new RequestLineError(
          `"${parts[2]}" is a sub-resource of namespace ${parts[1]}, not a kind inside it (NS-5)`,
          `use namespaces/${parts[1]}/${parts[2]}`,
        );
      return { kind: 'namespace', name: parts[1], subresource: parts[2] };
    }
    const resource = resourceOf(parts[2], `in namespace ${parts[1]}`, declared);
    if (parts.length === 3) return { kind: 'content-list', namespace: parts[1], resource };
    if (parts.length === 4)
      return { kind: 'content', namespace: parts[1], resource, name: parts[3], legacy: false };
    throw new RequestLineError(`bad path "${path}": too many segments`, pathForms);
  }
  if ((clusterResources as readonly string[]).includes(parts[0])) {
    if (parts.length > 2) throw new RequestLineError(`bad path "${path}": too many segments`, pathForms);
    return { kind: 'cluster', resource: parts[0], ...(parts[1] ? { name: parts[1] } : {}) };
  }
  const resource = resourceOf(parts[0], 'at the start of the path', declared);
  if (parts.length === 1) return { kind: 'all-namespaces', resource };
  if (parts.length === 2)
    return { kind: 'content', namespace: 'default', resource, name: parts[1], legacy: true };
  throw new RequestLineError(`bad path "${path}": too many segments`, pathForms);
}

const allowed: Record<ParsedPath['kind'], readonly Verb[]> = {
  namespaces: ['list', 'watch', 'create'],
  namespace: ['create', 'get', 'update', 'patch', 'delete', 'finalize'],
  'content-list': ['list', 'watch', 'create', 'deletecollection'],
  content: ['create', 'get', 'update', 'patch', 'delete'],
  'all-namespaces': ['list', 'watch', 'create'],
  cluster: ['create', 'get', 'update', 'patch', 'delete'],
};

/**
 * Parses `VERB PATH`; throws RequestLineError with a hint on anything it does not understand. `declared`
 * are the content kinds the scenario declares besides the built-in ones, by the resource segment a path
 * names them with: `events` in the core group, `RESOURCE.GROUP` (`events.events.k8s.io`) in another.
 */
/**
 * `declared` names the declared kinds as paths do (`RESOURCE` in core, `RESOURCE.GROUP` in a group);
 * `versions` gives each its declared version, checked on an `apis/GROUP/VERSION/...` path.
 */
export function parseRequestLine(
  line: string,
  declared: readonly string[] = [],
  versions: ReadonlyMap<string, string> = new Map(),
): RequestLine {
  const words = line.trim().split(/\s+/);
  if (words.length !== 2)
    throw new RequestLineError(
      `expected "VERB PATH", got "${line}"`,
      'for example: create namespaces/team-a/configmaps/settings',
    );
  const [verbWord, pathWord] = words;
  if (!(verbs as readonly string[]).includes(verbWord))
    throw new RequestLineError(
      `unknown verb "${verbWord}"`,
      didYouMean(verbWord, verbs, `verbs: ${verbs.join(', ')}`),
    );
  const verb = verbWord as Verb;
  const path = parsePath(pathWord, declared, versions);
  if (!allowed[path.kind].includes(verb))
    throw new RequestLineError(
      `"${verb}" does not apply to ${pathWord}`,
      `${path.kind} paths take ${allowed[path.kind].join(', ')}`,
    );
  if (path.kind === 'namespace') {
    if (path.subresource === 'finalize' && verb !== 'update' && verb !== 'finalize')
      throw new RequestLineError(
        `"${verb}" does not apply to ${pathWord}`,
        'the finalize sub-resource takes update (or: finalize namespaces/NAME)',
      );
    if (path.subresource === 'status' && !['get', 'update', 'patch'].includes(verb))
      throw new RequestLineError(
        `"${verb}" does not apply to ${pathWord}`,
        'the status sub-resource takes get, update, patch',
      );
    if (path.subresource === undefined && verb === 'create') return { verb, path };
  }
  // A create naming no namespace goes to the client's default namespace (NS-6, D-16).
  if (path.kind === 'all-namespaces' && verb === 'create')
    return { verb, path: { kind: 'content', namespace: 'default', resource: path.resource, legacy: true } };
  return { verb, path };
}
