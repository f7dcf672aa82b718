import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    // .stryker-tmp: StrykerJS's sandbox copy of the project while `npm run mutation` runs.
    exclude: ['node_modules/**', 'generated/**', '.stryker-tmp/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Child processes keep each file's exit codes, signal handlers and heap limits apart from the others.
    pool: 'forks',
    // Vitest's default leaves one core idle (one worker on two cores); the main process mostly waits.
    maxWorkers: availableParallelism(),
    // A worker keeps the modules it loaded for its next file: the model's imports cost ~70 s per run
    // otherwise. Safe while library modules hold only caches keyed by their inputs and tests build their
    // own scopes and models (scopeByName reads the file anew each call); a test must not mutate an import.
    isolate: false,
    // The searches the tests run allocate short-lived objects by the million: with a 64 MB young generation
    // (V8's default is 16 MB) fewer of them survive a scavenge to be copied and promoted. 7 to 15% less
    // CPU on the search-heavy files (engines-agree, variants), at 100 to 150 MB more resident per worker.
    // Workers only: the commands the tests start run with V8's defaults, as users run them.
    execArgv: ['--max-semi-space-size=64'],
    // The commands the tests start (dozens of node processes a run) keep V8's compiled code in the system's
    // temporary folder, never in the tree: Node checks each entry against its source, so none is stale.
    env: {
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'nsmodel-node-compile-cache'),
      // pan built without optimisation: the tests' models are small, so gcc -O2 (about 1.5 s a build)
      // would cost more than the search it speeds up (-O0: 0.3 s). Figures and verdicts are the same.
      NSMODEL_PAN_OPTIMIZE: process.env.NSMODEL_PAN_OPTIMIZE ?? '-O0',
    },
    // The summary reporter runs last so `N passed, N failed` is the final line of every run.
    reporters: ['default', './test-support/summary-reporter.ts'],
  },
});
