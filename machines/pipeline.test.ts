import { describe, expect, it } from 'vitest';
import { pipelineFacts } from '../test-support/pipeline-facts.ts';
import type { AdmissionVerdict } from './admission.ts';
import type { HttpOutcome, RequestSubject } from './http.ts';
import {
  type PipelineFacts,
  type PipelineOutcome,
  pipelineMachine,
  type RequestRefusal,
  requestResponse,
  responseFor,
} from './pipeline.ts';
import { listTransitions, MachineStepper } from './stepper.ts';

const facts = pipelineFacts;

const stepper = new MachineStepper(pipelineMachine);
const serve = (overrides: Partial<PipelineFacts> = {}) => {
  const step = stepper.step(stepper.initial, { type: 'SERVE', facts: facts(overrides) });
  return {
    outcome: stepper.snapshot(step.next).context.outcome as PipelineOutcome,
    transitions: step.transitions,
  };
};
const refusal = (overrides: Partial<PipelineFacts>) => {
  const { outcome } = serve(overrides);
  return outcome.kind === 'refused' ? outcome.refusal : `served ${outcome.effect}`;
};
const effect = (overrides: Partial<PipelineFacts>) => {
  const { outcome } = serve(overrides);
  return outcome.kind === 'served' ? `${outcome.code} ${outcome.effect}` : outcome.refusal;
};
const refusedByAdmission = (r: Extract<AdmissionVerdict, { kind: 'refused' }>['refusal']) => ({
  admission: { kind: 'refused', refusal: r } as AdmissionVerdict,
});
const namespaceRequest = { target: 'namespace' as const };

describe('request pipeline: the order of checks (docs/decisions.md)', () => {
  it('RB-4, RB-5, RB-6, NS-7: RBAC answers first, whatever else is wrong', () => {
    expect(
      refusal({
        authorized: false,
        namespaceInitialized: false,
        bodyNamespaceMatchesPath: false,
        ...refusedByAdmission('refuseNamespaceNotFound'),
      }),
    ).toBe('refuseForbidden');
  });

  it('IN-6 (D-19): then the gate on content of a namespace never initialized, for every verb, whatever its phase', () => {
    for (const operation of ['get', 'list', 'create', 'update', 'delete'] as const)
      expect(refusal({ operation, namespaceInitialized: false })).toBe('refuseNamespaceInitializing');
    expect(refusal({ namespaceInitialized: false, namespaceTerminating: true, operation: 'create' })).toBe(
      'refuseNamespaceInitializing',
    );
    expect(effect({ namespaceInitialized: false, callerMayInitialize: true })).toBe('200 readContent');
    // The namespace object itself is not gated (D-5).
    expect(effect({ ...namespaceRequest, namespaceInitialized: false })).toBe('200 readNamespace');
  });

  // A body that disagrees with its path is refused before admission, which would refuse it too.
  const admissionRefuses = refusedByAdmission('refuseConfigurationUnavailable');
  it.each<[string, Partial<PipelineFacts>, string]>([
    [
      'NS-4 (D-14): then a body whose namespace differs from the path: 400, before admission',
      { bodyNamespaceMatchesPath: false },
      'refuseNamespaceMismatch',
    ],
    [
      'NS-4 (D-38): a body whose name differs from the path is refused first, as shipped checkName does',
      { operation: 'update', bodyNameMatchesPath: false, bodyNamespaceMatchesPath: false },
      'refuseNameMismatch',
    ],
  ])('%s', (_title, body, first) => {
    expect(refusal({ ...body, ...admissionRefuses })).toBe(first);
  });

  it('NS-4: a body that does not decode (a Secret data value not base64) is 400 after authorization, before the name check and admission', () => {
    const create = { operation: 'create' as const, contentPresent: false };
    expect(refusal({ ...create, bodyDecodable: false, authorized: false })).toBe('refuseForbidden');
    expect(
      refusal({
        ...create,
        bodyDecodable: false,
        bodyNameMatchesPath: false,
        ...refusedByAdmission('refuseNamespaceTerminating'),
      }),
    ).toBe('refuseUndecodableBody');
  });

  it("NS-1: a Secret's or ConfigMap's data that validation refuses is 422 after admission, after the metadata's 422, before AlreadyExists", () => {
    const create = { operation: 'create' as const, dataValid: false };
    expect(refusal({ ...create, ...refusedByAdmission('refuseNamespaceTerminating') })).toBe(
      'refuseNamespaceTerminating',
    );
    expect(refusal({ ...create, objectValid: false })).toBe('contentInvalid');
    expect(refusal({ ...create, contentPresent: true })).toBe('refuseInvalidData');
    expect(refusal({ ...create, contentPresent: false })).toBe('refuseInvalidData');
    expect(refusal({ operation: 'create', contentPresent: true })).toBe('contentAlreadyExists');
  });

  it('AC-2, NS-2, LC-4, LC-10, IN-3: then admission, whose refusal the pipeline passes on as it is', () => {
    expect(refusal(refusedByAdmission('refuseNamespaceTerminating'))).toBe('refuseNamespaceTerminating');
    expect(refusal({ ...refusedByAdmission('refuseNamespaceNotFound'), objectValid: false })).toBe(
      'refuseNamespaceNotFound',
    );
  });

  it('NS-1, LC-2: then storage validation (422), before storage itself', () => {
    expect(
      refusal({ ...namespaceRequest, operation: 'create', objectValid: false, namespaceExists: false }),
    ).toBe('namespaceNameInvalid');
    expect(refusal({ ...namespaceRequest, operation: 'finalize', objectValid: false })).toBe(
      'finalizerNamesInvalid',
    );
  });

  it("RB-4, RB-5 (D-23): a Role or RoleBinding write beyond its author's permissions is 403, a missing role 404, before validation", () => {
    const write = { operation: 'create' as const, contentPresent: false, objectValid: false };
    expect(refusal({ ...write, escalation: 'forbidden' })).toBe('escalationForbidden');
    expect(refusal({ ...write, escalation: 'roleNotFound' })).toBe('roleRefNotFound');
    expect(refusal({ ...write, escalation: 'allowed' })).toBe('contentInvalid');
    expect(
      refusal({
        ...write,
        escalation: 'forbidden',
        ...refusedByAdmission('refuseNamespaceNotFound'),
      }),
    ).toBe('refuseNamespaceNotFound');
  });

  it('AC-1: an admitted, valid request reaches storage through every stage, in order', () => {
    const { transitions } = serve({});
    expect(transitions.map((t) => t.split(':')[1])).toEqual([
      'waiting',
      'authorizing',
      'decoding',
      'admitting',
      'validating',
      'storing',
      'content',
    ]);
  });
});

describe('request pipeline: storage of namespaces', () => {
  const ns = (overrides: Partial<PipelineFacts>) => ({ ...namespaceRequest, ...overrides });

  it('LC-1, IN-1, NS-3: create answers 201 with the pending list admission chose; an existing name 409', () => {
    const { outcome } = serve(
      ns({
        operation: 'create',
        namespaceExists: false,
        namespaceMachine: 'accepts',
        admission: { kind: 'admitted', pending: 'inject' },
      }),
    );
    expect(outcome).toEqual({ kind: 'served', code: 201, effect: 'createNamespace', pending: 'inject' });
    expect(refusal(ns({ operation: 'create' }))).toBe('namespaceAlreadyExists');
    // D-45: a taken generated name is try-again, a taken chosen one AlreadyExists; a free one is created.
    expect(refusal(ns({ operation: 'create', generatedName: true }))).toBe('generatedNameTaken');
    expect(effect(ns({ operation: 'create', generatedName: true, namespaceExists: false }))).toBe(
      '201 createNamespace',
    );
  });

  it('NS-7, NS-2: a list of namespaces is served; any other request for a missing one is 404', () => {
    expect(effect(ns({ operation: 'list', namespaceExists: false }))).toBe('200 listNamespaces');
    expect(refusal(ns({ operation: 'delete', namespaceExists: false }))).toBe('namespaceNotFound');
  });

  it('LC-3, LC-5 (D-46): an unmet DELETE precondition is 409 after the 404 and before the delete itself', () => {
    const del = { operation: 'delete' as const, preconditionUnmet: 'uid' as const };
    // A namespace: after the existence check, before the deletion timestamp and D-10's finalizer check.
    expect(refusal(ns({ ...del, namespaceExists: false }))).toBe('namespaceNotFound');
    expect(refusal(ns({ ...del, namespaceMachine: 'accepts' }))).toBe('namespacePreconditionFailed');
    expect(refusal(ns({ ...del, preconditionUnmet: 'resourceVersion', namespaceTerminating: true }))).toBe(
      'namespacePreconditionFailed',
    );
    expect(effect(ns({ operation: 'delete', namespaceMachine: 'accepts' }))).toBe('200 deleteNamespace');
    // Content: absent is 404 first; present, the precondition refuses the delete and only the delete.
    expect(refusal({ ...del, contentPresent: false })).toBe('contentNotFound');
    expect(refusal(del)).toBe('contentPreconditionFailed');
    expect(effect({ operation: 'delete' })).toBe('200 deleteContent');
    expect(effect({ operation: 'get', preconditionUnmet: 'uid' })).toBe('200 readContent');
  });

  it('D-46: the 409 names the field and the value sent, as each store words it', () => {
    const uid = { field: 'UID' as const, sent: 'u-1' };
    expect(
      responseFor('namespacePreconditionFailed', {
        resource: 'namespaces',
        name: 'team-a',
        namespace: '',
        precondition: uid,
      }),
    ).toEqual({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on namespaces "team-a": Precondition failed: UID in precondition: u-1, UID in object meta: <the stored object\'s UID>',
    });
    expect(
      responseFor('contentPreconditionFailed', {
        resource: 'rolebindings',
        name: 'b',
        namespace: 'team-a',
        kind: 'RoleBinding.rbac.authorization.k8s.io',
        precondition: { field: 'ResourceVersion', sent: '9' },
      }).message,
    ).toBe(
      'Operation cannot be fulfilled on RoleBinding.rbac.authorization.k8s.io "b": the ResourceVersion in the precondition (9) does not match the ResourceVersion in record (<the stored object\'s ResourceVersion>). The object might have been modified',
    );
  });

  it('NS-5, IN-5 (D-16): the status sub-resource is read and written, never changing the spec', () => {
    expect(effect(ns({ status: true }))).toBe('200 readStatus');
    expect(effect(ns({ status: true, operation: 'update' }))).toBe('200 writeStatus');
  });

  it('IN-8, FP-4: a GET of the namespace is served (with read-repair)', () => {
    expect(effect(ns({}))).toBe('200 readNamespace');
  });

  it('LC-3, LC-7 (D-10): DELETE starts termination; again changes nothing, or purges once no finalizer is left', () => {
    expect(effect(ns({ operation: 'delete', namespaceMachine: 'accepts' }))).toBe('200 deleteNamespace');
    expect(effect(ns({ operation: 'delete', namespaceTerminating: true, namespaceMachine: 'ignores' }))).toBe(
      '200 keepTerminating',
    );
    expect(effect(ns({ operation: 'delete', namespaceTerminating: true, namespaceMachine: 'accepts' }))).toBe(
      '200 purgeNamespace',
    );
  });

  it('IN-2, IN-4 (D-18): an initializer change storage ignores gets the 422 that says why', () => {
    const update = ns({ operation: 'update', changesInitializers: true, namespaceMachine: 'ignores' });
    expect(refusal({ ...update, initializerChange: 'notFirst' })).toBe('pendingNotFirst');
    expect(refusal({ ...update, initializerChange: 'completed' })).toBe('initializersImmutable');
    expect(effect({ ...update, namespaceMachine: 'accepts' })).toBe('200 removePending');
  });

  it('IN-7: a failure result is stored while initializing, refused after', () => {
    const failure = ns({ operation: 'update', changesInitializers: true, recordsFailure: true });
    expect(effect({ ...failure, namespaceMachine: 'accepts' })).toBe('200 recordFailure');
    expect(refusal({ ...failure, namespaceMachine: 'ignores' })).toBe('failureWhileNotInitializing');
  });

  it('LC-6 (D-12): an ordinary update keeps the spec; finalize may only remove while deleting', () => {
    expect(effect(ns({ operation: 'update' }))).toBe('200 keepSpec');
    expect(effect(ns({ operation: 'finalize', namespaceMachine: 'accepts' }))).toBe('200 finalize');
    expect(refusal(ns({ operation: 'finalize', namespaceMachine: 'ignores' }))).toBe(
      'finalizerAddedWhileDeleting',
    );
  });
});

describe('request pipeline: storage of content', () => {
  it('NS-3, LC-5, NS-2: create, delete and read by presence; lists are served (IN-6 filters them)', () => {
    expect(effect({ operation: 'create', contentPresent: false })).toBe('201 createContent');
    expect(refusal({ operation: 'create' })).toBe('contentAlreadyExists');
    expect(effect({ operation: 'delete' })).toBe('200 deleteContent');
    expect(refusal({ operation: 'delete', contentPresent: false })).toBe('contentNotFound');
    expect(effect({})).toBe('200 readContent');
    expect(effect({ operation: 'list', contentPresent: false })).toBe('200 listContent');
  });

  it('LC-5: a deletecollection is served whatever it finds, in a terminating namespace too, never uninitialized content without initialize', () => {
    expect(effect({ operation: 'delete', collection: true, contentPresent: false })).toBe(
      '200 deleteCollection',
    );
    expect(
      effect({
        operation: 'delete',
        collection: true,
        contentPresent: false,
        namespaceTerminating: true,
        namespaceInitialized: false,
      }),
    ).toBe('200 deleteCollection');
    expect(
      refusal({ operation: 'delete', collection: true, contentPresent: false, namespaceInitialized: false }),
    ).toBe('refuseNamespaceInitializing');
    expect(refusal({ operation: 'delete', collection: true, authorized: false })).toBe('refuseForbidden');
  });
});

describe('request pipeline: storage of configurations', () => {
  const cfg = (overrides: Partial<PipelineFacts> = {}) =>
    ({ target: 'configuration', namespaceExists: false, contentPresent: false, ...overrides }) as const;
  it('AC-3, FP-3, NS-3: created once (409 after), read, updated and deleted while stored, 404 when not', () => {
    expect(effect(cfg({ operation: 'create' }))).toBe('201 createConfiguration');
    expect(refusal(cfg({ operation: 'create', configurationExists: true }))).toBe(
      'configurationAlreadyExists',
    );
    expect(effect(cfg({ operation: 'get', configurationExists: true }))).toBe('200 readConfiguration');
    expect(effect(cfg({ operation: 'update', configurationExists: true }))).toBe('200 updateConfiguration');
    expect(effect(cfg({ operation: 'delete', configurationExists: true }))).toBe('200 deleteConfiguration');
    for (const operation of ['get', 'update', 'delete'] as const)
      expect(refusal(cfg({ operation }))).toBe('configurationNotFound');
  });

  it('FP-3, AC-4, AC-5: an invalid configuration is 422 before storage; RBAC and admission come first', () => {
    expect(refusal(cfg({ operation: 'create', objectValid: false }))).toBe('configurationInvalid');
    expect(refusal(cfg({ operation: 'create', objectValid: false, authorized: false }))).toBe(
      'refuseForbidden',
    );
    expect(
      refusal(
        cfg({
          operation: 'update',
          objectValid: false,
          admission: { kind: 'refused', refusal: 'refuseConfigurationUnavailable' },
        }),
      ),
    ).toBe('refuseConfigurationUnavailable');
  });
});

describe('request pipeline: every requirement it claims is exercised above', () => {
  it('claims only the IDs these tests name', () => {
    const claimed = new Set(listTransitions(pipelineMachine).flatMap((t) => t.requirements));
    const named = [
      ...'RB-4 RB-5 RB-6 NS-7 IN-6 NS-4 AC-2 NS-2 LC-4 LC-10 IN-3 NS-1 LC-2 AC-1 LC-1 IN-1 NS-3 NS-5 IN-5 IN-8 FP-4 LC-3 LC-7 IN-2 IN-4 IN-7 LC-6 LC-5 FP-3 AC-3 AC-4 AC-5'.split(
        ' ',
      ),
    ];
    expect([...claimed].filter((id) => !named.includes(id))).toEqual([]);
  });
});

describe('responses on the wire', () => {
  const subject: RequestSubject = {
    resource: 'configmaps',
    name: 'app',
    namespace: 'team-b',
    verb: 'get',
    user: 'alice',
  };

  it('RB-4 (D-16): a denial reads as shipped forbiddenMessage, the name only before "is forbidden"', () => {
    expect(responseFor('refuseForbidden', subject).message).toBe(
      'configmaps "app" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "team-b"',
    );
    expect(responseFor('refuseForbidden', { ...subject, verb: 'list', name: '' }).message).toBe(
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "team-b"',
    );
    expect(
      responseFor('refuseForbidden', {
        ...subject,
        resource: 'namespaces',
        name: 'x',
        namespace: 'x',
        verb: 'create',
      }).message,
    ).toBe(
      'namespaces is forbidden: User "alice" cannot create resource "namespaces" in API group "" at the cluster scope',
    );
  });

  it('IN-6 (D-19), NS-4 (D-14): the pipeline’s own refusals', () => {
    expect(responseFor('refuseNamespaceInitializing', subject)).toEqual({
      code: 403,
      reason: 'Forbidden',
      cause: 'NamespaceInitializing',
      message:
        'configmaps "app" is forbidden: unable to access content in namespace team-b because it is being initialized',
    });
    expect(responseFor('refuseNamespaceMismatch', subject)).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
    expect(responseFor('refuseNameMismatch', { ...subject, bodyName: 'other' })).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'the name of the object (other) does not match the name on the URL (app)',
    });
  });

  it('NS-3 (D-15): outside the core group the resource is qualified with its group', () => {
    expect(
      responseFor('contentAlreadyExists', {
        ...subject,
        resource: 'rolebindings',
        group: 'rbac.authorization.k8s.io',
      }).message,
    ).toBe('rolebindings.rbac.authorization.k8s.io "app" already exists');
  });

  it('every refusal has a response with an error status; a missing one is a type error', () => {
    for (const r of Object.keys(requestResponse) as RequestRefusal[])
      expect(responseFor(r, subject).code, r).toBeGreaterThanOrEqual(400);
    // @ts-expect-error every RequestRefusal needs its response
    const incomplete: Record<RequestRefusal, (a: RequestSubject) => HttpOutcome> = {
      refuseForbidden: requestResponse.refuseForbidden,
    };
    expect(Object.keys(incomplete)).toEqual(['refuseForbidden']);
  });
});
