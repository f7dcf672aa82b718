import { describe, expect, it } from 'vitest';
import { ScenarioFileError } from './load.ts';
import { prepareScenario } from './replay.ts';

/** The mistakes found by trying the replayer as a hostile user would: each is one line, with its line. */
const header = 'title: t\nrequirements: [NS-1]\n';
const withNamespace = (name: string) =>
  `${header}given:\n  namespaces: [{ name: "${name}" }]\nsteps:\n  - check: { namespace: default, exists: true }\n`;
const rolebindingBody = (body: string) =>
  `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: create namespaces/team-a/rolebindings/rb\n    body:\n${body}    expect: 201\n`;

const cases: [string, string, string][] = [
  [
    'an undeclared user',
    `${header}given:\n  namespaces: [{ name: team-a }]\n  users: [{ name: alice, groups: [] }]\nsteps:\n  - as: alcie\n    do: get namespaces/team-a\n    expect: 403\n`,
    'x.yaml:7: steps[0].as: no principal "alcie" is declared (did you mean "alice"?)',
  ],
  [
    'a check of a namespace named nowhere else',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - check: { namespace: team-z, exists: false }\n`,
    'x.yaml:6: steps[0].check.namespace: namespace "team-z" is named nowhere else in this scenario (did you mean "team-a"?)',
  ],
  [
    'a misspelt initializer key',
    `${header}given:\n  manifests:\n    - apiVersion: admissionregistration.k8s.io/v1alpha1\n      kind: NamespaceInitializerConfiguration\n      metadata: { name: c }\n      initializers: [{ name: policy.example.com }]\n  initializers:\n    polcy.example.com: { creates: { kind: ConfigMap, name: x } }\nsteps:\n  - check: { namespace: default, exists: true }\n`,
    'x.yaml:10: given.initializers.polcy.example.com: no initializer "polcy.example.com" in any NamespaceInitializerConfiguration (did you mean "policy.example.com"?)',
  ],
  [
    'subject: for subjects:',
    rolebindingBody(
      '      roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin }\n      subject: [{ kind: User, name: alice }]\n',
    ),
    'x.yaml:11: steps[0].body.subject: unknown field "subject" in a RoleBinding (did you mean "subjects"?',
  ],
  [
    'a Pod posted to rolebindings',
    rolebindingBody('      kind: Pod\n      spec: { containers: [] }\n'),
    'x.yaml:10: steps[0].body.kind: a Pod body posted to rolebindings',
  ],
  [
    'Team_A',
    withNamespace('Team_A'),
    'x.yaml:4: given.namespaces[0].name: invalid namespace name "Team_A": ',
  ],
  [
    'a.b',
    withNamespace('a.b'),
    'x.yaml:4: given.namespaces[0].name: invalid namespace name "a.b": must not contain dots',
  ],
  ['an emoji', withNamespace('🙂'), 'x.yaml:4: given.namespaces[0].name: invalid namespace name "🙂": '],
  [
    'a duplicate entry',
    `${header}given:\n  namespaces: [{ name: team-a }, { name: team-a, finalizers: [] }]\nsteps:\n  - check: { namespace: team-a, exists: true }\n`,
    'x.yaml:4: given.namespaces[1].name: namespace "team-a" is listed twice',
  ],
  [
    'an invalid finalizer',
    `${header}given:\n  namespaces: [{ name: team-a, finalizers: [Finalizer] }]\nsteps:\n  - check: { namespace: team-a, exists: true }\n`,
    'x.yaml:4: given.namespaces[0].finalizers[0]: invalid finalizer "Finalizer": ',
  ],
  [
    'more than 31 objects',
    `${header}given:\n  namespaces: [{ name: team-a }]\n  objects:\n${Array.from({ length: 32 }, (_, i) => `    - { kind: ConfigMap, namespace: team-a, name: cm${i} }\n`).join('')}steps:\n  - check: { namespace: team-a, exists: true }\n`,
    'x.yaml:37: given.objects[31]: object configmaps/cm31 is one more than the model holds',
  ],
  [
    'a create whose path and body name two objects',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: create namespaces/team-a/configmaps/one\n    body: { metadata: { name: two } }\n    expect: 201\n`,
    'x.yaml:9: steps[0].body.metadata.name: the path names one but the body names two (a create of configmaps takes its name from the body',
  ],
  [
    'an HTTP status out of range',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: get namespaces/team-a\n    expect: 999 Weird\n`,
    'x.yaml:9: steps[0].expect: HTTP status 999 is not between 100 and 599',
  ],
  [
    'a misspelt reason',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: get namespaces/team-a\n    expect: { code: 403, reason: Forbiden }\n`,
    'x.yaml:9: steps[0].expect.reason: unknown reason "Forbiden" (did you mean "Forbidden"?',
  ],
  [
    'a body on a get, which the apiserver ignores',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: get namespaces/team-a\n    body: { kind: Namespace }\n    expect: 200\n`,
    'x.yaml:9: steps[0].body: a get sends no body (the apiserver ignores it), so this one says nothing',
  ],
  [
    'a ConfigMap body on a delete, whose body is DeleteOptions',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: delete namespaces/team-a/configmaps/x\n    body: { kind: ConfigMap, data: { a: b } }\n    expect: 404\n`,
    'x.yaml:9: steps[0].body.kind: a delete sends DeleteOptions, not a ConfigMap',
  ],
  [
    'a Pod body without containers (422 upstream, which the model cannot answer)',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: create namespaces/team-a/pods/p\n    body: { kind: Pod, metadata: { name: p }, spec: {} }\n    expect: 201\n`,
    "x.yaml:9: steps[0].body.spec.containers: Kubernetes' Pod schema refuses it: required; the apiserver refuses this body",
  ],
  [
    'a NetworkPolicy body whose podSelector is a number',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: create namespaces/team-a/networkpolicies/n\n    body: { kind: NetworkPolicy, metadata: { name: n }, spec: { podSelector: 5 } }\n    expect: 201\n`,
    "x.yaml:9: steps[0].body.spec.podSelector: Kubernetes' NetworkPolicy schema refuses it: must be object",
  ],
  [
    'a propagationPolicy Kubernetes does not know (D-46)',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: delete namespaces/team-a\n    body: { kind: DeleteOptions, propagationPolicy: Sideways }\n    expect: 200\n`,
    'x.yaml:9: steps[0].body.propagationPolicy: expected propagationPolicy Orphan, Background or Foreground',
  ],
  [
    'a field DeleteOptions does not have (D-46)',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: delete namespaces/team-a\n    body: { propagation: Orphan }\n    expect: 200\n`,
    'x.yaml:9: steps[0].body.propagation: unknown field "propagation" in a deleteOptions body',
  ],
  [
    'a client-written namespace condition, which D-30 leaves out',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: update namespaces/team-a/status\n    body: { status: { conditions: [{ type: StatusPatch, status: 'True' }] } }\n    expect: 200\n`,
    'x.yaml:9: steps[0].body.status.conditions: unknown field "conditions" in a namespace body (client-written conditions are not modelled; a namespace has only the conditions the model sets itself, D-30 and D-22)',
  ],
  [
    'a deletionTimestamp sent in a namespace body',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: update namespaces/team-a/status\n    body: { metadata: { name: team-a, deletionTimestamp: '2017-01-01T00:00:00Z' }, status: { phase: Terminating } }\n    expect: 422\n`,
    'x.yaml:9: steps[0].body.metadata.deletionTimestamp: unknown field "deletionTimestamp" in a namespace body (a body cannot set it; only a DELETE does, LC-3 and D-11)',
  ],
  [
    'the deprecated orphanDependents of a DeleteOptions body (D-46)',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: delete namespaces/team-a\n    body: { orphanDependents: true }\n    expect: 200\n`,
    'x.yaml:9: steps[0].body.orphanDependents: unknown field "orphanDependents" in a deleteOptions body (deprecated and not in the vocabulary; send propagationPolicy: Orphan, D-46)',
  ],
  [
    "a check of a namespace's labels, which are validated and never kept (D-1)",
    `${header}steps:\n  - check: { namespace: default, labels: { a: b } }\n`,
    'x.yaml:4: steps[0].check.labels: unknown field "labels" (a namespace\'s labels are validated and never kept, so nothing reads them back (D-1); fields here: namespace, exists',
  ],
  [
    'a precondition DeleteOptions does not have, on a content delete (D-46)',
    `${header}given:\n  namespaces: [{ name: team-a }]\nsteps:\n  - as: root\n    groups: [system:masters]\n    do: delete namespaces/team-a/configmaps/x\n    body: { preconditions: { generation: 3 } }\n    expect: 404\n`,
    'x.yaml:9: steps[0].body.preconditions.generation: unknown field "generation"',
  ],
  [
    'a tick of a trillion seconds',
    `${header}steps:\n  - tick: 1000000000000\n`,
    'x.yaml:4: steps[0].tick: a tick is at most 3600 s; split a longer wait into several',
  ],
];

describe('scenario values Kubernetes would refuse are refused before the replay, in one line', () => {
  it.each(cases)('%s', (_label, source, expected) => {
    const prepared = prepareScenario('x.yaml', source);
    expect(prepared).toBeInstanceOf(ScenarioFileError);
    const message = (prepared as ScenarioFileError).message;
    expect(message.startsWith(expected), message).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('ticks that add up past a day are refused at the tick that passes it', () => {
    const ticks = Array.from({ length: 25 }, () => '  - tick: 3600\n').join('');
    const prepared = prepareScenario('x.yaml', `${header}steps:\n${ticks}`);
    expect((prepared as ScenarioFileError).message).toMatch(
      /^x\.yaml:28: steps\[24\]\.tick: the clock passes 86400 s here/,
    );
  });
});
