import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (seconds on a quiet two-core machine, measured with
 * `npx vitest run FILE` each). Two workers take files from one queue: a long file started last keeps one
 * core busy alone while the other idles, so the long ones start first and the many short files fill in
 * behind them. Vitest orders by the last run's durations, but a fresh clone (CI) has none and falls
 * back to file size, which put 20-second files near the end. A file missing here only runs later.
 */
export const heavyFirst: readonly string[] = [
  'checker/model/engines-agree.test.ts',
  'properties/model-based.test.ts',
  'variants/variants.test.ts',
  'checker/judging/promela.test.ts',
  'checker/report/site/browser.test.ts',
  'checker/cli/verify.test.ts',
  'checker/report/schemas.test.ts',
  'checker/model/por.test.ts',
  'checker/judging/manifest.test.ts',
  'scripts/mutation/judge.test.ts',
  'checker/cli/output-folder.test.ts',
  'checker/scenario/trace-scenario.test.ts',
  'checker/judging/liveness-symmetric.test.ts',
  'checker/scenario/fuzz.test.ts',
  'checker/report/stamp.test.ts',
  'checker/model/symmetry.test.ts',
  'checker/judging/random-scope-vocabulary.test.ts',
  'checker/judging/liveness-mutants.test.ts',
  'scripts/commands.test.ts',
  'checker/scenario/lasso-scenario.test.ts',
  'checker/report/mutants.test.ts',
  'checker/model/step-memo.test.ts',
  'checker/report/render.test.ts',
];

/** Vitest's own order (failed first, then by the last durations or by size), the files above ahead of it. */
export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const root = `${spec.project.config.root}/`;
      const index = heavyFirst.indexOf(
        spec.moduleId.startsWith(root) ? spec.moduleId.slice(root.length) : '',
      );
      return index < 0 ? heavyFirst.length : index;
    };
    // Array.prototype.sort is stable: files not listed keep vitest's order among themselves.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
