import { describe, expect, it } from 'vitest';
import type { ClusterRole, PolicyRule } from './k8s-types.ts';
import {
  type AuthorizationAttributes,
  authorize,
  clusterRoleBinding,
  emptyPolicy,
  groupSubject,
  policyRuleAllows,
  type RbacPolicy,
  roleBinding,
  type User,
  userSubject,
} from './rbac.ts';

/**
 * RB-4: cases of upstream `plugin/pkg/auth/authorizer/rbac/rbac_test.go` (TestAuthorizer,
 * TestRuleMatches) and `pkg/apis/rbac/helpers` matching, restated against the model's authorizer.
 */

const rule = (verbs: string, apiGroups: string, resources: string, resourceNames?: string): PolicyRule => ({
  verbs: verbs.split(','),
  apiGroups: apiGroups.split(','),
  resources: resources.split(','),
  ...(resourceNames ? { resourceNames: resourceNames.split(',') } : {}),
});
const clusterRole = (name: string, ...rules: PolicyRule[]): ClusterRole => ({ metadata: { name }, rules });
const toClusterRole = (name: string) =>
  ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name }) as const;
const user = (name: string, groups = ''): User => ({ name, groups: groups ? groups.split(',') : [] });
const attrs = (
  verb: string,
  resource: string,
  subresource: string,
  namespace: string,
  apiGroup = '',
): AuthorizationAttributes => ({
  verb,
  resource,
  apiGroup,
  ...(subresource ? { subresource } : {}),
  ...(namespace ? { namespace } : {}),
});

/** Upstream's ns1 RoleBinding of a ClusterRole to `User:admin` and `Group:admins`. */
const ns1Binding = (role: ClusterRole): RbacPolicy => ({
  ...emptyPolicy(),
  clusterRoles: [role],
  roleBindings: [
    roleBinding('ns1', 'admin', toClusterRole(role.metadata.name), [
      userSubject('admin'),
      groupSubject('admins'),
    ]),
  ],
});

describe('TestAuthorizer (upstream cases)', () => {
  const starPolicy = ns1Binding(clusterRole('admin', rule('*', '*', '*')));
  it.each([
    [user('admin'), attrs('get', 'Pods', '', 'ns1')],
    [user('admin'), attrs('watch', 'Pods', '', 'ns1')],
    [user('admin', 'group1'), attrs('watch', 'Foobar', '', 'ns1')],
    [user('joe', 'admins'), attrs('watch', 'Foobar', '', 'ns1')],
    [user('joe', 'group1,admins'), attrs('watch', 'Foobar', '', 'ns1')],
  ])('RB-4 a RoleBinding of * in ns1 passes %o %o', (who, request) => {
    expect(authorize(starPolicy, who, request).allowed).toBe(true);
  });

  it.each([
    [user('admin'), attrs('GET', 'Pods', '', 'ns2')],
    [user('admin'), attrs('GET', 'Nodes', '', '')],
    [user('admin', 'admins'), attrs('GET', 'Pods', '', 'ns2')],
    [user('admin', 'admins'), attrs('GET', 'Nodes', '', '')],
  ])('RB-4 it fails in another namespace and at the cluster scope %o %o', (who, request) => {
    expect(authorize(starPolicy, who, request).allowed).toBe(false);
  });

  it('RB-4 a rule on pods does not cover pods/status', () => {
    const policy = ns1Binding(clusterRole('admin', rule('*', '*', 'pods')));
    expect(authorize(policy, user('admin'), attrs('get', 'pods', '', 'ns1')).allowed).toBe(true);
    expect(authorize(policy, user('admin'), attrs('get', 'pods', 'status', 'ns1')).allowed).toBe(false);
  });

  it('RB-4 a rule on pods/status does not cover pods', () => {
    const policy = ns1Binding(clusterRole('admin', rule('*', '*', 'pods/status')));
    expect(authorize(policy, user('admin'), attrs('get', 'pods', 'status', 'ns1')).allowed).toBe(true);
    expect(authorize(policy, user('admin'), attrs('get', 'pods', '', 'ns1')).allowed).toBe(false);
  });

  it('RB-4 a ClusterRoleBinding to several subjects grants each of them everywhere', () => {
    const policy: RbacPolicy = {
      ...emptyPolicy(),
      clusterRoles: [clusterRole('reader', rule('get', '', 'namespaces'))],
      clusterRoleBindings: [clusterRoleBinding('r', 'reader', [userSubject('foo'), groupSubject('bar')])],
    };
    expect(authorize(policy, user('foo'), attrs('get', 'namespaces', '', '')).allowed).toBe(true);
    expect(authorize(policy, user('x', 'bar'), attrs('get', 'namespaces', '', 'ns9')).allowed).toBe(true);
    expect(authorize(policy, user('foo'), attrs('watch', 'namespaces', '', '')).allowed).toBe(false);
  });
});

/** TestRuleMatches: each rule against the eight verb × group × resource combinations. */
const combinations = ['verb1', 'verb2'].flatMap((verb) =>
  ['group1', 'group2'].flatMap((group) => ['resource1', 'resource2'].map((res) => [verb, group, res])),
);

describe('TestRuleMatches (upstream cases)', () => {
  it.each([
    [
      'star verb, exact match other',
      rule('*', 'group1', 'resource1'),
      ['verb1|group1|resource1', 'verb2|group1|resource1'],
    ],
    [
      'star group, exact match other',
      rule('verb1', '*', 'resource1'),
      ['verb1|group1|resource1', 'verb1|group2|resource1'],
    ],
    [
      'star resource, exact match other',
      rule('verb1', 'group1', '*'),
      ['verb1|group1|resource1', 'verb1|group1|resource2'],
    ],
    [
      'tuple expansion',
      rule('verb1,verb2', 'group1,group2', 'resource1,resource2'),
      combinations.map((c) => c.join('|')),
    ],
  ])('RB-4 %s', (_name, policyRule, matching) => {
    for (const [verb, group, resource] of combinations)
      expect(
        policyRuleAllows(policyRule, attrs(verb, resource, '', 'ns', group)),
        `${verb} ${group} ${resource}`,
      ).toBe(matching.includes(`${verb}|${group}|${resource}`));
  });

  it('RB-4 subresource expansion: resource1/subresource1 matches only that pair', () => {
    const policyRule = rule('*', '*', 'resource1/subresource1');
    expect(policyRuleAllows(policyRule, attrs('verb1', 'resource1', 'subresource1', 'ns', 'group1'))).toBe(
      true,
    );
    expect(policyRuleAllows(policyRule, attrs('verb1', 'resource1', 'subresource2', 'ns', 'group2'))).toBe(
      false,
    );
    expect(policyRuleAllows(policyRule, attrs('verb2', 'resource2', 'subresource1', 'ns', 'group1'))).toBe(
      false,
    );
    expect(policyRuleAllows(policyRule, attrs('verb2', 'resource1', '', 'ns', 'group1'))).toBe(false);
  });

  it('RB-4 */scale matches the scale subresource of any resource, never the resource itself', () => {
    const policyRule = rule('get', '*', '*/scale');
    expect(policyRuleAllows(policyRule, attrs('get', 'deployments', 'scale', 'ns'))).toBe(true);
    expect(policyRuleAllows(policyRule, attrs('get', 'replicasets', 'scale', 'ns'))).toBe(true);
    expect(policyRuleAllows(policyRule, attrs('get', 'deployments', '', 'ns'))).toBe(false);
    expect(policyRuleAllows(policyRule, attrs('get', 'deployments', 'status', 'ns'))).toBe(false);
  });

  it('RB-3 namespaces/finalize and namespaces/status are distinct resources; initialize is a verb like any', () => {
    const finalize = rule('update', '', 'namespaces/finalize');
    expect(policyRuleAllows(finalize, attrs('update', 'namespaces', 'finalize', ''))).toBe(true);
    expect(policyRuleAllows(finalize, attrs('update', 'namespaces', 'status', ''))).toBe(false);
    expect(policyRuleAllows(finalize, attrs('update', 'namespaces', '', ''))).toBe(false);
    expect(
      policyRuleAllows(rule('initialize', '', 'namespaces'), attrs('initialize', 'namespaces', '', '')),
    ).toBe(true);
    expect(
      policyRuleAllows(rule('update', '', 'namespaces'), attrs('initialize', 'namespaces', '', '')),
    ).toBe(false);
  });

  it('RB-4 resourceNames: empty matches any name, otherwise only a listed name (never a nameless list)', () => {
    const named = rule('get,list', '', 'configmaps', 'a,b');
    expect(policyRuleAllows(named, { ...attrs('get', 'configmaps', '', 'ns'), name: 'b' })).toBe(true);
    expect(policyRuleAllows(named, { ...attrs('get', 'configmaps', '', 'ns'), name: 'c' })).toBe(false);
    expect(policyRuleAllows(named, attrs('list', 'configmaps', '', 'ns'))).toBe(false);
    expect(
      policyRuleAllows(rule('get', '', 'configmaps'), { ...attrs('get', 'configmaps', '', 'ns'), name: 'c' }),
    ).toBe(true);
  });
});
