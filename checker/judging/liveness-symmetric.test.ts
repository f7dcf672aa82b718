import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../machines/scope.ts';
import { defaultMachines, type SystemEvent, type SystemState } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import type { LivenessProperty } from '../../properties/types.ts';
import { runScript } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { twoTenantsCrossed, twoTenantsFixture } from '../../test-support/two-tenants.ts';
import { variantByName } from '../../variants/variants.ts';
import { parseScope } from '../cli/scope-file.ts';
import type { Lasso } from '../engine/liveness.ts';
import { compileFairness, type LivenessRun } from '../model/liveness-system.ts';
import { StateSymmetry, symmetryOf } from '../model/symmetry.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import { check } from './check.ts';
import { lassoProblem } from './liveness-fixtures.ts';
import { LivenessCollector } from './liveness-fly.ts';
import { symmetricLivenessRefusal } from './liveness-symmetric.ts';

const scope = parseScope(readFileSync(twoTenantsFixture, 'utf8'), twoTenantsFixture);

/** Deadlock and `properties` judged on one search, with the scope's symmetry or on every state. */
function judged(
  model: CheckedSystemModel,
  properties: readonly LivenessProperty[],
  reduce: boolean,
  memo = false,
): LivenessRun {
  const symmetry = reduce ? new StateSymmetry(model, symmetryOf(model.scope)) : undefined;
  const collector = new LivenessCollector(model, properties, symmetry);
  check(model, [], {
    recorder: collector,
    ...(memo ? {} : { memo: false }),
    ...(symmetry ? { symmetry } : {}),
  });
  return collector.judge();
}

/** What must not change with the reduction: verdicts, concrete trigger counts, the namespace, the prefix's length. */
const summary = (run: LivenessRun) => ({
  deadlock: run.deadlock.count,
  properties: run.properties.map((r) => ({
    id: r.property.id,
    status: r.status,
    triggers: r.triggers,
    namespace: r.namespace ?? null,
    prefix: r.lasso?.loopStart ?? null,
  })),
});

/**
 * Why a lasso does not break `property` on `slot` under its fairness, or null when it does: a run of the
 * model (`lassoProblem`), the goal pending in every state of the cycle, and every fairness condition
 * shown on the cycle (weak: taken there or disabled in one of its states; strong: taken or never enabled).
 */
function brokenBy(
  model: CheckedSystemModel,
  property: LivenessProperty,
  slot: number,
  lasso: Lasso<SystemState, SystemEvent>,
): string | null {
  const problem = lassoProblem(model, lasso);
  if (problem) return problem;
  const cycle = lasso.steps.slice(lasso.loopStart);
  const states = cycle.map((s) => s.state);
  if (states.some((s) => property.q(model, s, slot))) return 'the goal is met on the cycle';
  for (const condition of compileFairness(model, property.fairness)) {
    const taken = cycle.some((s) => s.event !== null && condition.matches(s.event));
    const enabledIn = states.map((s) => model.enabled(s).some((e) => condition.matches(e.event)));
    const shown = condition.kind === 'weak' ? enabledIn.includes(false) : !enabledIn.includes(true);
    if (!taken && !shown) return `the cycle is unfair to ${condition.name}`;
  }
  return null;
}

/** Both runs agree, and every lasso of the reduced one is a concrete counterexample. */
function expectSameVerdicts(
  model: CheckedSystemModel,
  properties: readonly LivenessProperty[],
  memo = false,
): LivenessRun {
  const full = judged(model, properties, false, memo);
  const reduced = judged(model, properties, true, memo);
  expect(reduced.judgedOn?.kind).toBe('symmetry');
  expect(reduced.states).toBeLessThan(full.states);
  expect(summary(reduced)).toEqual(summary(full));
  for (const r of reduced.properties) {
    if (r.status !== 'violated') continue;
    const lasso = r.lasso;
    if (!lasso) throw new Error(`${r.property.id}: violated without a lasso`);
    const slot =
      r.namespace === undefined ? -1 : model.scope.namespaces.findIndex((n) => n.name === r.namespace);
    expect(brokenBy(model, r.property, slot, lasso), r.property.id).toBeNull();
  }
  return reduced;
}

const weakened = (f: (p: LivenessProperty) => LivenessProperty) => livenessProperties.map(f);
const mutant = (name: string, on: Scope) => {
  const variant = variantByName(name);
  if (!variant) throw new Error(`no variant ${name}`);
  return systemModel(on, variant.machines(defaultMachines, on));
};

describe('liveness judged under symmetry (orbit x followed slot)', () => {
  it('every property and deadlock: the same verdicts and trigger counts as on every state', () => {
    const run = expectSameVerdicts(systemModel(scope), livenessProperties);
    expect(run.properties.map((r) => r.status)).toContain('holds');
  });

  it("with the step memo, whose self-loops reach the judge in whole bundles, as verify's: the same verdicts", () => {
    expectSameVerdicts(systemModel(scope), livenessProperties, true);
    expectSameVerdicts(mutant('controller-never-finalizes', scope), livenessProperties, true);
  });

  it('with crossed creates (recorded creators renamed): the same verdicts', () => {
    expectSameVerdicts(systemModel(twoTenantsCrossed()), livenessProperties);
  });

  it('without fairness every triggered property is violated, with a concrete lasso', () => {
    const run = expectSameVerdicts(
      systemModel(scope),
      weakened((p) => ({ ...p, fairness: [] })),
    );
    expect(run.properties.filter((r) => r.status === 'violated').length).toBeGreaterThan(3);
  });

  it('with the global fairness conditions only, or strong instead of weak: the same verdicts', () => {
    const model = systemModel(scope);
    expectSameVerdicts(
      model,
      weakened((p) => ({ ...p, fairness: p.fairness.filter((f) => !f.perNamespace) })),
    );
    expectSameVerdicts(
      model,
      weakened((p) => ({ ...p, fairness: p.fairness.map((f) => ({ ...f, kind: 'strong' as const })) })),
    );
  });

  it("with fairness for principals only, whose denied requests are self-loops: the same verdicts and lassos' prefixes", () => {
    // A cycle may be fair through a principal's self-loop alone: the walks that leave self-loops out take them from their records.
    const principals = (kind: 'weak' | 'strong', perNamespace: boolean) =>
      weakened((p) => ({ ...p, fairness: [{ kind, actorKind: 'principal', perNamespace, why: 'a test' }] }));
    const model = systemModel(scope);
    for (const kind of ['weak', 'strong'] as const)
      for (const perNamespace of [true, false])
        expectSameVerdicts(model, principals(kind, perNamespace), true);
  });

  for (const name of [
    'controller-never-finalizes',
    'namespace-controller-stalls',
    'initializer-never-completes',
  ])
    it(`the seeded fault ${name} is killed under symmetry with a concrete lasso`, () => {
      const run = expectSameVerdicts(mutant(name, scope), livenessProperties);
      expect(run.properties.some((r) => r.status === 'violated')).toBe(true);
    });

  it('stops at its deadline: every property incomplete, the deadlock count in full', () => {
    const model = systemModel(scope);
    const symmetry = new StateSymmetry(model, symmetryOf(model.scope));
    const collector = new LivenessCollector(model, livenessProperties, symmetry);
    check(model, [], { recorder: collector, symmetry });
    const stopped = collector.judge(undefined, performance.now() - 1);
    expect(stopped.stoppedAt).toEqual({ judged: 0 });
    expect(stopped.properties.map((r) => [r.property.id, r.status])).toEqual(
      livenessProperties.map((p) => [p.id, 'incomplete']),
    );
    expect(stopped.deadlock.count).toBe(judged(model, livenessProperties, true).deadlock.count);
  });

  it('a fairness condition naming one member of a symmetry set is refused, with the reason', () => {
    const model = systemModel(scope);
    const symmetry = new StateSymmetry(model, symmetryOf(scope));
    const named = [
      { ...livenessProperties[0], fairness: [{ ...livenessProperties[0].fairness[0], actor: 'alice' }] },
    ];
    expect(symmetricLivenessRefusal(symmetry, named)).toMatch(/assumes fairness for alice alone/);
    expect(symmetricLivenessRefusal(symmetry, livenessProperties)).toBeUndefined();
  });

  const scratch = useTempDir('symmetric-liveness');
  it("verify judges liveness under the scope's symmetry, says how, and kills a seeded fault with the lasso --symmetry off shows", async () => {
    const run = (symmetry: string) =>
      runScript(
        resolve('scripts/verify.ts'),
        [
          '--scope',
          resolve(twoTenantsFixture),
          '--variant',
          'controller-never-finalizes',
          '--symmetry',
          symmetry,
          '--quiet',
        ],
        { cwd: scratch() },
      );
    const [on, off] = [await run('on'), await run('off')];
    expect(on.stderr).toContain('verify: liveness is judged under symmetry reduction (a group of 2)');
    expect(on.stdout).toMatch(
      /judged under symmetry reduction \(a group of 2\): each property on the \d+ orbit/,
    );
    expect(off.stdout).not.toContain('judged under symmetry');
    expect([on.code, off.code]).toEqual([13, 13]);
    const liveness = (text: string) => text.slice(text.indexOf('Liveness ('), text.indexOf('Report:'));
    const lines = (text: string) =>
      liveness(text)
        .split('\n')
        .filter((l) => !l.includes('judged under'));
    expect(lines(on.stdout)).toEqual(lines(off.stdout));
    expect(liveness(on.stdout)).toMatch(/terminating-namespace-is-removed +violated/);
    expect(liveness(on.stdout)).toContain('-- cycle, repeated forever --');
  }, 120_000);
});
