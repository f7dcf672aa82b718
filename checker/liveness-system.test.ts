import { describe, expect, it } from 'vitest';
import { defaultScope } from '../machines/scopes.ts';
import { SystemModel, type SystemState } from '../machines/system.ts';
import { terminatingNamespaceIsRemoved } from '../properties/liveness.ts';
import type { LivenessProperty } from '../properties/types.ts';
import { lassoProblem, removalScope } from './liveness-fixtures.ts';
import { checkLiveness, compileFairness, systemHorizon } from './liveness-system.ts';

describe('liveness on the system model', () => {
  const model = new SystemModel(removalScope);

  it('a terminating namespace is removed when the controller and the finalizer owner are fair', () => {
    const run = checkLiveness(model, [terminatingNamespaceIsRemoved]);
    expect(run.complete).toBe(true);
    expect(run.deadlock.count).toBe(0);
    const [result] = run.properties;
    expect(result.status).toBe('holds');
    expect(result.triggers).toBeGreaterThan(0);
    expect(result.fairness).toHaveLength(2);
  });

  it('without any fairness the same property fails with a stuttering lasso right after the delete', () => {
    const unfair: LivenessProperty = { ...terminatingNamespaceIsRemoved, fairness: [] };
    const [result] = checkLiveness(model, [unfair]).properties;
    expect(result.status).toBe('violated');
    const lasso = result.lasso;
    if (!lasso) throw new Error('expected a lasso');
    expect(lassoProblem(model, lasso)).toBeNull();
    expect(lasso.steps.map((s) => s.event?.label ?? 'stutter')).toEqual([
      'delete namespaces/team-a',
      'stutter',
    ]);
    expect(lasso.loopStart).toBe(1);
  });

  it('fairness for the controller alone is not enough: the finalizer owner may never act', () => {
    const controllerOnly: LivenessProperty = {
      ...terminatingNamespaceIsRemoved,
      fairness: terminatingNamespaceIsRemoved.fairness.filter((f) => f.actorKind === 'namespace-controller'),
    };
    const [result] = checkLiveness(model, [controllerOnly]).properties;
    expect(result.status).toBe('violated');
    const lasso = result.lasso;
    if (!lasso) throw new Error('expected a lasso');
    expect(lassoProblem(model, lasso)).toBeNull();
    const cycle = lasso.steps.slice(lasso.loopStart);
    expect(cycle.every((s) => s.event?.actorKind !== 'finalizer-owner')).toBe(true);
    const final = lasso.steps[lasso.steps.length - 1].state;
    expect(model.view(final, 0).finalizers).toContain('openshift.com/origin');
  });

  it('never reports a pass from an incomplete search', () => {
    const run = checkLiveness(model, [terminatingNamespaceIsRemoved], { maxStates: 20 });
    expect(run.complete).toBe(false);
    expect(run.properties[0].status).toBe('incomplete');
  });

  it('expands per-namespace fairness into one condition per namespace slot', () => {
    const conditions = compileFairness(new SystemModel(defaultScope), terminatingNamespaceIsRemoved.fairness);
    expect(conditions).toHaveLength(2 * defaultScope.namespaces.length);
    expect(conditions[0].name).toMatch(/^WF\(every namespace-controller steps on team-a\)/);
  });

  it('a model may declare terminal states: they are not deadlocks', () => {
    const frozen = new SystemModel({
      ...removalScope,
      principals: [],
      faults: { initializerCrash: false, configReadFailure: false, apiserverRestart: false },
    });
    const stopped = checkLiveness(frozen, []);
    expect(stopped.deadlock).toMatchObject({ count: 0, atHorizon: 1 });
    // The model's own declaration covers the same stop before the horizon rule is asked.
    const declared = Object.assign(frozen, { isTerminal: (s: SystemState) => s.now >= 0 });
    expect(checkLiveness(declared, []).deadlock).toMatchObject({ count: 0, atHorizon: 0 });
  });

  it('the horizon is where the bounded clock stops', () => {
    const atHorizon = systemHorizon(model);
    const [initial] = model.initialStates();
    expect(atHorizon(initial)).toBe(false);
    expect(atHorizon({ ...initial, now: removalScope.clock.horizonSeconds })).toBe(true);
  });
});
