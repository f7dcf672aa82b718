import { describe, expect, it } from 'vitest';
import { validateRoleRules, validateSentRbac } from './rbac-validation.ts';

/**
 * ValidateRoleBinding's and ValidateClusterRoleBinding's roleRef and subject-kind checks
 * (pkg/apis/rbac/validation/validation.go, RB-4): the expected field errors are Kubernetes' own wording.
 */
describe('validateSentRbac', () => {
  const ref = (kind: string, name = 'valid', apiGroup?: string) => ({
    roleRef: { kind, name, ...(apiGroup !== undefined ? { apiGroup } : {}) },
  });

  it('accepts a ClusterRole anywhere and a Role in a RoleBinding', () => {
    expect(validateSentRbac(ref('ClusterRole'), true)).toEqual([]);
    expect(validateSentRbac(ref('Role'), false)).toEqual([]);
  });

  it('refuses a Role in a ClusterRoleBinding, another kind or group, and a missing name', () => {
    expect(validateSentRbac(ref('Role'), true)).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    ]);
    expect(validateSentRbac(ref('Type'), false)).toEqual([
      'roleRef.kind: Unsupported value: "Type": supported values: "Role", "ClusterRole"',
    ]);
    expect(validateSentRbac(ref('ClusterRole', 'valid', 'rbac.GroupName'), false)).toEqual([
      'roleRef.apiGroup: Unsupported value: "rbac.GroupName": supported values: "rbac.authorization.k8s.io"',
    ]);
    expect(validateSentRbac(ref('Role', ''), false)).toEqual(['roleRef.name: Required value']);
  });

  it('refuses a subject of no known kind', () => {
    expect(validateSentRbac({ subjectKinds: [''] }, false)).toEqual([
      'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
    ]);
  });
});

/** ValidatePolicyRule on non-resource rules (validation_test.go of the 1.6 line states the cases). */
describe('validateRoleRules with non-resource URLs', () => {
  const urlRule = { apiGroups: [], resources: [], verbs: ['get'], nonResourceURLs: ['/*'] };

  it('accepts a ClusterRole rule with verbs on non-resource URLs', () => {
    expect(validateRoleRules([urlRule], false)).toEqual([]);
  });

  it('refuses it in a Role, as Invalid on rules[0].nonResourceURLs', () => {
    expect(validateRoleRules([urlRule], true)).toEqual([
      'rules[0].nonResourceURLs: Invalid value: []string{"/*"}: namespaced rules cannot apply to non-resource URLs',
    ]);
  });

  it('requires verbs, and refuses a rule that also names resources', () => {
    expect(validateRoleRules([{ ...urlRule, verbs: [] }], false)).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
    ]);
    expect(validateRoleRules([{ ...urlRule, apiGroups: ['v1'], resources: ['pods'] }], false)).toEqual([
      'rules[0].nonResourceURLs: Invalid value: []string{"/*"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });
});
