import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CheckResult, check } from '../checker/check.ts';
import { parseVerifyArgs, UsageError, type VerifyArgs, verifyUsage } from '../checker/cli-args.ts';
import { checkLiveness, type LivenessRun } from '../checker/liveness-system.ts';
import { createProgressReporter } from '../checker/progress.ts';
import { buildReport, completion, reportFolder, summaryText, writeReport } from '../checker/report.ts';
import { GraphRecorder } from '../checker/state-graph.ts';
import { writeTraceability } from '../checker/traceability.ts';
import { type SystemEvent, SystemModel, type SystemState } from '../machines/system.ts';
import { baseVariantName, machinesFor } from '../machines/variants.ts';
import { livenessProperties } from '../properties/liveness.ts';
import { safetyProperties } from '../properties/safety.ts';
import type { Property } from '../properties/types.ts';

/**
 * `npm run verify`: explores the system model exhaustively and judges every safety property, prints a
 * TLC-like summary and writes the report. Exit codes follow TLC: 0 every property holds, 12 a safety
 * property is violated, 11 a deadlock, 13 a liveness property is violated, 2 bad arguments or input,
 * 1 an internal error (or a search the memory guard cut).
 */
// Reports go under the working folder, as every generator's do (npm runs scripts from the project root).
const outputRoot = process.cwd();
const sourceRoot = fileURLToPath(new URL('..', import.meta.url));
const debug = process.env.NSMODEL_DEBUG === '1';
const exitCodes = { holds: 0, internal: 1, usage: 2, violated: 12, deadlock: 11, liveness: 13 } as const;

async function main(argv: readonly string[]): Promise<number> {
  let args: VerifyArgs;
  try {
    args = parseVerifyArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`verify: ${error.message}`);
    return exitCodes.usage;
  }
  if (args.help) {
    console.log(verifyUsage);
    return exitCodes.holds;
  }
  const machines = machinesFor(args.variant);
  if (!machines) throw new Error(`variant ${args.variant} has no machines`);
  let model: SystemModel;
  try {
    model = new SystemModel(args.scope, machines);
  } catch (error) {
    if (args.scopeSource.kind !== 'file') throw error;
    console.error(
      `verify: --scope: ${args.scopeSource.path} is valid JSON but the model cannot be built from it: ${(error as Error).message}`,
    );
    return exitCodes.usage;
  }
  const properties =
    args.properties.length > 0
      ? safetyProperties.filter((p) => args.properties.includes(p.id))
      : safetyProperties;
  if (args.random) return runRandom(model, properties, args.variant, args.random);
  return runExhaustive(model, properties, args);
}

async function runExhaustive(model: SystemModel, properties: Property[], args: VerifyArgs): Promise<number> {
  // Only the full default run of the machines as written is the committed report; anything else is a side run.
  const canonical =
    args.scopeSource.kind === 'named' &&
    args.scopeSource.name === 'default' &&
    args.variant === baseVariantName &&
    args.properties.length === 0 &&
    args.maxStates === undefined;
  const outDir = reportFolder(canonical, args.variant, model.scope.name);
  const reporter = createProgressReporter({ label: `verify ${args.variant}/${model.scope.name}` });
  const recorder = args.properties.length === 0 ? new GraphRecorder<SystemState, SystemEvent>() : undefined;
  const result: CheckResult = check(model, properties, {
    ...(recorder ? { recorder } : {}),
    ...(args.maxStates !== undefined ? { maxStates: args.maxStates } : {}),
    progress: (p) => reporter.update(p),
    stopWhenAllViolated: true,
  });
  reporter.finish({
    states: result.states,
    queue: 0,
    transitions: result.transitions,
    depth: result.depth,
    elapsedMs: result.durationMs,
    statesPerSecond: result.statesPerSecond,
  });
  const violated = result.properties.some((p) => p.status === 'violated');
  const cutByMemory = !result.complete && result.stopReason === 'memory';
  // Liveness is judged on the graph the safety search kept; a run restricted to chosen safety properties skips it.
  const liveness: LivenessRun | undefined = recorder
    ? checkLiveness(model, livenessProperties, { graph: recorder.graph() })
    : undefined;
  const context = { model, variant: args.variant, outDir, ...(liveness ? { liveness } : {}) };
  const report = buildReport(result, context);
  // A report the memory guard cut short must not replace the committed one.
  const write = !(canonical && cutByMemory);
  if (write) {
    await writeReport(outputRoot, report, result, context);
    if (canonical) await writeTraceability(outputRoot);
  }
  if (args.json) console.log(JSON.stringify(report, null, 2));
  else console.log(summaryText(report, result, outDir, write));
  if (violated) return exitCodes.violated;
  if (liveness && liveness.deadlock.count > 0) return exitCodes.deadlock;
  if (liveness?.properties.some((p) => p.status === 'violated')) return exitCodes.liveness;
  if (cutByMemory) {
    console.error(
      `verify: the search is ${completion(result)}; try --max-states N, a smaller scope, or more memory (node --max-old-space-size)`,
    );
    return exitCodes.internal;
  }
  return exitCodes.holds;
}

/** The part of `checker/random.ts` verify uses; loaded at run time so the exhaustive search never depends on it. */
interface RandomModule {
  randomRun(
    model: SystemModel,
    properties: Property[],
    options: { runs: number; seed?: number; path?: string },
  ): { ok: boolean; runs: number; seed: number };
  randomFailureText(result: { ok: boolean; runs: number; seed: number }): string;
}

async function runRandom(
  model: SystemModel,
  properties: Property[],
  variantName: string,
  options: { runs: number; seed?: number; path?: string },
): Promise<number> {
  const modulePath = join(sourceRoot, 'checker', 'random.ts');
  if (!existsSync(modulePath)) {
    console.error(
      'verify: --random needs checker/random.ts, which this tree does not have yet; run without --random for the exhaustive search',
    );
    return exitCodes.usage;
  }
  const loaded: Partial<RandomModule> = await import(modulePath);
  if (typeof loaded.randomRun !== 'function' || typeof loaded.randomFailureText !== 'function') {
    throw new Error('checker/random.ts does not export randomRun and randomFailureText');
  }
  console.log(
    `nsmodel verify --random: scope ${model.scope.name}, variant ${variantName}, ${options.runs} walks`,
  );
  const result = loaded.randomRun(model, properties, options);
  console.log(loaded.randomFailureText(result));
  return result.ok ? exitCodes.holds : exitCodes.violated;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    `verify: internal error: ${message.split('\n')[0]}${debug ? '' : ' (set NSMODEL_DEBUG=1 for the stack trace)'}`,
  );
  if (debug) console.error(error);
  process.exitCode = exitCodes.internal;
}
