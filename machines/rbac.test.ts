import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { alice, bob, initializerSa, root, tenantPolicy } from '../test-support/tenant-cluster.ts';
import type { ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from './k8s-types.ts';
import {
  type AuthorizationAttributes,
  authenticatedUser,
  authorize,
  bootstrapPolicy,
  builtInClusterRoles,
  clusterRoleBinding,
  compileAuthorizer,
  groupSubject,
  namespaceAdminRoleBinding,
  namespaceCreatorsBinding,
  namespaceInitializerBinding,
  parseServiceAccountUserName,
  policyRuleAllows,
  type RbacPolicy,
  requestNamespace,
  roleBinding,
  serviceAccountSubject,
  serviceAccountUser,
  type User,
  userSubject,
  withClusterRoleBinding,
  withRole,
  withRoleBinding,
} from './rbac.ts';

const carol = authenticatedUser('carol');

const allowed = (user: User, attrs: AuthorizationAttributes, policy = tenantPolicy) =>
  authorize(policy, user, attrs).allowed;

describe('self-service namespace creators (RB-1)', () => {
  it.each([
    { verb: 'create', resource: 'namespaces' },
    { verb: 'get', resource: 'namespaces', name: 'team-b' },
  ])('RB-1 a creator may $verb namespaces', (attrs) => {
    expect(authorize(tenantPolicy, alice, attrs)).toMatchObject({
      allowed: true,
      grantedBy: 'ClusterRoleBinding/namespace-creators',
    });
  });

  it.each([
    { verb: 'list', resource: 'namespaces' },
    { verb: 'update', resource: 'namespaces', name: 'team-b' },
    { verb: 'delete', resource: 'namespaces', name: 'team-b' },
    { verb: 'create', resource: 'pods', namespace: 'team-c' },
    { verb: 'initialize', resource: 'namespaces', name: 'team-c' },
  ])('RB-1 a creator holds nothing else: $verb $resource', (attrs) => {
    expect(
      allowed(
        carol,
        attrs,
        withClusterRoleBinding(bootstrapPolicy(), namespaceCreatorsBinding([userSubject('carol')])),
      ),
    ).toBe(false);
  });

  it('RB-1 someone outside the creators group may not create namespaces', () => {
    const result = authorize(tenantPolicy, carol, { verb: 'create', resource: 'namespaces' });
    expect(result.allowed).toBe(false);
    expect(result.reason).toBe(
      'User "carol" cannot create resource "namespaces" in API group "" at the cluster scope',
    );
  });
});

describe('namespace-admin RoleBinding from policy population (RB-2)', () => {
  it.each([
    ['create', 'pods'],
    ['delete', 'configmaps'],
    ['get', 'secrets'],
    ['create', 'rolebindings'],
    ['create', 'roles'],
    ['create', 'networkpolicies'],
    ['get', 'resourcequotas'],
  ])('RB-2 the creator may %s %s in its namespace', (verb, resource) => {
    expect(authorize(tenantPolicy, alice, { verb, resource, namespace: 'team-a' })).toMatchObject({
      allowed: true,
      grantedBy: 'RoleBinding team-a/namespace-admin',
    });
  });

  it('RB-2 the creator may read its own namespace object through the RoleBinding', () => {
    expect(requestNamespace({ verb: 'get', resource: 'namespaces', name: 'team-a' })).toBe('team-a');
    const withoutCreators = withRoleBinding(bootstrapPolicy(), namespaceAdminRoleBinding('team-a', 'carol'));
    expect(allowed(carol, { verb: 'get', resource: 'namespaces', name: 'team-a' }, withoutCreators)).toBe(
      true,
    );
    expect(allowed(carol, { verb: 'get', resource: 'namespaces', name: 'team-b' }, withoutCreators)).toBe(
      false,
    );
  });

  it.each([
    { verb: 'delete', resource: 'namespaces', name: 'team-a' },
    { verb: 'update', resource: 'namespaces', name: 'team-a' },
    { verb: 'update', resource: 'namespaces', subresource: 'finalize', name: 'team-a' },
    { verb: 'update', resource: 'namespaces', subresource: 'status', name: 'team-a' },
    { verb: 'initialize', resource: 'namespaces', name: 'team-a' },
    { verb: 'update', resource: 'resourcequotas', namespace: 'team-a' },
  ])('RB-2 admin does not cover $verb $resource/$subresource', (attrs) => {
    expect(allowed(alice, attrs)).toBe(false);
  });

  it('RB-2 the grant is confined to the namespace it was made in', () => {
    expect(allowed(alice, { verb: 'create', resource: 'pods', namespace: 'team-b' })).toBe(false);
    expect(allowed(alice, { verb: 'create', resource: 'pods' })).toBe(false);
  });
});

describe('the initializer service account (RB-3)', () => {
  it('RB-3 holds initialize on every namespace through a ClusterRoleBinding', () => {
    for (const name of ['team-a', 'team-z'])
      expect(
        authorize(tenantPolicy, initializerSa, { verb: 'initialize', resource: 'namespaces', name }),
      ).toMatchObject({
        allowed: true,
        grantedBy: 'ClusterRoleBinding/namespace-initializer',
      });
  });

  it('RB-3 a service account of the same name in another namespace does not', () => {
    expect(
      allowed(serviceAccountUser('team-a', 'ns-initializer-sa'), {
        verb: 'initialize',
        resource: 'namespaces',
        name: 'x',
      }),
    ).toBe(false);
  });

  it('RB-3 a ServiceAccount subject without a namespace never matches in a ClusterRoleBinding', () => {
    const policy = withClusterRoleBinding(
      bootstrapPolicy(),
      namespaceInitializerBinding([{ kind: 'ServiceAccount', name: 'ns-initializer-sa' }]),
    );
    expect(allowed(initializerSa, { verb: 'initialize', resource: 'namespaces', name: 'x' }, policy)).toBe(
      false,
    );
  });

  it('RB-3 initialize is an ordinary verb: * verbs include it, other roles do not', () => {
    expect(
      authorize(tenantPolicy, root, { verb: 'initialize', resource: 'namespaces', name: 'x' }),
    ).toMatchObject({
      allowed: true,
      grantedBy: 'group system:masters',
    });
    const admins = withClusterRoleBinding(
      bootstrapPolicy(),
      clusterRoleBinding('ops', 'cluster-admin', [userSubject('carol')]),
    );
    expect(allowed(carol, { verb: 'initialize', resource: 'namespaces', name: 'x' }, admins)).toBe(true);
    expect(allowed(initializerSa, { verb: 'create', resource: 'pods', namespace: 'team-a' })).toBe(false);
  });

  it('RB-3 service accounts carry their user name and groups', () => {
    expect(initializerSa).toEqual({
      name: 'system:serviceaccount:kube-system:ns-initializer-sa',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    });
    expect(parseServiceAccountUserName(initializerSa.name)).toEqual({
      namespace: 'kube-system',
      name: 'ns-initializer-sa',
    });
    expect(parseServiceAccountUserName('alice')).toBeUndefined();
  });
});

describe('RoleBindings grant only in their namespace (RB-4)', () => {
  const readerInTeamA = roleBinding(
    'team-a',
    'readers',
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    [userSubject('carol')],
  );
  const policy = withRoleBinding(bootstrapPolicy(), readerInTeamA);

  it('RB-4 a RoleBinding to a ClusterRole grants in its namespace, not in another nor cluster-wide', () => {
    expect(allowed(carol, { verb: 'get', resource: 'pods', namespace: 'team-a' }, policy)).toBe(true);
    expect(allowed(carol, { verb: 'get', resource: 'pods', namespace: 'team-b' }, policy)).toBe(false);
    expect(allowed(carol, { verb: 'list', resource: 'pods' }, policy)).toBe(false);
    expect(allowed(carol, { verb: 'list', resource: 'namespaces' }, policy)).toBe(false);
  });

  it('RB-4 a ClusterRoleBinding of the same role grants everywhere', () => {
    const cluster = withClusterRoleBinding(
      bootstrapPolicy(),
      clusterRoleBinding('readers', 'view', [userSubject('carol')]),
    );
    for (const namespace of ['team-a', 'team-b', undefined])
      expect(allowed(carol, { verb: 'list', resource: 'pods', namespace }, cluster)).toBe(true);
  });

  it('RB-4 a RoleBinding to a Role uses the Role of its own namespace', () => {
    const podReader: Role = {
      metadata: { name: 'pod-reader', namespace: 'team-a' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    };
    const toRole: RoleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' };
    const inTeamA = withRoleBinding(
      withRole(bootstrapPolicy(), podReader),
      roleBinding('team-a', 'r', toRole, [userSubject('carol')]),
    );
    const inTeamB = withRoleBinding(
      withRole(bootstrapPolicy(), podReader),
      roleBinding('team-b', 'r', toRole, [userSubject('carol')]),
    );
    expect(allowed(carol, { verb: 'get', resource: 'pods', namespace: 'team-a' }, inTeamA)).toBe(true);
    expect(allowed(carol, { verb: 'get', resource: 'pods', namespace: 'team-b' }, inTeamB)).toBe(false);
  });

  it('RB-4 a ServiceAccount subject without a namespace means the RoleBinding namespace', () => {
    const saBinding = roleBinding(
      'team-a',
      'sa',
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      [{ kind: 'ServiceAccount', name: 'deployer' }],
    );
    const policyWithSa = withRoleBinding(bootstrapPolicy(), saBinding);
    const attrs = { verb: 'create', resource: 'pods', namespace: 'team-a' };
    expect(allowed(serviceAccountUser('team-a', 'deployer'), attrs, policyWithSa)).toBe(true);
    expect(allowed(serviceAccountUser('team-b', 'deployer'), attrs, policyWithSa)).toBe(false);
  });

  it('RB-4 a binding to a role that does not exist grants nothing', () => {
    const dangling = withClusterRoleBinding(
      bootstrapPolicy(),
      clusterRoleBinding('x', 'no-such-role', [userSubject('carol')]),
    );
    expect(allowed(carol, { verb: 'get', resource: 'pods', namespace: 'team-a' }, dangling)).toBe(false);
  });
});

describe('tenants stay apart (RB-5)', () => {
  it.each(['get', 'list', 'create', 'update', 'delete'])(
    'RB-5 one tenant may not %s pods in the other tenant namespace',
    (verb) => {
      expect(allowed(alice, { verb, resource: 'pods', namespace: 'team-b' })).toBe(false);
      expect(allowed(bob, { verb, resource: 'pods', namespace: 'team-a' })).toBe(false);
      expect(allowed(alice, { verb, resource: 'pods', namespace: 'team-a' })).toBe(true);
    },
  );

  it('RB-5 a tenant may not bind itself into another tenant namespace', () => {
    expect(allowed(alice, { verb: 'create', resource: 'rolebindings', namespace: 'team-b' })).toBe(false);
  });
});

describe('cross-namespace list and watch (RB-6, NS-7)', () => {
  it('RB-6 a namespace admin lists in its namespace but not across all namespaces', () => {
    expect(allowed(alice, { verb: 'list', resource: 'pods', namespace: 'team-a' })).toBe(true);
    expect(allowed(alice, { verb: 'list', resource: 'pods' })).toBe(false);
    expect(allowed(alice, { verb: 'watch', resource: 'pods' })).toBe(false);
  });

  it('RB-6 a cluster-wide grant lists across all namespaces', () => {
    const viewers = withClusterRoleBinding(
      tenantPolicy,
      clusterRoleBinding('auditors', 'view', [groupSubject('auditors')]),
    );
    const auditor = authenticatedUser('dave', ['auditors']);
    expect(authorize(viewers, auditor, { verb: 'list', resource: 'pods' })).toMatchObject({
      allowed: true,
      grantedBy: 'ClusterRoleBinding/auditors',
    });
    expect(allowed(root, { verb: 'watch', resource: 'secrets' })).toBe(true);
  });
});

describe('built-in roles as shipped', () => {
  const roleRules = (name: string): readonly PolicyRule[] =>
    builtInClusterRoles.find((r) => r.metadata.name === name)!.rules;
  const roleAllows = (name: string, attrs: AuthorizationAttributes) =>
    roleRules(name).some((r) => policyRuleAllows(r, attrs));

  it('RB-5 view reads content but never secrets', () => {
    expect(roleAllows('view', { verb: 'get', resource: 'configmaps' })).toBe(true);
    expect(roleAllows('view', { verb: 'get', resource: 'secrets' })).toBe(false);
    expect(roleAllows('view', { verb: 'create', resource: 'pods' })).toBe(false);
  });

  it('RB-5 edit writes content and secrets but not RBAC objects or quotas', () => {
    expect(roleAllows('edit', { verb: 'create', resource: 'secrets' })).toBe(true);
    expect(roleAllows('edit', { verb: 'create', resource: 'rolebindings' })).toBe(false);
    expect(roleAllows('edit', { verb: 'update', resource: 'resourcequotas' })).toBe(false);
  });

  it.each(['admin', 'edit', 'view'])('RB-2 %s may not update, delete or finalize a namespace', (name) => {
    for (const verb of ['update', 'patch', 'delete'])
      for (const subresource of [undefined, 'finalize', 'status'])
        expect(roleAllows(name, { verb, resource: 'namespaces', subresource })).toBe(false);
  });

  it('RB-4 RBAC wildcards: * resources include subresources, */sub matches one subresource, pods/* is literal', () => {
    const rule = (resources: string[]): PolicyRule => ({ apiGroups: [''], resources, verbs: ['get'] });
    expect(policyRuleAllows(rule(['*']), { verb: 'get', resource: 'pods', subresource: 'log' })).toBe(true);
    expect(policyRuleAllows(rule(['*/log']), { verb: 'get', resource: 'pods', subresource: 'log' })).toBe(
      true,
    );
    expect(policyRuleAllows(rule(['*/log']), { verb: 'get', resource: 'pods' })).toBe(false);
    expect(policyRuleAllows(rule(['pods/*']), { verb: 'get', resource: 'pods', subresource: 'log' })).toBe(
      false,
    );
    expect(policyRuleAllows(rule(['pods']), { verb: 'get', resource: 'pods', subresource: 'log' })).toBe(
      false,
    );
  });

  it('RB-4 resourceNames restrict a rule to the named objects', () => {
    const named: PolicyRule = {
      apiGroups: [''],
      resources: ['configmaps'],
      verbs: ['get'],
      resourceNames: ['settings'],
    };
    expect(policyRuleAllows(named, { verb: 'get', resource: 'configmaps', name: 'settings' })).toBe(true);
    expect(policyRuleAllows(named, { verb: 'get', resource: 'configmaps', name: 'other' })).toBe(false);
    expect(policyRuleAllows(named, { verb: 'list', resource: 'configmaps' })).toBe(false);
  });

  it('RB-4 a binding to system:authenticated applies to every authenticated user', () => {
    const everyone = withClusterRoleBinding(
      bootstrapPolicy(),
      clusterRoleBinding('all', 'view', [groupSubject('system:authenticated')]),
    );
    expect(allowed(carol, { verb: 'get', resource: 'pods', namespace: 'x' }, everyone)).toBe(true);
    expect(
      allowed({ name: 'eve', groups: [] }, { verb: 'get', resource: 'pods', namespace: 'x' }, everyone),
    ).toBe(true);
  });
});

// ------------------------------------------------------------------ property-based

const namespaces = ['team-a', 'team-b', 'kube-system'] as const;
const users: User[] = [
  alice,
  bob,
  carol,
  root,
  initializerSa,
  serviceAccountUser('team-a', 'default'),
  authenticatedUser('eve', ['auditors']),
];
const subjectArb: fc.Arbitrary<Subject> = fc.oneof(
  fc.constantFrom('alice', 'bob', 'carol', 'system:serviceaccount:team-a:default').map(userSubject),
  fc
    .constantFrom('teams@corp.com', 'auditors', 'system:authenticated', 'system:serviceaccounts:team-a')
    .map(groupSubject),
  fc
    .record({
      name: fc.constantFrom('default', 'ns-initializer-sa'),
      namespace: fc.constantFrom(undefined, ...namespaces),
    })
    .map(({ name, namespace }) =>
      namespace ? serviceAccountSubject(namespace, name) : { kind: 'ServiceAccount' as const, name },
    ),
);
const clusterRoleNames = [
  'cluster-admin',
  'admin',
  'edit',
  'view',
  'namespace-creator',
  'namespace-initializer',
  'missing',
];
const clusterRoleBindingArb: fc.Arbitrary<ClusterRoleBinding> = fc
  .tuple(
    fc.constantFrom('c1', 'c2', 'c3'),
    fc.constantFrom(...clusterRoleNames),
    fc.array(subjectArb, { minLength: 1, maxLength: 2 }),
  )
  .map(([name, role, subjects]) => clusterRoleBinding(name, role, subjects));
const roleBindingArb: fc.Arbitrary<RoleBinding> = fc
  .tuple(
    fc.constantFrom(...namespaces),
    fc.constantFrom('r1', 'r2'),
    fc.oneof(
      fc
        .constantFrom(...clusterRoleNames)
        .map((name): RoleRef => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name })),
      fc
        .constantFrom('local-reader', 'local-writer')
        .map((name): RoleRef => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name })),
    ),
    fc.array(subjectArb, { minLength: 1, maxLength: 2 }),
  )
  .map(([namespace, name, roleRef, subjects]) => roleBinding(namespace, name, roleRef, subjects));
const localRoles: Role[] = namespaces.flatMap((namespace) => [
  {
    metadata: { name: 'local-reader', namespace },
    rules: [{ apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'list'] }],
  },
  {
    metadata: { name: 'local-writer', namespace },
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['create', 'delete'] }],
  },
]);
const policyArb = (roleBindingsOnly = false): fc.Arbitrary<RbacPolicy> =>
  fc
    .record({
      clusterRoleBindings: roleBindingsOnly
        ? fc.constant([])
        : fc.array(clusterRoleBindingArb, { maxLength: 3 }),
      roleBindings: fc.array(roleBindingArb, { maxLength: 4 }),
    })
    .map(({ clusterRoleBindings, roleBindings }) => ({
      ...bootstrapPolicy(),
      roles: localRoles,
      clusterRoleBindings: roleBindingsOnly
        ? []
        : [...bootstrapPolicy().clusterRoleBindings, ...clusterRoleBindings],
      roleBindings,
    }));
const attrsArb: fc.Arbitrary<AuthorizationAttributes> = fc.record(
  {
    verb: fc.constantFrom('get', 'list', 'watch', 'create', 'update', 'delete', 'initialize'),
    resource: fc.constantFrom(
      'namespaces',
      'pods',
      'secrets',
      'configmaps',
      'rolebindings',
      'resourcequotas',
    ),
    subresource: fc.constantFrom(undefined, 'finalize', 'status'),
    namespace: fc.constantFrom(undefined, ...namespaces),
    name: fc.constantFrom(undefined, ...namespaces),
  },
  { requiredKeys: ['verb', 'resource'] },
);
const userArb = fc.constantFrom(...users);

describe('authorizer properties (RB-4, RB-5, RB-6)', () => {
  test.prop([policyArb(), userArb, fc.array(attrsArb, { minLength: 1, maxLength: 8 })])(
    'RB-4 the compiled authorizer answers exactly as the store scan does, twice',
    (policy, user, requests) => {
      const compiled = compileAuthorizer(policy);
      for (const attrs of requests) {
        const expected = authorize(policy, user, attrs);
        expect(compiled(user, attrs)).toEqual(expected);
        expect(compiled(user, attrs)).toEqual(expected);
      }
    },
  );

  test.prop([policyArb(true), userArb.filter((u) => !u.groups.includes('system:masters')), attrsArb])(
    'RB-4 a RoleBinding never grants outside its namespace',
    (policy, user, attrs) => {
      const result = compileAuthorizer(policy)(user, attrs);
      if (!result.allowed) return;
      const namespace = requestNamespace(attrs);
      expect(namespace).toBeDefined();
      expect(result.grantedBy).toMatch(new RegExp(`^RoleBinding ${namespace}/`));
    },
  );

  const addBindingArb = fc.oneof(
    roleBindingArb.map((binding) => (policy: RbacPolicy) => withRoleBinding(policy, binding)),
    clusterRoleBindingArb.map((binding) => (policy: RbacPolicy) => withClusterRoleBinding(policy, binding)),
  );

  test.prop([policyArb(), userArb, attrsArb, addBindingArb])(
    'RB-4 adding a binding never removes access',
    (policy, user, attrs, addBinding) => {
      const before = authorize(policy, user, attrs).allowed;
      const grown = addBinding(policy);
      if (before) expect(compileAuthorizer(grown)(user, attrs).allowed).toBe(true);
    },
  );

  test.prop([policyArb(), userArb, attrsArb, roleBindingArb])(
    'RB-5 a RoleBinding added in one namespace changes no decision anywhere else',
    (policy, user, attrs, binding) => {
      fc.pre(requestNamespace(attrs) !== binding.metadata.namespace);
      expect(authorize(withRoleBinding(policy, binding), user, attrs).allowed).toBe(
        authorize(policy, user, attrs).allowed,
      );
    },
  );

  test.prop([policyArb(), userArb.filter((u) => !u.groups.includes('system:masters')), attrsArb])(
    'RB-6 a request across all namespaces is allowed only by a ClusterRoleBinding',
    (policy, user, attrs) => {
      fc.pre(requestNamespace(attrs) === undefined);
      const result = authorize(policy, user, attrs);
      if (result.allowed) expect(result.grantedBy).toMatch(/^ClusterRoleBinding\//);
    },
  );
});

describe('the anonymous user (RB-4, D-23)', () => {
  const anonymous: User = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  const policyFor = (group: string): RbacPolicy => ({
    ...bootstrapPolicy(),
    roleBindings: [
      roleBinding(
        'team-a',
        'readers',
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        [groupSubject(group)],
      ),
    ],
  });
  const read: AuthorizationAttributes = {
    verb: 'get',
    resource: 'configmaps',
    namespace: 'team-a',
    name: 'app',
  };

  it('is not in system:authenticated, so a binding to it does not apply, in the reference and the compiled authorizer', () => {
    const policy = policyFor('system:authenticated');
    expect(authorize(policy, anonymous, read).allowed).toBe(false);
    expect(compileAuthorizer(policy)(anonymous, read).allowed).toBe(false);
    expect(authorize(policy, authenticatedUser('alice'), read).allowed).toBe(true);
  });

  it('is matched by a binding to system:unauthenticated', () => {
    const policy = policyFor('system:unauthenticated');
    expect(authorize(policy, anonymous, read).allowed).toBe(true);
    expect(compileAuthorizer(policy)(anonymous, read).allowed).toBe(true);
    expect(authorize(policy, authenticatedUser('alice'), read).allowed).toBe(false);
  });
});
