import { bootstrapClusterRoles, clusterAdminBinding } from '../../machines/bootstrap-rbac.ts';
import { entriesField } from '../../machines/initializer-config.ts';
import type { ClusterRole, OperationType, PolicyRule } from '../../machines/k8s-types.ts';
import { generatedName, isQualifiedFinalizerName } from '../../machines/names.ts';
import type { PropagationPolicy } from '../../machines/namespace.ts';
import { anonymousUser, unauthenticatedGroup } from '../../machines/rbac.ts';
import {
  builtInActorBindings,
  type ClusterObjectSpec,
  type ClusterRoleBindingSpec,
  type ConfigurationKind,
  type ConfigurationSpec,
  configurationResource,
  finalizerOwnerAccount,
  type InitializerSpec,
  immortalNamespaces,
  type NamespaceSpec,
  type ObjectSlot,
  type Scope,
  type SubjectSpec,
} from '../../machines/scope.ts';
import type { MachineSet } from '../../machines/system.ts';
import type { DeletePreconditions, SentRbac } from '../../machines/system-types.ts';
import { baseVariantName, machinesFor, variantByName, variants } from '../../variants/variants.ts';
import { dataVerdict } from '../cli/kubernetes-validation.ts';
import {
  closest,
  type ParsedPath,
  parseRequestLine,
  RequestLineError,
  type Verb,
} from '../cli/request-line.ts';
import { scopeFromData } from '../cli/scope-file.ts';
import {
  accessReviewRefusal,
  builtInGroupResources,
  declaredResource,
  isAccessReview,
} from '../cli/scope-format.ts';
import { loadDecisions, loadRequirements } from './catalog.ts';
import { type FieldPath, formatFieldPath, type LoadedScenario, ScenarioFieldError } from './load.ts';
import {
  type AdmissionCheckInput,
  bodySchemas,
  type CheckInput,
  type ConfigurationBody,
  type ContentBody,
  type ContentKind,
  configurationEntrySchema,
  contentKinds,
  type DeleteOptionsBody,
  type EventualConditionInput,
  type EventuallyInput,
  type ExpectInput,
  type NamespaceBody,
  type PolicyRuleInput,
  type RoleRefInput,
  type SentRoleRefInput,
  type SentSubjectInput,
  type StepInput,
  type SubjectInput,
} from './schema.ts';

/**
 * Compiles a loaded scenario into what the system model runs: a Scope (every namespace, object,
 * configuration, binding and finalizer owner the story names becomes a slot) and a list of steps in
 * the model's terms. What the model cannot express yet is kept as `unsupported` with the reason, so
 * the replayer reports it as a mismatch instead of quietly bending the story.
 */

export interface Principal {
  name: string;
  groups: string[];
}

export interface Expectation {
  code: number;
  reason?: string;
  cause?: string;
  message?: string;
  items?: string[];
}

/** A request in the model's terms; the pending-list change of an update is resolved against the state. */
/** metadata.labels and metadata.annotations a create or update sends, for the model to validate. */
interface SentMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** A binding's roleRef and subject kinds beyond the shapes the model keeps, for it to validate (RB-4). */
  sentRbac?: SentRbac;
  /** A list sent as a watch (`?watch=true`): RBAC asks for the verb watch. */
  watch?: true;
}

export type RequestPlan =
  | ({
      type: 'namespace';
      verb: Exclude<Verb, 'patch' | 'watch' | 'deletecollection'>;
      namespace: number;
      /** list of namespaces: -1. */
      initializers?: string[];
      extraFinalizers?: string[];
      finalizers?: string[];
      /** spec.initializers.pending as sent by an update (names in order). */
      desiredPending?: string[];
      failure?: string;
      /** metadata.name of an update's body when it is not the path's (NS-4, D-38). */
      bodyName?: string;
      /** `namespaces/NAME/status` (NS-5): never changes the spec. */
      status?: true;
      /** status.phase a status update sends (D-30). */
      phase?: string;
      /** metadata.generateName of a create; `namespace` is the name generated from it (D-45). */
      generateName?: string;
      /** metadata.finalizers of a create or update (D-46). */
      metadataFinalizers?: string[];
      /** A DELETE's DeleteOptions.propagationPolicy (D-46). */
      propagationPolicy?: PropagationPolicy;
      /** A DELETE's DeleteOptions.preconditions (D-46). */
      preconditions?: DeletePreconditions;
    } & SentMetadata)
  | ({
      type: 'content';
      verb: Exclude<Verb, 'patch' | 'finalize' | 'watch'>;
      namespace: number;
      object: number;
      resource?: string;
      /** metadata.namespace of the body when it names one (NS-4, D-14). */
      bodyNamespace?: string;
      /** A RoleBinding update's roleRef when it differs from the stored binding's (RB-4: immutable). */
      roleRef?: { kind: 'ClusterRole' | 'Role'; name: string };
      /** metadata.name of an update's body when it is not the path's (NS-4, D-38). */
      bodyName?: string;
      /** A Secret's or ConfigMap's data the apiserver refuses, which the model does not hold (sent as the request's `body.data`). */
      refusedData?: RefusedData;
      /** A DELETE's DeleteOptions.preconditions (D-46). */
      preconditions?: DeletePreconditions;
    } & SentMetadata)
  | {
      /** A ClusterRole or ClusterRoleBinding: the scope's `clusterObjects` slot (D-23). */
      type: 'cluster-object';
      verb: 'create' | 'get' | 'update' | 'delete';
      slot: number;
      /** A ClusterRoleBinding's roleRef and subject kinds beyond the shapes the model keeps (RB-4). */
      sentRbac?: SentRbac;
    }
  | {
      type: 'configuration';
      verb: 'create' | 'get' | 'update' | 'delete';
      /** The configuration's slot in the scope, and the version the body carries (FP-3). */
      slot: number;
      version: number;
    };

/**
 * What the apiserver makes of the data a Secret or ConfigMap body sends, when it refuses it: the model
 * keeps no object's data, so the request carries this verdict (`ApiRequest.body.data`) and the request
 * pipeline decides the answer (machines/pipeline.ts: `bodyUndecodable`, `dataInvalid`).
 */
export interface RefusedData {
  kind: 'Secret' | 'ConfigMap';
  name: string;
  /** The decode error (400 BadRequest): a base64 field whose value is not base64. */
  undecodable?: string;
  /** ValidateSecret's or ValidateConfigMap's field errors (422 Invalid), after the metadata's. */
  errors: string[];
}

/** The data a create or update of a Secret or ConfigMap sends, judged as upstream judges it; undefined when it stands. */
function refusedDataOf(
  resource: string,
  verb: string,
  name: string,
  body: Record<string, unknown> | undefined,
): RefusedData | undefined {
  const kind = resource === 'secrets' ? 'Secret' : resource === 'configmaps' ? 'ConfigMap' : undefined;
  if (!kind || !body || (verb !== 'create' && verb !== 'update')) return undefined;
  const verdict = dataVerdict(kind, body);
  if (!verdict.undecodable && verdict.errors.length === 0) return undefined;
  return {
    kind,
    name,
    ...(verdict.undecodable ? { undecodable: verdict.undecodable.message } : {}),
    errors: verdict.errors.map((e) => e.error),
  };
}

/** An initializer or webhook entry as a manifest or a request body gives it. */
type EntryInput = {
  name: string;
  failurePolicy?: 'Ignore' | 'Fail';
  timeoutSeconds?: number;
  rules?: { apiGroups: string[]; apiVersions: string[]; resources: string[]; verbs?: string[] }[];
};

const configurationKinds: readonly ConfigurationKind[] = [
  'NamespaceInitializerConfiguration',
  'InitializerConfiguration',
  'ExternalAdmissionHookConfiguration',
];

export interface Located {
  /** 0-based index in `steps`. */
  index: number;
  line: number;
  /** The step as written, for the report. */
  text: string;
}

export type CompiledStep = Located &
  (
    | {
        kind: 'request';
        principal: Principal;
        plan: RequestPlan | null;
        unsupported?: string;
        expect: Expectation;
      }
    | {
        kind: 'controller';
        mode: 'run' | 'step';
        actor: string;
        actorKind: 'initializer' | 'namespace-controller' | 'finalizer-owner' | 'apiserver';
        namespace?: number;
        expect?: Expectation;
      }
    | { kind: 'fault'; action: 'crash' | 'restart'; actor: string }
    | { kind: 'config-read'; failing: boolean }
    | { kind: 'tick'; seconds: number }
    | { kind: 'check'; namespace: number; check: CheckInput }
    | { kind: 'admission'; check: AdmissionCheckInput }
    | {
        kind: 'eventually';
        expectation: EventuallyInput;
        /** The namespace slot of each condition of `expectation.any`, -1 for one about no namespace. */
        slots: number[];
      }
  );

export interface CompiledScenario {
  file: string;
  title: string;
  requirements: string[];
  contrasts: string[];
  decisions: string[];
  source?: string;
  variant: string;
  pending?: string;
  scope: Scope;
  machines: MachineSet;
  /** Object slots in model order (the scope's content, which also holds every initializer's object). */
  objects: ObjectSlot[];
  steps: CompiledStep[];
  /** Parts of `given` the model cannot represent, each with its line. */
  unsupported: { line: number; field: string; problem: string }[];
}

const requirementIds = new Set(loadRequirements().map((r) => r.id));
const decisionIds = new Set(loadDecisions().keys());

const resourceToKind = new Map<string, ContentKind>(
  Object.entries(contentKinds).map(([kind, { resource }]) => [resource, kind as ContentKind]),
);
export const kindOfResource = (resource: string): string => resourceToKind.get(resource) ?? resource;

/** Built-in actors' grants, as every scope has them: the namespace controller, initializers, finalizer owners. */
const builtInBindings: ClusterRoleBindingSpec[] = [
  ...builtInActorBindings.filter((b) =>
    b.subjects.every((s) => s.kind === 'ServiceAccount' || s.name.startsWith('system:serviceaccount:')),
  ),
  {
    name: 'origin-namespace-finalizer',
    clusterRole: 'namespace-finalizer',
    subjects: [{ kind: 'User', name: finalizerOwnerAccount('openshift.com/origin') }],
  },
];

export const serviceAccountGroups = (user: string): string[] => {
  const match = /^system:serviceaccount:([^:]+):[^:]+$/.exec(user);
  return match ? ['system:serviceaccounts', `system:serviceaccounts:${match[1]}`] : [];
};

function toExpectation(input: ExpectInput): Expectation {
  if (typeof input === 'number') return { code: input };
  if (typeof input === 'string') {
    const [code, reason] = input.split(' ');
    return { code: Number(code), ...(reason ? { reason } : {}) };
  }
  return { ...input };
}

/** One condition of an `eventually`, in one line. */
export const conditionText = (c: EventualConditionInput): string => {
  if ('namespace' in c) {
    const parts = [
      c.exists === undefined ? '' : c.exists ? 'exists' : 'does not exist',
      c.gone === undefined ? '' : c.gone ? 'is gone' : 'is not gone',
      c.phase === undefined ? '' : typeof c.phase === 'string' ? `is ${c.phase}` : `is not ${c.phase.not}`,
      c.pending === undefined ? '' : `has pending ${JSON.stringify(c.pending)}`,
      c.firstPending === undefined ? '' : `has not ${c.firstPending.not} first pending`,
      c.timer === undefined ? '' : 'lost its timer',
    ];
    return `${c.namespace} ${parts.filter(Boolean).join(' and ')}`;
  }
  if ('initializer' in c) return `${c.initializer} ${c.crashed ? 'is crashed' : 'is running'}`;
  if ('admission' in c) return `admission's copy is ${c.admission.fresh ? 'fresh' : 'stale'}`;
  return `configuration reads are ${c.configReads}`;
};

const stepText = (step: StepInput): string => {
  switch (step.kind) {
    case 'do':
      return `${step.as}: ${step.do}`;
    case 'run':
    case 'step':
      return `${step.kind} ${step.kind === 'run' ? step.run : step.step}${step.namespace ? ` on ${step.namespace}` : ''}`;
    case 'crash':
      return `crash ${step.crash}`;
    case 'restart':
      return `restart ${step.restart}`;
    case 'fail':
      return `fail ${step.fail}`;
    case 'recover':
      return `recover ${step.recover}`;
    case 'tick':
      return `tick ${step.tick}s`;
    case 'check':
      return `check ${step.check.namespace}`;
    case 'admission':
      return 'check admission';
    case 'eventually':
      return `eventually ${step.eventually.any.map(conditionText).join(' or ')}`;
  }
};

/** What an RBAC object grants: a RoleBinding's roleRef and subjects, or a Role's rules. */
type RbacDefinition = Pick<ObjectSlot, 'roleBinding' | 'role'>;

const toRules = (rules: readonly PolicyRuleInput[]): PolicyRule[] =>
  rules.map((r) => ({
    apiGroups: [...(r.apiGroups ?? [])],
    resources: [...(r.resources ?? [])],
    verbs: [...r.verbs],
    ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}),
    ...(r.nonResourceURLs ? { nonResourceURLs: [...r.nonResourceURLs] } : {}),
  }));

const toSubjectSpec = (s: SubjectInput): SubjectSpec => ({
  kind: s.kind,
  name: s.name,
  ...(s.namespace ? { namespace: s.namespace } : {}),
  ...(s.apiGroup !== undefined ? { apiGroup: s.apiGroup } : {}),
});

const keptSubjectKinds: readonly string[] = ['User', 'Group', 'ServiceAccount'];

/**
 * A binding body as the model keeps it, and what it sends beyond that for the model to validate (RB-4): a
 * roleRef of another group or kind or without a name, subjects of no known kind. Such a body is refused
 * (422) before anything is stored, so the kept roleRef and subjects only name the object's slot.
 */
function bindingSent(
  body: { roleRef?: SentRoleRefInput; subjects?: SentSubjectInput[] },
  path: FieldPath,
): { roleRef?: RoleRefInput; subjects?: SubjectInput[]; sentRbac?: SentRbac } | { unsupported: string } {
  const ref = body.roleRef;
  const subjects = body.subjects ?? [];
  const known = subjects.filter((s): s is SubjectInput => keptSubjectKinds.includes(s.kind ?? ''));
  if (known.length > 0 && known.length < subjects.length)
    return {
      unsupported: `subjects of no known kind beside others (${formatFieldPath([...path, 'subjects'])}): the model validates such subjects only alone`,
    };
  const roleRefSent =
    ref &&
    ((ref.apiGroup !== undefined && ref.apiGroup !== 'rbac.authorization.k8s.io') ||
      (ref.kind !== 'ClusterRole' && ref.kind !== 'Role') ||
      !ref.name);
  const sentRbac: SentRbac = {
    ...(ref && roleRefSent
      ? {
          roleRef: {
            ...(ref.apiGroup !== undefined ? { apiGroup: ref.apiGroup } : {}),
            kind: ref.kind,
            name: ref.name ?? '',
          },
        }
      : {}),
    ...(known.length < subjects.length ? { subjectKinds: subjects.map((s) => s.kind ?? '') } : {}),
  };
  return {
    ...(ref ? { roleRef: { kind: ref.kind === 'Role' ? 'Role' : 'ClusterRole', name: ref.name ?? '' } } : {}),
    ...(body.subjects ? { subjects: known } : {}),
    ...(Object.keys(sentRbac).length > 0 ? { sentRbac } : {}),
  };
}

class ScopeBuilder {
  readonly namespaces = new Map<string, NamespaceSpec>();
  readonly objects: ObjectSlot[] = [];
  /** Where each object was first defined, to refuse a second, different definition under the same name. */
  private readonly objectDefinitions = new Map<string, string>();
  readonly finalizerOwners: string[] = [];
  readonly unsupported: CompiledScenario['unsupported'] = [];
  /** How many names the generator has drawn for each generateName prefix, in step order (D-45). */
  private readonly draws = new Map<string, number>();
  /** Declared content kinds (given.kinds): the Kind of each by the resource segment paths name it with. */
  readonly declaredKinds = new Map<string, string>();
  /** Each declared kind's version, for `apis/GROUP/VERSION/...` paths. */
  readonly declaredVersions = new Map<string, string>();

  constructor(private readonly scenario: LoadedScenario) {
    this.namespace('default');
  }

  /** The name the server generates for the next create with this generateName prefix (D-45). */
  generatedNamespace(prefix: string): string {
    const draw = this.draws.get(prefix) ?? 0;
    this.draws.set(prefix, draw + 1);
    return generatedName(prefix, draw);
  }

  namespace(name: string): number {
    if (!this.namespaces.has(name)) {
      const system = immortalNamespaces.includes(name);
      this.namespaces.set(name, { name, ...(system ? { system: true } : {}) });
    }
    return [...this.namespaces.keys()].indexOf(name);
  }

  unsupportedAt(path: FieldPath, problem: string): void {
    this.unsupported.push({ line: this.scenario.lineOf(path), field: formatFieldPath(path), problem });
  }

  owner(finalizer: string): void {
    if (
      finalizer.includes('/') &&
      isQualifiedFinalizerName(finalizer) &&
      !this.finalizerOwners.includes(finalizer)
    )
      this.finalizerOwners.push(finalizer);
  }

  /**
   * The slot of RESOURCE/NAME. A Role's or RoleBinding's grant is its first definition; a different
   * one in another namespace is kept for that namespace (ObjectSlot.byNamespace).
   */
  object(
    resource: string,
    name: string,
    rbac: RbacDefinition | undefined,
    path: FieldPath,
    namespace?: string,
  ): number {
    const key = `${resource}/${name}`;
    const index = this.objects.findIndex((o) => o.resource === resource && o.name === name);
    const definition = rbac ? JSON.stringify(rbac) : '';
    if (index < 0) {
      const kind = this.declaredKinds.get(resource);
      this.objects.push({ resource, name, ...(kind ? { kind } : {}), ...(rbac ?? {}) });
      this.objectDefinitions.set(key, definition);
      if (rbac && namespace) this.objectDefinitions.set(`${key}@${namespace}`, definition);
      return this.objects.length - 1;
    }
    if (!rbac) return index;
    const known = this.objectDefinitions.get(key) ?? '';
    if (known === '') {
      this.objects[index] = { ...this.objects[index], ...rbac };
      this.objectDefinitions.set(key, definition);
      if (namespace) this.objectDefinitions.set(`${key}@${namespace}`, definition);
      return index;
    }
    const here = namespace ? this.objectDefinitions.get(`${key}@${namespace}`) : known;
    if (here === definition || (here === undefined && known === definition)) return index;
    if (namespace && here === undefined) {
      const slot = this.objects[index];
      this.objects[index] = { ...slot, byNamespace: { ...slot.byNamespace, [namespace]: rbac } };
      this.objectDefinitions.set(`${key}@${namespace}`, definition);
      return index;
    }
    this.unsupportedAt(
      path,
      `a second, different ${key}${namespace ? ` in ${namespace}` : ''}: the model fixes what an RBAC object grants in a namespace by its first definition there`,
    );
    return index;
  }

  /** The RBAC definition RESOURCE/NAME has in a namespace so far, if any. */
  definitionIn(resource: string, name: string, namespace: string): RbacDefinition | undefined {
    const slot = this.objects.find((o) => o.resource === resource && o.name === name);
    if (!slot) return undefined;
    const definition = slot.byNamespace?.[namespace] ?? slot;
    return definition.roleBinding || definition.role ? definition : undefined;
  }

  /** A RoleBinding as the model keeps it: roleRef to a ClusterRole or a Role, every subject. */
  binding(
    roleRef: RoleRefInput | undefined,
    subjects: SubjectInput[] | undefined,
  ): RbacDefinition | undefined {
    if (!roleRef || !subjects || subjects.length === 0) return undefined;
    const [first, ...rest] = subjects;
    return {
      roleBinding: {
        clusterRole: roleRef.name,
        ...(roleRef.kind === 'Role' ? { roleKind: 'Role' as const } : {}),
        subject: first.name,
        subjectKind: first.kind,
        ...(first.namespace ? { subjectNamespace: first.namespace } : {}),
        ...(first.apiGroup !== undefined ? { subjectApiGroup: first.apiGroup } : {}),
        ...(rest.length > 0 ? { moreSubjects: rest.map(toSubjectSpec) } : {}),
      },
    };
  }

  /** The RBAC definition a body of RESOURCE carries (RoleBindings and Roles), if any. */
  rbacOf(
    resource: string,
    body: { roleRef?: RoleRefInput; subjects?: SubjectInput[]; rules?: PolicyRuleInput[] } | undefined,
  ): RbacDefinition | undefined {
    if (resource === 'rolebindings') return this.binding(body?.roleRef, body?.subjects);
    if (resource === 'roles' && body?.rules) return { role: { rules: toRules(body.rules) } };
    return undefined;
  }
}

type GivenManifest = LoadedScenario['manifests'][number];
/** A given manifest of a kind given.kinds declares. */
const isDeclaredContent = (m: GivenManifest): m is Extract<GivenManifest, { declaredResource: string }> =>
  'declaredResource' in m && typeof m.declaredResource === 'string';

/** A request line parsed, its problems reported on the field that holds it. */
function requestLineAt(
  text: string,
  path: FieldPath,
  declared: readonly string[],
  versions: ReadonlyMap<string, string>,
): ReturnType<typeof parseRequestLine> {
  try {
    return parseRequestLine(text, declared, versions);
  } catch (error) {
    if (error instanceof RequestLineError) throw new ScenarioFieldError(path, error.message, error.hint);
    throw error;
  }
}

/**
 * Fields of a body that Kubernetes takes and the model deliberately has not: the refusal names the
 * decision, so an upstream case that sends one meets the reason, not only an unknown field.
 */
const notModelledFields: Partial<Record<keyof typeof bodySchemas, Readonly<Record<string, string>>>> = {
  namespace: {
    conditions:
      'client-written conditions are not modelled; a namespace has only the conditions the model sets itself, D-30 and D-22',
    deletionTimestamp: 'a body cannot set it; only a DELETE does, LC-3 and D-11',
    uid: 'the model keeps no uid, D-46',
    resourceVersion: 'the model keeps no resourceVersion, D-46',
  },
  deleteOptions: {
    orphanDependents: 'deprecated and not in the vocabulary; send propagationPolicy: Orphan, D-46',
    gracePeriodSeconds:
      'a namespace has no graceful deletion, so Kubernetes ignores it there; leave it out, D-46 and D-11',
  },
};

function validateBody<T>(schemaName: keyof typeof bodySchemas, body: unknown, path: FieldPath): T {
  const result = bodySchemas[schemaName].safeParse(body ?? {});
  if (result.success) return result.data as T;
  const issue = result.error.issues[0];
  if (issue.code === 'unrecognized_keys')
    throw new ScenarioFieldError(
      [...path, ...(issue.path as (string | number)[]), issue.keys[0]],
      `unknown field "${issue.keys[0]}" in a ${schemaName} body`,
      notModelledFields[schemaName]?.[issue.keys[0]],
      issue.keys[0],
    );
  throw new ScenarioFieldError([...path, ...(issue.path as (string | number)[])], issue.message);
}

/** Compiles a loaded scenario; throws ScenarioFieldError for what no valid scenario may say. */
export function compileScenario(scenario: LoadedScenario): CompiledScenario {
  const { header, steps } = scenario;
  /** Every ID a header field names must be known; the first unknown one is a field error with a hint. */
  const knownIds = (field: string, ids: readonly string[], known: Set<string>, what: string, where: string) =>
    ids.forEach((id, i) => {
      if (!known.has(id))
        throw new ScenarioFieldError([field, i], `unknown ${what} "${id}"`, hintFor(id, [...known], where));
    });
  knownIds('requirements', header.requirements, requirementIds, 'requirement', 'IDs of docs/requirements.md');
  knownIds('contrasts', header.contrasts ?? [], requirementIds, 'requirement', 'IDs of docs/requirements.md');
  knownIds('decisions', header.decisions ?? [], decisionIds, 'decision', 'D-n of docs/decisions.md');
  const variant = header.variant ?? baseVariantName;
  if (variant !== baseVariantName && !variantByName(variant))
    throw new ScenarioFieldError(
      ['variant'],
      `unknown variant "${variant}"`,
      hintFor(variant, [baseVariantName, ...variants.map((v) => v.name)]),
    );

  const builder = new ScopeBuilder(scenario);
  const given = header.given ?? {};
  const inline = given.scope === undefined ? undefined : inlineScope(given.scope);
  if (inline) seedFromScope(builder, inline);
  const users = new Map([
    ...(inline?.principals ?? []).map((p): [string, string[]] => [p.name, p.groups]),
    ...(given.users ?? []).map((u): [string, string[]] => [u.name, u.groups]),
  ]);
  const clusterRoleBindings: ClusterRoleBindingSpec[] = [...(inline?.clusterRoleBindings ?? builtInBindings)];
  const clusterRoles = new Map<string, ClusterRole>(
    (inline?.clusterRoles ?? []).map((r) => [r.metadata.name, r]),
  );
  const configurations: ConfigurationSpec[] = [...(inline?.configurations ?? [])];
  // ClusterRoles and ClusterRoleBindings the steps write (D-23), each stored once a create succeeds.
  const clusterObjects: ClusterObjectSpec[] = [...(inline?.clusterObjects ?? [])];
  const initialContent = new Map<string, string[]>();
  const contentPaths = new Map<string, FieldPath>();
  const addContent = (namespace: string, resource: string, name: string, path: FieldPath) => {
    initialContent.set(namespace, [...(initialContent.get(namespace) ?? []), `${resource}/${name}`]);
    if (!contentPaths.has(namespace)) contentPaths.set(namespace, path);
  };
  /** An object present before step 1 in a namespace (kubectl's context namespace, `default`, when none is named). */
  const placeContent = (
    namespace: string | undefined,
    resource: string,
    name: string,
    rbac: RbacDefinition | undefined,
    path: FieldPath,
  ) => {
    const into = namespace ?? 'default';
    builder.namespace(into);
    builder.object(resource, name, rbac, path, into);
    addContent(into, resource, name, path);
  };
  const preexisting = new Map<string, string[]>();

  // ---- content kinds beyond the built-in seven: one per group and resource, none shadowing a built-in
  (given.kinds ?? []).forEach((k, i) => {
    const resource = declaredResource(k);
    const builtIn = builtInGroupResources.some((c) => c.resource === k.resource && c.group === k.group);
    if (builtIn || builder.declaredKinds.has(resource))
      throw new ScenarioFieldError(
        ['given', 'kinds', i, 'resource'],
        `${k.resource} in group "${k.group}" is ${builtIn ? 'a built-in kind' : 'declared twice'}`,
        builtIn
          ? 'leave it out of given.kinds: built-in kinds need no declaration'
          : 'declare each group and resource once',
      );
    if (isAccessReview(k))
      throw new ScenarioFieldError(
        ['given', 'kinds', i, 'resource'],
        accessReviewRefusal(k),
        'leave it out of given.kinds: a declared kind is content stored in a namespace',
      );
    builder.declaredKinds.set(resource, k.kind);
    builder.declaredVersions.set(resource, k.version);
  });

  // ---- the world before step 1
  for (const ns of given.namespaces ?? []) {
    builder.namespace(ns.name);
    preexisting.set(ns.name, ns.finalizers ?? ['kubernetes']);
    for (const f of ns.finalizers ?? []) builder.owner(f);
    if (ns.creator) Object.assign(builder.namespaces.get(ns.name) ?? {}, { creator: ns.creator });
  }
  (given.objects ?? []).forEach((o, i) => {
    placeContent(o.namespace, contentKinds[o.kind].resource, o.name, undefined, ['given', 'objects', i]);
  });

  const initializerBehaviour = given.initializers ?? {};
  const initializerSpec = (entry: EntryInput, path: FieldPath): InitializerSpec => {
    const creates = initializerBehaviour[entry.name]?.creates;
    const resource = creates ? contentKinds[creates.kind].resource : 'configmaps';
    const name = creates?.name ?? entry.name;
    const slot = builder.object(resource, name, builder.rbacOf(resource, creates), path);
    return {
      name: entry.name,
      failurePolicy: entry.failurePolicy ?? 'Ignore',
      timeoutSeconds: entry.timeoutSeconds ?? 5,
      populates: builder.objects[slot],
      // Lets scenarios play an initializer's failure (IN-7); the replayer never picks it on its own.
      canFail: true,
      ...(entry.rules
        ? { rules: entry.rules.map((r) => ({ ...r, verbs: r.verbs as OperationType[] })) }
        : {}),
    };
  };

  scenario.manifests.forEach((manifest, i) => {
    const path = ['given', 'manifests', i];
    if (isDeclaredContent(manifest)) {
      const { metadata } = manifest;
      placeContent(metadata.namespace, manifest.declaredResource, metadata.name, undefined, path);
      return;
    }
    if ('contentKind' in manifest) {
      const resource = contentKinds[manifest.contentKind].resource;
      placeContent(manifest.metadata.namespace, resource, manifest.metadata.name, undefined, path);
      return;
    }
    switch (manifest.kind) {
      case 'ClusterRole':
        // A scope's own ClusterRole replaces a bootstrap one of the same name, as a later apply would.
        clusterRoles.set(manifest.metadata.name, {
          metadata: { name: manifest.metadata.name },
          rules: toRules(manifest.rules),
        });
        return;
      case 'Role':
        placeContent(
          manifest.metadata.namespace,
          'roles',
          manifest.metadata.name,
          {
            role: { rules: toRules(manifest.rules) },
          },
          path,
        );
        return;
      case 'ClusterRoleBinding': {
        if (manifest.roleRef.kind !== 'ClusterRole')
          throw new ScenarioFieldError(
            [...path, 'roleRef', 'kind'],
            'a ClusterRoleBinding can only refer to a ClusterRole (Kubernetes: 422 Invalid, roleRef.kind: Unsupported value)',
            "use kind: ClusterRole, or a RoleBinding in the Role's namespace",
          );
        const binding: ClusterRoleBindingSpec = {
          name: manifest.metadata.name,
          clusterRole: manifest.roleRef.name,
          subjects: manifest.subjects.map(toSubjectSpec),
        };
        // Same name as a built-in actor's binding: the scenario's replaces it (as applying it would).
        const same = clusterRoleBindings.findIndex((b) => b.name === binding.name);
        if (same >= 0) clusterRoleBindings[same] = binding;
        else clusterRoleBindings.push(binding);
        return;
      }
      case 'RoleBinding':
        // kubectl sends a manifest without a namespace to the context's namespace, `default` (NS-6).
        placeContent(
          manifest.metadata.namespace,
          'rolebindings',
          manifest.metadata.name,
          builder.binding(manifest.roleRef, manifest.subjects),
          path,
        );
        return;
      case 'NamespaceInitializerConfiguration':
        configurations.push({
          name: manifest.metadata.name,
          initializers: (manifest.initializers ?? []).map((entry, k) =>
            initializerSpec(entry, [...path, 'initializers', k]),
          ),
          registered: 'initially',
        });
        return;
      case 'InitializerConfiguration':
      case 'ExternalAdmissionHookConfiguration': {
        // Doc 004's rule-based kinds: webhooks list their entries under externalAdmissionHooks.
        const [list, entries] =
          manifest.kind === 'InitializerConfiguration'
            ? (['initializers', manifest.initializers] as const)
            : (['externalAdmissionHooks', manifest.externalAdmissionHooks] as const);
        configurations.push({
          name: manifest.metadata.name,
          kind: manifest.kind,
          initializers: entries.map((entry, k) => initializerSpec(entry, [...path, list, k])),
          registered: 'initially',
        });
        return;
      }
      case 'Namespace':
        builder.namespace(manifest.metadata.name);
        preexisting.set(manifest.metadata.name, manifest.spec?.finalizers ?? ['kubernetes']);
        for (const f of manifest.spec?.finalizers ?? []) builder.owner(f);
        return;
    }
  });

  // ---- steps
  const creators = new Map<string, string>();
  const compiled: CompiledStep[] = [];
  let faults = inline?.faults ?? {
    initializerCrash: false,
    configReadFailure: false,
    apiserverRestart: false,
  };
  const initializerNames = () => configurations.flatMap((c) => c.initializers.map((i) => i.name));

  steps.forEach((step, index) => {
    const path: FieldPath = ['steps', index];
    const base: Located = { index, line: scenario.lineOf(path), text: stepText(step) };
    switch (step.kind) {
      case 'do': {
        const principal: Principal = {
          name: step.as,
          groups: [
            ...new Set([
              ...(users.get(step.as) ?? []),
              ...(step.groups ?? []),
              ...serviceAccountGroups(step.as),
              // The anonymous authenticator's user is unauthenticated; everyone else is authenticated.
              step.as === anonymousUser ? unauthenticatedGroup : 'system:authenticated',
            ]),
          ],
        };
        const line = requestLineAt(
          step.do,
          [...path, 'do'],
          [...builder.declaredKinds.keys()],
          builder.declaredVersions,
        );
        const request = compileRequest(
          builder,
          line.verb,
          line.path,
          step.body,
          [...path, 'body'],
          principal,
          configurations,
          initializerSpec,
          clusterObjects,
        );
        if (line.verb === 'create' && request.plan?.type === 'namespace' && request.plan.namespace >= 0) {
          const name = [...builder.namespaces.keys()][request.plan.namespace];
          if (!creators.has(name)) creators.set(name, step.as);
        }
        compiled.push({
          ...base,
          kind: 'request',
          principal,
          ...request,
          expect: toExpectation(step.expect),
        });
        return;
      }
      case 'run':
      case 'step': {
        const actor = step.kind === 'run' ? step.run : step.step;
        const actorKind = controllerKind(actor, initializerNames(), builder, [...path, step.kind]);
        compiled.push({
          ...base,
          kind: 'controller',
          mode: step.kind,
          actor,
          actorKind,
          ...(step.namespace ? { namespace: builder.namespace(step.namespace) } : {}),
          ...(step.kind === 'step' && step.expect ? { expect: toExpectation(step.expect) } : {}),
        });
        return;
      }
      case 'crash':
      case 'restart': {
        const actor = step.kind === 'crash' ? step.crash : step.restart;
        if (actor === 'apiserver' && step.kind === 'crash') faults = { ...faults, apiserverRestart: true };
        else if (initializerNames().includes(actor)) faults = { ...faults, initializerCrash: true };
        else
          throw new ScenarioFieldError(
            [...path, step.kind],
            `cannot ${step.kind} "${actor}"`,
            hintFor(
              actor,
              step.kind === 'crash' ? [...initializerNames(), 'apiserver'] : initializerNames(),
              'initializers crash and restart; the apiserver crashes (losing its timers)',
            ),
          );
        compiled.push({ ...base, kind: 'fault', action: step.kind, actor });
        return;
      }
      case 'fail':
      case 'recover':
        faults = { ...faults, configReadFailure: true };
        compiled.push({ ...base, kind: 'config-read', failing: step.kind === 'fail' });
        return;
      case 'tick':
        compiled.push({ ...base, kind: 'tick', seconds: step.tick });
        return;
      case 'check':
        for (const f of step.check.externalContent ?? []) builder.owner(f);
        compiled.push({
          ...base,
          kind: 'check',
          namespace: builder.namespace(step.check.namespace),
          check: step.check,
        });
        return;
      case 'admission':
        compiled.push({ ...base, kind: 'admission', check: step.admission });
        return;
      case 'eventually':
        step.eventually.any.forEach((c, k) => {
          if ('initializer' in c && !initializerNames().includes(c.initializer))
            throw new ScenarioFieldError(
              [...path, 'eventually', 'any', k, 'initializer'],
              `no initializer "${c.initializer}" in any NamespaceInitializerConfiguration`,
              hintFor(c.initializer, initializerNames(), 'name an initializer of a configuration'),
            );
        });
        compiled.push({
          ...base,
          kind: 'eventually',
          expectation: step.eventually,
          slots: step.eventually.any.map((c) => ('namespace' in c ? builder.namespace(c.namespace) : -1)),
        });
        return;
    }
  });

  // ---- the scope
  const namespaces: NamespaceSpec[] = [...builder.namespaces.values()].map((ns) => {
    const finalizers = preexisting.get(ns.name);
    const creator = ns.creator ?? creators.get(ns.name);
    const content = initialContent.get(ns.name);
    if (content && !finalizers && !ns.system)
      throw new ScenarioFieldError(
        [...(contentPaths.get(ns.name) ?? ['given'])],
        `namespace ${ns.name} does not exist at the start, so nothing can be in it (NS-2)`,
        'name it in given.namespaces',
      );
    return {
      ...ns,
      ...(creator ? { creator } : {}),
      ...(finalizers ? { preexisting: true, initialFinalizers: finalizers } : {}),
      ...(content ? { initialContent: content } : {}),
    };
  });
  for (const owner of builder.finalizerOwners) {
    const account = finalizerOwnerAccount(owner);
    if (!clusterRoleBindings.some((b) => b.subjects.some((s) => s.name === account)))
      clusterRoleBindings.push({
        name: `finalizer-owner:${owner}`,
        // Least privilege (LC-8, D-33): watch namespaces and finalize them, nothing else.
        clusterRole: 'namespace-finalizer',
        subjects: [{ kind: 'User', name: account }],
      });
  }
  const rbacSlots = builder.objects.filter((o) => o.roleBinding || o.role).length;
  if (builder.objects.length > 31 || namespaces.length * rbacSlots > 30)
    builder.unsupportedAt(
      [],
      `too large for the model's bit masks: ${builder.objects.length} objects (at most 31), ${namespaces.length} namespaces × ${rbacSlots} Roles and RoleBindings (at most 30)`,
    );

  const scope: Scope = {
    name: scenario.file,
    description: header.title,
    namespaces,
    configurations,
    principals: [],
    clusterRoleBindings,
    ...(clusterRoles.size > 0 ? { clusterRoles: [...clusterRoles.values()] } : {}),
    content: builder.objects,
    ...(clusterObjects.length > 0 ? { clusterObjects } : {}),
    finalizerOwners: builder.finalizerOwners,
    faults,
    clock: { readRepairTimeoutSeconds: inline?.clock.readRepairTimeoutSeconds ?? 600 },
  };
  const machines = machinesFor(variant, scope);
  if (!machines) throw new Error(`variant ${variant} has no machines`);
  return {
    file: scenario.file,
    title: header.title,
    requirements: header.requirements,
    contrasts: header.contrasts ?? [],
    decisions: header.decisions ?? [],
    ...(header.source ? { source: header.source } : {}),
    variant,
    ...(header.pending ? { pending: header.pending } : {}),
    scope,
    machines,
    objects: builder.objects,
    steps: compiled,
    unsupported: builder.unsupported,
  };
}

/** `given.scope`: a scope in the scope file format, its problems reported on its own fields. */
function inlineScope(data: Record<string, unknown>): Scope {
  const result = scopeFromData(data);
  if ('problem' in result)
    throw new ScenarioFieldError(['given', 'scope', ...result.path], result.problem, result.fix);
  return result;
}

/** The builder starts from the scope's namespaces, objects and finalizer owners, in the model's order. */
function seedFromScope(builder: ScopeBuilder, scope: Scope): void {
  for (const ns of scope.namespaces) builder.namespaces.set(ns.name, { ...ns });
  const populated = scope.configurations.flatMap((c) => c.initializers.map((i) => i.populates));
  for (const o of [...scope.content, ...populated])
    if (!builder.objects.some((x) => x.resource === o.resource && x.name === o.name)) builder.objects.push(o);
  for (const owner of scope.finalizerOwners) builder.owner(owner);
}

function hintFor(word: string, candidates: readonly string[], otherwise?: string): string {
  const guess = closest(word, candidates);
  const list = otherwise ?? `known: ${candidates.join(', ')}`;
  return guess ? `did you mean "${guess}"? ${list}` : list;
}

function controllerKind(
  actor: string,
  initializers: string[],
  builder: ScopeBuilder,
  path: FieldPath,
): 'initializer' | 'namespace-controller' | 'finalizer-owner' | 'apiserver' {
  if (actor === 'namespace-controller') return 'namespace-controller';
  if (actor === 'apiserver') return 'apiserver';
  if (initializers.includes(actor)) return 'initializer';
  if (builder.finalizerOwners.includes(actor)) return 'finalizer-owner';
  const known = ['namespace-controller', 'apiserver', ...initializers, ...builder.finalizerOwners];
  throw new ScenarioFieldError(
    path,
    `no controller "${actor}"`,
    hintFor(
      actor,
      known,
      `controllers: ${known.join(', ')} (initializers come from NamespaceInitializerConfiguration manifests, finalizer owners from finalizers)`,
    ),
  );
}

/** A request the model cannot express yet, with the reason replay reports. */
const unsupported = (reason: string): { plan: null; unsupported: string } => ({
  plan: null,
  unsupported: reason,
});
const planned = (plan: RequestPlan): { plan: RequestPlan } => ({ plan });

/** A DELETE's DeleteOptions.preconditions as sent, each value a string (D-46); nothing when it sends none. */
function preconditionsSent(options: DeleteOptionsBody): { preconditions?: DeletePreconditions } {
  const p = options.preconditions;
  if (!p || (p.uid === undefined && p.resourceVersion === undefined)) return {};
  return {
    preconditions: {
      ...(p.uid !== undefined ? { uid: p.uid } : {}),
      ...(p.resourceVersion !== undefined ? { resourceVersion: p.resourceVersion } : {}),
    },
  };
}

function compileRequest(
  builder: ScopeBuilder,
  verb: Verb,
  path: ParsedPath,
  body: Record<string, unknown> | undefined,
  bodyPath: FieldPath,
  _principal: Principal,
  configurations: ConfigurationSpec[],
  initializerSpec: (entry: EntryInput, path: FieldPath) => InitializerSpec,
  clusterObjects: ClusterObjectSpec[],
): { plan: RequestPlan | null; unsupported?: string } {
  // The model has no PATCH: a patch is served as the update it amounts to; a watch starts as the list it
  // amounts to, authorized with its own verb.
  const modelVerb = verb === 'patch' ? 'update' : verb === 'watch' ? 'list' : verb;
  const watch = verb === 'watch' ? { watch: true as const } : {};
  // A read sends no body (a GET's is ignored by the apiserver): one written there is a request misread.
  // A DELETE's body is DeleteOptions: the apiserver answers 400 to one of another kind (its decode fails).
  if (verb === 'delete' && body?.kind !== undefined && body.kind !== 'DeleteOptions')
    throw new ScenarioFieldError(
      [...bodyPath, 'kind'],
      `a delete sends DeleteOptions, not a ${String(body.kind)}: the apiserver cannot decode it (400), an answer the model does not give`,
      'remove body, or send kind: DeleteOptions',
    );
  if (body !== undefined && (verb === 'get' || verb === 'list' || verb === 'watch'))
    throw new ScenarioFieldError(
      bodyPath,
      `a ${verb} sends no body (the apiserver ignores it), so this one says nothing`,
      'remove body, or make the step the create or update that sends it',
    );
  switch (path.kind) {
    case 'namespaces':
    case 'namespace': {
      if (path.kind === 'namespace' && path.subresource === 'status') {
        if (modelVerb !== 'get' && modelVerb !== 'update')
          return unsupported(
            `${verb} namespaces/${path.name}/status: the status sub-resource is read and updated only`,
          );
        const parsed = validateBody<NamespaceBody>('namespace', body, bodyPath);
        return planned({
          type: 'namespace',
          verb: modelVerb,
          namespace: builder.namespace(path.name),
          status: true,
          ...(modelVerb === 'update' && parsed.status?.phase !== undefined
            ? { phase: parsed.status.phase }
            : {}),
          ...(modelVerb === 'update' ? sentMetadata(parsed.metadata) : {}),
          ...(modelVerb === 'update'
            ? bodyNameOtherThanPath(path.name, parsed.metadata?.name, 'update', bodyPath, 'namespaces')
            : {}),
        });
      }
      const finalize =
        modelVerb === 'finalize' || (path.kind === 'namespace' && path.subresource === 'finalize');
      if (finalize) {
        const parsed = validateBody<{ finalizers?: string[]; spec?: { finalizers: string[] } }>(
          'finalize',
          body,
          bodyPath,
        );
        const finalizers = parsed.finalizers ?? parsed.spec?.finalizers;
        if (!finalizers)
          throw new ScenarioFieldError(bodyPath, 'missing', 'finalize carries body: { finalizers: [...] }');
        for (const f of finalizers) builder.owner(f);
        return planned({
          type: 'namespace',
          verb: 'finalize',
          namespace: builder.namespace(path.kind === 'namespace' ? path.name : ''),
          finalizers,
        });
      }
      if (modelVerb === 'delete' && path.kind === 'namespace') {
        // D-46: a namespace DELETE's body is DeleteOptions; its propagationPolicy sets metadata finalizers.
        // Its preconditions are compared by storage with the stored namespace's (D-46).
        const options = validateBody<DeleteOptionsBody>('deleteOptions', body, bodyPath);
        return planned({
          type: 'namespace',
          verb: 'delete',
          namespace: builder.namespace(path.name),
          ...(options.propagationPolicy ? { propagationPolicy: options.propagationPolicy } : {}),
          ...preconditionsSent(options),
        });
      }
      const parsed = validateBody<NamespaceBody>('namespace', body, bodyPath);
      let name = path.kind === 'namespace' ? path.name : undefined;
      const renamed = bodyNameOtherThanPath(name, parsed.metadata?.name, modelVerb, bodyPath, 'namespaces');
      name ??= parsed.metadata?.name;
      if (path.kind === 'namespaces' && modelVerb === 'list')
        return { plan: { type: 'namespace', verb: 'list', namespace: -1, ...watch } };
      // A create sends generateName whatever else it names; the server draws a name only where the body
      // names none (shipped BeforeCreate), but validates the prefix either way (D-45).
      const generateName = modelVerb === 'create' ? parsed.metadata?.generateName : undefined;
      if (!name && path.kind === 'namespaces' && generateName !== undefined)
        name = builder.generatedNamespace(generateName);
      if (!name)
        throw new ScenarioFieldError(
          [...bodyPath, 'metadata', 'name'],
          'missing',
          'create namespaces needs body.metadata.name, or write create namespaces/NAME',
        );
      const namespace = builder.namespace(name);
      const spec = parsed.spec;
      const sent = sentMetadata(parsed.metadata);
      const metadataFinalizers = parsed.metadata?.finalizers;
      for (const f of spec?.finalizers ?? []) builder.owner(f);
      const pending = spec?.initializers?.pending.map((p) => p.name);
      const result = spec?.initializers?.result;
      if (modelVerb === 'create') {
        if (result)
          return unsupported(
            'a result on create: the model cannot carry it (D-17: 422 Invalid, "may not be set on create")',
          );
        return planned({
          type: 'namespace',
          verb: 'create',
          namespace,
          ...(generateName !== undefined ? { generateName } : {}),
          ...(pending ? { initializers: pending } : {}),
          ...(spec?.finalizers ? { extraFinalizers: spec.finalizers } : {}),
          ...(metadataFinalizers ? { metadataFinalizers } : {}),
          ...sent,
        });
      }
      if (modelVerb === 'update') {
        if (result && result.status !== 'Failure')
          return unsupported(
            `result status ${result.status}: the model only records Failure results (D-20: 422 Invalid)`,
          );
        return planned({
          type: 'namespace',
          verb: 'update',
          namespace,
          ...(pending ? { desiredPending: pending } : {}),
          ...(result ? { failure: result.reason ?? result.message ?? 'Failure' } : {}),
          ...(spec?.finalizers ? { finalizers: spec.finalizers } : {}),
          ...(metadataFinalizers ? { metadataFinalizers } : {}),
          ...renamed,
          ...sent,
        });
      }
      return { plan: { type: 'namespace', verb: modelVerb as 'get' | 'delete', namespace } };
    }
    case 'content-list':
    case 'content': {
      // A content DELETE's body is DeleteOptions: its preconditions are compared by storage (D-46). One
      // that sends neither preconditions nor a policy says nothing the model reads (decoding drops the rest).
      const deleteOptionsSent = body?.preconditions !== undefined || body?.propagationPolicy !== undefined;
      if (modelVerb === 'delete' && path.kind === 'content' && path.name && deleteOptionsSent) {
        const options = validateBody<DeleteOptionsBody>('deleteOptions', body, bodyPath);
        if (options.propagationPolicy)
          return unsupported(
            `DeleteOptions.propagationPolicy on ${path.resource}: the model keeps metadata finalizers on namespaces only (D-46)`,
          );
        return planned({
          type: 'content',
          verb: 'delete',
          namespace: builder.namespace(path.namespace),
          object: builder.object(path.resource, path.name, undefined, bodyPath, path.namespace),
          ...preconditionsSent(options),
        });
      }
      if (modelVerb === 'deletecollection' && body !== undefined)
        return unsupported(
          'DeleteOptions on deletecollection: each object is deleted as it is listed, with no options (D-46)',
        );
      const parsed = validateBody<ContentBody>('content', body, bodyPath);
      const namespaceName = path.namespace;
      const bodyNamespace = parsed.metadata?.namespace;
      const namespace = builder.namespace(namespaceName);
      if (path.kind === 'content-list' && modelVerb === 'list')
        return {
          plan: { type: 'content', verb: 'list', namespace, object: -1, resource: path.resource, ...watch },
        };
      // DELETE of the collection: every object of the resource in the namespace (RBAC verb deletecollection).
      if (path.kind === 'content-list' && modelVerb === 'deletecollection')
        return {
          plan: { type: 'content', verb: 'deletecollection', namespace, object: -1, resource: path.resource },
        };
      const name = path.kind === 'content' ? (path.name ?? parsed.metadata?.name) : parsed.metadata?.name;
      if (!name && parsed.metadata?.generateName !== undefined)
        return unsupported(
          `generateName on ${path.resource}: the model generates names for namespaces only (D-45)`,
        );
      if (!name)
        throw new ScenarioFieldError(
          [...bodyPath, 'metadata', 'name'],
          'missing',
          `create ${path.resource} needs body.metadata.name, or a NAME in the path`,
        );
      const renamed = bodyNameOtherThanPath(
        path.kind === 'content' ? path.name : undefined,
        parsed.metadata?.name,
        modelVerb,
        bodyPath,
        path.resource,
      );
      const sent = path.resource === 'rolebindings' ? bindingSent(parsed, bodyPath) : {};
      if ('unsupported' in sent) return unsupported(sent.unsupported);
      const rbac = builder.rbacOf(path.resource, {
        ...(sent.roleRef ? { roleRef: sent.roleRef } : {}),
        ...(sent.subjects ? { subjects: sent.subjects } : {}),
        ...(parsed.rules ? { rules: parsed.rules } : {}),
      });
      // An update naming another role than the stored binding's sends that roleRef; the stored one stays.
      const stored = builder.definitionIn(path.resource, name, namespaceName)?.roleBinding;
      const roleRef =
        modelVerb === 'update' &&
        stored &&
        rbac?.roleBinding &&
        ((rbac.roleBinding.roleKind ?? 'ClusterRole') !== (stored.roleKind ?? 'ClusterRole') ||
          rbac.roleBinding.clusterRole !== stored.clusterRole)
          ? {
              kind: rbac.roleBinding.roleKind ?? ('ClusterRole' as const),
              name: rbac.roleBinding.clusterRole,
            }
          : undefined;
      const object = builder.object(path.resource, name, roleRef ? undefined : rbac, bodyPath, namespaceName);
      const refusedData = refusedDataOf(path.resource, modelVerb, name, body);
      return planned({
        type: 'content',
        verb: modelVerb as 'create' | 'get' | 'update' | 'delete',
        namespace,
        object,
        ...(bodyNamespace ? { bodyNamespace } : {}),
        ...(roleRef ? { roleRef } : {}),
        ...renamed,
        ...(refusedData ? { refusedData } : {}),
        ...(modelVerb === 'create' || modelVerb === 'update' ? sentMetadata(parsed.metadata) : {}),
        ...((modelVerb === 'create' || modelVerb === 'update') && sent.sentRbac
          ? { sentRbac: sent.sentRbac }
          : {}),
      });
    }
    case 'all-namespaces':
      return {
        plan: { type: 'content', verb: 'list', namespace: -1, object: -1, resource: path.resource, ...watch },
      };
    case 'cluster': {
      if (path.resource === 'clusterroles' || path.resource === 'clusterrolebindings')
        return clusterObjectPlan(path.resource, path.name, modelVerb, body, bodyPath, clusterObjects);
      const kind = configurationKinds.find((k) => configurationResource[k] === path.resource);
      if (!kind) return unsupported(`${path.resource}: not a configuration resource the model stores`);
      if (modelVerb !== 'create' && modelVerb !== 'get' && modelVerb !== 'update' && modelVerb !== 'delete')
        return unsupported(`${verb} ${path.resource}: configurations are created, read, updated and deleted`);
      const parsed = validateBody<ConfigurationBody>('configuration', body, bodyPath);
      const name = path.name ?? parsed.metadata?.name;
      if (!name)
        throw new ScenarioFieldError(
          [...bodyPath, 'metadata', 'name'],
          'missing',
          'name the configuration in the path or body.metadata.name',
        );
      const list = entriesField(kind);
      const entries = (parsed[list] ?? []).map((raw, k) => {
        const entry = configurationEntrySchema.safeParse(raw);
        if (!entry.success)
          throw new ScenarioFieldError(
            [...bodyPath, list, k, ...(entry.error.issues[0].path as (string | number)[])],
            entry.error.issues[0].message,
          );
        return initializerSpec(entry.data, [...bodyPath, list, k]);
      });
      let slot = configurations.findIndex(
        (c) => c.name === name && (c.kind ?? 'NamespaceInitializerConfiguration') === kind,
      );
      const writes = modelVerb === 'create' || modelVerb === 'update';
      if (slot < 0) {
        // First named here: stored only once a create succeeds (AC-3); its body is what that create sends.
        configurations.push({ name, kind, initializers: entries, registered: 'later' });
        return planned({
          type: 'configuration',
          verb: modelVerb,
          slot: configurations.length - 1,
          version: 0,
        });
      }
      if (!writes) return { plan: { type: 'configuration', verb: modelVerb, slot, version: 0 } };
      // A later body is one more version the store may hold (FP-3).
      const c = configurations[slot];
      c.updates = [...(c.updates ?? []), { initializers: entries }];
      slot = configurations.indexOf(c);
      return { plan: { type: 'configuration', verb: modelVerb, slot, version: c.updates.length } };
    }
  }
}

/** What a cluster object grants, as text: its rules, or its ClusterRole and subjects. */
const definitionText = (o: ClusterObjectSpec): string =>
  JSON.stringify(
    o.kind === 'ClusterRole'
      ? (o.rules ?? []).map((r) => [
          r.apiGroups,
          r.resources,
          r.verbs,
          r.resourceNames ?? [],
          r.nonResourceURLs ?? [],
        ])
      : [o.clusterRole, (o.subjects ?? []).map((s) => [s.kind, s.name, s.namespace ?? ''])],
  );

/**
 * A ClusterRole or ClusterRoleBinding request (D-23): the object is the scope's cluster object of that
 * kind and name; each body that defines it otherwise is another version of it, which an update stores.
 */
function clusterObjectPlan(
  resource: 'clusterroles' | 'clusterrolebindings',
  pathName: string | undefined,
  verb: string,
  body: Record<string, unknown> | undefined,
  bodyPath: FieldPath,
  clusterObjects: ClusterObjectSpec[],
): { plan: RequestPlan | null; unsupported?: string } {
  if (verb !== 'create' && verb !== 'get' && verb !== 'update' && verb !== 'delete')
    return unsupported(
      `${verb} ${resource}: ClusterRoles and ClusterRoleBindings are created, read, updated and deleted`,
    );
  const parsed = validateBody<ContentBody>('content', body ?? {}, bodyPath);
  const sent = resource === 'clusterrolebindings' ? bindingSent(parsed, bodyPath) : {};
  if ('unsupported' in sent) return unsupported(sent.unsupported);
  const name = pathName ?? parsed.metadata?.name;
  if (!name)
    throw new ScenarioFieldError(
      [...bodyPath, 'metadata', 'name'],
      'missing',
      `name the object in the path or body.metadata.name`,
    );
  const kind = resource === 'clusterroles' ? ('ClusterRole' as const) : ('ClusterRoleBinding' as const);
  const builtIn =
    kind === 'ClusterRole'
      ? bootstrapClusterRoles.some((r) => r.metadata.name === name)
      : clusterAdminBinding.metadata.name === name;
  if (builtIn)
    return unsupported(
      `${kind} ${name} is built in and fixed for the run (D-23): requests address only the scenario's own ClusterRoles and ClusterRoleBindings; give the requested one its own name`,
    );
  const definition: ClusterObjectSpec =
    kind === 'ClusterRole'
      ? { kind, name, rules: toRules(parsed.rules ?? []) }
      : {
          kind,
          name,
          clusterRole: sent.roleRef?.name ?? '',
          // A roleRef of kind Role is sent as it is: the model answers it as Kubernetes does (422, D-23).
          ...(sent.roleRef?.kind === 'Role' ? { roleKind: 'Role' as const } : {}),
          subjects: (sent.subjects ?? []).map(toSubjectSpec),
        };
  const writes = verb === 'create' || verb === 'update';
  const slot = clusterObjects.findIndex((o) => o.kind === kind && o.name === name);
  if (slot < 0) {
    clusterObjects.push(definition);
    return planned({ type: 'cluster-object', verb, slot: clusterObjects.length - 1, ...sentOf(verb, sent) });
  }
  if (!writes || body === undefined)
    return planned({ type: 'cluster-object', verb, slot, ...sentOf(verb, sent) });
  // Another definition of the name is another version of the object (D-23): an update stores it in place
  // of the stored one, a create of it is refused while a version is stored.
  const version = clusterObjects.findIndex(
    (o) => o.kind === kind && o.name === name && definitionText(o) === definitionText(definition),
  );
  if (version >= 0) return planned({ type: 'cluster-object', verb, slot: version, ...sentOf(verb, sent) });
  clusterObjects.push(definition);
  return planned({ type: 'cluster-object', verb, slot: clusterObjects.length - 1, ...sentOf(verb, sent) });
}

/** What a write sends beyond the shapes the model keeps, for the model to validate (RB-4). */
const sentOf = (verb: string, sent: { sentRbac?: SentRbac }): { sentRbac?: SentRbac } =>
  (verb === 'create' || verb === 'update') && sent.sentRbac ? { sentRbac: sent.sentRbac } : {};

/** The labels and annotations a body's metadata carries, when it carries any. */
function sentMetadata(
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } | undefined,
): SentMetadata {
  return {
    ...(metadata?.labels ? { labels: metadata.labels } : {}),
    ...(metadata?.annotations ? { annotations: metadata.annotations } : {}),
  };
}

/**
 * An update whose body names another object than its path is a request Kubernetes answers with 400
 * (checkName, D-38): the plan carries the body's name. A create has no name on its URL (POST to the
 * collection), so a path and body naming two objects is a contradiction of the scenario, refused here.
 */
function bodyNameOtherThanPath(
  pathName: string | undefined,
  bodyName: string | undefined,
  verb: string,
  bodyPath: FieldPath,
  resource: string,
): { bodyName?: string } {
  if (!pathName || !bodyName || bodyName === pathName) return {};
  if (verb === 'create')
    throw new ScenarioFieldError(
      [...bodyPath, 'metadata', 'name'],
      `the path names ${pathName} but the body names ${bodyName}`,
      `a create of ${resource} takes its name from the body (POST to the collection): name them alike, or leave the name out of the path`,
    );
  // Only an update is checked against its path (checkName); a get or delete carries no object to compare.
  return verb === 'update' ? { bodyName } : {};
}
