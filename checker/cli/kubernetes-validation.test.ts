import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { thrownMessage } from '../../test-support/run-command.ts';
import { isDnsLabel, isDnsSubdomain } from './kubernetes-validation.ts';
import { parseScope, ScopeFileError } from './scope-file.ts';

/**
 * Manifests Kubernetes refuses are refused here too, by the official schema (kubernetes-models) and
 * upstream's own rules (pkg/apis/rbac/validation, apimachinery names), each with file, line, field and fix.
 */
const base = readFileSync('scopes/default.yaml', 'utf8');

/** The default scope (written out whole, unlike quick) with `from` replaced by `to`, judged; the refusal's message, or null when accepted. */
function judged(from: string, to: string): string | null {
  expect(base).toContain(from);
  return thrownMessage(ScopeFileError, () => parseScope(base.replace(from, to), 's.yaml'));
}
const lineOf = (text: string) => base.split('\n').findIndex((l) => l.includes(text)) + 1;

const labellerRule = '      - apiGroups: [""]\n        resources: [namespaces]\n        verbs: [get, update]';
const ciRobotSubject =
  '      - kind: User\n        apiGroup: rbac.authorization.k8s.io\n        name: ci-robot';
const initializerSubject =
  '      - kind: ServiceAccount\n        name: ns-initializer-sa\n        namespace: kube-system\n  - apiVersion: rbac.authorization.k8s.io/v1\n    kind: ClusterRoleBinding\n    metadata:\n      name: namespace-populator';

describe('RBAC rules as the apiserver validates them', () => {
  it('a rule with no verbs', () => {
    expect(judged(labellerRule, labellerRule.replace('[get, update]', '[]'))).toBe(
      `s.yaml:${lineOf('verbs: [get, update]')}: manifests[0].rules[0].verbs: Required value: verbs must contain at least one value; fix: list the verbs it grants, e.g. [get]`,
    );
  });

  it('a rule with no apiGroups, and one with no resources', () => {
    expect(judged(labellerRule, labellerRule.replace('[""]', '[]'))).toMatch(
      /manifests\[0\]\.rules\[0\]\.apiGroups: Required value: resource rules must supply at least one api group; fix: write \[""\]/,
    );
    expect(judged(labellerRule, labellerRule.replace('[namespaces]', '[]'))).toMatch(
      /manifests\[0\]\.rules\[0\]\.resources: Required value: resource rules must supply at least one resource/,
    );
  });

  it.each<[string, string, string, RegExp]>([
    [
      'a rule without verbs at all, by the official schema',
      labellerRule,
      '      - apiGroups: [""]\n        resources: [namespaces]',
      /manifests\[0\]\.rules\[0\]\.verbs: (missing|Kubernetes' ClusterRole schema refuses it: required)/,
    ],
    [
      'a User subject with a foreign apiGroup, which would then grant access',
      ciRobotSubject,
      ciRobotSubject.replace('rbac.authorization.k8s.io', 'example.com'),
      /^s\.yaml:\d+: manifests\[\d+\]\.subjects\[0\]\.apiGroup: Unsupported value: "example\.com": a User subject's apiGroup is "rbac\.authorization\.k8s\.io"; fix: /,
    ],
    [
      'a ServiceAccount subject with the RBAC apiGroup',
      initializerSubject,
      initializerSubject.replace(
        'name: ns-initializer-sa',
        'apiGroup: rbac.authorization.k8s.io\n        name: ns-initializer-sa',
      ),
      /manifests\[\d+\]\.subjects\[0\]\.apiGroup: Unsupported value: "rbac\.authorization\.k8s\.io": a ServiceAccount subject's apiGroup is ""/,
    ],
    [
      'a ServiceAccount subject whose name is no DNS subdomain',
      initializerSubject,
      initializerSubject.replace('name: ns-initializer-sa', 'name: NS_Initializer'),
      /subjects\[0\]\.name: "NS_Initializer" is not a ServiceAccount name/,
    ],
    [
      'a ClusterRoleBinding without roleRef',
      '      name: ci-robot-edit\n    roleRef:\n      apiGroup: rbac.authorization.k8s.io\n      kind: ClusterRole\n      name: edit\n',
      '      name: ci-robot-edit\n',
      /manifests\[\d+\]\.roleRef: /,
    ],
  ])('%s', (_name, from, to, refusal) => {
    expect(judged(from, to)).toMatch(refusal);
  });
});

describe('names and the scope’s own world', () => {
  it.each<[string, string, string, RegExp]>([
    [
      'an object name that is no DNS subdomain',
      '  - kind: ResourceQuota\n    name: compute-quota\n',
      '  - kind: ResourceQuota\n    name: Compute.Quota\n',
      /content\[1\]\.name: "Compute\.Quota" is not a ResourceQuota name: a lowercase DNS subdomain/,
    ],
    [
      'kube-system declared as an ordinary namespace',
      '  - name: kube-system\n    system: true\n',
      '  - name: kube-system\n    creator: alice\n',
      /namespaces\[7\]\.system: kube-system is a system namespace \(LC-10\), never an ordinary one; fix: add system: true$/,
    ],
    [
      'a finalizer owner listed twice',
      'finalizerOwners: [openshift.com/origin]',
      'finalizerOwners: [openshift.com/origin, openshift.com/origin]',
      /finalizerOwners\[1\]: finalizer owner "openshift\.com\/origin" is listed twice/,
    ],
  ])('%s', (_name, from, to, refusal) => {
    expect(judged(from, to)).toMatch(refusal);
  });

  it('a pre-existing namespace whose name is no DNS label, while a created one may have one (NS-1)', () => {
    expect(
      judged(
        '  - name: Team_C\n    creator: alice\n',
        '  - name: Team_C\n    creator: alice\n    preexisting: true\n',
      ),
    ).toMatch(/namespaces\[3\]\.name: "Team_C" is not a DNS label, so it cannot exist before the run/);
    expect(() => parseScope(base, 's.yaml')).not.toThrow();
  });

  it('a creator and an intent naming users that do not exist', () => {
    expect(
      judged('  - name: team-a\n    creator: alice\n', '  - name: team-a\n    creator: alicia\n'),
    ).toMatch(
      /namespaces\[0\]\.creator: no user, service account or binding subject "alicia" in this scope; fix: add a users entry for alicia/,
    );
    expect(judged('    team-b: [bob]', '    team-b: [robert]')).toMatch(
      /intent\.tenants\.team-b\[0\]: no user.*"robert"/,
    );
    expect(judged('    - auditor\n', '    - auditer\n')).toMatch(
      /intent\.clusterWide\[2\]: no user.*"auditer"/,
    );
  });

  it('name predicates follow apimachinery', () => {
    expect(isDnsLabel('team-a')).toBe(true);
    expect(isDnsLabel('Team_C')).toBe(false);
    expect(isDnsLabel('a'.repeat(64))).toBe(false);
    expect(isDnsSubdomain('compute.quota-1')).toBe(true);
    expect(isDnsSubdomain('a..b')).toBe(false);
    expect(isDnsSubdomain('-a')).toBe(false);
  });
});
