import { describe, expect, it } from 'vitest';
import { SystemModel } from '../../machines/system.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { expectTraceOfRealSteps } from '../../test-support/trace.ts';
import { twoTenantsFixture } from '../../test-support/two-tenants.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { type CheckResult, check } from '../check.ts';
import { loadScopeFile, scopeByName } from '../scope-file.ts';
import { StateSymmetry, symmetryOf } from '../symmetry.ts';
import { parallelCheck } from './check.ts';

const verdicts = (r: CheckResult) =>
  r.properties.map((p) => ({
    id: p.property.id,
    status: p.status,
    witnesses: p.witnesses,
    steps: p.violation?.trace.steps.length,
  }));

describe('verify --workers: the safety check over worker threads', () => {
  it.each([false, true])(
    'gives the counts, verdicts, witnesses and coverage of one thread (symmetry %s)',
    async (reduce) => {
      const scope = loadScopeFile(twoTenantsFixture);
      const model = new SystemModel(scope);
      const symmetry = reduce ? new StateSymmetry(model, symmetryOf(scope)) : undefined;
      const one = check(model, safetyProperties, symmetry ? { symmetry } : {});
      const two = await parallelCheck(
        model,
        safetyProperties,
        { scope, variant: 'model', workers: 2, symmetry: reduce },
        symmetry,
      );
      expect(two).toMatchObject({
        states: one.states,
        transitions: one.transitions,
        depth: one.depth,
        complete: true,
      });
      expect(verdicts(two)).toEqual(verdicts(one));
      expect(two.coverage.covered).toEqual(one.coverage.covered);
      if (symmetry) expect(two.symmetry).toEqual(one.symmetry);
    },
    120_000,
  );

  it('catches a seeded fault with a shortest trace that replays to the violation', async () => {
    const variant = 'create-in-terminating';
    const scope = scopeByName('quick');
    const model = variantModel(variant, scope);
    const one = check(model, safetyProperties, { stopOnFirst: true });
    const seen: string[] = [];
    const two = await parallelCheck(model, safetyProperties, {
      scope,
      variant,
      workers: 2,
      symmetry: false,
      stopOnFirst: true,
      onViolation: (v) => seen.push(v.propertyId),
    });
    expect(two.stopReason).toBe('first-violation');
    const broken = (r: CheckResult) => r.properties.filter((p) => p.status === 'violated');
    expect(broken(two).map((p) => p.property.id)).toEqual(broken(one).map((p) => p.property.id));
    expect(seen.sort()).toEqual(
      broken(one)
        .map((p) => p.property.id)
        .sort(),
    );
    for (const p of broken(two)) {
      const expected = broken(one).find((q) => q.property.id === p.property.id);
      expect(p.violation?.trace.steps.length).toBe(expected?.violation?.trace.steps.length);
      // The trace is a real run: each step is one of the model's successors of the state before it.
      if (!p.violation) throw new Error('no violation');
      expectTraceOfRealSteps(
        p.violation.trace,
        (s, emit) => model.successors(s, emit),
        (s) => model.key(s),
      );
      const last = p.violation?.trace.steps.at(-1);
      const before = p.violation?.trace.steps.at(-2)?.state ?? p.violation?.trace.initial;
      if (!last || !before) throw new Error('an empty trace');
      const verdict =
        p.property.kind === 'step'
          ? p.property.predicate(model, before, last.event, last.state)
          : p.property.predicate(model, last.state);
      expect(verdict).not.toBe(true);
    }
  }, 120_000);
});
