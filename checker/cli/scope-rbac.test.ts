import { describe, expect, it } from 'vitest';
import type { Scope } from '../../machines/scope.ts';
import { parseScope, scopeByName } from './scope-file.ts';
import { scopeToYaml } from './scope-yaml.ts';

const quickScope = scopeByName('quick');

/** RB-4: a scope file may define its own ClusterRoles, Roles and RoleBindings of every shape the model runs. */
describe('RBAC in scope files', () => {
  const custom: Scope = {
    ...quickScope,
    name: 'custom-rbac',
    clusterRoles: [
      ...(quickScope.clusterRoles ?? []),
      { metadata: { name: 'view' }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }] },
    ],
    content: [
      ...quickScope.content,
      {
        resource: 'roles',
        name: 'reader',
        role: {
          rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['app'] }],
        },
      },
      {
        resource: 'rolebindings',
        name: 'readers',
        roleBinding: {
          clusterRole: 'reader',
          roleKind: 'Role',
          subject: '$creator',
          moreSubjects: [{ kind: 'Group', name: 'auditors' }],
        },
        byNamespace: { 'team-b': { roleBinding: { clusterRole: 'view', subject: 'bob' } } },
      },
    ],
  };

  it('RB-4 accepts custom ClusterRoles, Roles, RoleBindings to Roles with several subjects, per-namespace definitions', () => {
    const parsed = parseScope(scopeToYaml(custom), 'custom.yaml');
    expect(parsed.content.at(-1)).toEqual(custom.content.at(-1));
    expect(parsed.clusterRoles).toEqual(custom.clusterRoles);
  });

  it('RB-4 names a malformed rule field, with its line', () => {
    const text = scopeToYaml(custom).replace('- apiGroups: [""]', '- apiGroupz: [""]');
    expect(() => parseScope(text, 'custom.yaml')).toThrow(
      /^custom\.yaml:\d+: manifests\[0\]\.rules\[0\]\.apiGroupz: unknown field "apiGroupz"; fix: did you mean "apiGroups"\?$/,
    );
  });
});

/** D-23: requestable ClusterRoles and ClusterRoleBindings (`clusterObjects`), and their mistakes. */
describe('cluster objects in scope files', () => {
  const base = scopeToYaml(scopeByName('admin-finalize'));
  const withObjects = (entries: string) => `${base}clusterObjects:\n${entries}`;

  it('reads a ClusterRole and a ClusterRoleBinding with their flags', () => {
    const scope = parseScope(
      withObjects(
        [
          '  - manifest:',
          '      apiVersion: rbac.authorization.k8s.io/v1',
          '      kind: ClusterRole',
          '      metadata: { name: pod-reader }',
          '      rules: [{ apiGroups: [""], resources: [pods], verbs: [get] }]',
          '    initially: true',
          '  - manifest:',
          '      apiVersion: rbac.authorization.k8s.io/v1',
          '      kind: ClusterRoleBinding',
          '      metadata: { name: alice-pod-reader }',
          '      roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-reader }',
          '      subjects: [{ kind: User, apiGroup: rbac.authorization.k8s.io, name: alice }]',
          '    requestedBy: [carol]',
          '',
        ].join('\n'),
      ),
      'objects.yaml',
    );
    expect(scope.clusterObjects).toEqual([
      {
        kind: 'ClusterRole',
        name: 'pod-reader',
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
        initially: true,
      },
      {
        kind: 'ClusterRoleBinding',
        name: 'alice-pod-reader',
        clusterRole: 'pod-reader',
        subjects: [{ kind: 'User', name: 'alice' }],
        requestedBy: ['carol'],
      },
    ]);
  });

  it('refuses another kind, and a binding to a ClusterRole nobody defines, in one line each', () => {
    const role = withObjects(
      [
        '  - manifest:',
        '      apiVersion: rbac.authorization.k8s.io/v1',
        '      kind: Role',
        '      metadata: { name: r, namespace: team-a }',
        '      rules: []',
        '',
      ].join('\n'),
    );
    expect(() => parseScope(role, 'role.yaml')).toThrow(
      /^role\.yaml:\d+: clusterObjects\[0\]\.manifest\.kind: a requestable cluster object is a ClusterRole or ClusterRoleBinding, not "Role"; fix: use kind: ClusterRole or kind: ClusterRoleBinding$/,
    );
    const binding = withObjects(
      [
        '  - manifest:',
        '      apiVersion: rbac.authorization.k8s.io/v1',
        '      kind: ClusterRoleBinding',
        '      metadata: { name: b }',
        '      roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-readr }',
        '      subjects: [{ kind: User, apiGroup: rbac.authorization.k8s.io, name: alice }]',
        '',
      ].join('\n'),
    );
    expect(() => parseScope(binding, 'binding.yaml')).toThrow(
      /^binding\.yaml:\d+: clusterObjects\[0\]\.manifest\.roleRef\.name: no ClusterRole "pod-readr"; fix: /,
    );
  });

  it('reads entries of one kind and name as versions of one object, at most one stored from the start', () => {
    const version = (verbs: string, initially: boolean) =>
      [
        '  - manifest:',
        '      apiVersion: rbac.authorization.k8s.io/v1',
        '      kind: ClusterRole',
        '      metadata: { name: pod-reader }',
        `      rules: [{ apiGroups: [""], resources: [pods], verbs: [${verbs}] }]`,
        ...(initially ? ['    initially: true'] : []),
      ].join('\n');
    const scope = parseScope(
      withObjects(`${version('get', true)}\n${version('get, list', false)}\n`),
      'v.yaml',
    );
    expect(scope.clusterObjects?.map((o) => [o.name, o.rules?.[0].verbs, o.initially ?? false])).toEqual([
      ['pod-reader', ['get'], true],
      ['pod-reader', ['get', 'list'], false],
    ]);
    expect(() =>
      parseScope(withObjects(`${version('get', true)}\n${version('list', true)}\n`), 'two.yaml'),
    ).toThrow(
      /^two\.yaml:\d+: clusterObjects\[1\]\.manifest\.metadata\.name: two versions of ClusterRole\/pod-reader are stored from the start; fix: mark one version initially: true$/,
    );
  });
});
