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
