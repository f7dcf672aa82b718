import { describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { variantByName } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { checkLiveness } from '../model/liveness-system.ts';
import { systemModel } from '../model/system-model.ts';
import { runMutant } from '../report/mutants.ts';
import { check } from './check.ts';
import { lassoProblem, removalScope } from './liveness-fixtures.ts';

const quickScope = scopeByName('quick');

/** Seeded faults that stop progress without any one bad step: only a lasso shows them. */
const terminationFaults = [
  'controller-never-finalizes',
  'namespace-controller-stalls',
  'owner-keeps-its-finalizer',
  'owner-reprovisions-while-terminating',
];
const mutant = (name: string) => {
  const variant = variantByName(name);
  if (!variant) throw new Error(`no variant ${name}`);
  return variant;
};
const removal = livenessProperties.filter((p) => p.id === 'terminating-namespace-is-removed');

describe('seeded liveness faults', () => {
  it('the machines as written survive: the property holds on the same scope', () => {
    const model = systemModel(removalScope);
    const [result] = checkLiveness(model, removal).properties;
    expect(result.status).toBe('holds');
  });

  for (const name of terminationFaults) {
    it(`${name} is killed by terminating-namespace-is-removed with a lasso, and by no safety property`, () => {
      const model = systemModel(removalScope, mutant(name).machines(defaultMachines, removalScope));
      const [result] = checkLiveness(model, removal).properties;
      expect(result.status).toBe('violated');
      const lasso = result.lasso;
      if (!lasso) throw new Error('expected a lasso');
      expect(lassoProblem(model, lasso)).toBeNull();
      // The cycle is stuck in Terminating: the namespace is never removed.
      for (const step of lasso.steps.slice(lasso.loopStart))
        expect(model.view(step.state, 0).value).toBe('terminating');
      const safety = check(model, safetyProperties);
      expect(safety.properties.filter((p) => p.status === 'violated').map((p) => p.property.id)).toEqual([]);
    });
  }

  it('the re-provisioning owner livelocks: its cycle is real steps, not a stutter', () => {
    const model = systemModel(
      removalScope,
      mutant('owner-reprovisions-while-terminating').machines(defaultMachines, removalScope),
    );
    const [result] = checkLiveness(model, removal).properties;
    const cycle = result.lasso?.steps.slice(result.lasso.loopStart) ?? [];
    expect(cycle.length).toBeGreaterThan(1);
    expect(cycle.every((s) => s.event !== null)).toBe(true);
    expect(cycle.map((s) => s.event?.label)).toEqual(
      expect.arrayContaining([
        'provisions its external content for team-a',
        'purges its external content for team-a',
      ]),
    );
  });

  it('IN-4: an initializer that never removes itself is killed in the mutant table by a lasso on the quick scope', () => {
    const result = runMutant(mutant('initializer-never-completes'), {
      scope: quickScope,
      randomScopeSeeds: [],
    });
    expect(result).toMatchObject({ search: 'liveness', scope: quickScope.name });
    expect(result.killedBy).toEqual(['running-initializer-completes']);
    expect(result.loopStart).toBeGreaterThan(0);
    expect(result.counterexampleSteps.length).toBeGreaterThan(result.loopStart ?? 0);
    expect(result.counterexampleSteps.at(-1)?.event).toBe('stutters');
  });
});
