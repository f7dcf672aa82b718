import type { FailurePolicy, OperationType, Rule, RuleWithVerbs } from './k8s-types.ts';

/**
 * Doc 004's admission `Rule` and `RuleWithVerbs`: which requests an initializer or an external
 * admission webhook cares about (AC-4, AC-5). Matching follows shipped Kubernetes
 * (apiserver webhook/predicates/rules): a resource entry splits at its first `/` into resource and
 * subresource, and `*` on either side matches anything there, the empty subresource included.
 */

/** What a request addresses, as admission sees it. */
export interface RequestResource {
  apiGroup: string;
  apiVersion: string;
  resource: string;
  /** Absent for the object itself (`pods`), present for `pods/log`, `deployments/scale`. */
  subresource?: string;
}

export interface OperationRequest extends RequestResource {
  operation: Exclude<OperationType, '*'>;
}

const exactOrWildcard = (items: readonly string[], requested: string): boolean =>
  items.some((item) => item === '*' || item === requested);

const splitResource = (entry: string): { resource: string; subresource: string } => {
  const slash = entry.indexOf('/');
  return slash < 0
    ? { resource: entry, subresource: '' }
    : { resource: entry.slice(0, slash), subresource: entry.slice(slash + 1) };
};

/**
 * AC-4: one `resources` entry against a request. `*` = every resource but no subresource;
 * `pods/*` = pods and every subresource of pods; `*\/scale` = the scale subresource of anything;
 * `*\/*` = everything.
 */
export function resourceEntryMatches(entry: string, resource: string, subresource = ''): boolean {
  const parts = splitResource(entry);
  return (
    (parts.resource === '*' || parts.resource === resource) &&
    (parts.subresource === '*' || parts.subresource === subresource)
  );
}

/** AC-4: a Rule matches when group, version and resource each match one of its entries. */
export function ruleMatches(rule: Rule, request: RequestResource): boolean {
  return (
    exactOrWildcard(rule.apiGroups, request.apiGroup) &&
    exactOrWildcard(rule.apiVersions, request.apiVersion) &&
    rule.resources.some((entry) => resourceEntryMatches(entry, request.resource, request.subresource ?? ''))
  );
}

/** AC-5: a RuleWithVerbs also needs the request's operation among its verbs (`*` = all four). */
export function ruleWithVerbsMatches(rule: RuleWithVerbs, request: OperationRequest): boolean {
  return rule.verbs.some((verb) => verb === '*' || verb === request.operation) && ruleMatches(rule, request);
}

/** AC-4, AC-5: an initializer or webhook applies when any of its rules matches (doc 004). */
export function anyRuleMatches(rules: readonly Rule[], request: RequestResource): boolean {
  return rules.some((rule) => ruleMatches(rule, request));
}

const wildcardAlone = (field: string, items: readonly string[], wildcard: string): string[] =>
  items.includes(wildcard) && items.length > 1
    ? [
        `${field}: Invalid value: ${JSON.stringify(items)}: if '${wildcard}' is present, must not specify other ${field}`,
      ]
    : [];

const requiredNonEmpty = (field: string, items: readonly string[]): string[] => [
  ...(items.length === 0 ? [`${field}: Required value`] : []),
  ...items.flatMap((item, index) => (item === '' ? [`${field}[${index}]: Required value`] : [])),
];

/**
 * AC-4: doc 004's "if `*` (or `*\/*`) is present, the length of the slice must be one", for groups,
 * versions and resources; plus shipped validation's redundancy checks (`pods/*` beside `pods/log`,
 * `*\/scale` beside `deployments/scale`). Returns 422 field errors, empty when valid.
 */
export function validateRule(rule: Rule, fieldPrefix = ''): string[] {
  const field = (name: string) => `${fieldPrefix}${name}`;
  const errors = [
    // An empty group name is the core group, so only the list itself must be non-empty.
    ...(rule.apiGroups.length === 0 ? [`${field('apiGroups')}: Required value`] : []),
    ...wildcardAlone(field('apiGroups'), rule.apiGroups, '*'),
    ...requiredNonEmpty(field('apiVersions'), rule.apiVersions),
    ...wildcardAlone(field('apiVersions'), rule.apiVersions, '*'),
    ...requiredNonEmpty(field('resources'), rule.resources),
    ...wildcardAlone(field('resources'), rule.resources, '*'),
    ...wildcardAlone(field('resources'), rule.resources, '*/*'),
  ];
  const entries = rule.resources.filter((entry) => entry.includes('/')).map(splitResource);
  const withWildcardSubresource = new Set(
    entries.filter((e) => e.subresource === '*').map((e) => e.resource),
  );
  const withWildcardResource = new Set(entries.filter((e) => e.resource === '*').map((e) => e.subresource));
  for (const { resource, subresource } of entries) {
    const entry = `${resource}/${subresource}`;
    if (subresource !== '*' && withWildcardSubresource.has(resource))
      errors.push(
        `${field('resources')}: Invalid value: "${entry}": if '${resource}/*' is present, must not specify ${entry}`,
      );
    if (resource !== '*' && withWildcardResource.has(subresource))
      errors.push(
        `${field('resources')}: Invalid value: "${entry}": if '*/${subresource}' is present, must not specify ${entry}`,
      );
  }
  return errors;
}

const knownOperations: readonly string[] = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** AC-4, AC-5: validateRule plus the verbs: known operations, and `*` alone. */
export function validateRuleWithVerbs(rule: RuleWithVerbs): string[] {
  const errors = [
    ...(rule.verbs.length === 0 ? ['verbs: Required value'] : []),
    ...wildcardAlone('verbs', rule.verbs, '*'),
  ];
  rule.verbs.forEach((verb, index) => {
    if (!knownOperations.includes(verb))
      errors.push(
        `verbs[${index}]: Unsupported value: ${JSON.stringify(verb)}: supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"`,
      );
  });
  return [...errors, ...validateRule(rule)];
}

/** AC-5: doc 004's ExternalAdmissionHook failure policy "Defaults to Ignore" (fail open). */
export const defaultWebhookFailurePolicy: FailurePolicy = 'Ignore';

/** AC-5: the policy in force for a webhook that may leave it unset. */
export function effectiveWebhookFailurePolicy(failurePolicy?: FailurePolicy): FailurePolicy {
  return failurePolicy ?? defaultWebhookFailurePolicy;
}
