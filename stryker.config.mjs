// @ts-check
/**
 * `npm run mutation`: StrykerJS mutates the machines' decision code and judges every mutant by what
 * CI runs: verify on the quick scope, stopping at the first violation, then the committed scenarios,
 * which compare every answer. Reports and the incremental file are under generated/mutation/ (not
 * committed); docs/mutation.md summarises them.
 */

/**
 * The files a plain `npm run mutation` mutates: as many of decisionFiles, the rules with most
 * decisions first, as one run at concurrency 1 judges within an hour on two cores (docs/mutation.md,
 * "What a run costs"). Any other: `npm run mutation -- --mutate machines/rbac.ts`.
 */
export const chosenFiles = ['machines/admission.ts', 'machines/authorization.ts'];

/** Every file of decision code: machines, pipeline, RBAC, admission, validation, actions (not diagrams, caches, variants). */
export const decisionFiles = [
  'machines/admission.ts',
  'machines/pipeline.ts',
  'machines/authorization.ts',
  'machines/rbac.ts',
  'machines/request-authorization.ts',
  'machines/rules.ts',
  'machines/names.ts',
  'machines/initializer-config.ts',
  'machines/storage.ts',
  'machines/namespace.ts',
  'machines/namespace-controller.ts',
  'machines/initializer-controller.ts',
  'machines/initializer-timeout.ts',
  'machines/timer.ts',
  'machines/config-sync.ts',
  'machines/finalizer-owner.ts',
  'machines/failure-injector.ts',
  'machines/apiserver.ts',
  'machines/system.ts',
  'machines/system-actions.ts',
  'machines/actions/*.ts',
  '!machines/**/*.test.ts',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // One vitest process judges every mutant (mutant schemata): no process start per mutant. Its one
  // test file runs verify on the quick scope and replays the scenarios (scripts/mutation/judge.ts).
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: chosenFiles,
  plugins: ['@stryker-mutator/vitest-runner', './scripts/mutation/ignore-metadata.mjs'],
  ignorers: ['metadata'],
  // A mutant no run reaches is reported as such (no coverage) without a run of its own.
  coverageAnalysis: 'perTest',
  concurrency: 1,
  // A loaded two-core machine can take several times as long as the first run: only a hang is a timeout.
  timeoutMS: 60_000,
  incremental: true,
  incrementalFile: 'generated/mutation/incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'generated/mutation/index.html' },
  jsonReporter: { fileName: 'generated/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['generated/runs', 'generated/mutation', 'generated/site', '.stryker-tmp'],
  cleanTempDir: true,
  thresholds: { high: 95, low: 90, break: 90 },
};
