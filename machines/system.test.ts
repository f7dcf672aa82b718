import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import { configMapList } from '../test-support/list-request.ts';
import { type ApiRequest, maxContentObjects, type SystemState } from './system.ts';

// Both configurations from the start: these tests follow one namespace through both initializers.
const loaded = scopeByName('quick');
const defaultScope = {
  ...loaded,
  configurations: loaded.configurations.map((c) => ({ ...c, registered: 'initially' as const })),
};

const model = systemModel(defaultScope);
const [initial] = model.initialStates();

const slot = (name: string) => defaultScope.namespaces.findIndex((ns) => ns.name === name);
const objectSlot = (path: string) => model.objects.findIndex((o) => `${o.resource}/${o.name}` === path);
const teamA = slot('team-a');
const teamB = slot('team-b');
const teamC = slot('Team_C');
const configmap = objectSlot('configmaps/app');
const policy = 'policy.example.com';
const quota = 'quota.example.com';

const alice = { name: 'alice', groups: ['teams@corp.com', 'system:authenticated'] };
const carol = { name: 'carol', groups: ['system:masters', 'system:authenticated'] };
const ciRobot = { name: 'ci-robot', groups: ['system:authenticated'] };

const createNamespace = (namespace: number, extraFinalizers: string[] = []): ApiRequest => ({
  principal: alice,
  verb: 'create',
  target: 'namespace',
  namespace,
  object: -1,
  body: { extraFinalizers },
});
const deleteNamespace = (namespace: number): ApiRequest => ({
  principal: carol,
  verb: 'delete',
  target: 'namespace',
  namespace,
  object: -1,
});
const createConfigmap = (namespace: number): ApiRequest => ({
  principal: ciRobot,
  verb: 'create',
  target: 'content',
  namespace,
  object: configmap,
});

/** alice creates team-a as the scope has her do it. */
const created = model.handle(initial, createNamespace(teamA, ['openshift.com/origin']));

/** The one enabled step whose actor and label match. */
const enabledStep = (s: SystemState, actor: string, label: string) => {
  const matches = model.enabled(s).filter((e) => e.event.actor === actor && e.event.label === label);
  expect(matches.map((e) => e.event.label)).toEqual([label]);
  return matches[0];
};

describe('system model: creation and initialization', () => {
  it('IN-1, IN-5, LC-2: alice creates team-a: 201, Initializing with both configured initializers pending', () => {
    expect(created.response).toEqual({ code: 201, reason: 'Created' });
    const view = model.view(created.state, teamA);
    expect(view.value).toBe('initializing');
    expect(view.pending).toEqual([policy, quota]);
    expect(view.finalizers).toEqual(['kubernetes', 'openshift.com/origin']);
    expect(view.deletedSecondsAgo).toBeNull();
    expect(view.failOpenTimer).toEqual({ initializer: policy, ageSeconds: 0 });
    expect(created.transitions).toContain(
      'admission:namespaceInitializers:always[createsNamespace]->admitted',
    );
    expect(created.transitions).toContain('namespace:absent:CREATE->initializing');
  });

  it('IN-6 (D-19): ci-robot may not create a configmap in initializing team-a: 403 NamespaceInitializing', () => {
    const result = model.handle(created.state, createConfigmap(teamA));
    expect(result.response).toMatchObject({ code: 403, reason: 'Forbidden', cause: 'NamespaceInitializing' });
    expect(result.state).toBe(created.state);
    expect(model.key(result.state)).toBe(model.key(created.state));
  });

  it('IN-2, IN-3, RB-2: the policy initializer populates team-a, then removes itself from pending', () => {
    const populate = enabledStep(
      created.state,
      policy,
      'create namespaces/team-a/rolebindings/namespace-admin',
    );
    expect(populate.event.actorKind).toBe('initializer');
    expect(populate.event.response?.code).toBe(201);
    expect(populate.event.transitions).toContain(
      'initializerController:running:RECONCILE[firstPendingAndNotPopulated]',
    );
    const populated = model.view(populate.next, teamA);
    expect(populated.content & (1 << objectSlot('rolebindings/namespace-admin'))).not.toBe(0);
    expect(populated.pending).toEqual([policy, quota]);

    const remove = enabledStep(populate.next, policy, `update namespaces/team-a (remove pending ${policy})`);
    expect(remove.event.response?.code).toBe(200);
    expect(remove.event.transitions).toContain(
      'initializerController:running:RECONCILE[firstPendingAndPopulated]',
    );
    expect(remove.event.transitions).toContain(
      'namespace:initializing:REMOVE_PENDING[removesFirstPendingInitializer]',
    );
    const after = model.view(remove.next, teamA);
    expect(after.value).toBe('initializing');
    expect(after.pending).toEqual([quota]);

    // IN-2: the quota initializer was not first, so it had nothing to do before.
    expect(
      model
        .enabled(created.state)
        .some((e) => e.event.actor === quota && e.event.actorKind === 'initializer'),
    ).toBe(false);
  });
});

describe('system model: termination', () => {
  it('LC-3 (D-10): deleting a terminating namespace again answers 200 and changes nothing', () => {
    const deleted = model.handle(created.state, deleteNamespace(teamA));
    expect(deleted.response).toEqual({ code: 200, reason: 'OK' });
    expect(model.view(deleted.state, teamA)).toMatchObject({
      value: 'terminating',
      deletedSecondsAgo: 0,
      pending: [],
      failOpenTimer: null,
    });
    const tick = enabledStep(deleted.state, 'clock', 'one second passes; configuration read succeeds');
    const again = model.handle(tick.next, deleteNamespace(teamA));
    expect(again.response).toEqual({ code: 200, reason: 'OK' });
    expect(again.transitions).toContain('namespace:terminating:DELETE');
    expect(model.key(again.state)).toBe(model.key(tick.next));
    expect(model.view(again.state, teamA).deletedSecondsAgo).toBe(1);
  });

  it('LC-4 (D-3): creating content in a terminating namespace is refused: 403 NamespaceTerminating', () => {
    const deleted = model.handle(initial, deleteNamespace(teamB));
    expect(model.view(deleted.state, teamB).value).toBe('terminating');
    const result = model.handle(deleted.state, createConfigmap(teamB));
    expect(result.response).toMatchObject({ code: 403, reason: 'Forbidden', cause: 'NamespaceTerminating' });
    expect(result.state).toBe(deleted.state);
    // The same request in the Active namespace passes admission (team-b starts with that configmap: 409).
    expect(model.handle(initial, createConfigmap(teamB)).response).toMatchObject({ code: 409 });
    const emptied = model.handle(initial, { ...createConfigmap(teamB), verb: 'delete' });
    expect(model.handle(emptied.state, createConfigmap(teamB)).response.code).toBe(201);
  });
});

describe('system model: validation and state keys', () => {
  it('NS-1 (D-1): creating `Team_C` is refused 422 Invalid and stores nothing', () => {
    const result = model.handle(initial, createNamespace(teamC));
    expect(result.response).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(result.state).toBe(initial);
    expect(model.view(result.state, teamC).value).toBe('absent');
  });

  it('equal states have equal keys, whatever the order that reached them; different states differ', () => {
    const createThenDelete = model.handle(
      model.handle(initial, createNamespace(teamA, ['openshift.com/origin'])).state,
      deleteNamespace(teamB),
    ).state;
    const deleteThenCreate = model.handle(
      model.handle(initial, deleteNamespace(teamB)).state,
      createNamespace(teamA, ['openshift.com/origin']),
    ).state;
    expect(createThenDelete).not.toBe(deleteThenCreate);
    expect(model.key(createThenDelete)).toBe(model.key(deleteThenCreate));
    expect(createThenDelete).toEqual(deleteThenCreate);
    expect(model.key(createThenDelete)).not.toBe(model.key(initial));
    expect(model.key(created.state)).not.toBe(model.key(createThenDelete));
  });
});

describe('system model: lists (NS-7, RB-6, D-15, D-19)', () => {
  const list = (principal: ApiRequest['principal'], namespace: number) => configMapList(principal, namespace);

  it('a cluster-wide grant lists every namespace; a list in a missing namespace is 200 with no items', () => {
    expect(model.handle(initial, list(carol, -1))).toMatchObject({
      response: { code: 200 },
      items: ['team-b/app'],
    });
    expect(model.handle(initial, list(carol, teamA))).toMatchObject({ response: { code: 200 }, items: [] });
  });

  it('a tenant without a grant is refused the list as a whole, never filtered', () => {
    expect(model.handle(initial, list(alice, teamB)).response).toMatchObject({ code: 403 });
    expect(model.handle(initial, list(alice, -1)).response).toMatchObject({ code: 403 });
  });

  it('D-19: a list inside an initializing namespace is refused without initialize', () => {
    expect(model.handle(created.state, list(ciRobot, teamA)).response).toMatchObject({
      code: 403,
      cause: 'NamespaceInitializing',
    });
  });
});

// RB-2 (D-34): who `$creator` names.
const bob = { name: 'bob', groups: ['teams@corp.com', 'system:authenticated'] };

const createIn = (principal: ApiRequest['principal'], target: 'namespace' | 'content'): ApiRequest => ({
  principal,
  verb: 'create',
  target,
  namespace: teamA,
  object: target === 'content' ? configmap : -1,
  ...(target === 'namespace' ? { body: { extraFinalizers: [] } } : {}),
});

/** `sender` creates team-a and both initializers run to completion. */
function createdAndInitializedBy(sender: ApiRequest['principal']): SystemState {
  const created = model.handle(initial, createIn(sender, 'namespace'));
  expect(created.response?.code).toBe(201);
  let s = enabledStep(created.state, policy, 'create namespaces/team-a/rolebindings/namespace-admin').next;
  s = enabledStep(s, policy, `update namespaces/team-a (remove pending ${policy})`).next;
  s = enabledStep(s, quota, 'create namespaces/team-a/resourcequotas/compute-quota').next;
  s = enabledStep(s, quota, `update namespaces/team-a (remove pending ${quota})`).next;
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
    expect(defaultScope.namespaces[teamA].creator).toBe('alice');
    const created = model.handle(initial, createIn(bob, 'namespace'));
    expect(model.view(created.state, teamA).creator).toBe('bob');
  });

  it("the policy initializer's namespace-admin RoleBinding names bob: he may create content, alice may not", () => {
    const s = createdAndInitializedBy(bob);
    expect(adminSubjects(s)).toEqual(['bob']);
    expect(model.handle(s, createIn(bob, 'content')).response?.code).toBe(201);
    expect(model.handle(s, createIn(alice, 'content')).response?.code).toBe(403);
  });

  it('when alice sends the create, the binding names alice and bob is refused', () => {
    const s = createdAndInitializedBy(alice);
    expect(adminSubjects(s)).toEqual(['alice']);
    expect(model.handle(s, createIn(alice, 'content')).response?.code).toBe(201);
    expect(model.handle(s, createIn(bob, 'content')).response?.code).toBe(403);
  });

  it('a namespace that exists from the start was created by its declared creator', () => {
    expect(model.view(initial, teamB).creator).toBe('bob');
    expect(model.view(initial, slot('default')).creator).toBeNull();
  });
});

describe('system model: scope limits', () => {
  it('NS-3: a scope with more content objects than the content mask holds is refused, naming the scope', () => {
    const content = Array.from({ length: maxContentObjects + 1 }, (_, k) => ({
      resource: 'configmaps',
      name: `cm-${k}`,
    }));
    expect(() => systemModel({ ...defaultScope, name: 'crowded', content })).toThrow(
      /^scope crowded: 3\d content objects .*the content mask holds 31/,
    );
  });
});
