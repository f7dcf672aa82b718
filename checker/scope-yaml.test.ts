import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scopes } from '../machines/scopes.ts';
import { replayFile } from './scenario/replay.ts';
import { parseScope, scopeByName, scopeFileOf, scopeNames } from './scope-file.ts';
import { scopeToYaml } from './scope-yaml.ts';

/**
 * The built-in scopes' files say what machines/scopes.ts says: each loads to a Scope equal to the
 * TypeScript one, and each is what `npm run scopes` writes today (regenerate after editing the TypeScript).
 */
describe('the built-in scope files', () => {
  it('are one file per built-in scope, and nothing else', () => {
    expect(scopeNames()).toEqual(Object.keys(scopes).sort());
  });

  it.each(Object.keys(scopes))('%s loads to the same Scope as the TypeScript', (name) => {
    expect(scopeByName(name)).toStrictEqual(scopes[name]);
  });

  it.each(Object.keys(scopes))('%s is what the serializer writes (npm run scopes)', (name) => {
    expect(readFileSync(scopeFileOf(name), 'utf8')).toBe(scopeToYaml(scopes[name]));
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
