import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import type { ApiRequest, SystemState } from '../machines/system.ts';
import { stepVerdict } from '../test-support/step-verdict.ts';
import { deletecollectionWhileTerminating } from './collection.ts';
import { contentChangesOnlyByRequests } from './content-frame.ts';
import type { Property } from './types.ts';

/**
 * LC-4, LC-5: in a Terminating namespace a deletecollection is admitted and empties its resource. The
 * verdicts are asked of the model's own answers and of answers put in their place, so each clause is
 * seen to fail.
 */
const scope = scopeByName('quick');
const model = systemModel(scope);
const [initial] = model.initialStates();
const teamB = scope.namespaces.findIndex((ns) => ns.name === 'team-b');
const carol = { name: 'carol', groups: ['system:masters', 'system:authenticated'] };
const slotOf = (resource: string) => model.objects.findIndex((o) => o.resource === resource);
const deleteTeamB: ApiRequest = {
  principal: carol,
  verb: 'delete',
  target: 'namespace',
  namespace: teamB,
  object: -1,
};
const collection = (resource: string): ApiRequest => ({
  principal: carol,
  verb: 'delete',
  target: 'content',
  namespace: teamB,
  object: -1,
  resource,
  collection: true,
});

/** A property's verdict on r sent in s, answered and stored as the model does unless told otherwise. */
const judged = (
  property: Property,
  s: SystemState,
  r: ApiRequest,
  instead: Parameters<typeof stepVerdict>[4] = {},
) => stepVerdict(model, property, s, r, instead);

const terminating = model.handle(initial, deleteTeamB).state;

describe('deletecollection-while-terminating (LC-4, LC-5)', () => {
  it('holds where the model empties the collection of a terminating namespace', () => {
    expect(model.view(terminating, teamB).value).toBe('terminating');
    expect(model.view(terminating, teamB).content & (1 << slotOf('configmaps'))).not.toBe(0);
    const served = model.handle(terminating, collection('configmaps'));
    expect(served.response.code).toBe(200);
    expect(model.view(served.state, teamB).content & (1 << slotOf('configmaps'))).toBe(0);
    expect(judged(deletecollectionWhileTerminating, terminating, collection('configmaps'))).toBe(true);
  });

  it('fails on a success that leaves an object of the resource behind', () => {
    expect(
      judged(deletecollectionWhileTerminating, terminating, collection('configmaps'), { after: terminating }),
    ).toMatch(/^deletecollection of configmaps in terminating team-b answered 200 but left configmaps\/app$/);
  });

  it('fails on a refusal because the namespace terminates, and not on another refusal', () => {
    const refusedForTerminating = {
      code: 403,
      reason: 'Forbidden',
      cause: 'NamespaceTerminating',
      message: 'unable to create new content in namespace team-b because it is being terminated',
    };
    expect(
      judged(deletecollectionWhileTerminating, terminating, collection('configmaps'), {
        response: refusedForTerminating,
        after: terminating,
      }),
    ).toMatch(/was refused because the namespace terminates/);
    expect(
      judged(deletecollectionWhileTerminating, terminating, collection('configmaps'), {
        response: { code: 403, reason: 'Forbidden', message: 'forbidden' },
        after: terminating,
      }),
    ).toBe(true);
  });

  it('judges only namespaces that were Terminating before the step', () => {
    expect(
      judged(deletecollectionWhileTerminating, initial, collection('configmaps'), { after: initial }),
    ).toBe(true);
  });
});

describe('content-changes-only-by-requests lets a deletecollection remove its resource only (NS-2, LC-5)', () => {
  it('holds for the model, and fails when another resource vanishes with it', () => {
    expect(judged(contentChangesOnlyByRequests, terminating, collection('configmaps'))).toBe(true);
    const everything = model.withNamespace(terminating, teamB, { content: 0 });
    expect(
      judged(contentChangesOnlyByRequests, terminating, collection('configmaps'), { after: everything }),
    ).toMatch(/vanished from team-b without a successful DELETE of it/);
  });
});

describe('content-changes-only-by-requests: a 2xx took effect, and no body names another namespace (LC-5, NS-4)', () => {
  const configmap = slotOf('configmaps');
  const deleteConfigmap: ApiRequest = {
    principal: carol,
    verb: 'delete',
    target: 'content',
    namespace: teamB,
    object: configmap,
  };
  const elsewhere: ApiRequest = {
    principal: carol,
    verb: 'create',
    target: 'content',
    namespace: teamB,
    object: slotOf('resourcequotas'),
    body: { namespace: 'team-a' },
  };

  it('holds where the model deletes the object it was asked to', () => {
    const served = model.handle(initial, deleteConfigmap);
    expect(served.response.code).toBe(200);
    expect(model.view(served.state, teamB).content & (1 << configmap)).toBe(0);
    expect(judged(contentChangesOnlyByRequests, initial, deleteConfigmap)).toBe(true);
  });

  it('fails on a DELETE answered 200 that leaves its object stored', () => {
    expect(judged(contentChangesOnlyByRequests, initial, deleteConfigmap, { after: initial })).toMatch(
      /was answered 200, yet configmaps\/app is still stored in team-b$/,
    );
  });

  it('holds where the model refuses a body naming another namespace, and fails on a 201 for it', () => {
    const refused = model.handle(initial, elsewhere);
    expect(refused.response.code).toBe(400);
    expect(judged(contentChangesOnlyByRequests, initial, elsewhere)).toBe(true);
    const stored = model.withNamespace(initial, teamB, {
      content: model.view(initial, teamB).content | (1 << slotOf('resourcequotas')),
    });
    expect(
      judged(contentChangesOnlyByRequests, initial, elsewhere, {
        response: { code: 201, reason: 'Created', message: '' },
        after: stored,
      }),
    ).toMatch(/was answered 201, though its body names namespace team-a, not team-b$/);
  });
});
