import { z } from 'zod';
import { closest } from '../cli/request-line.ts';
import { kindDeclaration, maxInitializerTimeoutSeconds } from '../cli/scope-format.ts';

/**
 * The scenario file format (one YAML document per file under `scenarios/`): a story in Kubernetes'
 * own vocabulary, the world before it (`given`) and what every step must return. Objects are strict,
 * so a misspelt field is an error with its line, never silently ignored. Steps and manifests are
 * dispatched on their kind key (`do`, `run`, ... / `kind`) by the loader, so each error names the
 * one shape that applies.
 */

const name = z.string().min(1);
const names = z.array(name);

export const requirementId = z.string().regex(/^[A-Z]+-\d+$/, 'a requirement ID looks like LC-4');
export const decisionId = z.string().regex(/^D-\d+$/, 'a decision ID looks like D-12');

const metadata = z.strictObject({
  name,
  /** A namespace create's name prefix (D-45); any string, the model validates it (422). */
  generateName: z.string().optional(),
  namespace: name.optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

const subject = z.strictObject({
  kind: z.enum(['User', 'Group', 'ServiceAccount']),
  apiGroup: z.string().optional(),
  // Any string: a subject's name is the model's to validate (422), as Kubernetes does.
  name: z.string(),
  namespace: name.optional(),
});

const roleRef = z.strictObject({
  apiGroup: z.literal('rbac.authorization.k8s.io').optional(),
  kind: z.enum(['ClusterRole', 'Role']),
  name,
});

const policyRule = z.strictObject({
  // A non-resource rule sends neither (ValidatePolicyRule decides what a rule must carry, 422).
  apiGroups: z.array(z.string()).optional(),
  resources: names.optional(),
  verbs: names,
  resourceNames: names.optional(),
  nonResourceURLs: z.array(z.string()).optional(),
});

/**
 * A roleRef and a subject as a request body sends them: any group, kind and name, which the model validates
 * as Kubernetes does (422, RB-4). A given manifest keeps the strict shapes: it holds what was accepted.
 */
const sentRoleRef = z.strictObject({
  apiGroup: z.string().optional(),
  kind: z.string(),
  name: z.string().optional(),
});
const sentSubject = subject.extend({ kind: z.string().optional() });

const rbacApiVersion = z.literal('rbac.authorization.k8s.io/v1');

const admissionApiVersion = z.literal('admissionregistration.k8s.io/v1alpha1');
const failurePolicy = z.enum(['Ignore', 'Fail']).optional();
/** A manifest of one kind: apiVersion, kind and metadata, then the kind's own fields; unknown keys refused. */
const manifest = <const Kind extends string, Shape extends z.ZodRawShape>(
  apiVersion: z.ZodLiteral<string>,
  kind: Kind,
  shape: Shape,
) => z.strictObject({ apiVersion, kind: z.literal(kind), metadata, ...shape });

const initializerEntry = z.strictObject({
  name,
  failurePolicy,
  // The state a scenario starts from holds only what the apiserver accepts (D-32: 1 to 30 s).
  timeoutSeconds: z
    .number()
    .positive()
    .max(
      maxInitializerTimeoutSeconds,
      `D-32: an initializer's timeoutSeconds is 1 to ${maxInitializerTimeoutSeconds}`,
    )
    // The bound before int(): a number past it is told the field's own bound, not the safe-integer one.
    .int()
    .optional(),
});

const admissionRule = z.strictObject({
  apiGroups: z.array(z.string()),
  apiVersions: names,
  resources: names,
});

const ruleWithVerbs = admissionRule.extend({ verbs: names });

/** Manifests `given` may hold, by `kind`: RBAC, initializer configurations, namespaces and content. */
export const manifestSchemas = {
  ClusterRole: manifest(rbacApiVersion, 'ClusterRole', {
    rules: z.array(policyRule),
  }),
  Role: manifest(rbacApiVersion, 'Role', {
    rules: z.array(policyRule),
  }),
  ClusterRoleBinding: manifest(rbacApiVersion, 'ClusterRoleBinding', {
    roleRef,
    subjects: z.array(subject).min(1),
  }),
  RoleBinding: manifest(rbacApiVersion, 'RoleBinding', {
    roleRef,
    subjects: z.array(subject).min(1),
  }),
  NamespaceInitializerConfiguration: manifest(admissionApiVersion, 'NamespaceInitializerConfiguration', {
    initializers: z.array(initializerEntry).optional(),
  }),
  // Doc 004's rule-based configurations: stored and validated like any configuration (AC-4, AC-5).
  InitializerConfiguration: manifest(admissionApiVersion, 'InitializerConfiguration', {
    initializers: z.array(
      z.strictObject({
        name,
        rules: z.array(admissionRule).optional(),
        failurePolicy,
      }),
    ),
  }),
  ExternalAdmissionHookConfiguration: manifest(admissionApiVersion, 'ExternalAdmissionHookConfiguration', {
    externalAdmissionHooks: z.array(
      z.strictObject({
        name,
        clientConfig: z.record(z.string(), z.unknown()).optional(),
        rules: z.array(ruleWithVerbs).optional(),
        failurePolicy,
      }),
    ),
  }),
  Namespace: manifest(z.literal('v1'), 'Namespace', {
    spec: z.strictObject({ finalizers: names.optional() }).optional(),
    status: z.strictObject({ phase: z.enum(['Active', 'Terminating']) }).optional(),
  }),
} as const;

export type ManifestKind = keyof typeof manifestSchemas;

/** Content kinds a scenario may name, with their resource (the path segment) and API version. */
export const contentKinds = {
  ConfigMap: { resource: 'configmaps', apiVersion: 'v1' },
  Secret: { resource: 'secrets', apiVersion: 'v1' },
  Pod: { resource: 'pods', apiVersion: 'v1' },
  ResourceQuota: { resource: 'resourcequotas', apiVersion: 'v1' },
  NetworkPolicy: { resource: 'networkpolicies', apiVersion: 'networking.k8s.io/v1' },
  RoleBinding: { resource: 'rolebindings', apiVersion: 'rbac.authorization.k8s.io/v1' },
  Role: { resource: 'roles', apiVersion: 'rbac.authorization.k8s.io/v1' },
} as const;

export type ContentKind = keyof typeof contentKinds;

/** The model keeps content in bit masks of 32-bit integers: at most this many resource/name pairs. */
export const maxModelObjects = 31;

/** Longest single `tick`, and the longest a scenario's clock may run: the replayer steps second by second. */
export const maxTickSeconds = 3600;
export const maxScenarioSeconds = 86_400;

const stringMap = z.record(z.string(), z.string());
const specMap = z.record(z.string(), z.unknown());
const contentMeta = {
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: metadata.partial().optional(),
};

/**
 * Request bodies and `given` manifests of each content kind: the fields Kubernetes knows at the top
 * level, so `subject:` for `subjects:` is refused. `spec` stays open: the model never reads it.
 */
export const contentBodySchemas = {
  ConfigMap: z.strictObject({
    ...contentMeta,
    data: stringMap.optional(),
    binaryData: stringMap.optional(),
    immutable: z.boolean().optional(),
  }),
  Secret: z.strictObject({
    ...contentMeta,
    data: stringMap.optional(),
    stringData: stringMap.optional(),
    type: z.string().optional(),
    immutable: z.boolean().optional(),
  }),
  Pod: z.strictObject({ ...contentMeta, spec: specMap.optional() }),
  ResourceQuota: z.strictObject({ ...contentMeta, spec: specMap.optional() }),
  NetworkPolicy: z.strictObject({ ...contentMeta, spec: specMap.optional() }),
  RoleBinding: z.strictObject({
    ...contentMeta,
    roleRef: sentRoleRef.optional(),
    subjects: z.array(sentSubject).optional(),
  }),
  Role: z.strictObject({ ...contentMeta, rules: z.array(policyRule).optional() }),
} as const;

/** A content manifest in `given.manifests` (ConfigMap, Pod, ...): its kind's fields, with metadata required. */
export const contentManifest = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata,
});

const objectRef = z.strictObject({
  kind: z.enum(Object.keys(contentKinds) as [ContentKind, ...ContentKind[]]),
  namespace: name.optional(),
  name,
});

/** What an initializer creates in each namespace it initializes (a ConfigMap named after it by default). */
const initializerBehaviour = z.strictObject({
  creates: z.strictObject({
    kind: z.enum(Object.keys(contentKinds) as [ContentKind, ...ContentKind[]]),
    name,
    roleRef: roleRef.optional(),
    subjects: z.array(subject).min(1).optional(),
    rules: z.array(policyRule).optional(),
  }),
});

export const givenSchema = z.strictObject({
  /** Content kinds beyond the built-in seven, by group, version and resource (checker/cli/scope-format.ts). */
  kinds: z.array(kindDeclaration).optional(),
  namespaces: z
    .array(
      z.strictObject({
        name,
        finalizers: names.optional(),
        creator: name.optional(),
      }),
    )
    .optional(),
  objects: z.array(objectRef).optional(),
  manifests: z.array(z.record(z.string(), z.unknown())).optional(),
  users: z.array(z.strictObject({ name, groups: names })).optional(),
  initializers: z.record(z.string(), initializerBehaviour).optional(),
  /** A whole scope inline, in the scope file format (checker/cli/scope-format.ts): the world as verify explores it. */
  scope: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The reasons a response may carry: Kubernetes' `metav1.StatusReason` values as sent on the wire
 * (`StatusReasonStoreReadError` is "StorageReadError"), the HTTP reason phrases of success, and the
 * model's own `LoadingConfiguration` (D-9); anything else is a typo, refused with its line.
 */
export const statusReasons = [
  'OK',
  'Created',
  'Accepted',
  'NoContent',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'StorageReadError',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
  'LoadingConfiguration',
] as const;

const reasonIssue = (reason: string) => {
  const guess = closest(reason, statusReasons);
  return `unknown reason "${reason}" (${guess ? `did you mean "${guess}"? ` : ''}reasons: ${statusReasons.join(', ')})`;
};
const reason = z.string().superRefine((value, ctx) => {
  if (!(statusReasons as readonly string[]).includes(value))
    ctx.addIssue({ code: 'custom', message: reasonIssue(value) });
});
const statusLine = z
  .string()
  .regex(/^\d{3}( [A-Za-z]+)?$/, 'expected a status such as 201 or "403 Forbidden"')
  .superRefine((value, ctx) => {
    const [code, text] = value.split(' ');
    if (Number(code) < 100 || Number(code) > 599)
      ctx.addIssue({ code: 'custom', message: `HTTP status ${code} is not between 100 and 599` });
    else if (text !== undefined && !(statusReasons as readonly string[]).includes(text))
      ctx.addIssue({ code: 'custom', message: reasonIssue(text) });
  });

const expectSchema = z.union(
  [
    z.number().min(100).max(599).int(),
    statusLine,
    z.strictObject({
      code: z.number().min(100).max(599).int(),
      reason: reason.optional(),
      cause: z.string().optional(),
      message: z.string().optional(),
      items: z.array(z.string()).optional(),
    }),
  ],
  { error: 'expected a status code (201), "403 Forbidden", or { code, reason, cause, message, items }' },
);

export type ExpectInput = z.infer<typeof expectSchema>;

const checkSchema = z.strictObject({
  namespace: name,
  exists: z.boolean().optional(),
  phase: z.enum(['Initializing', 'Active', 'Terminating']).optional(),
  finalizers: names.optional(),
  /** metadata.finalizers, as a set (D-46). */
  metadataFinalizers: names.optional(),
  pending: names.optional(),
  /** Who sent the create that made it (RB-2, D-34; OpenShift's `openshift.io/requester`); null for one the cluster made. */
  creator: z.string().nullable().optional(),
  result: z
    .union(
      [z.literal('none'), z.strictObject({ status: z.literal('Failure'), reason: z.string().optional() })],
      {
        error: 'expected none or { status: Failure, reason }',
      },
    )
    .optional(),
  conditions: z.record(z.string(), z.enum(['True', 'False'])).optional(),
  deletionTimestamp: z.union([z.boolean(), z.number().int().min(0)]).optional(),
  /** The API server's timer on the first pending initializer (FP-2), and its age in seconds. */
  timer: z
    .union([z.literal('none'), z.strictObject({ initializer: name, ageSeconds: z.number().int().min(0) })], {
      error: 'expected none or { initializer, ageSeconds }',
    })
    .optional(),
  /** Content present: a built-in kind by Kind, a declared one (given.kinds) by the resource its paths use. */
  objects: z
    .array(
      z
        .strictObject({ kind: objectRef.shape.kind.optional(), resource: name.optional(), name })
        .refine((o) => (o.kind === undefined) !== (o.resource === undefined), {
          message: 'name the object by kind (a built-in Kind) or by resource (a declared kind), not both',
        }),
    )
    .optional(),
  externalContent: names.optional(),
});

export type CheckInput = z.infer<typeof checkSchema>;
const phaseName = z.enum(['Initializing', 'Active', 'Terminating']);

/**
 * One state an `eventually` expectation waits for: a namespace's condition (every field given must
 * hold), an initializer controller crashed, admission's copy fresh or stale by its age (AC-2), or
 * configuration reads failing or succeeding.
 */
export const eventualConditionSchema = z.union(
  [
    z
      .strictObject({
        namespace: name,
        exists: z.boolean().optional(),
        /** Removed from storage after its deletion (LC-7): it existed and is gone; never created is not gone. */
        gone: z.boolean().optional(),
        phase: z.union([phaseName, z.strictObject({ not: phaseName })]).optional(),
        pending: names.optional(),
        firstPending: z.strictObject({ not: name }).optional(),
        timer: z.literal('lost').optional(),
      })
      .refine((c) => Object.keys(c).length > 1, {
        message:
          'a namespace condition names what must hold: exists, gone, phase, pending, firstPending or timer',
      }),
    z.strictObject({ initializer: name, crashed: z.boolean() }),
    z.strictObject({ admission: z.strictObject({ fresh: z.boolean() }) }),
    z.strictObject({ configReads: z.enum(['failing', 'succeeding']) }),
  ],
  {
    error:
      'expected { namespace, exists | gone | phase | pending | firstPending | timer }, { initializer, crashed }, { admission: { fresh } } or { configReads: failing | succeeding }',
  },
);

/**
 * Who the judge of an `eventually` assumes keeps acting (weak fairness): each word is one kind of
 * actor, per namespace where its steps address one, as the liveness properties state theirs.
 */
export const fairnessWords = [
  'namespace-controller',
  'finalizer-owners',
  'initializers',
  'apiserver-timers',
  'clock',
  'polling',
] as const;
export type FairnessWord = (typeof fairnessWords)[number];

const eventuallySchema = z.strictObject({
  /** Reached when one of these holds, in some state of every fair continuation. */
  any: z.array(eventualConditionSchema).min(1),
  fair: z.array(z.enum(fairnessWords)),
});

export type EventualConditionInput = z.infer<typeof eventualConditionSchema>;
export type EventuallyInput = z.infer<typeof eventuallySchema>;

export type AdmissionCheckInput = z.infer<typeof stepSchemas.admission>['admission'];

const controllerName = name;

/** One schema per step kind; the loader picks it by the step's kind key. */
export const stepSchemas = {
  do: z.strictObject({
    as: name,
    groups: names.optional(),
    do: z.string().min(1),
    body: z.record(z.string(), z.unknown()).optional(),
    expect: expectSchema,
  }),
  run: z.strictObject({ run: controllerName, namespace: name.optional() }),
  step: z.strictObject({ step: controllerName, namespace: name.optional(), expect: expectSchema.optional() }),
  crash: z.strictObject({ crash: controllerName }),
  restart: z.strictObject({ restart: controllerName }),
  fail: z.strictObject({ fail: z.literal('config-read') }),
  recover: z.strictObject({ recover: z.literal('config-read') }),
  tick: z.strictObject({
    tick: z
      .number()
      .positive()
      .max(maxTickSeconds, `a tick is at most ${maxTickSeconds} s; split a longer wait into several`)
      // The bound before int(): a number past it is told the field's own bound, not the safe-integer one.
      .int(),
  }),
  check: z.strictObject({ check: checkSchema }),
  /** Admission's copy of the initializer configurations (AC-1, AC-2): fresh or stale, and which it read. */
  admission: z.strictObject({
    admission: z.strictObject({ fresh: z.boolean().optional(), read: names.optional() }),
  }),
  /** A liveness expectation: every fair continuation from here reaches one of the conditions. */
  eventually: z.strictObject({ eventually: eventuallySchema }),
} as const;

export type StepKind = keyof typeof stepSchemas;
export const stepKinds = Object.keys(stepSchemas) as StepKind[];

export type StepInput = { [K in StepKind]: { kind: K } & z.infer<(typeof stepSchemas)[K]> }[StepKind];

export const scenarioSchema = z.strictObject({
  title: z.string().min(1),
  requirements: z.array(requirementId).min(1),
  /** Design alternatives (ALT-n, AC-6) whose rejected side this scenario shows the model's answer to. */
  contrasts: z.array(requirementId).optional(),
  decisions: z.array(decisionId).optional(),
  /** Where the story comes from: a seed document and section. */
  source: z.string().optional(),
  variant: z.string().optional(),
  /** Why this scenario is known to disagree with the model (a gap to fix in the model). */
  pending: z.string().min(1).optional(),
  given: givenSchema.optional(),
  steps: z.array(z.record(z.string(), z.unknown())).min(1),
});

export type ScenarioHeader = z.infer<typeof scenarioSchema>;
export type GivenInput = z.infer<typeof givenSchema>;
export type ManifestInput = { [K in ManifestKind]: z.infer<(typeof manifestSchemas)[K]> }[ManifestKind];
export type ContentManifestInput = z.infer<typeof contentManifest>;
export type SubjectInput = z.infer<typeof subject>;
export type RoleRefInput = z.infer<typeof roleRef>;
export type SentRoleRefInput = z.infer<typeof sentRoleRef>;
export type SentSubjectInput = z.infer<typeof sentSubject>;
export type PolicyRuleInput = z.infer<typeof policyRule>;

/**
 * Values the model validates itself (finalizer and initializer names): any string, so a bad one reaches
 * the model and gets its 422 Invalid. The schema refuses only what is not a well-formed request.
 */
const anyNames = z.array(z.string());

/** The bodies requests carry, checked once the request line says what they address. */
export const bodySchemas = {
  namespace: z.strictObject({
    apiVersion: z.literal('v1').optional(),
    kind: z.literal('Namespace').optional(),
    // metadata.finalizers: any strings, the model validates them (D-46: 422).
    metadata: metadata.extend({ finalizers: anyNames.optional() }).partial().optional(),
    spec: z
      .strictObject({
        finalizers: anyNames.optional(),
        initializers: z
          .strictObject({
            pending: z.array(z.strictObject({ name: z.string() })),
            result: z
              .strictObject({
                status: z.string(),
                code: z.number().int().optional(),
                reason: z.string().optional(),
                message: z.string().optional(),
              })
              .optional(),
          })
          .optional(),
      })
      .optional(),
    // Shipped create and update ignore a client's status (PrepareForCreate / PrepareForUpdate reset it).
    status: z.strictObject({ phase: z.string().optional() }).optional(),
  }),
  /** A namespace DELETE's body (D-46): DeleteOptions. */
  deleteOptions: z.strictObject({
    apiVersion: z.literal('v1').optional(),
    kind: z.literal('DeleteOptions').optional(),
    propagationPolicy: z
      .enum(['Orphan', 'Background', 'Foreground'], {
        error: 'expected propagationPolicy Orphan, Background or Foreground',
      })
      .optional(),
    preconditions: z
      .strictObject({ uid: z.string().optional(), resourceVersion: z.string().optional() })
      .optional(),
  }),
  finalize: z.strictObject({
    finalizers: anyNames.optional(),
    apiVersion: z.literal('v1').optional(),
    kind: z.literal('Namespace').optional(),
    metadata: metadata.partial().optional(),
    spec: z.strictObject({ finalizers: anyNames }).optional(),
  }),
  content: z.looseObject({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: metadata.partial().optional(),
    roleRef: sentRoleRef.optional(),
    subjects: z.array(sentSubject).optional(),
    rules: z.array(policyRule).optional(),
  }),
  configuration: z.strictObject({
    apiVersion: admissionApiVersion.optional(),
    kind: z.string().optional(),
    metadata: metadata.partial().optional(),
    initializers: z.array(z.record(z.string(), z.unknown())).optional(),
    externalAdmissionHooks: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
} as const;

export type NamespaceBody = z.infer<(typeof bodySchemas)['namespace']>;
export type DeleteOptionsBody = z.infer<(typeof bodySchemas)['deleteOptions']>;
export type FinalizeBody = z.infer<(typeof bodySchemas)['finalize']>;
export type ContentBody = z.infer<(typeof bodySchemas)['content']>;
export type ConfigurationBody = z.infer<(typeof bodySchemas)['configuration']>;
/** A configuration entry in a request body: its name is the model's to validate (D-7). */
export const initializerEntrySchema = initializerEntry.extend({ name: z.string() });
/**
 * An entry of any configuration kind in a request body (docs 000, 004): names, timeouts and rules are
 * the model's to validate (422), so only the shape is checked here.
 */
export const configurationEntrySchema = z.strictObject({
  name: z.string(),
  failurePolicy,
  timeoutSeconds: z.number().int().optional(),
  rules: z
    .array(
      z.strictObject({
        apiGroups: z.array(z.string()),
        apiVersions: z.array(z.string()),
        resources: z.array(z.string()),
        verbs: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  clientConfig: z.record(z.string(), z.unknown()).optional(),
});
