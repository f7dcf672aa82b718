import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/scope-file.ts';
import { type ApiRequest, SystemModel, type SystemState } from './system.ts';

// Both configurations from the start, so the policy initializer populates every namespace created.
const loaded = scopeByName('default');
const scope = {
  ...loaded,
  configurations: loaded.configurations.map((c) => ({ ...c, registered: 'initially' as const })),
};
const model = new SystemModel(scope);
const [initial] = model.initialStates();

const teamA = scope.namespaces.findIndex((ns) => ns.name === 'team-a');
const configmap = model.objects.findIndex((o) => `${o.resource}/${o.name}` === 'configmaps/app');
const tenants = ['teams@corp.com', 'system:authenticated'];
const alice = { name: 'alice', groups: tenants };
const bob = { name: 'bob', groups: tenants };
const policy = 'policy.example.com';
const quota = 'quota.example.com';

const request = (principal: ApiRequest['principal'], target: 'namespace' | 'content'): ApiRequest => ({
  principal,
  verb: 'create',
  target,
  namespace: teamA,
  object: target === 'content' ? configmap : -1,
  ...(target === 'namespace' ? { body: { extraFinalizers: [] } } : {}),
});

/** The one enabled step of this actor with this label, taken. */
const take = (s: SystemState, actor: string, label: string): SystemState => {
  const matches = model.enabled(s).filter((e) => e.event.actor === actor && e.event.label === label);
  expect(matches.map((e) => e.event.label)).toEqual([label]);
  return matches[0].next;
};

/** `sender` creates team-a and both initializers run to completion. */
function createdAndInitializedBy(sender: ApiRequest['principal']): SystemState {
  const created = model.handle(initial, request(sender, 'namespace'));
  expect(created.response?.code).toBe(201);
  let s = take(created.state, policy, 'create namespaces/team-a/rolebindings/namespace-admin');
  s = take(s, policy, `update namespaces/team-a (remove pending ${policy})`);
  s = take(s, quota, 'create namespaces/team-a/resourcequotas/compute-quota');
  s = take(s, quota, `update namespaces/team-a (remove pending ${quota})`);
  expect(model.view(s, teamA).value).toBe('active');
  return s;
}

const adminSubjects = (s: SystemState) =>
  model.authorizer
    .policyAt(s)
    .roleBindings.filter((b) => b.metadata.namespace === 'team-a' && b.metadata.name === 'namespace-admin')
    .flatMap((b) => b.subjects?.map((subject) => subject.name) ?? []);

describe('$creator is who sent the create (RB-2, D-34)', () => {
  it('bob, not the declared creator alice, creates team-a: the namespace records bob', () => {
    expect(scope.namespaces[teamA].creator).toBe('alice');
    const created = model.handle(initial, request(bob, 'namespace'));
    expect(model.view(created.state, teamA).creator).toBe('bob');
  });

  it("the policy initializer's namespace-admin RoleBinding names bob: he may create content, alice may not", () => {
    const s = createdAndInitializedBy(bob);
    expect(adminSubjects(s)).toEqual(['bob']);
    expect(model.handle(s, request(bob, 'content')).response?.code).toBe(201);
    expect(model.handle(s, request(alice, 'content')).response?.code).toBe(403);
  });

  it('when alice sends the create, the binding names alice and bob is refused', () => {
    const s = createdAndInitializedBy(alice);
    expect(adminSubjects(s)).toEqual(['alice']);
    expect(model.handle(s, request(alice, 'content')).response?.code).toBe(201);
    expect(model.handle(s, request(bob, 'content')).response?.code).toBe(403);
  });

  it('a namespace that exists from the start was created by its declared creator', () => {
    const teamB = scope.namespaces.findIndex((ns) => ns.name === 'team-b');
    expect(model.view(initial, teamB).creator).toBe('bob');
    expect(
      model.view(
        initial,
        scope.namespaces.findIndex((ns) => ns.name === 'default'),
      ).creator,
    ).toBeNull();
  });
});
