import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Prints `N passed, N failed` alone on the last line of a run, for CI logs and scripts to read. A test
 * file that could not run (an import or syntax error) counts as one failure, so a broken file is never
 * hidden behind "0 failed".
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    let passed = 0;
    let failed = 0;
    for (const testModule of testModules) {
      let tests = 0;
      for (const test of testModule.children.allTests()) {
        tests++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
      }
      if (tests === 0 && testModule.state() === 'failed') failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${summaryLine(passed, failed)}\n`);
  }
}

export function summaryLine(passed: number, failed: number): string {
  return `${passed} passed, ${failed} failed`;
}
