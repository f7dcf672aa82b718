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

/** Subject kinds ValidateRoleBindingSubject knows, in its order. */
const subjectKinds = ['ServiceAccount', 'User', 'Group'] as const;

/**
 * Field errors of what a RoleBinding or ClusterRoleBinding sends beyond the shapes the model keeps
 * (ValidateRoleBinding, ValidateClusterRoleBinding, RB-4): a roleRef of another group, of a kind the binding
 * may not name (a ClusterRoleBinding names a ClusterRole only), or without a name; a subject of a kind no
 * binding knows.
 */
export function validateSentRbac(
  sent: { roleRef?: { apiGroup?: string; kind: string; name: string }; subjectKinds?: readonly string[] },
  clusterScoped: boolean,
): string[] {
  const ref = sent.roleRef;
  const kinds = clusterScoped ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  return [
    ...(ref?.apiGroup !== undefined && ref.apiGroup !== rbacGroupName
      ? [notSupported('roleRef.apiGroup', ref.apiGroup, [rbacGroupName])]
      : []),
    ...(ref && !kinds.includes(ref.kind) ? [notSupported('roleRef.kind', ref.kind, kinds)] : []),
    ...(ref && ref.name === '' ? [required('roleRef.name')] : []),
    ...(sent.subjectKinds ?? []).flatMap((kind, i) =>
      (subjectKinds as readonly string[]).includes(kind)
        ? []
        : [notSupported(`subjects[${i}].kind`, kind, subjectKinds)],
    ),
  ];
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

/** Go's %#v of a []string, as field.Invalid renders such a value: `[]string{"/*"}`. */
const goStringSlice = (values: readonly string[]): string =>
  `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;

/**
 * Field errors of a Role's or ClusterRole's rules (ValidatePolicyRule, RB-4): verbs always; a rule naming
 * non-resource URLs is for a ClusterRole only and names no group, resource or resource name; any other
 * rule needs groups and resources.
 */
export function validateRoleRules(rules: readonly PolicyRule[], namespaced: boolean): string[] {
  return rules.flatMap((rule, i) => {
    const verbs =
      rule.verbs.length === 0 ? [required(`rules[${i}].verbs`, 'verbs must contain at least one value')] : [];
    const urls = rule.nonResourceURLs ?? [];
    if (urls.length > 0) {
      const path = `rules[${i}].nonResourceURLs`;
      const value = goStringSlice(urls);
      return [
        ...verbs,
        ...(namespaced
          ? [`${path}: Invalid value: ${value}: namespaced rules cannot apply to non-resource URLs`]
          : []),
        ...(rule.apiGroups.length > 0 || rule.resources.length > 0 || (rule.resourceNames ?? []).length > 0
          ? [
              `${path}: Invalid value: ${value}: rules cannot apply to both regular resources and non-resource URLs`,
            ]
          : []),
      ];
    }
    return [
      ...verbs,
      ...(rule.apiGroups.length === 0
        ? [required(`rules[${i}].apiGroups`, 'resource rules must supply at least one api group')]
        : []),
      ...(rule.resources.length === 0
        ? [required(`rules[${i}].resources`, 'resource rules must supply at least one resource')]
        : []),
    ];
  });
}
