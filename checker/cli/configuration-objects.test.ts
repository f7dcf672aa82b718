import { describe, expect, it } from 'vitest';
import type { Scope } from '../../machines/scope.ts';
import { goalProperties } from '../../properties/goals.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { check } from '../judging/check.ts';
import { systemModel } from '../model/system-model.ts';
import { scopeByName } from './scope-file.ts';

const quickScope = scopeByName('quick');

/**
 * Configurations as objects in the system state (D-32): a cluster admin makes `10-policy`'s initializer
 * fail-closed (FP-3), deletes and re-creates `20-quota`, and creates `30-logging` while alice's
 * namespace initializes; every property is judged over the whole search.
 */
const configuration = (name: string) => {
  const found = quickScope.configurations.find((c) => c.name === name);
  if (!found) throw new Error(`the quick scope has no configuration ${name}`);
  return found;
};
// By name: the scope lists them out of name order on purpose (D-21).
const policy = configuration('10-policy');
const quota = configuration('20-quota');
const logging = {
  ...quota.initializers[0],
  name: 'logging.example.com',
  failurePolicy: 'Ignore' as const,
  populates: { resource: 'configmaps', name: 'logging' },
};
const scope: Scope = {
  ...quickScope,
  name: 'configuration-objects',
  namespaces: [quickScope.namespaces[0]],
  principals: quickScope.principals
    .filter((p) => p.name === 'alice')
    .map((p) => ({ ...p, namespaces: ['team-a'], requests: ['create-namespace', 'get-namespace'] })),
  configurations: [
    {
      ...policy,
      registered: 'initially',
      updates: [{ initializers: [{ ...policy.initializers[0], failurePolicy: 'Fail' }] }],
    },
    // Created fail-open, so that re-creating it after a delete passes D-7's validation.
    {
      ...quota,
      registered: 'initially',
      initializers: [{ ...quota.initializers[0], failurePolicy: 'Ignore' }],
      deletable: true,
    },
    { name: '30-logging', initializers: [logging], registered: 'later' },
  ],
  // No faults: time passing while an initializer has not acted is enough for its timer to fire.
  faults: { initializerCrash: false, configReadFailure: false, apiserverRestart: false },
  intent: undefined,
};
const model = systemModel(scope);
const result = check(model, [...safetyProperties, ...goalProperties]);

describe('configurations as objects in the system state (D-32, FP-3)', () => {
  it('every safety and goal property holds over the complete search', () => {
    expect(result.complete).toBe(true);
    const broken = result.properties.filter((p) => p.status === 'violated');
    expect(broken.map((p) => `${p.property.id}: ${p.violation?.message}`)).toEqual([]);
    expect(result.states).toBeGreaterThan(1000);
  });

  it('the pipeline decides each configuration request: create, update and delete are taken', () => {
    expect(result.coverage.covered).toContain('pipeline:configurations:always->responded');
    const effects = new Set(
      model
        .enabledEvents(model.initialStates()[0])
        .filter((e) => e.request?.target === 'configuration')
        .map((e) => `${e.request?.verb} ${e.response?.code}`),
    );
    // From the start: 20-quota may be deleted, 10-policy updated, 30-logging created (and read: 404);
    // the stored ones are read (200) and their create re-applied (409).
    expect([...effects].sort()).toEqual([
      'create 201',
      'create 409',
      'delete 200',
      'get 200',
      'get 404',
      'update 200',
    ]);
  });

  it('FP-3, D-32: a fail-closed update applies to a namespace already initializing (its timer records Timeout)', () => {
    const timeouts = result.properties.find((p) => p.property.id === 'timeout-follows-failure-policy');
    expect(timeouts?.status).toBe('holds');
    const [initial] = model.initialStates();
    const admin = { name: 'cluster-admin', groups: ['system:masters'] };
    const alice = { name: 'alice', groups: ['teams@corp.com', 'system:authenticated'] };
    let s = model.handle(initial, {
      principal: alice,
      verb: 'create',
      target: 'namespace',
      namespace: 0,
      object: -1,
      body: { extraFinalizers: ['openshift.com/origin'] },
    }).state;
    const update = model.handle(s, {
      principal: admin,
      verb: 'update',
      target: 'configuration',
      namespace: -1,
      object: -1,
      configuration: { slot: 0, version: 1 },
    });
    expect(update.response.code).toBe(200);
    s = update.state;
    expect(model.initializerInForce(s, 'policy.example.com')?.failurePolicy).toBe('Ignore');
    const tick = () => {
      const step = model.enabled(s).find((e) => e.event.actorKind === 'clock');
      if (!step) throw new Error('no tick');
      s = step.next;
    };
    tick();
    expect(model.initializerInForce(s, 'policy.example.com')?.failurePolicy).toBe('Fail');
    // Time passes until policy's timeoutSeconds has run (time may not pass an expired timer, FP-2).
    const timerStep = () =>
      model.enabled(s).find((e) => e.event.actorKind === 'apiserver' && e.event.namespace === 0);
    for (let k = 0; k < 10 && !timerStep(); k++) tick();
    const fired = timerStep();
    expect(fired?.event.label).toBe(
      'timer: policy.example.com timed out on team-a (Fail: result Timeout, 504)',
    );
  });

  it('RBAC first, then a create of one that exists 409, a missing one 404, a fail-closed create 422', () => {
    const [initial] = model.initialStates();
    const request = (
      principal: { name: string; groups: string[] },
      verb: 'create' | 'delete',
      slot: number,
    ) =>
      model.handle(initial, {
        principal,
        verb,
        target: 'configuration',
        namespace: -1,
        object: -1,
        configuration: { slot, version: 0 },
      }).response;
    const admin = { name: 'cluster-admin', groups: ['system:masters'] };
    expect(request(admin, 'create', 0).code).toBe(409);
    expect(request({ name: 'alice', groups: ['system:authenticated'] }, 'delete', 1).code).toBe(403);
    expect(request(admin, 'delete', 2).code).toBe(404);
    const deleted = model.handle(initial, {
      principal: admin,
      verb: 'delete',
      target: 'configuration',
      namespace: -1,
      object: -1,
      configuration: { slot: 0, version: 0 },
    });
    const recreated = model.handle(deleted.state, {
      principal: admin,
      verb: 'create',
      target: 'configuration',
      namespace: -1,
      object: -1,
      configuration: { slot: 0, version: 1 },
    });
    expect(recreated.response).toMatchObject({ code: 422, cause: 'FieldValueNotSupported' });
  });
});
