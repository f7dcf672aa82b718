import { describe, expect, it } from 'vitest';
import {
  livenessProperties,
  readRepairUnblocks,
  terminatingNamespaceIsRemoved,
} from '../../properties/liveness.ts';
import type { LivenessProperty } from '../../properties/types.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { buildStateGraph } from '../engine/state-graph.ts';
import { lassoProblem, removalScope } from '../judging/liveness-fixtures.ts';
import { checkLiveness, compileFairness, systemHorizon } from './liveness-system.ts';
import { systemModel } from './system-model.ts';

const quickScope = scopeByName('quick');

describe('liveness on the system model', () => {
  const model = systemModel(removalScope);

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
    const conditions = compileFairness(systemModel(quickScope), terminatingNamespaceIsRemoved.fairness);
    expect(conditions).toHaveLength(2 * quickScope.namespaces.length);
    expect(conditions[0].name).toMatch(/^WF\(every namespace-controller steps on team-a\)/);
  });

  it('time never runs out: a system where nobody acts still ticks, so nothing is a deadlock', () => {
    const frozen = systemModel({
      ...removalScope,
      principals: [],
      faults: { initializerCrash: false, configReadFailure: false, apiserverRestart: false },
    });
    const run = checkLiveness(frozen, []);
    expect(run.complete).toBe(true);
    expect(run.deadlock).toMatchObject({ count: 0, atHorizon: 0 });
  });

  it('the system model has no horizon: relative time has no last second', () => {
    const atHorizon = systemHorizon(model);
    expect(model.initialStates().every((s) => !atHorizon(s))).toBe(true);
  });
});

describe('liveness on the default scope, with relative time', () => {
  const model = systemModel(quickScope);
  const graph = buildStateGraph(model);

  it('every liveness property holds, each with its premise exercised, and nothing deadlocks', () => {
    expect(graph.complete).toBe(true);
    const run = checkLiveness(model, livenessProperties, { graph });
    expect(run.deadlock.count).toBe(0);
    expect(run.properties.map((r) => [r.property.id, r.status])).toEqual(
      livenessProperties.map((p) => [p.id, 'holds']),
    );
    for (const r of run.properties) expect(r.triggers, r.property.id).toBeGreaterThan(0);
  });

  it('D-27: after a restart, a namespace nobody reads stays Initializing: read-repair needs a GET (FP-4)', () => {
    // The default scope without carol's GET: nobody polls team-a.
    const unread = systemModel({
      ...quickScope,
      principals: quickScope.principals.map((p) =>
        p.name === 'carol' ? { ...p, requests: p.requests.filter((r) => r !== 'get-namespace') } : p,
      ),
    });
    const anyNamespace: LivenessProperty = {
      ...readRepairUnblocks,
      p: (m, s, i) => {
        const v = m.view(s, i);
        return v.value === 'initializing' && v.pending.length > 0 && v.timerLost;
      },
    };
    const run = checkLiveness(unread, [readRepairUnblocks, anyNamespace]);
    // As stated, the property judges only namespaces a client polls: here none, so it has nothing to judge.
    expect(run.properties[0].status).toBe('vacuous');
    const result = run.properties[1];
    expect(result.status).toBe('violated');
    expect(result.namespace).toBe('team-a');
    const lasso = result.lasso;
    if (!lasso) throw new Error('expected a lasso');
    expect(lassoProblem(unread, lasso)).toBeNull();
    const last = lasso.steps[lasso.steps.length - 1].state;
    expect(unread.view(last, 0)).toMatchObject({ value: 'initializing', timerLost: true });
  });
});
