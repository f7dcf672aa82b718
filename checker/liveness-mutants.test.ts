import { describe, expect, it } from 'vitest';
import { defaultMachines, SystemModel } from '../machines/system.ts';
import { livenessProperties } from '../properties/liveness.ts';
import { safetyProperties } from '../properties/safety.ts';
import { check } from './check.ts';
import { lassoProblem, removalScope } from './liveness-fixtures.ts';
import { livenessMutants } from './liveness-mutants.ts';
import { checkLiveness } from './liveness-system.ts';

describe('seeded liveness faults', () => {
  it('the machines as written survive: the property holds on the same scope', () => {
    const model = new SystemModel(removalScope);
    const [result] = checkLiveness(
      model,
      livenessProperties.filter((p) => p.id === 'terminating-namespace-is-removed'),
    ).properties;
    expect(result.status).toBe('holds');
  });

  for (const mutant of livenessMutants) {
    it(`${mutant.name} is killed by ${mutant.killedBy} with a lasso, and by no safety property`, () => {
      const model = new SystemModel(removalScope, mutant.machines(defaultMachines));
      const property = livenessProperties.find((p) => p.id === mutant.killedBy);
      if (!property) throw new Error(`no liveness property ${mutant.killedBy}`);
      const run = checkLiveness(model, [property]);
      const [result] = run.properties;
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
    const mutant = livenessMutants.find((m) => m.name === 'owner-reprovisions-while-terminating');
    if (!mutant) throw new Error('missing mutant');
    const model = new SystemModel(removalScope, mutant.machines(defaultMachines));
    const [result] = checkLiveness(model, livenessProperties.slice(0, 1)).properties;
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
});
