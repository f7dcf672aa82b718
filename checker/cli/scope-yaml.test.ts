import { describe, expect, it } from 'vitest';
import { replayFile } from '../scenario/replay.ts';
import { builtInScopes, parseScope, scopeNames } from './scope-file.ts';
import { scopeToYaml } from './scope-yaml.ts';

const scopes = builtInScopes();

/**
 * The built-in scopes' files are their only source: each loads, and what the serializer writes from
 * the loaded scope loads back to the same Scope, so nothing in a file is lost on the way.
 */
describe('the built-in scope files', () => {
  it('are named as their files, and the ones the commands and the manifest know are there', () => {
    for (const [file, scope] of Object.entries(scopes)) expect(scope.name, `scopes/${file}.yaml`).toBe(file);
    expect(scopeNames()).toEqual(expect.arrayContaining(['admin-finalize', 'default', 'large', 'quick']));
  });

  it.each(scopeNames())('%s round-trips through the serializer unchanged', (name) => {
    expect(parseScope(scopeToYaml(scopes[name]), `${name}.yaml`)).toStrictEqual(scopes[name]);
  });

  it('round-trips a scope using every optional field', () => {
    const base = scopes.default;
    const rich = {
      ...base,
      name: 'rich',
      namespaces: [
        ...base.namespaces,
        { name: 'legacy', preexisting: true, initialFinalizers: ['kubernetes', 'openshift.com/origin'] },
      ],
      clusterRoles: [
        ...(base.clusterRoles ?? []),
        {
          metadata: { name: 'reader' },
          rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['app'] }],
        },
      ],
      content: [
        ...base.content,
        {
          resource: 'roles',
          name: 'reader',
          role: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
        },
        {
          resource: 'rolebindings',
          name: 'readers',
          roleBinding: {
            clusterRole: 'reader',
            roleKind: 'Role' as const,
            subject: 'devs',
            subjectKind: 'Group' as const,
            moreSubjects: [{ kind: 'ServiceAccount' as const, name: 'bot', namespace: 'team-a' }],
          },
          byNamespace: { 'team-b': { roleBinding: { clusterRole: 'view', subject: 'bob' } } },
        },
      ],
      symmetry: { users: [['alice']], namespaces: [['team-a']] },
    };
    expect(parseScope(scopeToYaml(rich), 'rich.yaml')).toStrictEqual(rich);
  });

  it('round-trips configuration updates and deletable configurations (FP-3, D-32)', () => {
    const base = scopes.default;
    const [policy, quota] = base.configurations;
    const edited = {
      ...base,
      name: 'edited',
      configurations: [
        {
          ...policy,
          updates: [{ initializers: [{ ...policy.initializers[0], failurePolicy: 'Fail' as const }] }],
        },
        { ...quota, deletable: true },
      ],
    };
    expect(parseScope(scopeToYaml(edited), 'edited.yaml')).toStrictEqual(edited);
  });
});

describe('a scope inline in a scenario (given.scope)', () => {
  const scenario = (scope: string) =>
    [
      'title: An inline scope',
      'requirements: [LC-4]',
      'given:',
      '  scope:',
      ...scope.split('\n').map((line) => `    ${line}`),
      'steps:',
      '  - as: alice',
      '    do: create namespaces/team-a',
      '    expect: 201',
      '',
    ].join('\n');

  it('is the same format: the scope file replays as the scenario world', () => {
    const report = replayFile('inline.yaml', scenario(scopeToYaml(scopes.default)));
    expect(report.status, report.error).toBe('passed');
  });

  it('reports a mistake inside it on its own line and field', () => {
    const text = scenario(scopeToYaml(scopes.default).replace('creator: alice', 'creater: alice'));
    const line = text.split('\n').findIndex((l) => l.includes('creater')) + 1;
    const report = replayFile('inline.yaml', text);
    expect(report.status).toBe('malformed');
    expect(report.error).toMatch(
      new RegExp(`^inline\\.yaml:${line}: given\\.scope\\.namespaces\\[0\\]\\.creater`),
    );
  });
});
