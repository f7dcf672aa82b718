import type { PolicyRule } from './k8s-types.ts';
import { dnsSubdomainErrors, invalidValue } from './names.ts';
import type { ObjectSlot, SubjectSpec } from './scope.ts';

/**
 * Validation of the RBAC objects stored in namespaces, as shipped pkg/apis/rbac/validation does it
 * (RB-4, RB-5): a RoleBinding's subjects (ValidateRoleBindingSubject) and a Role's rules
 * (ValidatePolicyRule). Each returns the field errors of a 422 Invalid, in Kubernetes' own wording.
 */

export const rbacGroupName = 'rbac.authorization.k8s.io';

const required = (path: string, detail = ''): string =>
  `${path}: Required value${detail ? `: ${detail}` : ''}`;
const notSupported = (path: string, value: string, supported: readonly string[]): string =>
  `${path}: Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`;

/** A subject as sent; `apiGroup` absent is defaulted as rbac/v1 SetDefaults_Subject does. */
export type SentSubject = SubjectSpec & { apiGroup?: string };

/** The apiGroup v1 defaulting gives a subject that sends none: the RBAC group for User and Group. */
const defaultedApiGroup = (s: SentSubject): string =>
  s.apiGroup || (s.kind === 'ServiceAccount' ? '' : rbacGroupName);

/**
 * Field errors of one subject (ValidateRoleBindingSubject): a name; a ServiceAccount's a DNS subdomain in
 * the core group, with a namespace unless the binding is namespaced; a User's or Group's apiGroup the RBAC group.
 */
export function validateSubject(subject: SentSubject, index: number, namespaced: boolean): string[] {
  const path = `subjects[${index}]`;
  const errors: string[] = [];
  if (subject.name.length === 0) errors.push(required(`${path}.name`));
  const apiGroup = defaultedApiGroup(subject);
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.name.length > 0)
        errors.push(
          ...dnsSubdomainErrors(subject.name).map((m) => invalidValue(`${path}.name`, subject.name, m)),
        );
      if (apiGroup !== '') errors.push(notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !subject.namespace) errors.push(required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroupName)
        errors.push(notSupported(`${path}.apiGroup`, apiGroup, [rbacGroupName]));
      break;
  }
  return errors;
}

/** Field errors of a RoleBinding slot's subjects, in manifest order (a RoleBinding is namespaced). */
export function validateRoleBindingSlot(binding: NonNullable<ObjectSlot['roleBinding']>): string[] {
  const subjects: SentSubject[] = [
    {
      kind: binding.subjectKind ?? 'User',
      name: binding.subject,
      ...(binding.subjectNamespace ? { namespace: binding.subjectNamespace } : {}),
      ...(binding.subjectApiGroup !== undefined ? { apiGroup: binding.subjectApiGroup } : {}),
    },
    ...(binding.moreSubjects ?? []),
  ];
  return subjects.flatMap((subject, i) => validateSubject(subject, i, true));
}

/**
 * ValidateRoleBindingUpdate: the roleRef of a stored RoleBinding never changes (`cannot change roleRef`);
 * the value is the sent roleRef as Go's %#v prints the internal type.
 */
export function validateRoleRefUnchanged(
  stored: Pick<NonNullable<ObjectSlot['roleBinding']>, 'clusterRole' | 'roleKind'>,
  sent: { kind: 'ClusterRole' | 'Role'; name: string },
): string[] {
  if ((stored.roleKind ?? 'ClusterRole') === sent.kind && stored.clusterRole === sent.name) return [];
  return [
    `roleRef: Invalid value: rbac.RoleRef{APIGroup:"${rbacGroupName}", Kind:"${sent.kind}", Name:${JSON.stringify(sent.name)}}: cannot change roleRef`,
  ];
}

/** Field errors of a Role's rules (ValidatePolicyRule for resource rules). */
export function validateRoleRules(rules: readonly PolicyRule[]): string[] {
  return rules.flatMap((rule, i) => [
    ...(rule.verbs.length === 0
      ? [required(`rules[${i}].verbs`, 'verbs must contain at least one value')]
      : []),
    ...(rule.apiGroups.length === 0
      ? [required(`rules[${i}].apiGroups`, 'resource rules must supply at least one api group')]
      : []),
    ...(rule.resources.length === 0
      ? [required(`rules[${i}].resources`, 'resource rules must supply at least one resource')]
      : []),
  ]);
}
