import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Pod } from 'kubernetes-models/v1/Pod';
import { ResourceQuota } from 'kubernetes-models/v1/ResourceQuota';
import { Secret } from 'kubernetes-models/v1/Secret';
import { validateFinalizerName, validateMetadataMaps } from '../../machines/names.ts';
import {
  finalizerOwnerAccount,
  immortalNamespaces,
  initializerAccount,
  namespaceControllerAccount,
} from '../../machines/scope.ts';
import {
  manifestSchemas,
  type ObjectDefinition,
  rbacGroup,
  type ScopeDocument,
  type ScopeManifest,
  type ScopeManifestKind,
} from './scope-format.ts';
import type { FieldPath, ScopeIssue } from './scope-issues.ts';

/**
 * A scope's manifests judged as the apiserver judges them: first the official OpenAPI schema through
 * kubernetes-models (required fields, types), then the rules the schema cannot express, as upstream's
 * validation writes them (pkg/apis/rbac/validation: policy rules, subjects, roleRef; apimachinery's
 * name validation), then what a scope must say of its own world (known users, system namespaces).
 * Label keys are checked elsewhere (machines/names.ts).
 */

type Validating = { validate(): void };
type ModelClass = new (data: never) => Validating;

const models: Record<string, ModelClass> = {
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
  ConfigMap,
  Secret,
  Pod,
  ResourceQuota,
  NetworkPolicy,
  Namespace,
};

const apiVersions: Record<string, string> = {
  ClusterRole: `${rbacGroup}/v1`,
  ClusterRoleBinding: `${rbacGroup}/v1`,
  Role: `${rbacGroup}/v1`,
  RoleBinding: `${rbacGroup}/v1`,
  NetworkPolicy: 'networking.k8s.io/v1',
};

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** apimachinery's IsDNS1123Subdomain. */
export const isDnsSubdomain = (name: string): boolean =>
  name.length <= 253 && name.split('.').every((label) => label.length > 0 && dnsLabel.test(label));
/** apimachinery's IsDNS1123Label. */
export const isDnsLabel = (name: string): boolean => name.length <= 63 && dnsLabel.test(name);
/** apimachinery's path segment name (RBAC object names may hold `:`). */
const isPathSegmentName = (name: string): boolean =>
  name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');

/** The object kinds whose names apimachinery validates as DNS subdomains; RBAC names are path segments. */
const dnsNamedKinds = new Set(['ConfigMap', 'Secret', 'Pod', 'ResourceQuota', 'NetworkPolicy']);

/** A name a scope fills in per namespace (`$creator`): judged when it is filled, not here. */
const placeholder = (name: string) => name.startsWith('$');

class Found extends Error {
  constructor(readonly issue: ScopeIssue) {
    super(issue.problem);
  }
}
const refuse = (path: FieldPath, problem: string, fix: string): never => {
  throw new Found({ path, problem, fix });
};

/** The issue the first `refuse` of `checks` raises, or undefined when they pass. */
function firstIssue(checks: () => void): ScopeIssue | undefined {
  try {
    checks();
    return undefined;
  } catch (error) {
    if (error instanceof Found) return error.issue;
    throw error;
  }
}

/** A manifest or body by its kind's official schema (its apiVersion and kind are the schema's own). */
function manifestSchemaCheck(manifest: Record<string, unknown>, kind: string, path: FieldPath): void {
  const { apiVersion: _, kind: __, ...data } = manifest;
  schemaCheck(kind, data, path);
}

/** The first error of the official schema, located under `path`. */
function schemaCheck(kind: string, data: Record<string, unknown>, path: FieldPath): void {
  const Model = models[kind];
  if (!Model) return;
  try {
    new Model({ apiVersion: apiVersions[kind] ?? 'v1', kind, ...data } as never).validate();
  } catch (error) {
    const first = (
      error as { errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] }
    ).errors?.[0];
    if (!first) throw error;
    const at = first.instancePath
      .split('/')
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    const missing = first.params?.missingProperty;
    refuse(
      [...path, ...at, ...(typeof missing === 'string' ? [missing] : [])],
      `Kubernetes' ${kind} schema refuses it: ${missing ? 'required' : (first.message ?? 'invalid')}`,
      typeof missing === 'string' ? `add ${missing}` : 'write it as the Kubernetes API reference gives it',
    );
  }
}

interface Rule {
  apiGroups?: string[] | undefined;
  resources?: string[] | undefined;
  verbs: string[];
  resourceNames?: string[] | undefined;
  nonResourceURLs?: string[] | undefined;
}

/**
 * Upstream's ValidatePolicyRule: a rule has verbs; a non-resource rule belongs to a ClusterRole (not
 * `namespaced`) and names no group, resource or resource name; a resource rule has API groups and resources.
 */
function ruleCheck(rule: Rule, path: FieldPath, namespaced = false): void {
  if (rule.verbs.length === 0)
    refuse(
      [...path, 'verbs'],
      'Required value: verbs must contain at least one value',
      'list the verbs it grants, e.g. [get]',
    );
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced)
      refuse(
        [...path, 'nonResourceURLs'],
        'Invalid value: namespaced rules cannot apply to non-resource URLs',
        'grant non-resource URLs in a ClusterRole',
      );
    if (
      (rule.apiGroups ?? []).length > 0 ||
      (rule.resources ?? []).length > 0 ||
      (rule.resourceNames ?? []).length > 0
    )
      refuse(
        [...path, 'nonResourceURLs'],
        'Invalid value: rules cannot apply to both regular resources and non-resource URLs',
        'write the non-resource URLs in a rule of their own',
      );
    return;
  }
  if ((rule.apiGroups ?? []).length === 0)
    refuse(
      [...path, 'apiGroups'],
      'Required value: resource rules must supply at least one api group',
      'write [""] for the core group',
    );
  if ((rule.resources ?? []).length === 0)
    refuse(
      [...path, 'resources'],
      'Required value: resource rules must supply at least one resource',
      'list the resources',
    );
}

interface Subject {
  kind: string;
  apiGroup?: string | undefined;
  name: string;
  namespace?: string | undefined;
}

/** Upstream's ValidateRoleBindingSubject; an empty apiGroup is defaulted first, as the v1 API does. */
function subjectCheck(subject: Subject, path: FieldPath, clusterScoped: boolean): void {
  const group = subject.apiGroup ?? '';
  if (subject.kind === 'ServiceAccount') {
    if (group !== '')
      refuse(
        [...path, 'apiGroup'],
        `Unsupported value: "${group}": a ServiceAccount subject's apiGroup is ""`,
        'drop apiGroup from the ServiceAccount subject',
      );
    if (!placeholder(subject.name) && !isDnsSubdomain(subject.name))
      refuse(
        [...path, 'name'],
        `"${subject.name}" is not a ServiceAccount name (a DNS subdomain)`,
        'use lowercase letters, digits, - and .',
      );
    if (clusterScoped && !subject.namespace)
      refuse(
        [...path, 'namespace'],
        'Required value: a ServiceAccount subject of a ClusterRoleBinding names its namespace',
        'add namespace:',
      );
    return;
  }
  if (group !== '' && group !== rbacGroup)
    refuse(
      [...path, 'apiGroup'],
      `Unsupported value: "${group}": a ${subject.kind} subject's apiGroup is "${rbacGroup}"`,
      `write apiGroup: ${rbacGroup}, or leave it out`,
    );
  if (subject.namespace)
    refuse([...path, 'namespace'], `a ${subject.kind} subject has no namespace`, 'drop namespace:');
}

/** Upstream's roleRef rules: the RBAC group, and a name that is a path segment. */
function roleRefCheck(ref: { apiGroup?: string | undefined; name: string }, path: FieldPath): void {
  if (ref.apiGroup !== undefined && ref.apiGroup !== rbacGroup)
    refuse([...path, 'apiGroup'], `Unsupported value: "${ref.apiGroup}"`, `write apiGroup: ${rbacGroup}`);
  if (!isPathSegmentName(ref.name))
    refuse([...path, 'name'], `"${ref.name}" may not be . or .. nor hold / or %`, 'name a role by its name');
}

/** An object a scope declares (content, what an initializer creates): schema, name and RBAC rules. */
function objectCheck(definition: ObjectDefinition, path: FieldPath): void {
  if (dnsNamedKinds.has(definition.kind) && !isDnsSubdomain(definition.name))
    refuse(
      [...path, 'name'],
      `"${definition.name}" is not a ${definition.kind} name: a lowercase DNS subdomain`,
      'use lowercase letters, digits, - and ., starting and ending with a letter or digit',
    );
  const bodies: [FieldPath, Pick<ObjectDefinition, 'roleRef' | 'subjects' | 'rules'>][] = [
    [path, definition],
    ...Object.entries(definition.byNamespace ?? {}).map(([namespace, body]): [FieldPath, typeof body] => [
      [...path, 'byNamespace', namespace],
      body,
    ]),
  ];
  for (const [at, body] of bodies) {
    const subjects = (body.subjects ?? []).map((s) => ({
      ...s,
      name: placeholder(s.name) ? 'creator' : s.name,
    }));
    if (definition.kind === 'RoleBinding')
      schemaCheck(
        'RoleBinding',
        {
          metadata: { name: definition.name },
          ...(body.roleRef ? { roleRef: { apiGroup: rbacGroup, ...body.roleRef } } : {}),
          subjects,
        },
        at,
      );
    if (definition.kind === 'Role')
      schemaCheck('Role', { metadata: { name: definition.name }, rules: body.rules ?? [] }, at);
    body.rules?.forEach((rule, i) => {
      ruleCheck(rule, [...at, 'rules', i], true);
    });
    body.subjects?.forEach((s, i) => {
      subjectCheck(s, [...at, 'subjects', i], false);
    });
    if (body.roleRef) roleRefCheck(body.roleRef, [...at, 'roleRef']);
  }
  if (dnsNamedKinds.has(definition.kind))
    schemaCheck(definition.kind, { metadata: { name: definition.name } }, path);
}

/** The manifests by their kind's schema (documentToScope has already refused any that does not fit one). */
function typedManifests(doc: ScopeDocument): ScopeManifest[] {
  return doc.manifests.map((m) => {
    const kind = m.kind as ScopeManifestKind;
    return manifestSchemas[kind].parse(m) as ScopeManifest;
  });
}

/** The principals that exist in a scope: its users, the model's controller accounts, and every binding's subjects. */
function knownPrincipals(doc: ScopeDocument): Set<string> {
  const known = new Set<string>([
    ...doc.users.map((u) => u.name),
    namespaceControllerAccount,
    initializerAccount,
    ...doc.finalizerOwners.map(finalizerOwnerAccount),
    // Whoever created a namespace before the run exists, though the scope need not let them act.
    ...doc.namespaces.flatMap((n) => (n.preexisting && n.creator !== undefined ? [n.creator] : [])),
  ]);
  const subjects = [
    ...typedManifests(doc).flatMap((m) => (m.kind === 'ClusterRoleBinding' ? m.subjects : [])),
    ...Object.values(doc.initializers).flatMap((i) => i.creates.subjects ?? []),
    ...doc.content.flatMap((c) => c.subjects ?? []),
  ];
  for (const s of subjects)
    known.add(s.kind === 'ServiceAccount' ? `system:serviceaccount:${s.namespace ?? ''}:${s.name}` : s.name);
  return known;
}

/** An RBAC manifest as a scenario's `given` states it: the schema and upstream's rules, or undefined. */
export function rbacManifestIssue(
  manifest: Record<string, unknown>,
  path: FieldPath,
): ScopeIssue | undefined {
  const kind = String(manifest.kind);
  if (!['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(kind)) return undefined;
  return firstIssue(() => {
    manifestSchemaCheck(manifest, kind, path);
    const rules = (manifest.rules ?? []) as Rule[];
    for (const [i, rule] of rules.entries()) ruleCheck(rule, [...path, 'rules', i], kind === 'Role');
    const subjects = (manifest.subjects ?? []) as Subject[];
    for (const [i, subject] of subjects.entries())
      subjectCheck(subject, [...path, 'subjects', i], kind === 'ClusterRoleBinding');
    if (manifest.roleRef) roleRefCheck(manifest.roleRef as { name: string }, [...path, 'roleRef']);
  });
}

/**
 * A request body of a kind whose spec the model does not hold (Pod, ResourceQuota, NetworkPolicy), by
 * its official schema: the apiserver refuses what the schema refuses (400 for a wrong type, 422 for a
 * missing field), an answer the model cannot give, so the scenario is refused instead. Undefined when
 * the schema takes it.
 */
export function specBodyIssue(
  kind: string,
  body: Record<string, unknown>,
  path: FieldPath,
): ScopeIssue | undefined {
  if (!['Pod', 'ResourceQuota', 'NetworkPolicy'].includes(kind)) return undefined;
  return firstIssue(() => {
    manifestSchemaCheck(body, kind, path);
  });
}

/** A manifest's labels and annotations as ValidateObjectMeta judges them: the first error is refused. */
function metadataCheck(manifest: Record<string, unknown>, path: FieldPath): void {
  const metaErrors = validateMetadataMaps(
    stringMap(manifest.metadata) as { labels?: Record<string, string>; annotations?: Record<string, string> },
  );
  if (metaErrors.length > 0) {
    const field = metaErrors[0].startsWith('metadata.labels') ? 'labels' : 'annotations';
    refuse(
      [...path, 'metadata', field],
      metaErrors[0].replace(/^metadata\.\w+: /, ''),
      'keys are qualified names (prefix/name), label values up to 63 characters of letters, digits, -, _ and .',
    );
  }
}

/** The first way Kubernetes (or the scope's own world) refuses the document, or undefined. */
export function kubernetesIssue(doc: ScopeDocument): ScopeIssue | undefined {
  return firstIssue(() => {
    typedManifests(doc).forEach((manifest, i) => {
      const path: FieldPath = ['manifests', i];
      metadataCheck(manifest as unknown as Record<string, unknown>, path);
      if (manifest.kind === 'NamespaceInitializerConfiguration') return;
      const { apiVersion: _, kind, ...data } = manifest;
      schemaCheck(kind, data, path);
      if (manifest.kind === 'ClusterRole')
        manifest.rules.forEach((rule, r) => {
          ruleCheck(rule, [...path, 'rules', r]);
        });
      if (manifest.kind === 'ClusterRoleBinding') {
        roleRefCheck(manifest.roleRef, [...path, 'roleRef']);
        manifest.subjects.forEach((s, k) => {
          subjectCheck(s, [...path, 'subjects', k], true);
        });
      }
    });
    for (const [name, initializer] of Object.entries(doc.initializers))
      objectCheck(initializer.creates, ['initializers', name, 'creates']);
    doc.content.forEach((definition, i) => {
      objectCheck(definition, ['content', i]);
    });
    doc.finalizerOwners.forEach((owner, i) => {
      if (doc.finalizerOwners.indexOf(owner) !== i)
        refuse(['finalizerOwners', i], `finalizer owner "${owner}" is listed twice`, 'list each owner once');
    });
    const known = knownPrincipals(doc);
    const unknownUser = (name: string, path: FieldPath) => {
      if (!known.has(name))
        refuse(
          path,
          `no user, service account or binding subject "${name}" in this scope`,
          `add a users entry for ${name}, or name one of ${[...doc.users.map((u) => u.name)].filter((n, k, all) => all.indexOf(n) === k).join(', ')}`,
        );
    };
    doc.namespaces.forEach((namespace, i) => {
      const path: FieldPath = ['namespaces', i];
      // Only a namespace the run creates may have a name Kubernetes refuses (its create is refused, NS-1).
      if ((namespace.preexisting || namespace.system) && !isDnsLabel(namespace.name))
        refuse(
          [...path, 'name'],
          `"${namespace.name}" is not a DNS label, so it cannot exist before the run`,
          'use lowercase letters, digits and -, or drop preexisting: an invalid name is explored through its refused create',
        );
      if (immortalNamespaces.includes(namespace.name) && !namespace.system)
        refuse(
          [...path, 'system'],
          `${namespace.name} is a system namespace (LC-10), never an ordinary one`,
          'add system: true',
        );
      if (namespace.creator !== undefined) unknownUser(namespace.creator, [...path, 'creator']);
    });
    const intent = doc.intent;
    if (intent) {
      intent.initializeHolders.forEach((n, i) => {
        unknownUser(n, ['intent', 'initializeHolders', i]);
      });
      for (const [initializer, account] of Object.entries(intent.initializerAccounts))
        unknownUser(account, ['intent', 'initializerAccounts', initializer]);
      const namespaces = new Set(doc.namespaces.map((n) => n.name));
      for (const [namespace, tenants] of Object.entries(intent.tenants)) {
        // Tenants of a namespace the scope leaves out are never judged (a narrowed copy keeps the full intent).
        if (!namespaces.has(namespace)) continue;
        tenants.forEach((n, i) => {
          unknownUser(n, ['intent', 'tenants', namespace, i]);
        });
      }
      intent.clusterWide.forEach((n, i) => {
        unknownUser(n, ['intent', 'clusterWide', i]);
      });
      for (const [finalizer, owner] of Object.entries(intent.finalizerOwners))
        unknownUser(owner, ['intent', 'finalizerOwners', finalizer]);
    }
  });
}

/**
 * Go's base64.StdEncoding as encoding/json decodes a `[]byte` field (Secret `data`, ConfigMap
 * `binaryData`): the standard alphabet with `=` padding, newlines skipped. The offset of the first byte
 * it refuses, as upstream's "illegal base64 data at input byte N", or undefined when it decodes.
 */
export function illegalBase64Byte(value: string): number | undefined {
  let kept = 0;
  let padding = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\n' || c === '\r') continue;
    if (c === '=') {
      if (padding < 0) padding = i;
      kept++;
      continue;
    }
    if (padding >= 0 || !/[A-Za-z0-9+/]/.test(c)) return i;
    kept++;
  }
  if (kept % 4 !== 0) return value.length;
  if (padding >= 0) {
    const pads = value.slice(padding).replace(/[\r\n]/g, '').length;
    if (pads > 2) return padding;
  }
  return undefined;
}

/** apimachinery's IsConfigMapKey: the keys of ConfigMap and Secret data. */
function configKeyProblem(key: string): string | undefined {
  if (key.length > 253) return 'must be no more than 253 characters';
  if (!/^[-._a-zA-Z0-9]+$/.test(key))
    return "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  if (key === '.') return "must not be '.'";
  if (key === '..') return "must not be '..'";
  if (key.startsWith('..')) return "must not start with '..'";
  return undefined;
}

const stringMap = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** What upstream makes of a Secret's or ConfigMap's data: the 400 of a value it cannot decode, else its field errors. */
export interface DataVerdict {
  /** The decode error's message (400 BadRequest, before admission): a `data`/`binaryData` value that is not base64. */
  undecodable?: { field: string; key: string; message: string };
  /** Field errors as ValidateSecret and ValidateConfigMap write them (422 Invalid), in their order. */
  errors: { field: FieldPath; error: string }[];
}

const quoted = (value: string) => JSON.stringify(value);

/**
 * Go's encoding/json error for a value that is no JSON object (json.Unmarshal into map[string]interface{}),
 * worded as Go words it for an empty value, a first character no JSON value starts with, a misspelt
 * literal (true, false, null) and a value of another type; any other syntax error is named as JavaScript
 * names it, with the offset.
 */
function jsonObjectProblem(text: string): string | undefined {
  const char = (c: string) => `'${c}'`;
  const trimmed = text.trimStart();
  if (trimmed.trim() === '') return 'unexpected end of JSON input';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const first = trimmed[0];
    if (!/[[{"\-0-9tfn]/.test(first))
      return `invalid character ${char(first)} looking for beginning of value`;
    const literal = first === 't' ? 'true' : first === 'f' ? 'false' : first === 'n' ? 'null' : undefined;
    if (literal) {
      for (let i = 1; i < literal.length; i++) {
        if (i >= trimmed.length) return 'unexpected end of JSON input';
        if (trimmed[i] !== literal[i])
          return `invalid character ${char(trimmed[i])} in literal ${literal} (expecting ${char(literal[i])})`;
      }
    }
    return `not JSON (${(error as Error).message})`;
  }
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return undefined;
  const type = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return `json: cannot unmarshal ${type} into Go value of type map[string]interface {}`;
}

/**
 * A Secret's or ConfigMap's data as the apiserver judges it: the decode of its base64 fields, then
 * upstream's ValidateSecret (config keys; the keys and annotation its `type` requires) or ValidateConfigMap
 * (config keys; a key in both data and binaryData). `stringData` is merged over `data`, as the v1
 * conversion merges it before validation.
 */
export function dataVerdict(kind: 'Secret' | 'ConfigMap', manifest: Record<string, unknown>): DataVerdict {
  const verdict: DataVerdict = { errors: [] };
  const encodedField = kind === 'Secret' ? 'data' : 'binaryData';
  for (const [key, value] of Object.entries(stringMap(manifest[encodedField]))) {
    if (typeof value !== 'string') continue;
    const at = illegalBase64Byte(value);
    if (at !== undefined) {
      verdict.undecodable = {
        field: encodedField,
        key,
        message: `${kind} in version "v1" cannot be handled as a ${kind}: illegal base64 data at input byte ${at}`,
      };
      return verdict;
    }
  }
  const invalid = (field: string, key: string, detail: string) =>
    verdict.errors.push({
      field: [field, key],
      error: `${field}[${key}]: Invalid value: ${quoted(key)}: ${detail}`,
    });
  if (kind === 'ConfigMap') {
    const data = stringMap(manifest.data);
    const binary = stringMap(manifest.binaryData);
    for (const key of Object.keys(data)) {
      const problem = configKeyProblem(key);
      if (problem) invalid('data', key, problem);
      if (key in binary) invalid('data', key, 'duplicate of key present in binaryData');
    }
    for (const key of Object.keys(binary)) {
      const problem = configKeyProblem(key);
      if (problem) invalid('binaryData', key, problem);
    }
    return verdict;
  }
  // The bytes of each key once decoded: stringData's plain text wins over data's base64, as upstream merges them.
  const bytes = new Map<string, string>();
  /** The field of the file that holds each key (upstream names data[KEY] for both). */
  const holder = new Map<string, string>();
  for (const [key, value] of Object.entries(stringMap(manifest.data)))
    bytes.set(
      key,
      typeof value === 'string' ? Buffer.from(value.replace(/[\r\n]/g, ''), 'base64').toString('latin1') : '',
    );
  for (const key of Object.keys(stringMap(manifest.data))) holder.set(key, 'data');
  for (const key of Object.keys(stringMap(manifest.stringData))) holder.set(key, 'stringData');
  for (const [key, value] of Object.entries(stringMap(manifest.stringData)))
    bytes.set(key, typeof value === 'string' ? Buffer.from(value, 'utf8').toString('latin1') : '');
  for (const key of bytes.keys()) {
    const problem = configKeyProblem(key);
    if (problem)
      verdict.errors.push({
        field: [holder.get(key) ?? 'data', key],
        error: `data[${key}]: Invalid value: ${quoted(key)}: ${problem}`,
      });
  }
  const required = (path: FieldPath, shown: string) =>
    verdict.errors.push({ field: path, error: `${shown}: Required value` });
  const type = typeof manifest.type === 'string' ? manifest.type : '';
  const annotations = stringMap(stringMap(manifest.metadata).annotations);
  const jsonKey = (key: string) => {
    const value = bytes.get(key);
    if (value === undefined) return required(['data', key], `data[${key}]`);
    const at: FieldPath = [holder.get(key) ?? 'data', key];
    const problem = jsonObjectProblem(Buffer.from(value, 'latin1').toString('utf8'));
    if (problem)
      verdict.errors.push({
        field: at,
        error: `data[${key}]: Invalid value: "<secret contents redacted>": ${problem}`,
      });
  };
  switch (type) {
    case 'kubernetes.io/service-account-token': {
      const name = annotations['kubernetes.io/service-account.name'];
      if (typeof name !== 'string' || name.length === 0)
        required(
          ['metadata', 'annotations', 'kubernetes.io/service-account.name'],
          'metadata.annotations[kubernetes.io/service-account.name]',
        );
      break;
    }
    case 'kubernetes.io/dockercfg':
      jsonKey('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      jsonKey('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      // Upstream's path here is written with a literal %s (field.NewPath("data[%s]")): kept as it answers.
      if (!bytes.has('username') && !bytes.has('password')) {
        required(['data', 'username'], 'data[%s][username]');
        required(['data', 'password'], 'data[%s][password]');
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if ((bytes.get('ssh-privatekey') ?? '').length === 0)
        required(['data', 'ssh-privatekey'], 'data[%s][ssh-privatekey]');
      break;
    case 'kubernetes.io/tls':
      if (!bytes.has('tls.crt')) required(['data', 'tls.crt'], 'data[tls.crt]');
      if (!bytes.has('tls.key')) required(['data', 'tls.key'], 'data[tls.key]');
      break;
  }
  return verdict;
}

/** Secret and ConfigMap data as upstream decodes and validates them (dataVerdict): the first problem is refused. */
function dataCheck(kind: 'Secret' | 'ConfigMap', manifest: Record<string, unknown>, path: FieldPath): void {
  const verdict = dataVerdict(kind, manifest);
  if (verdict.undecodable) {
    const { field, key, message } = verdict.undecodable;
    refuse(
      [...path, field, key],
      message,
      `${field} values are base64 (echo -n VALUE | base64)${kind === 'Secret' ? ', or put the plain text under stringData' : ''}`,
    );
  }
  const first = verdict.errors[0];
  if (first) {
    const required = first.error.endsWith(': Required value');
    refuse(
      [...path, ...first.field],
      first.error.slice(first.error.indexOf(': ') + 2),
      required
        ? `a Secret of type ${String(manifest.type)} needs it (or write type: Opaque)`
        : first.error.includes('duplicate of key')
          ? 'keep the key in one of data and binaryData'
          : first.error.includes('<secret contents redacted>')
            ? 'its value is a JSON object, base64-encoded under data (or plain under stringData)'
            : 'name the key with letters, digits, -, _ and .',
    );
  }
}

/** A configuration's initializer or hook names: DNS subdomains with at least three segments (upstream's v1alpha1 rule). */
function qualifiedEntryNames(entries: unknown, path: FieldPath): void {
  if (!Array.isArray(entries)) return;
  entries.forEach((entry, i) => {
    const name = stringMap(entry).name;
    if (typeof name !== 'string') return;
    if (!isDnsSubdomain(name) || name.split('.').length < 3)
      refuse(
        [...path, i, 'name'],
        `Invalid value: "${name}": should be a domain with at least three segments separated by dots`,
        'e.g. quota.example.com',
      );
  });
}

/**
 * Any manifest a scenario's `given` holds, judged as the apiserver would before the object could exist:
 * RBAC by the schema and upstream's rules; Namespace, ConfigMap, Secret, Pod, ResourceQuota and
 * NetworkPolicy by their official schemas, names, labels, annotations, finalizers and data; the
 * admission configurations by their names and their entries' names. Undefined when it would be stored.
 */
export function scenarioManifestIssue(
  manifest: Record<string, unknown>,
  path: FieldPath,
): ScopeIssue | undefined {
  const kind = String(manifest.kind);
  const rbac = rbacManifestIssue(manifest, path);
  if (rbac) return rbac;
  return firstIssue(() => {
    const metadata = stringMap(manifest.metadata);
    metadataCheck(manifest, path);
    if (kind === 'Secret' || kind === 'ConfigMap') dataCheck(kind, manifest, path);
    if (kind === 'Namespace') {
      const finalizers = stringMap(manifest.spec).finalizers;
      if (Array.isArray(finalizers))
        finalizers.forEach((f, i) => {
          const error = typeof f === 'string' ? validateFinalizerName(f)[0] : undefined;
          if (error)
            refuse(
              [...path, 'spec', 'finalizers', i],
              error.replace(/^spec\.finalizers: /, ''),
              'a finalizer is kubernetes or a qualified name such as example.com/cleanup',
            );
        });
    }
    if (kind === 'NamespaceInitializerConfiguration' || kind === 'InitializerConfiguration')
      qualifiedEntryNames(manifest.initializers, [...path, 'initializers']);
    if (kind === 'ExternalAdmissionHookConfiguration')
      qualifiedEntryNames(manifest.externalAdmissionHooks, [...path, 'externalAdmissionHooks']);
    if (
      [
        'NamespaceInitializerConfiguration',
        'InitializerConfiguration',
        'ExternalAdmissionHookConfiguration',
      ].includes(kind)
    ) {
      const name = metadata.name;
      if (typeof name === 'string' && !isDnsSubdomain(name))
        refuse(
          [...path, 'metadata', 'name'],
          `Invalid value: "${name}": not a ${kind} name: a lowercase RFC 1123 subdomain`,
          'use lowercase letters, digits, - and .',
        );
    }
    if (kind in models && !['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(kind)) {
      manifestSchemaCheck(manifest, kind, path);
    }
  });
}
