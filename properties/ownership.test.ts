import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import type { ApiRequest, SystemState } from '../machines/system.ts';
import { stepVerdict } from '../test-support/step-verdict.ts';
import { intentOf } from './intent.ts';
import { tenantIsolation } from './safety.ts';
import { ownersOf } from './steps.ts';

/**
 * RB-1, RB-2 (document 000): any tenant may create a free namespace name, and whoever does becomes its
 * admin. So tenant isolation judges a namespace as its creator's once created, the declared tenant's before.
 */
const scope = scopeByName('quick');
const model = systemModel(scope);
const [initial] = model.initialStates();
const teamA = scope.namespaces.findIndex((ns) => ns.name === 'team-a');
const bob = { name: 'bob', groups: ['teams@corp.com', 'system:authenticated'] };
const alice = { name: 'alice', groups: ['teams@corp.com', 'system:authenticated'] };
const createTeamA = (principal: ApiRequest['principal']): ApiRequest => ({
  principal,
  verb: 'create',
  target: 'namespace',
  namespace: teamA,
  object: -1,
  body: { extraFinalizers: [] },
});
const getTeamA = (principal: ApiRequest['principal']): ApiRequest => ({
  principal,
  verb: 'get',
  target: 'namespace',
  namespace: teamA,
  object: -1,
});

/** The property's verdict on request r sent in s, answered as `code` (the model's own answer or one put in its place). */
const judged = (s: SystemState, r: ApiRequest, code?: number) =>
  stepVerdict(model, tenantIsolation, s, r, code === undefined ? {} : { response: { code, reason: 'OK' } });

describe('whose namespace it is (RB-1, RB-2)', () => {
  it('before any create, the tenants the scope declares; after, who sent the create', () => {
    const intent = intentOf(scope);
    expect(ownersOf(model, initial, intent, 'team-a')).toEqual(['alice']);
    const byBob = model.handle(initial, createTeamA(bob)).state;
    expect(ownersOf(model, byBob, intent, 'team-a')).toEqual(['bob']);
    expect(ownersOf(model, initial, intent, 'default')).toBeUndefined();
  });

  it('tenant isolation lets bob act in the team-a he created, and flags alice succeeding there', () => {
    const byBob = model.handle(initial, createTeamA(bob)).state;
    expect(judged(byBob, { ...getTeamA(bob), verb: 'delete' }, 200)).toBe(true);
    expect(judged(byBob, { ...getTeamA(alice), verb: 'delete' }, 200)).toMatch(
      /^tenant alice got 200 for "delete namespaces\/team-a" in team-a, which belongs to bob$/,
    );
  });
});
