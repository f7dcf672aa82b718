import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { loadScopeFile, parseScope, parseScopeText, scopeByName, scopeFromData } from './scope-file.ts';

/** A scope that extends `base` with the given lines after its own name and description. */
const extending = (base: string, ...lines: string[]) =>
  [`extends: ${base}`, 'name: derived', 'description: the base with a change.', ...lines].join('\n');

describe('a scope that extends another', () => {
  it('quick is default without team-b-dev: same namespaces, users, bindings and intent but for it', () => {
    const base = scopeByName('default');
    const quick = scopeByName('quick');
    expect(readFileSync('scopes/quick.yaml', 'utf8')).toMatch(/^extends: default$/m);
    expect(quick.namespaces).toEqual(base.namespaces.filter((ns) => ns.name !== 'team-b-dev'));
    expect(quick.clusterRoleBindings).toEqual(base.clusterRoleBindings);
    expect(quick.intent?.tenants).toEqual(
      Object.fromEntries(Object.entries(base.intent?.tenants ?? {}).filter(([ns]) => ns !== 'team-b-dev')),
    );
    expect(quick.name).toBe('quick');
  });

  it('merges maps key by key, removes a key set to null, and replaces a plain list whole', () => {
    const scope = parseScope(
      extending(
        'quick',
        'clock:',
        '  readRepairTimeoutSeconds: 4',
        'intent:',
        '  tenants:',
        '    Team_C: null',
        'registeredLater: []',
      ),
      'derived.yaml',
    );
    const base = scopeByName('quick');
    expect([scope.clock.readRepairTimeoutSeconds, base.clock.readRepairTimeoutSeconds]).toEqual([4, 3]);
    expect(scope.faults).toEqual(base.faults);
    expect(Object.keys(scope.intent?.tenants ?? {})).toEqual(
      Object.keys(base.intent?.tenants ?? {}).filter((ns) => ns !== 'Team_C'),
    );
    expect(scope.intent?.clusterWide).toEqual(base.intent?.clusterWide);
    expect(base.configurations.map((c) => c.registered)).toContain('later');
    expect(scope.configurations.map((c) => c.registered)).toEqual(base.configurations.map(() => 'initially'));
  });

  it('merges a named entry into the base entry of the same key, adds a new one at the end, deletes one marked $patch: delete', () => {
    const scope = parseScope(
      extending(
        'quick',
        'namespaces:',
        '  - name: Team_C',
        '    $patch: delete',
        '  - name: team-d',
        '    creator: alice',
        'users:',
        '  - name: carol',
        '    namespaces: [team-a, default, kube-system]',
        '    requests: [get-namespace]',
        '  - name: alice',
        '    namespaces: [Team_C, team.c, team-c-with-a-name-one-character-longer-than-any-dns-label-12345]',
        '    $patch: delete',
        '  - name: alice',
        '    namespaces: [team-d]',
        '    groups: [teams@corp.com, system:authenticated]',
        '    tenant: true',
        '    requests: [create-namespace]',
        'intent:',
        '  tenants:',
        '    Team_C: null',
        '    team-d: [alice]',
      ),
      'derived.yaml',
    );
    const base = scopeByName('quick');
    const names = (s: typeof scope) => s.namespaces.map((ns) => ns.name);
    expect(names(scope)).toEqual([...names(base).filter((n) => n !== 'Team_C'), 'team-d']);
    // carol's entry for team-a, default and kube-system keeps its place and groups; its requests are replaced whole.
    const entry = (s: typeof scope) =>
      s.principals.findIndex(
        (p) => p.name === 'carol' && p.namespaces?.join() === 'team-a,default,kube-system',
      );
    // One entry before it, alice's for Team_C, is deleted.
    expect(entry(scope)).toBe(entry(base) - 1);
    expect(scope.principals[entry(scope)]).toEqual({
      ...base.principals[entry(base)],
      requests: ['get-namespace'],
    });
    expect(base.principals[entry(base)].requests).toEqual(['delete-namespace']);
    const users = (s: typeof scope) => s.principals.map((p) => `${p.name} ${p.namespaces?.join()}`);
    expect(users(scope)).toEqual([
      ...users(base).filter((u) => !u.startsWith('alice Team_C')),
      'alice team-d',
    ]);
  });

  it('keeps its own name, description, expectations and golden figures, never the base ones', () => {
    const loaded = parseScopeText(extending('quick'), 'derived.yaml');
    expect(loaded.scope.name).toBe('derived');
    expect(loaded.scope.description).toBe('the base with a change.');
    expect(loaded.golden).toBeUndefined();
    expect(loaded.expectations).toBeUndefined();
  });
});

describe('a mistake in extends', () => {
  const temp = useTempDir('extends');
  const refused = (text: string) => () => parseScope(text, 'derived.yaml');

  it('an unknown base names the scopes there are and the likely one', () => {
    expect(refused(extending('defualt'))).toThrow(
      /^derived\.yaml:1: extends: unknown scope "defualt"; fix: did you mean "default"\? use one of admin-finalize, cluster-rbac, creators-delete, declared-kinds, default, /,
    );
  });

  it('a cycle of files names each file on it', async () => {
    const folder = temp();
    await writeFile(join(folder, 'a.yaml'), 'extends: ./b.yaml\nname: a\ndescription: a.\n');
    await writeFile(join(folder, 'b.yaml'), '# b\nextends: ./a.yaml\nname: b\ndescription: b.\n');
    expect(() => loadScopeFile(join(folder, 'a.yaml'), 'a.yaml')).toThrow(
      '--scope: ./b.yaml:2: extends: a cycle: a.yaml extends b.yaml extends a.yaml; fix: let one of these files stand alone (copy what it needs instead of extending)',
    );
  });

  it('a delete of an entry the base does not have names the key it matched by', () => {
    expect(refused(extending('quick', 'namespaces:', '  - name: team-z', '    $patch: delete'))).toThrow(
      'derived.yaml:5: namespaces[0]: the base has no entry "team-z" to delete (entries are matched by name); fix: copy the name of the base\'s entry exactly, or drop this entry',
    );
  });

  it('an unknown $patch, or one in a list replaced whole, says what is allowed', () => {
    expect(refused(extending('quick', 'namespaces:', '  - name: team-a', '    $patch: remove'))).toThrow(
      'derived.yaml:6: namespaces[0].$patch: unknown "remove"; fix: write `$patch: delete` to remove the entry, or leave $patch out to add or change it',
    );
    expect(refused(extending('quick', 'finalizerOwners:', '  - $patch: delete'))).toThrow(
      /^derived\.yaml:5: finalizerOwners\[0\]\.\$patch: this list is replaced whole/,
    );
  });

  it('a missing name or a field of the wrong type is refused at its line', () => {
    expect(refused('extends: quick\ndescription: no name.\n')).toThrow(
      /^derived\.yaml:1: name: missing: a scope that extends another has its own name; fix: /,
    );
    expect(refused('extends: [quick]\nname: derived\ndescription: d.\n')).toThrow(
      'derived.yaml:1: extends: expected a scope name or a path to a scope file; fix: write e.g. `extends: default`',
    );
    expect(refused(extending('quick', 'clock:', '  readRepairTimeoutSeconds: soon'))).toThrow(
      /^derived\.yaml:5: clock\.readRepairTimeoutSeconds: expected a number/,
    );
  });

  it('a change that breaks an entry the base wrote is reported at extends, naming the merged field', () => {
    // alice's base entry for Team_C refers to a namespace this file deletes.
    expect(refused(extending('quick', 'namespaces:', '  - name: Team_C', '    $patch: delete'))).toThrow(
      /^derived\.yaml:1: users\[\d\]\.namespaces\[0\]: .*Team_C.*\(an entry of the base, with this file's changes\)/,
    );
  });

  it('a scope written inline in a scenario cannot extend one', () => {
    const issue = scopeFromData({ ...{ extends: 'quick' }, name: 'x', description: 'x' });
    expect(issue).toMatchObject({ path: ['extends'] });
  });
});
