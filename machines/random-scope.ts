import fc from 'fast-check';
import {
  builtInActorBindings,
  type ClusterObjectSpec,
  type ClusterRoleBindingSpec,
  type ConfigurationSpec,
  type FailurePolicy,
  finalizerOwnerAccount,
  type InitializerSpec,
  type NamespaceSpec,
  type ObjectSlot,
  type PrincipalSpec,
  type RequestTemplate,
  type Scope,
} from './scope.ts';

/**
 * Arbitrary scopes beyond what the exhaustive search reaches: five or six tenant namespaces besides default, four initializers
 * spread over three configurations, three tenants whose RoleBindings and requests are drawn at random,
 * and every fault on. Every scope keeps the promises the properties rely on: tenants are bound only to
 * harmless roles cluster-wide, RoleBindings name only a namespace's creator or a non-tenant, and only
 * the namespace controller and the finalizer owners may finalize. An RBAC manager writes ClusterRoles and
 * ClusterRoleBindings (D-23) for the CI robot only, which already acts cluster-wide; escalation prevention
 * refuses the versions that grant what the manager does not hold.
 */

export const tenants = ['alice', 'bob', 'dave'] as const;
type Tenant = (typeof tenants)[number];

const tenantGroups = ['teams@corp.com', 'system:authenticated'];
const finalizerOwners = ['openshift.com/origin', 'backup.example.com/snapshots'];

/** The four initializers and the object each one places in a new namespace. */
const initializerObjects: { name: string; populates: ObjectSlot }[] = [
  {
    name: 'policy.example.com',
    // RB-2: the creator becomes admin inside the new namespace, and only there.
    populates: {
      resource: 'rolebindings',
      name: 'namespace-admin',
      roleBinding: { clusterRole: 'admin', subject: '$creator' },
    },
  },
  { name: 'quota.example.com', populates: { resource: 'resourcequotas', name: 'compute-quota' } },
  { name: 'logging.example.com', populates: { resource: 'configmaps', name: 'log-index' } },
  { name: 'network.example.com', populates: { resource: 'networkpolicies', name: 'default-deny' } },
];

const failurePolicyArb: fc.Arbitrary<FailurePolicy> = fc.constantFrom('Ignore', 'Fail');

const initializerArb = (name: string, populates: ObjectSlot): fc.Arbitrary<InitializerSpec> =>
  fc.record({
    name: fc.constant(name),
    failurePolicy: failurePolicyArb,
    timeoutSeconds: fc.integer({ min: 1, max: 3 }),
    populates: fc.constant(populates),
    canFail: fc.boolean(),
  });

/** Three configurations holding the four initializers (one gets two), names drawn so their sort order varies. */
const configurationsArb: fc.Arbitrary<ConfigurationSpec[]> = fc
  .tuple(
    fc.tuple(...initializerObjects.map((i) => initializerArb(i.name, i.populates))),
    fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
    fc.shuffledSubarray(['10-policy', '20-quota', '30-logging', '40-network', '50-extra'], {
      minLength: 3,
      maxLength: 3,
    }),
    fc.integer({ min: 0, max: 2 }),
    fc.array(fc.constantFrom<ConfigurationSpec['registered']>('initially', 'initially', 'later'), {
      minLength: 3,
      maxLength: 3,
    }),
  )
  .map(([initializers, order, names, doubled, registered]) => {
    const groups: InitializerSpec[][] = [[], [], []];
    order.forEach((index, position) => {
      groups[position < 3 ? position : doubled].push(initializers[index]);
    });
    return groups.map((group, k) => ({ name: names[k], initializers: group, registered: registered[k] }));
  });

/** A namespace of a tenant: created during the run or already Active, with a random choice of owner finalizers. */
const tenantNamespaceArb = (name: string, creator: Tenant): fc.Arbitrary<NamespaceSpec> =>
  fc.record({
    name: fc.constant(name),
    creator: fc.constant(creator),
    extraFinalizers: fc.subarray(finalizerOwners),
    // Mostly created during the run, where initialization happens.
    preexisting: fc.constantFrom(false, false, true),
  });

const namespacesArb: fc.Arbitrary<NamespaceSpec[]> = fc
  .tuple(
    tenantNamespaceArb('team-a', 'alice'),
    tenantNamespaceArb('team-b', 'bob'),
    tenantNamespaceArb('team-c', 'dave'),
    // An invalid name now and then, so creation refusals (NS-1) stay in play.
    fc
      .constantFrom('team-d', 'Team_D')
      .chain((name) => fc.constantFrom(...tenants).chain((creator) => tenantNamespaceArb(name, creator))),
    fc.constantFrom(...tenants).chain((creator) => tenantNamespaceArb('team-e', creator)),
    fc.option(
      fc.constantFrom(...tenants).chain((creator) => tenantNamespaceArb('team-f', creator)),
      { nil: undefined },
    ),
  )
  .map(([a, b, c, d, e, f]) => {
    const namespaces = [a, b, c, d, e, ...(f ? [f] : [])].map((ns) =>
      // A pre-existing namespace with an invalid name could never have been stored.
      ns.preexisting && ns.name !== ns.name.toLowerCase() ? { ...ns, preexisting: false } : ns,
    );
    return [...namespaces, { name: 'default', system: true }];
  });

/** A RoleBinding a tenant may create in its namespace: for itself or a non-tenant, never another tenant (RB-5). */
const roleBindingSlotArb: fc.Arbitrary<ObjectSlot> = fc
  .record({
    clusterRole: fc.constantFrom('view', 'edit', 'admin'),
    subject: fc.constantFrom('$creator', 'auditor', 'ci-robot'),
  })
  .map((roleBinding) => ({
    resource: 'rolebindings',
    name: `grant-${roleBinding.clusterRole}`,
    roleBinding,
  }));

const contentArb: fc.Arbitrary<ObjectSlot[]> = fc
  .tuple(
    fc.subarray<ObjectSlot>(
      [
        { resource: 'configmaps', name: 'app' },
        { resource: 'secrets', name: 'db' },
      ],
      { minLength: 1 },
    ),
    fc.option(roleBindingSlotArb, { nil: undefined }),
  )
  .map(([plain, binding]) => [...plain, ...(binding ? [binding] : [])]);

/** Every tenant creates its namespaces and content; these vary. A watch starts as a list (D-16, D-47). */
const tenantTemplates: RequestTemplate[] = [
  'create-namespace-with-initializers',
  'get-namespace',
  'complete-first-initializer',
  'delete-content',
  'get-content',
  'list-content-all-namespaces',
  'watch-content',
];

/** A tenant's requests: a few templates, aimed at its own namespaces and some foreign ones. */
const tenantPrincipalArb = (tenant: Tenant, namespaces: NamespaceSpec[]): fc.Arbitrary<PrincipalSpec> =>
  fc
    .tuple(
      fc.subarray(tenantTemplates, { minLength: 1, maxLength: 3 }),
      fc.subarray(
        namespaces.filter((ns) => ns.creator && ns.creator !== tenant).map((ns) => ns.name),
        { maxLength: 2 },
      ),
    )
    .map(([requests, foreign]) => ({
      name: tenant,
      groups: tenantGroups,
      tenant: true,
      requests: ['create-namespace', 'create-content', ...requests],
      namespaces: [...namespaces.filter((ns) => ns.creator === tenant).map((ns) => ns.name), ...foreign],
    }));

/** Non-tenants: a cluster-wide CI robot, an auditor, and a cluster admin who deletes and completes initializers. */
const operatorsArb = (namespaces: NamespaceSpec[]): fc.Arbitrary<PrincipalSpec[]> => {
  const names = namespaces.map((ns) => ns.name);
  return fc
    .tuple(
      fc.subarray(names, { minLength: 1, maxLength: 3 }),
      fc.subarray<RequestTemplate>(['delete-content', 'get-content']),
      fc.subarray(names, { minLength: 2, maxLength: 4 }),
      fc.subarray<RequestTemplate>(['get-namespace', 'update-finalizers', 'complete-first-initializer'], {
        maxLength: 2,
      }),
    )
    .map(([robotNamespaces, robotRequests, adminNamespaces, adminRequests]) => [
      {
        name: 'ci-robot',
        groups: ['system:authenticated'],
        namespaces: robotNamespaces,
        // Its watches are always among its requests: the random runs watch content (D-16, D-47).
        requests: ['create-content', 'watch-content', ...robotRequests],
      },
      {
        name: 'auditor',
        groups: ['system:authenticated'],
        requests: ['get-content', 'list-content-all-namespaces'],
      },
      {
        name: 'carol',
        groups: ['system:masters', 'system:authenticated'],
        namespaces: adminNamespaces,
        requests: ['delete-namespace', ...adminRequests],
      },
    ]);
};

/** Cluster-wide grants: the built-in actors, the creators group, and random roles for the non-tenants. */
const clusterRoleBindingsArb: fc.Arbitrary<ClusterRoleBindingSpec[]> = fc
  .record({
    robot: fc.constantFrom('edit', 'view'),
    auditor: fc.option(fc.constant('view'), { nil: undefined }),
  })
  .map(({ robot, auditor }) => [
    ...builtInActorBindings,
    ...finalizerOwners.map((owner) => ({
      name: `finalizer-${owner}`,
      // Least privilege (LC-8): watch namespaces and finalize them, as the bootstrap role grants.
      clusterRole: 'namespace-finalizer',
      subjects: [{ kind: 'User' as const, name: finalizerOwnerAccount(owner) }],
    })),
    { name: 'ci-robot', clusterRole: robot, subjects: [{ kind: 'User', name: 'ci-robot' }] },
    ...(auditor
      ? [{ name: 'auditor', clusterRole: auditor, subjects: [{ kind: 'User' as const, name: 'auditor' }] }]
      : []),
  ]);

/** The RBAC manager (D-23): it may write both kinds, bind `view`, and holds configmap reads, nothing more. */
const rbacManager = 'rbac-manager';
const rbacGroup = 'rbac.authorization.k8s.io';
const rbacManagerRole = {
  metadata: { name: rbacManager },
  rules: [
    {
      apiGroups: [rbacGroup],
      resources: ['clusterroles', 'clusterrolebindings'],
      verbs: ['get', 'create', 'update', 'delete'],
    },
    { apiGroups: [rbacGroup], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['view'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
  ],
};
const rbacManagerBinding: ClusterRoleBindingSpec = {
  name: rbacManager,
  clusterRole: rbacManager,
  subjects: [{ kind: 'User', name: rbacManager }],
};

/**
 * What the RBAC manager may request (D-23): a ClusterRole `configmap-reader` in up to three versions
 * (the reads it holds; a narrower one; one adding secrets, which escalation prevention refuses), the CI
 * robot bound to it or to `view` (versions of one binding, so an update changing the roleRef is 422), and
 * now and then the manager's own cluster-admin binding, always refused.
 */
const clusterObjectsArb: fc.Arbitrary<ClusterObjectSpec[]> = fc
  .record({
    narrower: fc.boolean(),
    escalating: fc.boolean(),
    rebinds: fc.boolean(),
    selfAdmin: fc.boolean(),
  })
  .map(({ narrower, escalating, rebinds, selfAdmin }) => {
    const reader = (extra: ClusterObjectSpec['rules'] = []): ClusterObjectSpec => ({
      kind: 'ClusterRole',
      name: 'configmap-reader',
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }, ...(extra ?? [])],
    });
    const robotBinding = (clusterRole: string): ClusterObjectSpec => ({
      kind: 'ClusterRoleBinding',
      name: 'ci-robot-reads',
      clusterRole,
      subjects: [{ kind: 'User', name: 'ci-robot' }],
    });
    return [
      reader(),
      ...(narrower
        ? [{ ...reader(), rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }]
        : []),
      ...(escalating ? [reader([{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }])] : []),
      robotBinding('configmap-reader'),
      ...(rebinds ? [robotBinding('view')] : []),
      ...(selfAdmin
        ? [
            {
              kind: 'ClusterRoleBinding' as const,
              name: 'rbac-manager-cluster-admin',
              clusterRole: 'cluster-admin',
              subjects: [{ kind: 'User' as const, name: rbacManager }],
            },
          ]
        : []),
    ];
  });

/** The RBAC manager sends every request on cluster objects: creates, updates to other versions, deletes. */
const rbacManagerPrincipal: PrincipalSpec = {
  name: rbacManager,
  groups: ['system:authenticated'],
  requests: ['create-cluster-object', 'update-cluster-object', 'delete-cluster-object'],
};

/** A scope for random runs: see the module comment for what it always keeps. */
export const randomScopeArbitrary: fc.Arbitrary<Scope> = fc
  .tuple(namespacesArb, configurationsArb, contentArb, clusterRoleBindingsArb, clusterObjectsArb)
  .chain(([namespaces, configurations, content, clusterRoleBindings, clusterObjects]) =>
    fc
      .tuple(fc.tuple(...tenants.map((t) => tenantPrincipalArb(t, namespaces))), operatorsArb(namespaces))
      .map(
        ([tenantPrincipals, operators]): Scope => ({
          name: 'random',
          description:
            'A random scope: five or six tenant namespaces besides default, four initializers in three configurations, three tenants, an RBAC manager writing cluster RBAC objects, every fault.',
          namespaces,
          configurations,
          principals: [...tenantPrincipals, ...operators, rbacManagerPrincipal],
          clusterRoleBindings: [...clusterRoleBindings, rbacManagerBinding],
          clusterRoles: [rbacManagerRole],
          clusterObjects,
          content,
          finalizerOwners,
          faults: { initializerCrash: true, configReadFailure: true, apiserverRestart: true },
          // Read-repair waits longer than any initializer's own timer (D-8).
          clock: { readRepairTimeoutSeconds: 5 },
        }),
      ),
  );

/** One random scope, the same for the same seed: what `verify --random` and `npm run mutants` walk. */
export function sampleRandomScope(seed: number): Scope {
  const [scope] = fc.sample(randomScopeArbitrary, { seed, numRuns: 1 });
  return { ...scope, name: `random-${seed}` };
}
