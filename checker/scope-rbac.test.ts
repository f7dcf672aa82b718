import { describe, expect, it } from 'vitest';
import { defaultScope } from '../machines/scopes.ts';
import { scopeSchema } from './scope-file.ts';

/** RB-4: a scope file may define its own ClusterRoles, Roles and RoleBindings of every shape the model runs. */
describe('RBAC in scope files', () => {
  const custom = {
    ...defaultScope,
    name: 'custom-rbac',
    clusterRoles: [
      { metadata: { name: 'view' }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }] },
    ],
    content: [
      ...defaultScope.content,
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
    const parsed = scopeSchema.safeParse(JSON.parse(JSON.stringify(custom)));
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data?.content.at(-1)).toEqual(custom.content.at(-1));
    expect(parsed.data?.clusterRoles).toEqual(custom.clusterRoles);
  });

  it('RB-4 names a malformed rule field', () => {
    const broken = { ...custom, clusterRoles: [{ metadata: { name: 'x' }, rules: [{ verbs: ['get'] }] }] };
    const parsed = scopeSchema.safeParse(broken);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain('clusterRoles.0.rules.0.apiGroups');
  });
});
