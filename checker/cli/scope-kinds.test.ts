import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScope } from './scope-file.ts';
import { documentToScope, scopeToDocument } from './scope-yaml.ts';

/**
 * A scope's `kinds:` (checker/cli/scope-format.ts): content kinds beyond the built-in seven, by group,
 * version and resource, with the objects of each. What is expected is what the declaration says: a kind
 * of another group is the slot resource RESOURCE.GROUP with its Kind, a core one plain RESOURCE; a bad
 * group or a built-in declared again is refused naming the line, the field and the fix.
 */
const base = readFileSync('scopes/declared-kinds.yaml', 'utf8');
const withKinds = (kinds: string) =>
  base.replace(/^kinds:\n(?: {2}.*\n)+/m, `kinds:\n${kinds}`).replace('name: declared-kinds', 'name: probe');

describe('kinds declared in a scope', () => {
  it('each object of a declared kind is a content slot named by the group-qualified resource', () => {
    const scope = parseScope(base, 'declared-kinds.yaml');
    const declared = scope.content.filter((o) => o.kind !== undefined);
    expect(declared).toEqual([
      { resource: 'events', name: 'deploy-started', kind: 'Event' },
      { resource: 'events.events.k8s.io', name: 'deploy-started', kind: 'Event' },
    ]);
  });

  it('survives the way back to a scope document unchanged', () => {
    const scope = parseScope(base, 'declared-kinds.yaml');
    const again = documentToScope(scopeToDocument(scope));
    expect('scope' in again ? again.scope : again).toEqual(scope);
  });

  it('a group that is no DNS subdomain is refused on its line, with the form to use', () => {
    const text = withKinds(
      '  - { group: Events_K8s, version: v1, resource: events, kind: Event, objects: [e] }\n',
    );
    expect(() => parseScope(text, 'probe.yaml')).toThrow(
      /probe\.yaml:\d+: kinds\[0\]\.group: .*lowercase DNS subdomain, like events\.k8s\.io/,
    );
  });

  it('an access review declared as a kind is refused: it is never stored content (D-15)', () => {
    const text = withKinds(
      '  - { group: authorization.k8s.io, version: v1, resource: localsubjectaccessreviews, kind: LocalSubjectAccessReview, objects: [r] }\n',
    );
    expect(() => parseScope(text, 'probe.yaml')).toThrow(
      /probe\.yaml:\d+: kinds\[0\]\.resource: localsubjectaccessreviews in group "authorization\.k8s\.io" is an access review.*\(D-15\).*leave it out of kinds/,
    );
  });

  it('a built-in kind declared again is refused: its objects go under content', () => {
    const text = withKinds(
      '  - { group: networking.k8s.io, version: v1, resource: networkpolicies, kind: NetworkPolicy, objects: [p] }\n',
    );
    expect(() => parseScope(text, 'probe.yaml')).toThrow(
      /probe\.yaml:\d+: kinds\[0\]\.resource: networkpolicies in group "networking\.k8s\.io" is a built-in kind.*list its objects under content/,
    );
  });
});
