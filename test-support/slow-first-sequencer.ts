import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite's longest files, longest first (seconds each, measured alone on two cores): started before
 * the others so that at the end of a run no core idles while the other finishes one of them. Vitest
 * orders by the durations it cached from an earlier run, and by file size without one (a fresh clone,
 * CI), which put several of these last. Only the order changes; a file not named here runs after them,
 * in vitest's own order.
 */
export const slowFirst = [
  'checker/report/site/browser.test.ts',
  'checker/model/engines-agree.test.ts',
  'variants/variants.test.ts',
  'checker/judging/promela.test.ts',
  'properties/model-based.test.ts',
  'checker/cli/verify.test.ts',
  'checker/scenario/trace-scenario.test.ts',
  'checker/cli/output-folder.test.ts',
  'checker/report/schemas.test.ts',
  'checker/judging/manifest.test.ts',
  'checker/scenario/fuzz.test.ts',
  'scripts/mutation/judge.test.ts',
  'checker/judging/estimate.test.ts',
  'checker/cli/liveness-cli.test.ts',
  'checker/report/stamp.test.ts',
  'checker/model/por.test.ts',
  'checker/scenario/lasso-scenario.test.ts',
  'checker/judging/liveness-fly.test.ts',
  'checker/model/symmetry.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = slowFirst.indexOf(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
      return at < 0 ? slowFirst.length : at;
    };
    // Array.prototype.sort is stable: the files not named keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
