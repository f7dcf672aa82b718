import { lstatSync, readFileSync } from 'node:fs';
import type { Scope } from '../../machines/scope.ts';
import { baseVariantName } from '../../variants/variants.ts';
import { exitCodes, UsageError } from '../cli/cli.ts';
import { writeFileAtomic } from '../cli/fs-atomic.ts';
import { InputFileError, inputCaps, readInputText } from '../cli/input-file.ts';
import { resolveScope } from '../cli/scope-file.ts';
import { terminalText } from '../cli/text-safety.ts';
import type { ItfTrace } from './itf.ts';
import { parseItf } from './itf.ts';
import { replayLasso } from './lasso-replay.ts';
import { lassoToScenario } from './lasso-scenario.ts';
import { replayFile } from './replay.ts';
import { replayTrace } from './trace-replay.ts';
import { traceToScenario } from './trace-scenario.ts';

/** Labels and messages come from the trace file: an escape code in one must not reach the terminal raw. */
const say = (line: string) => console.log(terminalText(line));

/**
 * Where `--to-scenario` may write: a `.yaml` path that is new, or a scenario an earlier `--to-scenario`
 * wrote (its `source:` says so). Any other file (a committed scenario, a system file) is never replaced.
 */
export function checkScenarioTarget(out: string): void {
  if (!/\.ya?ml$/.test(out))
    throw new UsageError(
      `--to-scenario: ${JSON.stringify(out)} is not a .yaml file, and replay reads scenarios from *.yaml; fix: name it OUT.yaml`,
    );
  let size: number;
  try {
    const info = lstatSync(out);
    // Not a regular file: the atomic write refuses it by its kind.
    if (!info.isFile()) return;
    size = info.size;
  } catch {
    return;
  }
  const text = size <= inputCaps.scenario ? readFileSync(out, 'utf8') : '';
  if (!/^source: "?npm run replay -- --trace/m.test(text))
    throw new UsageError(
      `--to-scenario: ${out} exists and is no scenario an earlier --to-scenario wrote (no \`source: npm run replay -- --trace\`), so it is not replaced; fix: give a new path, or delete the file first if it is to go`,
    );
}

/** `npm run replay -- --trace FILE [--variant NAME] [--scope S] [--to-scenario OUT.yaml]`: prints and exits. */
export async function replayTraceCommand(
  file: string,
  options: { variant?: string; scope?: string; toScenario?: string; property?: string },
): Promise<number> {
  // Checked before the replay: a path that may not be written costs nothing.
  if (options.toScenario !== undefined) checkScenarioTarget(options.toScenario);
  let text: string;
  try {
    text = readInputText(file, inputCaps.trace);
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    throw new UsageError(
      `--trace: ${error.message}${error.problem === 'no such file' ? '; an ITF file is e.g. generated/runs/<run>/counterexamples/<property>.itf.json' : ''}`,
    );
  }
  let trace: ReturnType<typeof parseItf>;
  try {
    trace = parseItf(text, file);
  } catch (error) {
    throw new UsageError(`--trace: ${(error as Error).message}`);
  }
  const scope = options.scope === undefined ? undefined : resolveScope(options.scope).scope;
  if (trace.loop !== undefined) return replayLassoCommand(trace, file, { ...options, scope });
  const result = replayTrace(trace, file, {
    ...(options.variant ? { variant: options.variant } : {}),
    ...(scope ? { scope } : {}),
    ...(options.property ? { property: options.property } : {}),
  });
  const steps = trace.states.length - 1;
  say(
    `replay --trace ${file}: ${String(options.property ?? trace['#meta'].property)} on ${result.variant}, ${steps} step${steps === 1 ? '' : 's'}`,
  );
  if (!result.replayed) {
    say(`NOT REPLAYED at step ${result.step}: ${result.problem}`);
    say(`The trace is not a run of ${result.variant}; exit ${exitCodes.expectationFailed}.`);
    return exitCodes.expectationFailed;
  }
  result.steps.forEach((s, i) => {
    const mark = result.violatedAt === i + 1 ? `   <- ${result.property.id} breaks here` : '';
    say(`  ${i + 1}. ${s.label}${mark}`);
  });
  if (options.toScenario) {
    await writeFileAtomic(options.toScenario, traceToScenario(result, file));
    const what =
      result.variant === baseVariantName
        ? 'a scenario of what the model does at each step, a regression test'
        : `a scenario that fails on ${result.variant} and passes on the model`;
    say(`wrote ${options.toScenario}: ${what}`);
  }
  if (result.violatedAt === undefined) {
    say(
      `NOT CONFIRMED: the trace replays on ${result.variant}, and ${result.property.id} holds in every state of it.`,
    );
    return exitCodes.ok;
  }
  const where = result.violatedAt === 0 ? 'in the initial state' : `at step ${result.violatedAt}`;
  say(`CONFIRMED: ${result.property.id} is violated ${where} on ${result.variant}: ${result.verdict}`);
  return exitCodes.violated;
}

/** A lasso's replay: 13 when it confirms a fair run that never reaches the goal, 14 when it is no run, else 0. */
async function replayLassoCommand(
  trace: ItfTrace,
  file: string,
  options: { variant?: string; scope?: Scope; toScenario?: string; property?: string },
): Promise<number> {
  const result = replayLasso(trace, file, {
    ...(options.variant ? { variant: options.variant } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.property ? { property: options.property } : {}),
  });
  const steps = trace.states.length - 1;
  say(
    `replay --trace ${file}: lasso of ${String(options.property ?? trace['#meta'].property)} on ${result.variant}, ${steps} steps, the cycle from state ${trace.loop}`,
  );
  if (!result.replayed) {
    say(`NOT REPLAYED at step ${result.step}: ${result.problem}`);
    say(`The lasso is not a run of ${result.variant}; exit ${exitCodes.expectationFailed}.`);
    return exitCodes.expectationFailed;
  }
  result.steps.forEach((s, i) => {
    if (i === result.loop) say('  cycle, repeated forever:');
    say(`  ${i + 1}. ${s.label}`);
  });
  if (options.toScenario) {
    const text = lassoToScenario(result, file);
    await writeFileAtomic(options.toScenario, text);
    // The promise is checked, not assumed: the written file is replayed on the model at once.
    const onModel = replayFile(options.toScenario, text, baseVariantName);
    const failed = onModel.steps.filter((s) => !s.ok);
    if (onModel.status === 'passed') {
      const what =
        result.variant === baseVariantName
          ? 'a scenario of the path with the goal as `eventually`; it passes on the model'
          : `a scenario whose \`eventually\` fails on ${result.variant}; it passes on the model`;
      say(`wrote ${options.toScenario}: ${what}`);
    } else
      say(
        `wrote ${options.toScenario}, but it does not pass on the model (${onModel.error ?? failed.map((s) => `step ${s.index + 1}, ${s.text}: ${s.outcome}`).join('; ')}); replay it to see why`,
      );
  }
  if (result.confirmed === undefined) {
    say(`NOT CONFIRMED: the lasso replays on ${result.variant}, but ${result.unconfirmed}.`);
    return exitCodes.ok;
  }
  const where = result.namespace ? ` for ${result.namespace}` : '';
  say(`CONFIRMED: ${result.property.id} is violated${where} on ${result.variant}: ${result.confirmed}`);
  return exitCodes.liveness;
}
