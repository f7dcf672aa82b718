import { describe, expect, it } from 'vitest';
import { twoTenantsFixture } from '../../test-support/two-tenants.ts';
import { loadScopeFile } from '../scope-file.ts';
import { parallelExplore } from './search.ts';

const scope = loadScopeFile(twoTenantsFixture);

describe('the parallel search', () => {
  // Counts, verdicts and coverage against one thread: checker/parallel/check.test.ts.
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
