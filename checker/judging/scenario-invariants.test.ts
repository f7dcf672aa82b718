import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import type { Property } from '../../properties/types.ts';
import { checkScenarioInvariants, committedScenarioFiles } from './scenario-invariants.ts';

const scenarios = fileURLToPath(new URL('../../scenarios', import.meta.url));

/** An invariant a scenario that creates team-a must break: it shows where the replay is judged. */
const noTeamA: Property = {
  id: 'no-team-a',
  statement: 'team-a never exists.',
  requirements: [],
  kind: 'invariant',
  predicate: (model, state) =>
    model.views(state).some((v) => v.name === 'team-a' && v.value !== 'absent' && v.value !== 'removed')
      ? 'team-a exists'
      : true,
  witness: { on: 'state', description: 'always', test: () => true },
};

describe('scenarios as property checks', () => {
  it('judges every invariant on each state of every committed scenario: none breaks one', () => {
    const run = checkScenarioInvariants(committedScenarioFiles(scenarios), safetyProperties);
    expect(run.replayed).toBeGreaterThan(30);
    expect(run.states).toBeGreaterThan(run.replayed);
    expect(run.violations).toEqual([]);
  });

  it('names the file, line and step whose state breaks an invariant, once per property', () => {
    const file = join(scenarios, 'fp-fail-open-timeout.yaml');
    const run = checkScenarioInvariants([file], [noTeamA]);
    expect(run.violations).toEqual([
      {
        file,
        line: 16,
        step: expect.stringContaining('create namespaces/team-a'),
        propertyId: 'no-team-a',
        message: 'team-a exists',
      },
    ]);
  });

  it('skips scenarios of seeded faults, which show other machines', () => {
    const run = checkScenarioInvariants([join(scenarios, 'variant-create-in-terminating.yaml')], [noTeamA]);
    expect(run).toMatchObject({ replayed: 0, skipped: 1, violations: [] });
  });
});
