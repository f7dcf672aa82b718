import { defineConfig } from 'vitest/config';

/**
 * `npm run mutation`'s test (stryker.config.mjs): verify on the quick scope and the scenarios, in one
 * file that the ordinary `npm test` does not include. Each run evaluates the modules anew
 * (`isolate`), so a mutant in code that runs at import (the machines' definitions) takes effect, and
 * no table or memo filled under one mutant is read under the next.
 */
export default defineConfig({
  test: {
    include: ['scripts/mutation/*.judge.ts'],
    exclude: ['node_modules/**', 'generated/**', '.stryker-tmp/**'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    isolate: true,
  },
});
