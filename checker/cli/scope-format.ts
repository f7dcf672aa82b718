import { z } from 'zod';

/**
 * The scope file format (`scopes/*.yaml`, and inline in a scenario's `given.scope`): what a Kubernetes
 * user writes. Namespaces and users as in a scenario's `given`, RBAC and initializer configurations as
 * the manifests `kubectl apply` reads, what each initializer creates, then the model's bounds (faults,
 * clock, symmetry). Objects are strict, so a misspelt field is an error with its line.
 */

const name = z.string().min(1, 'must not be empty');
/** An initializer's timeout: D-32's bound, the apiserver's 1 to 30 s, in scopes as in requests. */
export const maxInitializerTimeoutSeconds = 30;
const initializerTimeout = z
  .number()
  .positive()
  .max(
    maxInitializerTimeoutSeconds,
    `D-32: an initializer's timeoutSeconds is 1 to ${maxInitializerTimeoutSeconds}`,
  )
  // The bound before int(): a number past it is told the field's own bound, not the safe-integer one.
  .int();
/** The global timeouts (read-repair, staleness): at most FP-4's 10 minutes; time is scaled (D-8), so small values suffice. */
export const maxGlobalTimeoutSeconds = 600;
const globalTimeout = z
  .number()
  .positive()
  .max(
    maxGlobalTimeoutSeconds,
    `FP-4: the global timeout is 10 min; D-8 scales time, so a few seconds suffice`,
  )
  // The bound before int(): a number past it is told the field's own bound, not the safe-integer one.
  .int();
const names = z.array(name);

/** A Kubernetes object name as a path segment: DNS-subdomain characters, `:` and `@` (RBAC names use them). */
export const objectName = z
  .string()
  .regex(/^[A-Za-z0-9]([A-Za-z0-9:@._-]*[A-Za-z0-9])?$/, 'not a valid object name');

/** A finalizer: `kubernetes`, or `domain/name` as Kubernetes validates qualified names. */
const finalizerName = z
  .string()
  .regex(
    /^(kubernetes|[a-z0-9]([a-z0-9.-]*[a-z0-9])?\/[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?)$/,
    'not a finalizer name',
  );

/** An initializer: a fully qualified name with at least two dots (document 000). */
const initializerName = z
  .string()
  .regex(
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?){2,}$/,
    'not a fully qualified initializer name',
  );

export const requestTemplates = [
  'create-namespace',
  'create-namespace-with-initializers',
  'get-namespace',
  'delete-namespace',
  'complete-first-initializer',
  'update-finalizers',
  'finalize-remove-kubernetes',
  'create-content',
  'delete-content',
  'delete-collection',
  'get-content',
  'list-content',
  'watch-content',
  'list-content-all-namespaces',
  'watch-content-all-namespaces',
  'list-namespaces',
  'get-namespace-status',
  'update-namespace-status',
  'finalize-as-created',
  'finalize-with-unqualified-name',
  'complete-each-initializer',
  'fail-initialization',
  'create-content-naming-another-namespace',
  'update-finalizers-naming-another-namespace',
  'create-cluster-object',
  'update-cluster-object',
  'delete-cluster-object',
] as const;

/** Content kinds a scope may name, with their resource (the path segment). */
export const scopeContentKinds = {
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  Pod: 'pods',
  ResourceQuota: 'resourcequotas',
  NetworkPolicy: 'networkpolicies',
  RoleBinding: 'rolebindings',
  Role: 'roles',
} as const;
export type ScopeContentKind = keyof typeof scopeContentKinds;
const contentKind = z.enum(Object.keys(scopeContentKinds) as [ScopeContentKind, ...ScopeContentKind[]]);

/**
 * A content kind declared besides the built-in seven (namespaced, as all content): its group (`''` for
 * core, else a DNS subdomain like `events.k8s.io`), version, plural resource (a DNS label) and Kind.
 * Paths and object slots name it `RESOURCE` in core and `RESOURCE.GROUP` in a group (the GroupResource
 * string kubectl takes), so `events` and `events.events.k8s.io` are two kinds.
 */
export const kindDeclaration = z.strictObject({
  group: z
    .string()
    .regex(
      /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$/,
      "an API group is '' (core) or a lowercase DNS subdomain, like events.k8s.io",
    ),
  version: z.string().regex(/^v[0-9]+((alpha|beta)[0-9]+)?$/, 'a version looks like v1, v1beta1 or v2alpha1'),
  resource: z
    .string()
    .regex(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, 'a resource is a lowercase plural DNS label, like events'),
  kind: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'a Kind is UpperCamelCase, like Event'),
});
export type KindDeclaration = z.infer<typeof kindDeclaration>;

/**
 * D-15: access reviews (`localsubjectaccessreviews`, `subjectaccessreviews`, ... of authorization.k8s.io)
 * are answered and never stored, and NamespaceLifecycle lets a local one through in any namespace. A
 * declared kind is content stored in a namespace, so an access review cannot be one.
 */
export const isAccessReview = (k: { group: string; resource: string }): boolean =>
  k.group === 'authorization.k8s.io' && k.resource.endsWith('accessreviews');
export const accessReviewRefusal = (k: { group: string; resource: string }): string =>
  `${k.resource} in group "${k.group}" is an access review, answered and never stored, which the model does not have (D-15)`;

/** The path segment and object-slot resource of a declared kind: `events` in core, `events.events.k8s.io` in its group. */
export const declaredResource = (k: Pick<KindDeclaration, 'group' | 'resource'>): string =>
  k.group === '' ? k.resource : `${k.resource}.${k.group}`;

/** The group and resource of each built-in content kind, to refuse declaring one again. */
export const builtInGroupResources: readonly { group: string; resource: string }[] = [
  ...['configmaps', 'secrets', 'pods', 'resourcequotas'].map((resource) => ({ group: '', resource })),
  { group: 'networking.k8s.io', resource: 'networkpolicies' },
  { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  { group: 'rbac.authorization.k8s.io', resource: 'roles' },
];

export const rbacGroup = 'rbac.authorization.k8s.io' as const;
const rbacApiVersion = z.literal(`${rbacGroup}/v1`);
const subjectKind = z.enum(['User', 'Group', 'ServiceAccount']);
const subject = z.strictObject({
  kind: subjectKind,
  apiGroup: z.string().optional(),
  name,
  namespace: name.optional(),
});
const roleRef = z.strictObject({
  apiGroup: z.literal(rbacGroup).optional(),
  kind: z.enum(['ClusterRole', 'Role']),
  name: objectName,
});
const policyRule = z.strictObject({
  apiGroups: z.array(z.string()),
  resources: names,
  verbs: names,
  resourceNames: names.optional(),
});
const metadata = z.strictObject({
  name: objectName,
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

/** What a Role or RoleBinding object says: a RoleBinding's roleRef and subjects, or a Role's rules. */
const rbacBody = {
  roleRef: roleRef.optional(),
  subjects: z.array(subject).min(1).optional(),
  rules: z.array(policyRule).optional(),
};
const objectDefinition = z.strictObject({
  kind: contentKind,
  name: objectName,
  ...rbacBody,
  /** Namespaces where the same-named Role or RoleBinding says something else. */
  byNamespace: z.record(name, z.strictObject(rbacBody)).optional(),
  /** Only these users' requests address it (content only); absent: every user's do. */
  requestedBy: z.array(name).optional(),
});
export type ObjectDefinition = z.infer<typeof objectDefinition>;

export const manifestSchemas = {
  ClusterRole: z.strictObject({
    apiVersion: rbacApiVersion,
    kind: z.literal('ClusterRole'),
    metadata,
    rules: z.array(policyRule),
  }),
  ClusterRoleBinding: z.strictObject({
    apiVersion: rbacApiVersion,
    kind: z.literal('ClusterRoleBinding'),
    metadata,
    roleRef: roleRef.extend({ kind: z.literal('ClusterRole') }),
    subjects: z.array(subject).min(1),
  }),
  NamespaceInitializerConfiguration: z.strictObject({
    apiVersion: z.literal('admissionregistration.k8s.io/v1alpha1'),
    kind: z.literal('NamespaceInitializerConfiguration'),
    metadata,
    initializers: z.array(
      z.strictObject({
        name: initializerName,
        failurePolicy: z.enum(['Ignore', 'Fail']).optional(),
        timeoutSeconds: initializerTimeout.optional(),
      }),
    ),
  }),
} as const;
export type ScopeManifestKind = keyof typeof manifestSchemas;
export const scopeManifestKinds = Object.keys(manifestSchemas) as ScopeManifestKind[];
export type ScopeManifest = {
  [K in ScopeManifestKind]: z.infer<(typeof manifestSchemas)[K]>;
}[ScopeManifestKind];

/** A property's verdict as a scope pins it: and the length of its shortest counterexample, when violated. */
export const pinnedVerdictSchema = z.strictObject({
  verdict: z.enum(['holds', 'violated', 'vacuous']),
  /** Steps of the shortest counterexample, for a violated property. */
  counterexampleSteps: z.number().int().positive().optional(),
});

const figures = {
  states: z.number().int().positive(),
  transitions: z.number().int().nonnegative(),
  depth: z.number().int().nonnegative(),
};

/** The search under the scope's symmetry: orbits kept, and the states and transitions they stand for. */
const symmetryFiguresSchema = z.strictObject({
  ...figures,
  represented: z.strictObject({ states: figures.states, transitions: figures.transitions }),
});

/**
 * `golden:` what a complete search of the scope finds (in the manner of tlaplus/Examples' manifest):
 * distinct states, transitions, depth and each safety property's verdict, or why the suite does not
 * search it. Change a figure only in a commit that says why it moved.
 */
export const goldenSchema = z.discriminatedUnion('explored', [
  z.strictObject({
    explored: z.literal(true),
    /**
     * Who compares a full search with these figures: the test suite (default), or `npm run verify` alone,
     * for a scope too large for the suite's budget but the one CI's main job searches anyway.
     */
    pinnedBy: z.enum(['suite', 'verify']).optional(),
    ...figures,
    properties: z.record(z.string(), pinnedVerdictSchema),
  }),
  z.strictObject({
    explored: z.literal(false),
    /** Why the test suite does not explore it, and how to. */
    reason: z.string().min(1),
    /** Figures of a scope that completes but too slowly for every test run: checked when NSMODEL_SLOW_SCOPES=1. */
    measured: z.strictObject({ ...figures, symmetry: symmetryFiguresSchema.optional() }).optional(),
  }),
]);

/** One reason, in a sentence, and what it explains. */
const reasoned = <K extends string>(what: K) =>
  z.array(
    z.strictObject({
      reason: z.string().min(1),
      [what]: z.array(name).min(1),
    } as { reason: z.ZodString } & Record<K, z.ZodArray<z.ZodString>>),
  );

/**
 * `expectations:` what the scope declares it does not exercise, each with its reason: properties that
 * stay vacuous (no witness) and machine transitions never taken. Anything else vacuous or untaken fails
 * `verify` (exit 18).
 */
export const expectationsSchema = z.strictObject({
  vacuous: reasoned('properties').optional(),
  untaken: reasoned('transitions').optional(),
});

export const scopeDocumentSchema = z.strictObject({
  /** The scope this file changes (checker/cli/scope-extends.ts); resolved before the rest is read. */
  extends: z.string().optional(),
  name: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'a scope name is lowercase letters, digits and dashes'),
  description: z.string(),
  namespaces: z
    .array(
      z.strictObject({
        // Not validated as a DNS label: invalid names are part of what a scope explores (NS-1).
        name,
        creator: name.optional(),
        /** Finalizers the creator asks for besides `kubernetes` (LC-2). */
        finalizers: z.array(finalizerName).optional(),
        /** metadata.finalizers the creator's create sends (D-46); any string, the model validates it (422). */
        metadataFinalizers: z.array(z.string()).optional(),
        system: z.boolean().optional(),
        preexisting: z.boolean().optional(),
        /** System or pre-existing: spec.finalizers at the start (default [kubernetes]). */
        initialFinalizers: z.array(finalizerName).optional(),
        /** System or pre-existing: objects in it at the start. */
        initialObjects: z.array(z.strictObject({ kind: contentKind, name: objectName })).optional(),
      }),
    )
    .min(1, 'a scope has at least one namespace'),
  users: z.array(
    z.strictObject({
      /** A user name, or system:serviceaccount:NAMESPACE:NAME for a service account. */
      name,
      groups: names,
      tenant: z.boolean().optional(),
      /** The namespaces its requests address (default: every namespace of the scope). */
      namespaces: names.optional(),
      requests: z.array(z.enum(requestTemplates)),
    }),
  ),
  /** ClusterRoles, ClusterRoleBindings and NamespaceInitializerConfigurations, as kubectl apply reads them. */
  manifests: z.array(z.record(z.string(), z.unknown())),
  /**
   * ClusterRoles and ClusterRoleBindings users may create, update and delete during the run (D-23),
   * each a manifest, stored from the start when `initially`, addressed only by `requestedBy` when given.
   * Entries of one kind and name are versions of one object: an update stores the version it sends.
   */
  clusterObjects: z
    .array(
      z.strictObject({
        manifest: z.record(z.string(), z.unknown()),
        initially: z.boolean().optional(),
        requestedBy: names.optional(),
      }),
    )
    .optional(),
  /** NamespaceInitializerConfigurations a cluster admin creates during the run (AC-3); the others exist from the start. */
  registeredLater: names.optional(),
  /** FP-3: contents a cluster admin may update a configuration to during the run, by configuration name. */
  configurationUpdates: z
    .record(
      name,
      z.array(
        z.strictObject({
          initializers: z.array(
            z.strictObject({
              name: initializerName,
              failurePolicy: z.enum(['Ignore', 'Fail']).optional(),
              timeoutSeconds: initializerTimeout.optional(),
            }),
          ),
        }),
      ),
    )
    .optional(),
  /** Configurations a cluster admin may delete (and create again) during the run. */
  deletableConfigurations: names.optional(),
  /** What each initializer creates in a namespace before it removes itself, and whether its work can fail (IN-7). */
  initializers: z.record(
    name,
    z.strictObject({
      creates: objectDefinition,
      canFail: z.boolean().optional(),
      /** With faults.initializerCrash: whether this controller may crash (default true). */
      canCrash: z.boolean().optional(),
    }),
  ),
  /** Objects users may create in namespaces. */
  content: z.array(objectDefinition),
  /**
   * Content kinds beyond the built-in seven, each with the names of its objects users may create (after
   * `content`'s in the model's object slots); they carry no RBAC meaning.
   */
  kinds: z.array(kindDeclaration.extend({ objects: z.array(objectName).min(1) })).optional(),
  /** External controllers owning a finalizer each (e.g. openshift.com/origin). */
  finalizerOwners: z.array(finalizerName),
  faults: z.strictObject({
    initializerCrash: z.boolean(),
    configReadFailure: z.boolean(),
    apiserverRestart: z.boolean(),
  }),
  clock: z.strictObject({
    readRepairTimeoutSeconds: globalTimeout,
  }),
  /** What the documents intend, for the properties (machines/scope.ts ScopeIntent); read off the scope when absent. */
  intent: z
    .strictObject({
      initializeHolders: names,
      initializerAccounts: z.record(name, name),
      tenants: z.record(name, names),
      clusterWide: names,
      finalizerOwners: z.record(finalizerName, name),
      tenantsMayGetNamespaceObjects: z.boolean(),
      timeouts: z.strictObject({
        configurationStaleAfterSeconds: globalTimeout,
        readRepairSeconds: globalTimeout,
        initializers: z.record(name, initializerTimeout),
      }),
    })
    .optional(),
  /** Interchangeable users and namespaces (stored for symmetry reduction; the search does not use them yet). */
  symmetry: z
    .strictObject({ users: z.array(names).optional(), namespaces: z.array(names).optional() })
    .optional(),
  expectations: expectationsSchema.optional(),
  golden: goldenSchema.optional(),
});
export type ScopeDocument = z.infer<typeof scopeDocumentSchema>;
