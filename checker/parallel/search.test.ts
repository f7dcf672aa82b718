import { describe, expect, it } from 'vitest';
import { SystemModel } from '../../machines/system.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { check } from '../check.ts';
import { loadScopeFile } from '../scope-file.ts';
import { StateSymmetry, symmetryOf } from '../symmetry.ts';
import { parallelExplore } from './search.ts';

const scope = loadScopeFile('checker/fixtures/symmetry/two-tenants.yaml');

describe('the parallel search', () => {
  it.each([false, true])(
    'finds the states, transitions and depth of one thread, with two workers (symmetry %s)',
    async (reduce) => {
      const model = new SystemModel(scope);
      const one = check(
        model,
        safetyProperties,
        reduce ? { symmetry: new StateSymmetry(model, symmetryOf(scope)) } : {},
      );
      const two = await parallelExplore({ scope, variant: 'model', workers: 2, symmetry: reduce });
      expect(two).toMatchObject({
        states: one.states,
        transitions: one.transitions,
        depth: one.depth,
        complete: true,
        workers: 2,
      });
    },
    120_000,
  );

  it('reports a search its time limit cut short as incomplete', async () => {
    const run = await parallelExplore({
      scope,
      variant: 'model',
      workers: 2,
      symmetry: false,
      maxSeconds: 0,
    });
    expect(run).toMatchObject({ complete: false, stopReason: 'time' });
  }, 60_000);
});
