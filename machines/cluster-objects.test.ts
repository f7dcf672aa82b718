import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import { contentChangesOnlyByRequests } from '../properties/content-frame.ts';
import { stepVerdict } from '../test-support/step-verdict.ts';
import type { ApiRequest, SystemState } from './system.ts';

/**
 * ClusterRoles and ClusterRoleBindings as requests (D-23), on the scope `cluster-rbac`: the expected
 * answers are written out from D-23 and the scope's manifests (the RBAC manager holds configmap reads,
 * create/update/delete on both kinds and `bind` on `view`), never computed by the code under test.
 */
const manager = { name: 'rbac-manager', groups: ['system:authenticated'] };
const labeller = { name: 'labeller', groups: ['system:authenticated'] };
/** The labeller's list of ConfigMaps in a namespace: what a ClusterRoleBinding to it grants or not. */
const labellerListIn = (namespace: number): ApiRequest => ({
  principal: labeller,
  verb: 'list',
  target: 'content',
  namespace,
  object: -1,
  resource: 'configmaps',
});

describe('a scope without cluster objects', () => {
  it('keeps them out of its states and keys', () => {
    const model = systemModel(scopeByName('quick'));
    const [initial] = model.initialStates();
    expect('clusterObjects' in initial).toBe(false);
    // One key lane per global field, namespace and initializer controller (quick: 3 + 6 + 3).
    expect(model.key(initial)).toHaveLength(12);
  });
});

describe('cluster objects through the pipeline', () => {
  const model = systemModel(scopeByName('cluster-rbac'));
  const [initial] = model.initialStates();
  const slot = (name: string) => (model.scope.clusterObjects ?? []).findIndex((o) => o.name === name);
  const send = (s: SystemState, principal: ApiRequest['principal'], verb: ApiRequest['verb'], name: string) =>
    model.handle(s, { principal, verb, target: 'cluster-object', namespace: -1, object: slot(name) });
  const team = model.scope.namespaces.findIndex((ns) => ns.name === 'team-b');

  it('starts with none stored and lengthens the key by one lane', () => {
    expect(initial.clusterObjects).toBe(0);
    expect(model.key(initial)).toHaveLength(13);
  });

  it('stores a ClusterRole whose rules its author holds, once (409 the second time)', () => {
    const created = send(initial, manager, 'create', 'configmap-reader');
    expect(created.response.code).toBe(201);
    expect(created.state.clusterObjects).toBe(1 << slot('configmap-reader'));
    const again = send(created.state, manager, 'create', 'configmap-reader');
    expect(again.response.code).toBe(409);
    const deleted = send(created.state, manager, 'delete', 'configmap-reader');
    expect(deleted.response.code).toBe(200);
    expect(deleted.state.clusterObjects).toBe(0);
    expect(send(initial, manager, 'delete', 'configmap-reader').response.code).toBe(404);
  });

  it('refuses a ClusterRole granting a rule its author lacks, naming the rule (403)', () => {
    const refused = send(initial, manager, 'create', 'secret-reader');
    expect(refused.response.code).toBe(403);
    expect(refused.response.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "secret-reader" is forbidden: user "rbac-manager" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
    expect(refused.state).toBe(initial);
  });

  it('refuses a cluster-admin binding for its author, and lets it bind view', () => {
    expect(send(initial, manager, 'create', 'rbac-manager-cluster-admin').response.code).toBe(403);
    expect(send(initial, manager, 'create', 'labeller-view').response.code).toBe(201);
  });

  it('forbids a user no ClusterRoleBinding lets write them', () => {
    expect(send(initial, labeller, 'create', 'configmap-reader').response.code).toBe(403);
  });

  it('has RBAC decide on the bindings stored: the labeller reads only while view is bound', () => {
    const get = labellerListIn(team);
    expect(model.handle(initial, get).response.code).toBe(403);
    const bound = send(initial, manager, 'create', 'labeller-view').state;
    expect(model.handle(bound, get).response.code).toBe(200);
    const unbound = send(bound, manager, 'delete', 'labeller-view').state;
    expect(model.handle(unbound, get).response.code).toBe(403);
  });
});

describe('versions of one cluster object: an update stores the one it sends (D-23)', () => {
  const base = scopeByName('cluster-rbac');
  const reader = (verbs: string[], extra: { resources: string[]; verbs: string[] }[] = []) => ({
    kind: 'ClusterRole' as const,
    name: 'reader',
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs },
      ...extra.map((r) => ({ apiGroups: [''], ...r })),
    ],
  });
  const binding = (clusterRole: string, subject: string) => ({
    kind: 'ClusterRoleBinding' as const,
    name: 'labeller-reads',
    clusterRole,
    subjects: [{ kind: 'User' as const, name: subject }],
  });
  // Slots: 0-2 three versions of the ClusterRole reader, 3-4 two of one binding with different roleRefs.
  const model = systemModel({
    ...base,
    clusterObjects: [
      reader(['get', 'list']),
      reader(['get'], [{ resources: ['secrets'], verbs: ['get'] }]),
      reader(['get']),
      binding('reader', 'labeller'),
      binding('view', 'labeller'),
    ],
  });
  const [initial] = model.initialStates();
  const send = (s: SystemState, verb: ApiRequest['verb'], slot: number, principal = manager) =>
    model.handle(s, { principal, verb, target: 'cluster-object', namespace: -1, object: slot });
  const team = model.scope.namespaces.findIndex((ns) => ns.name === 'team-b');
  const labellerList = (s: SystemState) => model.handle(s, labellerListIn(team)).response.code;

  it('replaces the stored version, refuses a create while any is stored, and deletes whichever is stored', () => {
    expect(send(initial, 'update', 2).response.code).toBe(404);
    const created = send(initial, 'create', 0).state;
    expect(created.clusterObjects).toBe(0b1);
    expect(send(created, 'create', 2).response.code).toBe(409);
    const updated = send(created, 'update', 2);
    expect(updated.response.code).toBe(200);
    expect(updated.state.clusterObjects).toBe(0b100);
    const deleted = send(updated.state, 'delete', 0);
    expect(deleted.response.code).toBe(200);
    expect(deleted.state.clusterObjects).toBe(0);
  });

  it('keeps content-changes-only-by-requests on versions, which fails on an update that stores another', () => {
    const update = {
      principal: manager,
      verb: 'update',
      target: 'cluster-object',
      namespace: -1,
      object: 2,
    } as const;
    const created = send(initial, 'create', 0).state;
    const updated = send(created, 'update', 2).state;
    const verdict = (s: SystemState, r: ApiRequest, after?: SystemState) =>
      stepVerdict(model, contentChangesOnlyByRequests, s, r, after ? { after } : {});
    expect(verdict(created, update)).toBe(true);
    // A DELETE of the name removes whichever version is stored.
    expect(verdict(updated, { ...update, verb: 'delete', object: 0 })).toBe(true);
    // Answered 200, yet the old version kept, or a version not sent stored.
    expect(verdict(created, update, created)).toMatch(/not stored as sent/);
    expect(verdict(created, update, { ...created, clusterObjects: 0b10 })).toMatch(/not stored as sent/);
    // A read that changes the stored version.
    expect(verdict(created, { ...update, verb: 'get' }, updated)).toMatch(
      /changed version without a successful update/,
    );
  });

  it('refuses a rule change granting what its author lacks (403) and keeps the stored rules', () => {
    const created = send(initial, 'create', 0).state;
    const refused = send(created, 'update', 1);
    expect(refused.response.code).toBe(403);
    expect(refused.state).toBe(created);
  });

  it('grants the new rules at once: the labeller lists configmaps only while reader says list', () => {
    const bound = send(send(initial, 'create', 0).state, 'create', 3).state;
    expect(labellerList(bound)).toBe(200);
    expect(labellerList(send(bound, 'update', 2).state)).toBe(403);
  });

  it("never changes a ClusterRoleBinding's roleRef (422, after the escalation check passes on view)", () => {
    const bound = send(send(initial, 'create', 0).state, 'create', 3).state;
    const changed = send(bound, 'update', 4);
    expect(changed.response.code).toBe(422);
    expect(changed.response.message).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "labeller-reads" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"}: cannot change roleRef',
    );
    expect(changed.state).toBe(bound);
  });
});
