import { describe, expect, it } from 'vitest';
import { validateClusterRoleBindingRoleRef } from './rbac-validation.ts';

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
