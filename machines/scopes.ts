import {
  finalizerOwnerAccount,
  initializerAccount,
  namespaceControllerAccount,
  type Scope,
  type ScopeIntent,
} from './scope.ts';

/**
 * Named scopes. `default` covers every requirement of the catalog and runs in CI; the larger ones
 * add namespaces, initializers and clock for depth and benchmarks.
 */

const policyInitializer = {
  name: 'policy.example.com',
  failurePolicy: 'Ignore' as const,
  timeoutSeconds: 5,
  // RB-2: the creator becomes admin inside the new namespace, and only there.
  populates: {
    resource: 'rolebindings',
    name: 'namespace-admin',
    roleBinding: { clusterRole: 'admin', subject: '$creator' },
  },
  canFail: false,
};

const quotaInitializer = {
  name: 'quota.example.com',
  failurePolicy: 'Fail' as const,
  timeoutSeconds: 3,
  populates: { resource: 'resourcequotas', name: 'compute-quota' },
  canFail: true,
};

const loggingInitializer = {
  name: 'logging.example.com',
  failurePolicy: 'Ignore' as const,
  timeoutSeconds: 5,
  populates: { resource: 'configmaps', name: 'log-index' },
  canFail: false,
};

/** Cluster-wide grants every scope needs: the documents' roles and the built-in actors' accounts. */
export const builtInActorBindings: Scope['clusterRoleBindings'] = [
  // RB-1: self-service creators hold get and create on namespaces (document 000).
  {
    name: 'namespace-creators',
    clusterRole: 'namespace-creator',
    subjects: [{ kind: 'Group', name: 'teams@corp.com' }],
  },
  // RB-3: the initializer controllers' service account holds `initialize`.
  {
    name: 'namespace-initializer',
    clusterRole: 'namespace-initializer',
    subjects: [{ kind: 'ServiceAccount', name: 'ns-initializer-sa', namespace: 'kube-system' }],
  },
  // D-17, D-23: besides `initialize`, it watches namespaces and creates what it populates.
  {
    name: 'namespace-populator',
    clusterRole: 'namespace-populator',
    subjects: [{ kind: 'ServiceAccount', name: 'ns-initializer-sa', namespace: 'kube-system' }],
  },
  // Shipped bootstrap controller policy, restricted to the model's resources.
  {
    name: 'system:controller:namespace-controller',
    clusterRole: 'system:controller:namespace-controller',
    subjects: [{ kind: 'User', name: namespaceControllerAccount }],
  },
];

/**
 * A labeller may update namespace objects but was never given `initialize`: admission's IN-3 refusal
 * (D-17) is what stops it changing the pending list. (The finalizer owner's least-privilege role,
 * `namespace-finalizer`, is a bootstrap one: scenarios bind it too.)
 */
const scopeClusterRoles: NonNullable<Scope['clusterRoles']> = [
  {
    metadata: { name: 'namespace-labeller' },
    rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'update'] }],
  },
];

const clusterRoleBindings: Scope['clusterRoleBindings'] = [
  ...builtInActorBindings,
  {
    name: 'origin-namespace-finalizer',
    clusterRole: 'namespace-finalizer',
    subjects: [{ kind: 'User', name: finalizerOwnerAccount('openshift.com/origin') }],
  },
  // A CI robot that may edit content everywhere: it is who IN-6 must stop in initializing namespaces.
  { name: 'ci-robot-edit', clusterRole: 'edit', subjects: [{ kind: 'User', name: 'ci-robot' }] },
  // A cluster-wide reader: reads of content while a namespace initializes (IN-6, D-19).
  { name: 'auditor-view', clusterRole: 'view', subjects: [{ kind: 'User', name: 'auditor' }] },
  { name: 'labeller', clusterRole: 'namespace-labeller', subjects: [{ kind: 'User', name: 'labeller' }] },
];

/**
 * What documents 000, 004 and 005 intend for the default scope, written out by hand: the properties
 * judge against this, never against what RBAC or admission compute.
 */
const defaultIntent: ScopeIntent = {
  // RB-3: the initializers' service account; D-17: cluster admins (system:masters) hold every verb.
  initializeHolders: [initializerAccount, 'carol'],
  initializerAccounts: {
    'policy.example.com': initializerAccount,
    'quota.example.com': initializerAccount,
    'logging.example.com': initializerAccount,
  },
  // RB-5: each namespace's creator; nobody is bound into another's namespace.
  tenants: { 'team-a': ['alice'], Team_C: ['alice'], 'team-b': ['bob'], 'team-b-dev': ['bob'] },
  clusterWide: [
    'carol',
    'ci-robot',
    'auditor',
    'labeller',
    namespaceControllerAccount,
    finalizerOwnerAccount('openshift.com/origin'),
  ],
  finalizerOwners: {
    kubernetes: namespaceControllerAccount,
    'openshift.com/origin': finalizerOwnerAccount('openshift.com/origin'),
  },
  tenantsMayGetNamespaceObjects: true,
  timeouts: {
    configurationStaleAfterSeconds: 5,
    readRepairSeconds: 6,
    initializers: { 'policy.example.com': 5, 'quota.example.com': 3, 'logging.example.com': 5 },
  },
};

export const defaultScope: Scope = {
  name: 'default',
  description:
    'Two tenants whose namespaces initialize at the same time while bob keeps working in his initialized one, a cluster-wide editor, reader and labeller, a cluster admin, two initializer configurations and a third registered while the cluster runs, bindings as document 000 writes them, every fault, and a 6 s read-repair timeout.',
  namespaces: [
    { name: 'team-a', creator: 'alice', extraFinalizers: ['openshift.com/origin'] },
    // Initialized before the run starts, with content and its namespace-admin RoleBinding: the victim isolation protects.
    {
      name: 'team-b',
      creator: 'bob',
      preexisting: true,
      initialContent: ['configmaps/app', 'rolebindings/namespace-admin'],
    },
    { name: 'Team_C', creator: 'alice' },
    { name: 'default', system: true },
  ],
  configurations: [
    { name: '10-policy', initializers: [policyInitializer], registered: 'initially' },
    { name: '20-quota', initializers: [quotaInitializer], registered: 'initially' },
  ],
  principals: [
    {
      name: 'alice',
      groups: ['teams@corp.com', 'system:authenticated'],
      tenant: true,
      namespaces: ['team-a', 'team-b', 'Team_C'],
      requests: [
        'create-namespace',
        'create-namespace-with-initializers',
        'complete-first-initializer',
        'create-content',
        // Lists in her namespaces and across all: RBAC decides each list as a whole (NS-7, RB-6).
        'list-content',
        'list-content-all-namespaces',
        // Verbs on namespace objects, hers and bob's: RBAC refuses them all to a creator (RB-1, RB-5).
        'delete-namespace',
        'update-finalizers',
      ],
    },
    // Bob keeps working in his initialized namespace while alice's initializes.
    {
      name: 'bob',
      groups: ['teams@corp.com', 'system:authenticated'],
      tenant: true,
      namespaces: ['team-b'],
      // Reads and a create that finds its name taken: bob is busy without multiplying the states.
      requests: ['create-content', 'get-content', 'list-content'],
    },
    {
      name: 'ci-robot',
      groups: ['system:authenticated'],
      namespaces: ['team-a'],
      requests: ['create-content'],
    },
    {
      name: 'auditor',
      groups: ['system:authenticated'],
      namespaces: ['team-a'],
      requests: ['get-content', 'list-content'],
    },
    {
      name: 'labeller',
      groups: ['system:authenticated'],
      namespaces: ['team-a'],
      requests: ['complete-first-initializer'],
    },
    {
      name: 'carol',
      groups: ['system:masters', 'system:authenticated'],
      namespaces: ['team-a', 'default'],
      // As an initialize holder she may create with her own (empty) pending list (D-17).
      requests: [
        'delete-namespace',
        'get-namespace',
        'update-finalizers',
        'create-namespace-with-initializers',
      ],
    },
  ],
  clusterRoleBindings,
  clusterRoles: scopeClusterRoles,
  // The quota is content too, so readers ask for what an initializer put there (IN-6).
  content: [
    { resource: 'configmaps', name: 'app' },
    { resource: 'resourcequotas', name: 'compute-quota' },
  ],
  finalizerOwners: ['openshift.com/origin'],
  faults: { initializerCrash: true, configReadFailure: true, apiserverRestart: true },
  clock: { readRepairTimeoutSeconds: 6 },
  intent: defaultIntent,
};

/**
 * The default scope with one more tenant and one more initializer, for depth and benchmarks. Erin does
 * in team-d exactly what bob does in team-b, so renaming one pair to the other gives the same scope:
 * they are declared interchangeable and the search keeps one state per orbit (checker/symmetry.ts).
 * Both start without their app ConfigMap, so each pair's creates tell them apart and the reduction bites.
 */
const pairedTenant = (namespace: string, creator: string): Scope['namespaces'][number] => ({
  name: namespace,
  creator,
  preexisting: true,
  initialContent: ['rolebindings/namespace-admin'],
});

export const largeScope: Scope = {
  ...defaultScope,
  name: 'large',
  description:
    'The default scope with one more tenant and one more initializer. Erin works in her initialized namespace team-d exactly as bob does in team-b (each may create the app ConfigMap their namespace starts without), so the two tenants are interchangeable (declared under symmetry); a third initializer configuration (logging) is registered while the cluster runs. Every fault, and a 6 s read-repair timeout.',
  namespaces: [
    { name: 'team-a', creator: 'alice', extraFinalizers: ['openshift.com/origin'] },
    pairedTenant('team-b', 'bob'),
    pairedTenant('team-d', 'erin'),
    { name: 'Team_C', creator: 'alice' },
    { name: 'default', system: true },
  ],
  configurations: [
    { name: '10-policy', initializers: [policyInitializer], registered: 'initially' },
    { name: '20-quota', initializers: [quotaInitializer], registered: 'initially' },
    { name: '30-logging', initializers: [loggingInitializer], registered: 'later' },
  ],
  principals: defaultScope.principals.flatMap((p) =>
    p.name === 'alice'
      ? [{ ...p, namespaces: ['team-a', 'team-b', 'team-d', 'Team_C'] }]
      : p.name === 'bob'
        ? [p, { ...p, name: 'erin', namespaces: ['team-d'] }]
        : [p],
  ),
  intent: {
    ...defaultIntent,
    // Only this scope's namespaces: an intent naming one the scope lacks would tell the tenants apart.
    tenants: { 'team-a': ['alice'], Team_C: ['alice'], 'team-b': ['bob'], 'team-d': ['erin'] },
  },
  symmetry: { namespaces: [['team-b', 'team-d']], users: [['bob', 'erin']] },
};

/**
 * The large scope with a fourth tenant: three interchangeable ones (bob, erin, frank), a group of 6.
 * It does not finish within a benchmark's budget; a run is reported incomplete, never as a pass.
 */
export const xlScope: Scope = {
  ...largeScope,
  name: 'xl',
  description:
    'The large scope with a fourth tenant: bob, erin and frank each work in their initialized namespace (team-b, team-d, team-e) alike, each may create the app ConfigMap it starts without, so the three are interchangeable (declared under symmetry); alice creates team-a while three initializer configurations (logging registered later) apply. Every fault, and a 6 s read-repair timeout.',
  namespaces: [
    largeScope.namespaces[0],
    pairedTenant('team-b', 'bob'),
    pairedTenant('team-d', 'erin'),
    pairedTenant('team-e', 'frank'),
    ...largeScope.namespaces.slice(3),
  ],
  principals: largeScope.principals.flatMap((p) =>
    p.name === 'alice'
      ? [{ ...p, namespaces: ['team-a', 'team-b', 'team-d', 'team-e', 'Team_C'] }]
      : p.name === 'erin'
        ? [p, { ...p, name: 'frank', namespaces: ['team-e'] }]
        : [p],
  ),
  intent: {
    ...defaultIntent,
    tenants: {
      'team-a': ['alice'],
      Team_C: ['alice'],
      'team-b': ['bob'],
      'team-d': ['erin'],
      'team-e': ['frank'],
    },
  },
  symmetry: { namespaces: [['team-b', 'team-d', 'team-e']], users: [['bob', 'erin', 'frank']] },
};

/**
 * A cluster admin who may also finalize live namespaces. LC-9 then fails: finalizing away `kubernetes`
 * before deleting lets the namespace go with its content left behind (as shipped Kubernetes allows).
 */
export const adminFinalizeScope: Scope = {
  ...defaultScope,
  name: 'admin-finalize',
  description:
    'Alice creates her namespace and content; a cluster admin deletes it or finalizes away `kubernetes` while it lives. No faults: the scope shows the LC-9 finding and nothing else, so the test suite can pin it.',
  principals: [
    {
      name: 'alice',
      groups: ['teams@corp.com', 'system:authenticated'],
      tenant: true,
      namespaces: ['team-a'],
      requests: ['create-namespace', 'create-content'],
    },
    {
      name: 'carol',
      groups: ['system:masters', 'system:authenticated'],
      namespaces: ['team-a'],
      requests: ['delete-namespace', 'finalize-remove-kubernetes'],
    },
  ],
  faults: { initializerCrash: false, configReadFailure: false, apiserverRestart: false },
};

/**
 * The default scope with two tenants' namespaces initializing at the same time and a configuration
 * with a new initializer registered while namespaces exist (AC-3). Too large for the 60 s CI budget
 * (docs/performance.md): explore it with `npm run verify -- --scope concurrent`.
 */
export const concurrentScope: Scope = {
  ...defaultScope,
  name: 'concurrent',
  description:
    "The default scope where bob creates a second namespace that initializes while alice's does, and a fail-open logging configuration is registered while namespaces exist.",
  namespaces: [
    ...defaultScope.namespaces.slice(0, 2),
    { name: 'team-b-dev', creator: 'bob' },
    ...defaultScope.namespaces.slice(2),
  ],
  configurations: [
    ...defaultScope.configurations,
    { name: '30-logging', initializers: [loggingInitializer], registered: 'later' },
  ],
  principals: [
    ...defaultScope.principals,
    {
      name: 'bob',
      groups: ['teams@corp.com', 'system:authenticated'],
      tenant: true,
      namespaces: ['team-b-dev'],
      requests: ['create-namespace', 'create-content'],
    },
  ],
};

export const scopes: Record<string, Scope> = {
  default: defaultScope,
  large: largeScope,
  xl: xlScope,
  'admin-finalize': adminFinalizeScope,
  concurrent: concurrentScope,
};
