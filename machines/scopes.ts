import { finalizerOwnerAccount, namespaceControllerAccount, type Scope } from './scope.ts';

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
  canFail: true,
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

const clusterRoleBindings: Scope['clusterRoleBindings'] = [
  ...builtInActorBindings,
  {
    name: 'origin-namespace-finalizer',
    clusterRole: 'cluster-admin',
    subjects: [{ kind: 'User', name: finalizerOwnerAccount('openshift.com/origin') }],
  },
  // A CI robot that may edit content everywhere: it is who IN-6 must stop in initializing namespaces.
  { name: 'ci-robot-edit', clusterRole: 'edit', subjects: [{ kind: 'User', name: 'ci-robot' }] },
];

export const defaultScope: Scope = {
  name: 'default',
  description:
    'Two tenants, each creating one namespace (one with the OpenShift finalizer), the default namespace, two initializer configurations (fail-open policy, fail-closed quota that can fail), a cluster-wide editor, a cluster admin, every fault, and a 6 s clock.',
  namespaces: [
    { name: 'team-a', creator: 'alice', extraFinalizers: ['openshift.com/origin'] },
    // Initialized before the run starts: the other tenant's namespace that isolation protects.
    { name: 'team-b', creator: 'bob', preexisting: true, initialContent: ['configmaps/app'] },
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
      ],
    },
    {
      name: 'bob',
      groups: ['teams@corp.com', 'system:authenticated'],
      tenant: true,
      namespaces: ['team-b'],
      requests: [],
    },
    {
      name: 'ci-robot',
      groups: ['system:authenticated'],
      namespaces: ['team-a'],
      requests: ['create-content'],
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
  content: [{ resource: 'configmaps', name: 'app' }],
  finalizerOwners: ['openshift.com/origin'],
  faults: { initializerCrash: true, configReadFailure: true, apiserverRestart: true },
  clock: { horizonSeconds: 6, readRepairTimeoutSeconds: 6 },
};

/** Three tenants, three configurations and a longer clock: for depth and benchmarks. */
export const largeScope: Scope = {
  ...defaultScope,
  name: 'large',
  description:
    'The default scope with a third configuration (logging, registered later), a third tenant namespace and an 8 s clock.',
  namespaces: [
    { name: 'team-a', creator: 'alice', extraFinalizers: ['openshift.com/origin'] },
    { name: 'team-b', creator: 'bob' },
    { name: 'team-c', creator: 'dave' },
    { name: 'default', system: true },
  ],
  configurations: [
    { name: '10-policy', initializers: [policyInitializer], registered: 'initially' },
    { name: '20-quota', initializers: [quotaInitializer], registered: 'initially' },
    { name: '30-logging', initializers: [loggingInitializer], registered: 'later' },
  ],
  principals: [
    // Only namespaces this scope has: a principal naming one it lacks is a scope-file error.
    ...defaultScope.principals.map((p) =>
      p.namespaces ? { ...p, namespaces: p.namespaces.filter((n) => n !== 'Team_C') } : p,
    ),
    {
      name: 'dave',
      groups: ['teams@corp.com', 'system:authenticated'],
      tenant: true,
      namespaces: ['team-c'],
      requests: ['create-namespace', 'create-content'],
    },
  ],
  clock: { horizonSeconds: 8, readRepairTimeoutSeconds: 7 },
};

/**
 * A cluster admin who may also finalize live namespaces. LC-9 then fails: finalizing away `kubernetes`
 * before deleting lets the namespace go with its content left behind (as shipped Kubernetes allows).
 */
export const adminFinalizeScope: Scope = {
  ...defaultScope,
  name: 'admin-finalize',
  description:
    'The default scope where the cluster admin may also finalize away `kubernetes` from a live namespace.',
  principals: defaultScope.principals.map((p) =>
    p.name === 'carol' ? { ...p, requests: [...p.requests, 'finalize-remove-kubernetes' as const] } : p,
  ),
};

export const scopes: Record<string, Scope> = {
  default: defaultScope,
  large: largeScope,
  'admin-finalize': adminFinalizeScope,
};
