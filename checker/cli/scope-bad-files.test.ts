import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainInProcess, runScript } from '../../test-support/run-command.ts';
import { UsageError } from './cli.ts';
import { loadScopeFile } from './scope-file.ts';
import { parseVerifyArgs } from './verify-args.ts';

/**
 * Malformed scope files (checker/fixtures/bad-scopes/): typos, wrong types, unknown roles and
 * references, bad names, broken YAML, a YAML bomb. Each is refused with its own one line, naming the
 * file, the line, the field and the fix, before any search.
 */
const folder = 'checker/fixtures/bad-scopes';

/** File, then what follows `--scope: FILE:` in its error. */
const expected: [string, string][] = [
  ['01-typo-top-level.yaml', '3: namespace: unknown field "namespace"; fix: did you mean "namespaces"?'],
  [
    '02-typo-namespace-field.yaml',
    '5: namespaces[0].creater: unknown field "creater"; fix: did you mean "creator"?',
  ],
  ['03-typo-user-field.yaml', '11: users[0].group: unknown field "group"; fix: did you mean "groups"?'],
  [
    '04-typo-role-ref.yaml',
    '20: manifests[0].roleref: unknown field "roleref"; fix: did you mean "roleRef"?',
  ],
  [
    '05-typo-failure-policy.yaml',
    '34: manifests[1].initializers[0].failurepolicy: unknown field "failurepolicy"; fix: did you mean "failurePolicy"?',
  ],
  [
    '06-typo-fault.yaml',
    '55: faults.initialiserCrash: unknown field "initialiserCrash"; fix: did you mean "initializerCrash"?',
  ],
  [
    '07-typo-clock.yaml',
    '59: clock.horizon: unknown field "horizon"; fix: remove it (the fields are in checker/cli/scope-format.ts)',
  ],
  [
    '08-typo-metadata-name.yaml',
    '19: manifests[0].metadata.nmae: unknown field "nmae"; fix: did you mean "name"?',
  ],
  [
    '09-typo-subject-kind-key.yaml',
    '25: manifests[0].subjects[0].knd: unknown field "knd"; fix: did you mean "kind"?',
  ],
  [
    '10-typo-creates.yaml',
    '38: initializers.policy.example.com.create: unknown field "create"; fix: did you mean "creates"?',
  ],
  [
    '11-wrong-type-read-repair.yaml',
    '59: clock.readRepairTimeoutSeconds: expected a number, got a string; fix: write a number',
  ],
  ['12-wrong-type-groups.yaml', '11: users[0].groups: expected a list, got a string; fix: write a list'],
  [
    '13-wrong-type-tenant.yaml',
    '12: users[0].tenant: expected a boolean, got a string; fix: write a boolean',
  ],
  [
    '14-wrong-type-fault.yaml',
    '57: faults.apiserverRestart: expected a boolean, got a number; fix: write a boolean',
  ],
  ['15-wrong-type-requests.yaml', '14: users[0].requests: expected a list, got a string; fix: write a list'],
  [
    '16-wrong-type-timeout.yaml',
    '35: manifests[1].initializers[0].timeoutSeconds: expected a number, got a string; fix: write a number',
  ],
  [
    '17-negative-timeout.yaml',
    '35: manifests[1].initializers[0].timeoutSeconds: too small: expected number to be >0; fix: use a number above 0',
  ],
  [
    '18-fractional-read-repair.yaml',
    '59: clock.readRepairTimeoutSeconds: expected a whole number, got a fraction; fix: write a whole number',
  ],
  [
    '19-read-repair-not-positive.yaml',
    '59: clock.readRepairTimeoutSeconds: too small: expected number to be >0; fix: use a number above 0',
  ],
  [
    '20-zero-read-repair-timeout.yaml',
    '60: clock.readRepairTimeoutSeconds: too small: expected number to be >0; fix: use a number above 0',
  ],
  ['21-wrong-type-content.yaml', '50: content: expected a list, got a string; fix: write a list'],
  ['22-wrong-type-description.yaml', '2: description: expected a string, got a list; fix: write a string'],
  [
    '23-unknown-request.yaml',
    '14: users[0].requests[1]: "create-contents" is not allowed here; fix: did you mean "create-content"? use one of create-namespace, create-namespace-with-initializers, get-namespace, delete-namespace, complete-first-initializer, update-finalizers, finalize-remove-kubernetes, create-content, delete-content, delete-collection, get-content, list-content, watch-content, list-content-all-namespaces, watch-content-all-namespaces, list-namespaces, get-namespace-status, update-namespace-status, finalize-as-created, finalize-with-unqualified-name, complete-each-initializer, fail-initialization, create-content-naming-another-namespace, update-finalizers-naming-another-namespace, create-cluster-object, update-cluster-object, delete-cluster-object',
  ],
  [
    '24-unknown-failure-policy.yaml',
    '34: manifests[1].initializers[0].failurePolicy: "Ignored" is not allowed here; fix: did you mean "Ignore"? use one of Ignore, Fail',
  ],
  [
    '25-unknown-subject-kind.yaml',
    '25: manifests[0].subjects[0].kind: "Team" is not allowed here; fix: use one of User, Group, ServiceAccount',
  ],
  [
    '26-unknown-content-kind.yaml',
    '51: content[0].kind: "Configmap" is not allowed here; fix: did you mean "ConfigMap"? use one of ConfigMap, Secret, Pod, ResourceQuota, NetworkPolicy, RoleBinding, Role',
  ],
  [
    '27-role-binding-as-manifest.yaml',
    '17: manifests[0].kind: unknown manifest kind "RoleBinding"; fix: known: ClusterRole, ClusterRoleBinding, NamespaceInitializerConfiguration (Roles and RoleBindings go under content)',
  ],
  [
    '28-unknown-api-version.yaml',
    '16: manifests[0].apiVersion: "rbac.authorization.k8s.io/v1beta1" is not allowed here; fix: write rbac.authorization.k8s.io/v1',
  ],
  [
    '29-unknown-cluster-role-in-binding.yaml',
    '23: manifests[0].roleRef.name: no ClusterRole "namespace-creater"; fix: did you mean "namespace-creator"? known: cluster-admin, admin, edit, view, namespace-creator, namespace-initializer, system:controller:namespace-controller, namespace-populator, namespace-finalizer',
  ],
  [
    '30-unknown-cluster-role-in-initializer.yaml',
    '44: initializers.policy.example.com.creates.roleRef.name: no ClusterRole "administrator"; fix: known: cluster-admin, admin, edit, view, namespace-creator, namespace-initializer, system:controller:namespace-controller, namespace-populator, namespace-finalizer',
  ],
  [
    '31-unknown-role-in-initializer.yaml',
    '44: initializers.policy.example.com.creates.roleRef.name: no Role "admin" under content; fix: none is defined',
  ],
  [
    '32-cluster-role-binding-to-role.yaml',
    '22: manifests[0].roleRef.kind: "Role" is not allowed here; fix: write ClusterRole',
  ],
  [
    '33-unknown-namespace-of-user.yaml',
    '13: users[0].namespaces[0]: no namespace "team-b" in this scope; fix: did you mean "team-a"? known: team-a, default',
  ],
  [
    '34-registered-later-unknown.yaml',
    '50: registeredLater[0]: no NamespaceInitializerConfiguration "20-quota"; fix: known: 10-policy',
  ],
  [
    '35-behaviour-of-unlisted-initializer.yaml',
    '37: initializers.polcy.example.com: no NamespaceInitializerConfiguration lists initializer "polcy.example.com"; fix: did you mean "policy.example.com"? known: policy.example.com',
  ],
  [
    '36-finalizer-without-owner.yaml',
    '6: namespaces[0].finalizers[0]: no owner for finalizer "openshift.com/origin": the namespace could never go; fix: add it to finalizerOwners',
  ],
  [
    '37-initial-objects-of-new-namespace.yaml',
    '7: namespaces[0].initialObjects: namespace "team-a" does not exist at the start; fix: add preexisting: true, or remove it',
  ],
  [
    '38-initial-object-not-in-content.yaml',
    '9: namespaces[1].initialObjects[0]: no Secret "token" under content; fix: add it to content',
  ],
  ['39-symmetry-unknown-user.yaml', '59: symmetry.users[0][1]: no user "bob"; fix: known: alice'],
  [
    '40-role-binding-without-role-ref.yaml',
    '38: initializers.policy.example.com.creates.roleRef: a RoleBinding needs roleRef; fix: add roleRef: { kind: ClusterRole, name: ROLE }',
  ],
  [
    '41-config-map-with-subjects.yaml',
    '53: content[0].subjects: a ConfigMap has no subjects; fix: remove it, or make the object a RoleBinding',
  ],
  [
    '42-bad-scope-name.yaml',
    '1: name: "Tiny Scope": a scope name is lowercase letters, digits and dashes; fix: rename it, e.g. my-scope (it names scopes/NAME.yaml)',
  ],
  [
    '43-bad-initializer-name.yaml',
    '33: manifests[1].initializers[0].name: "policy": not a fully qualified initializer name; fix: write a domain with at least two dots, such as quota.example.com',
  ],
  [
    '44-bad-finalizer-name.yaml',
    '6: namespaces[0].finalizers[0]: "openshift origin": not a finalizer name; fix: write kubernetes, or DOMAIN/NAME such as example.com/cleanup',
  ],
  [
    '45-bad-object-name.yaml',
    '52: content[0].name: "app/config": not a valid object name; fix: use letters, digits and - . : @, starting and ending with a letter or digit',
  ],
  ['46-empty-namespace-name.yaml', '4: namespaces[0].name: empty; fix: write a value'],
  [
    '47-duplicate-namespace.yaml',
    '7: namespaces[1].name: namespace "team-a" is listed twice; fix: give each a distinct name',
  ],
  [
    '48-duplicate-user.yaml',
    '15: users[1].name: user "alice" is listed twice with other groups or tenancy; fix: give every entry of a user the same groups and tenant flag, or a distinct name',
  ],
  [
    '49-duplicate-manifest.yaml',
    '30: manifests[1].metadata.name: ClusterRoleBinding/namespace-creators is defined twice; fix: give each a distinct name',
  ],
  [
    '50-service-account-without-namespace.yaml',
    '25: manifests[0].subjects[0].namespace: a ServiceAccount subject of a ClusterRoleBinding needs its namespace; fix: add namespace: NAME',
  ],
  ['51-missing-clock.yaml', '1: clock: missing; fix: add clock: (a map)'],
  ['52-no-namespaces.yaml', '3: namespaces: a scope has at least one namespace; fix: list at least 1'],
  [
    '53-too-many-objects.yaml',
    '50: content: at most 30 objects (content plus one per initializer), got 32; fix: remove some objects or initializers',
  ],
  [
    '54-duplicate-key.yaml',
    '60: (top level): not YAML (Map keys must be unique); fix: correct the YAML syntax on that line',
  ],
  [
    '55-tab-indentation.yaml',
    '8: (top level): not YAML (Tabs are not allowed as indentation); fix: correct the YAML syntax on that line',
  ],
  [
    '56-unclosed-flow-list.yaml',
    '12: (top level): not YAML (Flow sequence in block collection must be sufficiently indented and end with a ]); fix: correct the YAML syntax on that line',
  ],
  [
    '57-multiple-documents.yaml',
    '61: (top level): not YAML (Source contains multiple documents); fix: keep one scope per file',
  ],
  ['58-not-a-map.yaml', '1: (top level): expected a map, got a list; fix: write a map'],
  ['59-empty-file.yaml', '1: (top level): the file is empty; fix: write a scope (see scopes/default.yaml)'],
  [
    '60-yaml-bomb.yaml',
    '1: (top level): refused: Excessive alias count indicates a resource exhaustion attack; fix: write each value out instead of through aliases',
  ],
  // Past every safe integer, yet told the field's own bound rather than the safe-integer one.
  [
    '61-timeout-past-safe-integers.yaml',
    '5: clock.readRepairTimeoutSeconds: 1e+23 is too large (FP-4: the global timeout is 10 min; D-8 scales time, so a few seconds suffice); fix: use at most 600',
  ],
  // Two entries with one key in a patch: the second was silently merged into the first.
  [
    '63-duplicate-patch-entry.yaml',
    '7: namespaces[1]: a second entry "team-q" (entries are matched by name; the first is entry 0); fix: write each entry once, with every change to it',
  ],
  // The YAML parser only warns of an unknown tag and reads the value as if untagged.
  [
    '64-unknown-tag.yaml',
    '2: (top level): unknown YAML tag: !custom; fix: remove the tag: a scope holds plain YAML values',
  ],
  // 5,000 nested lists: the parser's stack overflow was reported as "not YAML (Maximum call stack size exceeded)".
  [
    '65-nested-too-deeply.yaml',
    '1: (top level): nested too deeply; fix: a scope is a few levels of maps and lists',
  ],
  // Labels and annotations of a scope's manifests, as ValidateObjectMeta judges them.
  [
    '66-label-key.yaml',
    `7: manifests[0].metadata.labels: Invalid value: "-bad": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'); fix: keys are qualified names (prefix/name), label values up to 63 characters of letters, digits, -, _ and .`,
  ],
  [
    '67-annotation-key.yaml',
    '7: manifests[0].metadata.annotations: Invalid value: "example.com/": name part must be non-empty; fix: keys are qualified names (prefix/name), label values up to 63 characters of letters, digits, -, _ and .',
  ],
  // YAML escapes write control characters the text check cannot see.
  [
    '68-escape-in-description.yaml',
    '3: description: control character U+001B written by a YAML escape (it would reach a terminal or a page raw); fix: remove the escape; write visible characters',
  ],
  [
    '69-control-in-user-name.yaml',
    '5: users[0].name: control character U+0007 written by a YAML escape (it would reach a terminal or a page raw); fix: remove the escape; write visible characters',
  ],
];

describe('malformed scope files', () => {
  it('are at least fifty, each with its expected error', () => {
    expect(readdirSync(folder).sort()).toEqual(expected.map(([file]) => file));
    expect(expected.length).toBeGreaterThanOrEqual(50);
  });

  it.each(expected)('%s: one line naming file, line, field and fix', (file, message) => {
    const path = join(folder, file);
    let error: unknown;
    try {
      loadScopeFile(path);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`--scope: ${path}:${message}`);
    expect(message).toMatch(/^\d+: \S.*: .+; fix: .+$/);
    expect(message).not.toContain('\n');
    // verify reads its arguments, the scope with them, before it builds a model or searches.
    expect(() => parseVerifyArgs(['--scope', path])).toThrow(UsageError);
  });

  it('verify exits 2 on them with that one line, no stack trace, no search', async () => {
    // The command itself on the YAML bomb, the file most likely to cost a stack trace or a hang.
    const file = '60-yaml-bomb.yaml';
    const run = await runScript('scripts/verify.ts', ['--scope', join(folder, file), '--quiet']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^verify: --scope: ${folder}/${file}:\\d+: `)),
    ]);
    expect(run.stderr).not.toMatch(/\s+at\s.+:\d+:\d+|states/);
    // Others as verify's entry runs them (it reads the scope with its command line, before any search).
    for (const other of ['01-typo-top-level.yaml', '29-unknown-cluster-role-in-binding.yaml']) {
      const refused = await runMainInProcess('verify', () => {
        parseVerifyArgs(['--scope', join(folder, other), '--quiet']);
        return 0;
      });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^verify: --scope: ${folder}/${other}:\\d+: `)),
      ]);
    }
  });
});
