import { describe, expect, it } from 'vitest';
import { validateClusterRoleBindingRoleRef, validateRoleRules } from './rbac-validation.ts';

/**
 * ValidateClusterRoleBinding's roleRef check (pkg/apis/rbac/validation/validation.go, RB-4): the expected
 * field errors are Kubernetes' own wording, written out here.
 */
describe('validateClusterRoleBindingRoleRef', () => {
  it('accepts a ClusterRole', () => {
    expect(validateClusterRoleBindingRoleRef('ClusterRole')).toEqual([]);
  });

  it('refuses a Role as NotSupported on roleRef.kind', () => {
    expect(validateClusterRoleBindingRoleRef('Role')).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
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
