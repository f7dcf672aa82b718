import { posix, relative, sep } from 'node:path';
import { type ExitCode, exitCodes } from '../cli/cli.ts';
import type { ScenarioInvariantRun } from './scenario-invariants.ts';

/**
 * One verdict for a `verify` run, from every cause at once: each class that failed is listed (in the
 * report, report.json and on stderr), and the exit code is the first of them in a documented precedence.
 */
export type FailureClass =
  | 'safety'
  | 'scenarios'
  | 'deadlock'
  | 'liveness'
  | 'partial'
  | 'unproven'
  | 'coverage'
  | 'golden';

export interface Failure {
  class: FailureClass;
  exitCode: ExitCode;
  what: string;
}

export interface Outcome {
  exitCode: ExitCode;
  /** Every class that failed, in precedence order; empty when the run succeeded. */
  failed: Failure[];
}

/** The precedence of verify's exit codes: a violation outranks a stuck run, which outranks what was left unjudged. */
export const verifyPrecedence: readonly ExitCode[] = [
  exitCodes.violated,
  exitCodes.deadlock,
  exitCodes.liveness,
  exitCodes.partial,
  exitCodes.unproven,
  exitCodes.undeclared,
  exitCodes.goldenMoved,
];

export const precedenceText = verifyPrecedence.join(' > ');

const codeOf: Record<FailureClass, ExitCode> = {
  safety: exitCodes.violated,
  scenarios: exitCodes.violated,
  deadlock: exitCodes.deadlock,
  liveness: exitCodes.liveness,
  partial: exitCodes.partial,
  unproven: exitCodes.unproven,
  coverage: exitCodes.undeclared,
  golden: exitCodes.goldenMoved,
};

export const failure = (kind: FailureClass, what: string): Failure => ({
  class: kind,
  exitCode: codeOf[kind],
  what,
});

/** The outcome of the failures found: sorted by precedence, the exit code the first one's. */
export function outcomeOf(failures: readonly Failure[]): Outcome {
  const failed = [...failures].sort(
    (a, b) => verifyPrecedence.indexOf(a.exitCode) - verifyPrecedence.indexOf(b.exitCode),
  );
  return { exitCode: failed[0]?.exitCode ?? exitCodes.ok, failed };
}

/** The report's part for the committed scenarios judged along their replay. */
export interface ScenarioSummary {
  replayed: number;
  skipped: number;
  states: number;
  violations: { file: string; line: number; step: string; property: string; message: string }[];
}

export function scenarioSummary(run: ScenarioInvariantRun, root: string): ScenarioSummary {
  return {
    replayed: run.replayed,
    skipped: run.skipped,
    states: run.states,
    violations: run.violations.map((v) => ({
      file: relative(root, v.file).split(sep).join(posix.sep),
      line: v.line,
      step: v.step,
      property: v.propertyId,
      message: v.message,
    })),
  };
}

/** The lines verify prints on stderr: one per failed class, then the exit code and why. */
export function outcomeLines(outcome: Outcome): string[] {
  if (outcome.failed.length === 0) return [];
  return [
    ...outcome.failed.map((f) => `verify: failed: ${f.class}: ${f.what} (exit ${f.exitCode})`),
    `verify: exit ${outcome.exitCode}: the first failed class in the precedence ${precedenceText}`,
  ];
}
