import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { Rule, RuleWithVerbs } from './k8s-types.ts';
import {
  defaultWebhookFailurePolicy,
  effectiveWebhookFailurePolicy,
  resourceEntryMatches,
  ruleMatches,
  ruleWithVerbsMatches,
  validateRule,
  validateRuleWithVerbs,
} from './rules.ts';

const rule = (resources: string[], apiGroups = ['*'], apiVersions = ['*']): Rule => ({
  apiGroups,
  apiVersions,
  resources,
});
const request = (resource: string, subresource?: string, apiGroup = '', apiVersion = 'v1') => ({
  apiGroup,
  apiVersion,
  resource,
  subresource,
});

describe('Rule matching (AC-4)', () => {
  it.each([
    // [entry, resource, subresource, matches]
    ['pods', 'pods', undefined, true],
    ['pods', 'pods', 'log', false],
    ['pods', 'configmaps', undefined, false],
    ['pods/log', 'pods', 'log', true],
    ['pods/log', 'pods', undefined, false],
    ['pods/log', 'pods', 'exec', false],
    ['*', 'pods', undefined, true],
    ['*', 'namespaces', undefined, true],
    ['*', 'pods', 'log', false],
    ['pods/*', 'pods', 'log', true],
    ['pods/*', 'pods', 'exec', true],
    // Shipped matching lets `pods/*` cover pods itself too (the empty subresource matches `*`).
    ['pods/*', 'pods', undefined, true],
    ['pods/*', 'configmaps', 'log', false],
    ['*/scale', 'deployments', 'scale', true],
    ['*/scale', 'replicasets', 'scale', true],
    ['*/scale', 'deployments', undefined, false],
    ['*/scale', 'pods', 'log', false],
    ['*/*', 'pods', undefined, true],
    ['*/*', 'pods', 'log', true],
    ['*/*', 'namespaces', 'finalize', true],
  ] as const)('AC-4 entry %s against %s/%s matches: %s', (entry, resource, subresource, matches) => {
    expect(resourceEntryMatches(entry, resource, subresource)).toBe(matches);
    expect(ruleMatches(rule([entry]), request(resource, subresource))).toBe(matches);
  });

  it('AC-4 groups and versions match exactly or by *', () => {
    const appsV1 = rule(['deployments'], ['apps'], ['v1']);
    expect(ruleMatches(appsV1, request('deployments', undefined, 'apps', 'v1'))).toBe(true);
    expect(ruleMatches(appsV1, request('deployments', undefined, 'extensions', 'v1'))).toBe(false);
    expect(ruleMatches(appsV1, request('deployments', undefined, 'apps', 'v1beta1'))).toBe(false);
    expect(ruleMatches(rule(['namespaces'], ['']), request('namespaces'))).toBe(true);
    expect(ruleMatches(rule(['namespaces'], ['']), request('namespaces', undefined, 'apps'))).toBe(false);
  });

  it('AC-4 a rule with no entries in a list matches nothing', () => {
    expect(ruleMatches(rule([]), request('pods'))).toBe(false);
    expect(ruleMatches(rule(['pods'], []), request('pods'))).toBe(false);
  });

  const name = fc.constantFrom('pods', 'configmaps', 'deployments', 'namespaces');
  const sub = fc.option(fc.constantFrom('log', 'scale', 'status', 'finalize'), { nil: undefined });
  test.prop([name, sub])(
    'AC-4 */* matches everything, * everything without a subresource',
    (resource, subresource) => {
      expect(resourceEntryMatches('*/*', resource, subresource)).toBe(true);
      expect(resourceEntryMatches('*', resource, subresource)).toBe(subresource === undefined);
    },
  );
});

describe('Rule validation (AC-4)', () => {
  it.each([
    [rule(['*'])],
    [rule(['*/*'])],
    [rule(['pods', 'pods/log', '*/scale'], [''], ['v1'])],
    [rule(['pods/*', 'configmaps'], ['', 'apps'], ['v1', 'v1beta1'])],
  ])('AC-4 accepts %j', (valid) => {
    expect(validateRule(valid)).toEqual([]);
  });

  it.each([
    [
      rule(['pods'], ['*', 'apps']),
      'apiGroups: Invalid value: ["*","apps"]: if \'*\' is present, must not specify other apiGroups',
    ],
    [rule(['pods'], ['*'], ['*', 'v1']), "if '*' is present, must not specify other apiVersions"],
    [rule(['*', 'pods']), "if '*' is present, must not specify other resources"],
    // Doc 004 is stricter than shipped validation here: `*` holds nothing else, subresources included.
    [rule(['*', 'pods/log']), "if '*' is present, must not specify other resources"],
    [rule(['*/*', 'pods/log']), "if '*/*' is present, must not specify other resources"],
    [rule(['pods/*', 'pods/log']), "if 'pods/*' is present, must not specify pods/log"],
    [rule(['*/scale', 'deployments/scale']), "if '*/scale' is present, must not specify deployments/scale"],
    [rule([]), 'resources: Required value'],
    [rule(['pods'], []), 'apiGroups: Required value'],
    [rule(['pods'], [''], ['']), 'apiVersions[0]: Required value'],
  ])('AC-4 refuses %j', (invalid, message) => {
    expect(validateRule(invalid).join('\n')).toContain(message);
  });

  const entry = fc.constantFrom('*', '*/*', 'pods', 'pods/log', 'pods/*', '*/scale', 'configmaps');
  test.prop([fc.uniqueArray(entry, { minLength: 1, maxLength: 4 })])(
    'AC-4 a list holding * or */* beside anything else is always refused',
    (resources) => {
      const wildcardAmongOthers =
        resources.length > 1 && (resources.includes('*') || resources.includes('*/*'));
      if (wildcardAmongOthers) expect(validateRule(rule(resources)).length).toBeGreaterThan(0);
    },
  );
});

describe('RuleWithVerbs (AC-5)', () => {
  const createPods: RuleWithVerbs = { ...rule(['pods'], [''], ['v1']), verbs: ['CREATE'] };
  const everything: RuleWithVerbs = { ...rule(['*/*']), verbs: ['*'] };

  it('AC-5 a listed verb matches, another does not', () => {
    expect(ruleWithVerbsMatches(createPods, { ...request('pods'), operation: 'CREATE' })).toBe(true);
    expect(ruleWithVerbsMatches(createPods, { ...request('pods'), operation: 'UPDATE' })).toBe(false);
    expect(ruleWithVerbsMatches(createPods, { ...request('configmaps'), operation: 'CREATE' })).toBe(false);
  });

  it.each(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const)('AC-5 * covers %s', (operation) => {
    expect(ruleWithVerbsMatches(everything, { ...request('pods', 'exec'), operation })).toBe(true);
  });

  it('AC-5 verbs are validated: known operations, * alone', () => {
    expect(validateRuleWithVerbs(createPods)).toEqual([]);
    expect(validateRuleWithVerbs({ ...createPods, verbs: ['*', 'CREATE'] }).join()).toContain(
      "if '*' is present, must not specify other verbs",
    );
    expect(validateRuleWithVerbs({ ...createPods, verbs: [] })).toContain('verbs: Required value');
  });

  it('AC-5 webhooks default to fail open', () => {
    expect(defaultWebhookFailurePolicy).toBe('Ignore');
    expect(effectiveWebhookFailurePolicy()).toBe('Ignore');
    expect(effectiveWebhookFailurePolicy('Fail')).toBe('Fail');
  });
});
