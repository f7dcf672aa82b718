import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { terminatingNamespaceIsRemoved } from '../../properties/liveness.ts';
import { variantByName } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { systemModel } from '../model/system-model.ts';
import { removalScope } from './liveness-fixtures.ts';
import { fairRandomRun } from './liveness-random.ts';

const quickScope = scopeByName('quick');

const runLength = 200;
const options = { patience: 4, deadline: 60 };
const choices = fc.array(fc.nat(), { minLength: runLength, maxLength: runLength });

describe('fair random runs beyond the exhaustive bound', () => {
  it('every fair run of 200 steps on the default scope removes each terminating namespace in time', () => {
    const model = systemModel(quickScope);
    let exercised = 0;
    fc.assert(
      fc.property(choices, (c) => {
        const run = fairRandomRun(model, terminatingNamespaceIsRemoved, c, options);
        if (run.triggered > 0) exercised++;
        if (!run.ok)
          throw new Error(`${run.failure?.namespace}: ${run.failure?.message}\n${run.steps.join('\n')}`);
      }),
      { numRuns: 60, seed: 13 },
    );
    // Not vacuous: most runs see a namespace terminate.
    expect(exercised).toBeGreaterThan(30);
  });

  it('a run that deletes a namespace exercises the property once and removes it', () => {
    const model = systemModel(removalScope);
    const run = fairRandomRun(model, terminatingNamespaceIsRemoved, new Array(runLength).fill(0), options);
    expect(run.ok).toBe(true);
    expect(run.triggered).toBe(1);
    expect(run.steps).toContain('namespace-controller: delete namespaces/team-a/configmaps/app (200 OK)');
    expect(run.steps).toContain('namespace-controller: finalize namespaces/team-a [] (200 OK)');
    expect(run.steps.at(-1)).toBe('carol: delete namespaces/team-a (404 NotFound)');
  });

  it('finds and shrinks a failing fair run when the controller never finalizes', () => {
    const mutant = variantByName('controller-never-finalizes');
    if (!mutant) throw new Error('missing mutant');
    const model = systemModel(removalScope, mutant.machines(defaultMachines, removalScope));
    const result = fc.check(
      fc.property(choices, (c) => fairRandomRun(model, terminatingNamespaceIsRemoved, c, options).ok),
      { numRuns: 100, seed: 13 },
    );
    expect(result.failed).toBe(true);
    const [shrunk] = result.counterexample ?? [[]];
    const run = fairRandomRun(model, terminatingNamespaceIsRemoved, shrunk, options);
    expect(run.failure?.namespace).toBe('team-a');
    expect(run.failure?.message).toContain('still not');
  });
});
