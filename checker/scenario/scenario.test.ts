import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRequestLine, RequestLineError } from '../cli/request-line.ts';
import { projectRoot } from './catalog.ts';
import { formatReport } from './format.ts';
import { replayFile } from './replay.ts';

const example = 'scenarios/lc-terminating-refuses-new-content.yaml';
const exampleSource = readFileSync(join(projectRoot, example), 'utf8');

/** The one line a malformed variant of the example gets. */
function malformed(edit: (text: string) => string): string {
  const report = replayFile('edited.yaml', edit(exampleSource));
  expect(report.status).toBe('malformed');
  const lines = formatReport(report);
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toMatch(/\n|\s+at\s.+:\d+:\d+/);
  return lines[0];
}

describe('malformed scenario files get one line: file, line, field, problem', () => {
  it('a misspelt field', () => {
    expect(malformed((t) => t.replace('deletionTimestamp: true', 'deletionTimestmp: true'))).toBe(
      'MALFORMED edited.yaml:23: steps[1].check.deletionTimestmp: unknown field "deletionTimestmp" (did you mean "deletionTimestamp"? fields here: namespace, exists, phase, finalizers, metadataFinalizers, pending, creator, result, conditions, deletionTimestamp, timer, objects, externalContent)',
    );
  });

  it('an unknown verb', () => {
    expect(malformed((t) => t.replace('do: delete namespaces/team-a', 'do: remove namespaces/team-a'))).toBe(
      'MALFORMED edited.yaml:18: steps[0].do: unknown verb "remove" (verbs: create, get, list, watch, update, patch, delete, deletecollection, finalize)',
    );
  });

  it('a bad path', () => {
    expect(malformed((t) => t.replace('team-a/configmaps/other', 'team-a/configmap/other'))).toMatch(
      /^MALFORMED edited\.yaml:26: steps\[2\]\.do: unknown resource "configmap" in namespace team-a \(did you mean "configmaps"\?/,
    );
  });

  it('an unknown step, controller, requirement and kind', () => {
    expect(malformed((t) => t.replace('- run: namespace-controller', '- rn: namespace-controller'))).toMatch(
      /^MALFORMED edited\.yaml:31: steps\[4\]\.rn: unknown step "rn" \(did you mean "run"\?/,
    );
    expect(malformed((t) => t.replace('run: namespace-controller', 'run: namespace-controler'))).toMatch(
      /^MALFORMED edited\.yaml:31: steps\[4\]\.run: no controller "namespace-controler" \(did you mean "namespace-controller"\?/,
    );
    expect(malformed((t) => t.replace('[LC-3,', '[LC-33,'))).toMatch(
      /^MALFORMED edited\.yaml:2: requirements\[0\]: unknown requirement "LC-33"/,
    );
    expect(malformed((t) => t.replace('kind: ClusterRoleBinding', 'kind: ClusterRoleBindng'))).toMatch(
      /^MALFORMED edited\.yaml:12: given\.manifests\[0\]\.kind: unknown kind "ClusterRoleBindng" \(did you mean "ClusterRoleBinding"\?/,
    );
  });

  it('a wrong value and broken YAML', () => {
    expect(malformed((t) => t.replace('phase: Terminating', 'phase: Terminated'))).toMatch(
      /^MALFORMED edited\.yaml:22: steps\[1\]\.check\.phase: string "Terminated" is not allowed \(did you mean "Terminating"\?/,
    );
    expect(malformed((t) => t.replace('    expect: 200\n', '   expect: 200\n'))).toMatch(
      /^MALFORMED edited\.yaml:\d+: YAML: /,
    );
  });

  it('a missing file', () => {
    expect(formatReport(replayFile('scenarios/does-not-exist.yaml'))).toEqual([
      expect.stringMatching(
        /^MALFORMED scenarios\/does-not-exist\.yaml:1: no such file \(fix: check the path\)$/,
      ),
    ]);
  });
});

describe('a scenario that expects the wrong outcome fails with a clear message', () => {
  it('names the step, what was expected, what came back and why', () => {
    const edited = exampleSource.replace(
      'expect: { code: 403, reason: Forbidden, cause: NamespaceTerminating }',
      'expect: 201',
    );
    const report = replayFile('edited.yaml', edited);
    expect(report.status).toBe('failed');
    expect(report.mismatches).toBe(1);
    const text = formatReport(report).join('\n');
    for (const line of [
      '✗ 3. alice: create namespaces/team-a/configmaps/other → 403 Forbidden (NamespaceTerminating)',
      'expected: 201',
      'got:      403 Forbidden (NamespaceTerminating): configmaps "other" is forbidden: unable to create new content in namespace team-a because it is being terminated',
      'state:    team-a.phase = Terminating',
      '(edited.yaml:25)',
    ])
      expect(text).toContain(line);
    expect(text).toMatch(/FAILED: 1 mismatch$/);
  });

  it('a wrong check names the field', () => {
    const report = replayFile('edited.yaml', exampleSource.replace('exists: false', 'exists: true'));
    const text = formatReport(report).join('\n');
    expect(report.status).toBe('failed');
    expect(text).toContain('exists: expected true, got false');
  });
});

describe('request lines', () => {
  it('parse every path form', () => {
    expect(parseRequestLine('list namespaces')).toEqual({ verb: 'list', path: { kind: 'namespaces' } });
    expect(parseRequestLine('finalize namespaces/a').verb).toBe('finalize');
    // Each line's path, as the table of path forms reads it.
    const paths: [line: string, path: object][] = [
      ['finalize namespaces/a', { kind: 'namespace', name: 'a' }],
      ['update namespaces/a/finalize', { kind: 'namespace', name: 'a', subresource: 'finalize' }],
      ['get namespaces/a/status', { kind: 'namespace', name: 'a', subresource: 'status' }],
      ['list namespaces/a/pods', { kind: 'content-list', namespace: 'a', resource: 'pods' }],
      [
        'get namespaces/a/pods/p',
        { kind: 'content', namespace: 'a', resource: 'pods', name: 'p', legacy: false },
      ],
      ['list secrets', { kind: 'all-namespaces', resource: 'secrets' }],
      [
        'get secrets/s',
        { kind: 'content', namespace: 'default', resource: 'secrets', name: 's', legacy: true },
      ],
      [
        'create namespaceinitializerconfigurations/c',
        { kind: 'cluster', resource: 'namespaceinitializerconfigurations', name: 'c' },
      ],
    ];
    for (const [line, path] of paths) expect(parseRequestLine(line).path, line).toEqual(path);
  });

  it('refuse what no path can mean, with a hint', () => {
    const refusal = (line: string) => {
      try {
        parseRequestLine(line);
      } catch (error) {
        if (error instanceof RequestLineError) return `${error.message} (${error.hint})`;
      }
      return 'accepted';
    };
    expect(refusal('get namespaces/a/finalize/x')).toMatch(
      /sub-resource of namespace a, not a kind inside it \(NS-5\)/,
    );
    expect(refusal('create namespaces/a/finalize')).toMatch(/"create" does not apply/);
    expect(refusal('list namespaces/a/pods/p')).toMatch(/"list" does not apply/);
    expect(refusal('get /api/v1/namespaces/a')).toMatch(/bad path/);
    expect(refusal('watch pods')).toBe('accepted');
    expect(refusal('watch namespaces/a/pods/p')).toMatch(/"watch" does not apply/);
    expect(refusal('connect pods')).toMatch(/unknown verb "connect"/);
    expect(refusal('deletecollection namespaces/a/pods')).toBe('accepted');
    expect(refusal('deletecollection namespaces/a/pods/p')).toMatch(/"deletecollection" does not apply/);
    expect(refusal('deletecollection namespaces')).toMatch(/"deletecollection" does not apply/);
    expect(refusal('get')).toMatch(/expected "VERB PATH"/);
  });
});
