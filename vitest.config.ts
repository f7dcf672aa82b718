import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'generated/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The summary reporter runs last so `N passed, N failed` is the final line of every run.
    reporters: ['default', './test-support/summary-reporter.ts'],
  },
});
