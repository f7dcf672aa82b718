import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { namespacePopulatorClusterRole } from './bootstrap-rbac.ts';
import { authenticatedUser, grantsHeldBy, serviceAccountUser, type User } from './rbac.ts';
import { type AuthorizationRequest, RequestAuthorizer, rbacAttributes } from './request-authorization.ts';
import type { ObjectSlot, Scope } from './scope.ts';

const quickScope = scopeByName('quick');

const objects: ObjectSlot[] = [
  { resource: 'configmaps', name: 'app' },
  {
    resource: 'roles',
    name: 'reader',
    role: { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
  },
  {
    resource: 'rolebindings',
    name: 'readers',
    roleBinding: {
      clusterRole: 'reader',
      roleKind: 'Role',
      subject: 'dora',
      moreSubjects: [
        { kind: 'Group', name: 'auditors' },
        { kind: 'User', name: '$creator' },
      ],
    },
  },
  {
    resource: 'rolebindings',
    name: 'namespace-admin',
    roleBinding: { clusterRole: 'admin', subject: '$creator' },
  },
];
const [, roleSlot, readersSlot, adminSlot] = [0, 1, 2, 3];

const scope: Scope = {
  ...quickScope,
  name: 'rbac-test',
  namespaces: [{ name: 'team-a', creator: 'alice' }, { name: 'team-b', creator: 'bob' }, { name: 'team-c' }],
  content: objects,
  clusterRoles: [
    // Replaces the bootstrap `view`: reads nothing but namespaces.
    { metadata: { name: 'view' }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }] },
    {
      metadata: { name: 'quota-reader' },
      rules: [{ apiGroups: [''], resources: ['resourcequotas'], verbs: ['list'] }],
    },
  ],
  clusterRoleBindings: [
    ...quickScope.clusterRoleBindings,
    { name: 'viewers', clusterRole: 'view', subjects: [{ kind: 'User', name: 'vic' }] },
    {
      name: 'quota',
      clusterRole: 'quota-reader',
      subjects: [{ kind: 'Group', name: 'system:serviceaccounts:ci' }],
    },
  ],
};

const bit = (...slots: number[]) => slots.reduce((mask, slot) => mask | (1 << slot), 0);
const state = (...contents: number[]) => ({ namespaces: contents.map((content) => ({ content })) });
const dora = authenticatedUser('dora');
const frank = authenticatedUser('frank', ['auditors']);
const alice = authenticatedUser('alice', ['teams@corp.com']);

const getConfigMap = (user: User, namespaceSlot: number): AuthorizationRequest => ({
  user,
  verb: 'get',
  resource: 'configmaps',
  namespace: scope.namespaces[namespaceSlot].name,
  name: 'app',
  namespaceSlot,
});

describe('RBAC objects in the store (RB-2, RB-4)', () => {
  const authorizer = new RequestAuthorizer(scope, objects);

  it('RB-4 a RoleBinding to a Role grants only while both exist, in their own namespace', () => {
    const allowed = (s: ReturnType<typeof state>, user: User, ns = 0) =>
      authorizer.authorize(s, getConfigMap(user, ns)).allowed;
    expect(allowed(state(0, 0, 0), dora)).toBe(false);
    expect(allowed(state(bit(roleSlot), 0, 0), dora)).toBe(false);
    expect(allowed(state(bit(readersSlot), 0, 0), dora)).toBe(false);
    expect(allowed(state(bit(roleSlot, readersSlot), 0, 0), dora)).toBe(true);
    expect(allowed(state(bit(roleSlot, readersSlot), 0, 0), frank)).toBe(true);
    expect(allowed(state(bit(roleSlot, readersSlot), 0, 0), dora, 1)).toBe(false);
    // The Role of another namespace does not serve this namespace's RoleBinding.
    expect(allowed(state(bit(readersSlot), bit(roleSlot), 0), dora)).toBe(false);
  });

  it('RB-2 $creator names the creator of the namespace the binding is in, and no one where there is none', () => {
    const s = state(bit(adminSlot), bit(adminSlot), bit(adminSlot));
    expect(authorizer.authorize(s, getConfigMap(alice, 0)).allowed).toBe(true);
    expect(authorizer.authorize(s, getConfigMap(alice, 1)).allowed).toBe(false);
    expect(authorizer.policyAt(s).roleBindings.map((b) => b.metadata.namespace)).toEqual([
      'team-a',
      'team-b',
    ]);
  });

  it('RB-4 a scope ClusterRole of a bootstrap name replaces it; others are added', () => {
    const vic = authenticatedUser('vic');
    const s = state(0, 0, 0);
    expect(authorizer.authorize(s, getConfigMap(vic, 0)).allowed).toBe(false);
    expect(
      authorizer.authorize(s, {
        user: vic,
        verb: 'get',
        resource: 'namespaces',
        namespace: 'team-a',
        name: 'team-a',
        namespaceSlot: 0,
      }).allowed,
    ).toBe(true);
    const robot = serviceAccountUser('ci', 'robot');
    expect(
      authorizer.authorize(s, { user: robot, verb: 'list', resource: 'resourcequotas', namespaceSlot: -1 })
        .allowed,
    ).toBe(true);
  });

  it('RB-4 a grant in one API group does not answer for a resource of the same name in another', () => {
    const scoped: Scope = {
      ...scope,
      clusterRoles: [
        ...(scope.clusterRoles ?? []),
        {
          metadata: { name: 'widget-reader' },
          rules: [{ apiGroups: ['a.example.com'], resources: ['widgets'], verbs: ['get'] }],
        },
      ],
      clusterRoleBindings: [
        ...scope.clusterRoleBindings,
        { name: 'widgets', clusterRole: 'widget-reader', subjects: [{ kind: 'User', name: 'dora' }] },
      ],
    };
    const widgets = new RequestAuthorizer(scoped, objects);
    const get = (apiGroup: string) =>
      widgets.authorize(state(0, 0, 0), {
        user: dora,
        verb: 'get',
        apiGroup,
        resource: 'widgets',
        namespace: 'team-a',
        name: 'w',
        namespaceSlot: 0,
      }).allowed;
    // Asked first in the granted group, so a decision memoized without the group would leak into the other.
    expect(get('a.example.com')).toBe(true);
    expect(get('b.example.com')).toBe(false);
  });

  it('RB-4 the same state and request give the very same memoized decision', () => {
    const s = state(bit(roleSlot, readersSlot), 0, 0);
    expect(authorizer.authorize(s, getConfigMap(dora, 0))).toBe(
      authorizer.authorize(state(bit(roleSlot, readersSlot), 0, 0), getConfigMap(dora, 0)),
    );
  });

  it('refuses a scope whose RBAC objects overflow the mask, naming the fix', () => {
    const many = Array.from({ length: 11 }, (_, k) => ({
      resource: 'rolebindings',
      name: `rb-${k}`,
      roleBinding: { clusterRole: 'admin', subject: 'x' },
    }));
    expect(() => new RequestAuthorizer(scope, many)).toThrow(/30 — use fewer RBAC objects or namespaces/);
  });
});

describe('D-17: completing an initializer is authorized by initialize', () => {
  const authorizer = new RequestAuthorizer(scope, objects);
  const only = serviceAccountUser('kube-system', 'ns-initializer-sa');
  const sa = { ...only, name: 'system:serviceaccount:kube-system:other-initializer' };
  const onlyInitializeScope: Scope = {
    ...scope,
    clusterRoleBindings: [
      {
        name: 'namespace-initializer',
        clusterRole: 'namespace-initializer',
        subjects: [{ kind: 'ServiceAccount', name: 'other-initializer', namespace: 'kube-system' }],
      },
    ],
  };
  const bare = new RequestAuthorizer(onlyInitializeScope, objects);
  const update = (onlyInitializers: boolean): AuthorizationRequest => ({
    user: sa,
    verb: 'update',
    resource: 'namespaces',
    namespace: 'team-a',
    name: 'team-a',
    namespaceSlot: 0,
    onlyInitializers,
  });

  it('IN-3 an update that only changes spec.initializers may pass RBAC with update or with initialize', () => {
    expect(rbacAttributes(update(true)).map((a) => a.verb)).toEqual(['update', 'initialize']);
    expect(rbacAttributes(update(false)).map((a) => a.verb)).toEqual(['update']);
    expect(rbacAttributes({ ...update(true), subresource: 'finalize' }).map((a) => a.verb)).toEqual([
      'update',
    ]);
  });

  it('IN-3 a caller with update but not initialize passes RBAC, so admission refuses it as shipped', () => {
    const updater = authenticatedUser('ursula');
    const withUpdate = new RequestAuthorizer(
      {
        ...scope,
        clusterRoles: [
          {
            metadata: { name: 'ns-updater' },
            rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['update'] }],
          },
        ],
        clusterRoleBindings: [
          { name: 'u', clusterRole: 'ns-updater', subjects: [{ kind: 'User', name: 'ursula' }] },
        ],
      },
      objects,
    );
    const s = state(0, 0, 0);
    expect(withUpdate.authorize(s, { ...update(true), user: updater }).allowed).toBe(true);
    expect(withUpdate.mayInitialize(s, updater, 0)).toBe(false);
  });

  it('RB-3 namespace-initializer alone completes, and grants nothing else', () => {
    const s = state(0, 0, 0);
    expect(bare.authorize(s, update(true)).allowed).toBe(true);
    expect(bare.authorize(s, update(false)).allowed).toBe(false);
    expect(bare.authorize(s, { ...update(false), verb: 'get' }).allowed).toBe(false);
    expect(bare.authorize(s, { ...getConfigMap(sa, 0), verb: 'create' }).allowed).toBe(false);
    expect(bare.mayInitialize(s, sa, 0)).toBe(true);
  });

  it('RB-3 the default scope binds the initializers least privilege: populate and complete, never delete', () => {
    const s = state(0, 0, 0);
    expect(authorizer.authorize(s, { ...update(true), user: only }).allowed).toBe(true);
    expect(authorizer.authorize(s, { ...update(false), user: only }).allowed).toBe(false);
    expect(
      authorizer.authorize(s, {
        user: only,
        verb: 'create',
        resource: 'rolebindings',
        namespace: 'team-a',
        namespaceSlot: 0,
      }).allowed,
    ).toBe(true);
    expect(authorizer.authorize(s, { ...update(false), verb: 'delete', user: only }).allowed).toBe(false);
    expect(namespacePopulatorClusterRole.rules.some((r) => r.verbs.includes('*'))).toBe(false);
  });
});

describe('laws', () => {
  const authorizer = new RequestAuthorizer(scope, objects);
  const contentArb = fc.integer({ min: 0, max: 15 });
  const userArb = fc.constantFrom(dora, frank, alice, authenticatedUser('bob'), authenticatedUser('mallory'));
  const requestArb = fc.record({
    verb: fc.constantFrom('get', 'list', 'create', 'delete', 'update'),
    resource: fc.constantFrom('configmaps', 'secrets', 'rolebindings', 'roles'),
    ns: fc.integer({ min: 0, max: 2 }),
  });

  test.prop([fc.tuple(contentArb, contentArb, contentArb), userArb, requestArb])(
    'RB-4 a namespaced decision depends only on the RBAC objects of that namespace',
    (contents, user, r) => {
      const request: AuthorizationRequest = {
        user,
        verb: r.verb,
        resource: r.resource,
        namespace: scope.namespaces[r.ns].name,
        namespaceSlot: r.ns,
      };
      const alone = contents.map((c, i) => (i === r.ns ? c : 0));
      expect(authorizer.authorize(state(...contents), request).allowed).toBe(
        authorizer.authorize(state(...alone), request).allowed,
      );
    },
  );

  test.prop([fc.tuple(contentArb, contentArb, contentArb), userArb, requestArb])(
    'RB-6 no RoleBinding ever grants a request at the cluster scope',
    (contents, user, r) => {
      const request: AuthorizationRequest = { user, verb: r.verb, resource: r.resource, namespaceSlot: -1 };
      expect(authorizer.authorize(state(...contents), request).allowed).toBe(
        authorizer.authorize(state(0, 0, 0), request).allowed,
      );
    },
  );
});

describe('explanations', () => {
  it('RB-4 grantsHeldBy names each binding of a principal, its role and where it grants', () => {
    const authorizer = new RequestAuthorizer(scope, objects);
    const policy = authorizer.policyAt(state(bit(roleSlot, readersSlot, adminSlot), 0, 0));
    expect(grantsHeldBy(policy, alice)).toEqual([
      'ClusterRoleBinding/namespace-creators → ClusterRole namespace-creator (everywhere)',
      'RoleBinding team-a/readers → Role reader (only in team-a)',
      'RoleBinding team-a/namespace-admin → ClusterRole admin (only in team-a)',
    ]);
    expect(grantsHeldBy(policy, authenticatedUser('mallory'))).toEqual([]);
  });
});
