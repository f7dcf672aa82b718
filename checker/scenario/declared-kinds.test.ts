import { describe, expect, it } from 'vitest';
import { formatReport } from './format.ts';
import { replayFile } from './replay.ts';

/**
 * Content kinds a scenario declares (given.kinds) beyond the built-in seven. What is expected is
 * Kubernetes' own: RBAC matches a rule on the request's API group and resource (APIGroupMatches,
 * ResourceMatches), so `events` in core and in events.k8s.io are granted apart; a bad declaration or a
 * path naming an undeclared kind is refused with its line, field and the fix.
 */
const scenario = (kinds: string, steps: string) => `title: declared kinds
requirements: [RB-4]
given:
  kinds:
${kinds}
  namespaces:
    - { name: team, finalizers: [kubernetes] }
  manifests:
    - apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: { name: new-events }
      rules: [{ apiGroups: [events.k8s.io], resources: [events], verbs: [get] }]
    - apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: { name: new-events }
      roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: new-events }
      subjects: [{ kind: User, apiGroup: rbac.authorization.k8s.io, name: ann }]
steps:
${steps}`;

const twoGroups = `    - { group: '', version: v1, resource: events, kind: Event }
    - { group: events.k8s.io, version: v1, resource: events, kind: Event }`;
/** Every step matched its expectation: a mismatch is listed by name rather than hidden in the status. */
/** A scenario over the two event groups whose one step gets `path`, expecting 404. */
const getOnTwoGroups = (file: string, path: string) => replayFile(file, scenario(twoGroups, get(path, 404)));

/** The scenario is refused as malformed, its first line saying where and why. */
function expectMalformed(report: ReturnType<typeof replayFile>, first: RegExp): void {
  expect(report.status).toBe('malformed');
  expect(formatReport(report)[0]).toMatch(first);
}

function expectPassed(report: ReturnType<typeof replayFile>): void {
  expect(report.steps.filter((s) => !s.ok).map((s) => s.mismatch.join(' | '))).toEqual([]);
  expect(report.status).toBe('passed');
}

/** The scenario with one more given manifest, an Event named e in team of the given apiVersion. */
const withEvent = (text: string, apiVersion: string) =>
  text.replace(
    '  manifests:\n',
    `  manifests:\n    - { apiVersion: ${apiVersion}, kind: Event, metadata: { name: e, namespace: team } }\n`,
  );

const get = (path: string, code: number) => `  - as: ann\n    do: get ${path}\n    expect: ${code}\n`;

describe('content kinds declared in a scenario', () => {
  it('a rule on events.k8s.io events grants those, not core events of the same name', () => {
    const report = replayFile(
      'ok.yaml',
      scenario(
        twoGroups,
        get('namespaces/team/events.events.k8s.io/e', 404) + get('namespaces/team/events/e', 403),
      ),
    );
    expectPassed(report);
  });

  it('a given manifest of a declared kind exists from the start, in its own group only', () => {
    const text = scenario(twoGroups, get('namespaces/team/events.events.k8s.io/e', 200));
    const report = replayFile('given.yaml', withEvent(text, 'events.k8s.io/v1'));
    expectPassed(report);
  });

  it('a given manifest of a declared Kind but an undeclared apiVersion is refused on its apiVersion', () => {
    const text = scenario(twoGroups, get('namespaces/team/events/e', 403));
    const report = replayFile('version.yaml', withEvent(text, 'events.k8s.io/v1beta1'));
    expectMalformed(
      report,
      /^MALFORMED version\.yaml:\d+: given\.manifests\[0\]\.apiVersion: no Event of apiVersion "events\.k8s\.io\/v1beta1" is declared .*declared: v1, events\.k8s\.io\/v1/,
    );
  });

  it('a group that is no DNS subdomain is refused on its line and field, with the form to use', () => {
    const report = replayFile(
      'bad.yaml',
      scenario(
        `    - { group: Events_K8s, version: v1, resource: events, kind: Event }`,
        get('namespaces/team/pods/p', 404),
      ),
    );
    expectMalformed(
      report,
      /^MALFORMED bad\.yaml:5: given\.kinds\[0\]\.group: .*lowercase DNS subdomain, like events\.k8s\.io/,
    );
  });

  it('a built-in kind declared again is refused: it needs no declaration', () => {
    const report = replayFile(
      'again.yaml',
      scenario(
        `    - { group: '', version: v1, resource: pods, kind: Pod }`,
        get('namespaces/team/pods/p', 404),
      ),
    );
    expectMalformed(
      report,
      /^MALFORMED again\.yaml:5: given\.kinds\[0\]\.resource: pods in group "" is a built-in kind .*leave it out of given\.kinds/,
    );
  });

  it('an access review declared as a kind is refused: it is never stored content (D-15)', () => {
    const report = replayFile(
      'review.yaml',
      scenario(
        `    - { group: authorization.k8s.io, version: v1, resource: localsubjectaccessreviews, kind: LocalSubjectAccessReview }`,
        get('namespaces/team/localsubjectaccessreviews.authorization.k8s.io/r', 404),
      ),
    );
    expectMalformed(
      report,
      /^MALFORMED review\.yaml:5: given\.kinds\[0\]\.resource: localsubjectaccessreviews in group "authorization\.k8s\.io" is an access review, answered and never stored.*\(D-15\) \(leave it out of given\.kinds: a declared kind is content stored in a namespace\)$/,
    );
  });

  it('a path naming an undeclared kind of a group is refused, naming the step and the declaration to add', () => {
    const report = getOnTwoGroups('undeclared.yaml', 'namespaces/team/deployments.apps/d');
    expectMalformed(
      report,
      /^MALFORMED undeclared\.yaml:\d+: steps\[0\]\.do: resource "deployments\.apps" in namespace team is not a declared kind .*declare it under given\.kinds/,
    );
  });

  it('apis/GROUP/VERSION paths name the declared kind of that group, as the short form does', () => {
    const report = replayFile(
      'apis.yaml',
      scenario(
        twoGroups,
        get('apis/events.k8s.io/v1/namespaces/team/events/e', 404) +
          get('apis/events.k8s.io/v1/namespaces/team/events', 403).replace('get ', 'list ') +
          get('namespaces/team/events/e', 403) +
          get('apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings/b', 403),
      ),
    );
    expectPassed(report);
  });

  it('an apis path of a version or group not declared is refused, naming the step and the fix', () => {
    const version = getOnTwoGroups(
      'apis-version.yaml',
      'apis/events.k8s.io/v1beta1/namespaces/team/events/e',
    );
    expectMalformed(
      version,
      /^MALFORMED apis-version\.yaml:\d+: steps\[0\]\.do: events in group "events\.k8s\.io" is served at version v1, not v1beta1 .*write apis\/events\.k8s\.io\/v1\/\.\.\./,
    );
    const group = getOnTwoGroups('apis-group.yaml', 'apis/apps/v1/namespaces/team/deployments/d');
    expectMalformed(
      group,
      /^MALFORMED apis-group\.yaml:\d+: steps\[0\]\.do: resource "deployments" in group "apps" .* is not a declared kind .*declare it under given\.kinds \(group: apps, version: v1, resource: deployments, kind\)/,
    );
  });
});
