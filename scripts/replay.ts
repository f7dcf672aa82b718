import { statSync } from 'node:fs';
import { exitCodes, isEntryPoint, UsageError } from '../checker/cli/cli.ts';
import { closest } from '../checker/cli/request-line.ts';
import { terminalText } from '../checker/cli/text-safety.ts';
import { generateScenariosDoc } from '../checker/report/scenario-docs.ts';
import { projectRoot, scenarioFilesUnder } from '../checker/scenario/catalog.ts';
import { formatReport, summary } from '../checker/scenario/format.ts';
import { replayFile, type ScenarioReport } from '../checker/scenario/replay.ts';
import { replayTraceCommand } from '../checker/scenario/trace-command.ts';
import { baseVariantName, variants } from '../variants/variants.ts';
import { type CommandLine, defineCommand } from './entry.ts';

/**
 * `npm run replay -- <file or folder>...`: replays each scenario on the model and prints every step
 * with its outcome. A malformed file gets one line and the run goes on to the next; the exit code
 * names the worst outcome (malformed, then failed, then pending).
 */
export const command = {
  script: 'replay',
  summary: 'Replays scenario files (YAML) step by step on the system model and compares every answer.',
  positionals: {
    usage: 'FILE|FOLDER...',
    description: 'scenario files, or folders of *.yaml (e.g. scenarios)',
  },
  options: {
    verbose: { type: 'boolean', short: 'v', description: 'show every controller action of every step' },
    'write-docs': { type: 'boolean', description: 'first regenerate docs/scenarios.md from scenarios/' },
    trace: {
      type: 'string',
      value: 'FILE',
      description:
        'replay an ITF counterexample (counterexamples/<property>.itf.json) and confirm its violation (exit 12)',
    },
    variant: {
      type: 'string',
      value: 'NAME',
      description: `replay every file, or the trace, on this variant instead of the one it names: ${baseVariantName} (the machines as written) or a name of variants/variants.ts`,
    },
    scope: {
      type: 'string',
      value: 'NAME|FILE',
      description: 'with --trace: the scope, when the trace names one that is not under scopes/',
    },
    property: {
      type: 'string',
      value: 'ID',
      description:
        'with --trace: the property to judge, when the trace names none in #meta.property (a trace another tool wrote)',
    },
    'to-scenario': {
      type: 'string',
      value: 'OUT.yaml',
      description:
        'with --trace: write the counterexample as a scenario, a regression test that fails on its variant and passes on the model',
    },
  },
  exits: [exitCodes.violated, exitCodes.liveness, exitCodes.expectationFailed, exitCodes.pending],
  notes: [
    'With several outcomes the exit code is the worst: malformed (2), then failed (14), then pending (15).',
    'With --trace: 12 when the replay confirms the violation, 13 when it confirms a lasso (a trace with loop) of a liveness property, 14 when the trace does not replay on the variant, 0 when it replays and the property holds.',
  ],
} as const;

function scenarioFiles(target: string): string[] {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UsageError(`${target}: a symbolic link loop; point the link at a real file or folder`);
    throw new UsageError(
      `no file or folder ${JSON.stringify(target)}; name a scenario file or folder, e.g. scenarios`,
    );
  }
  if (!info.isDirectory()) return [target];
  const files = scenarioFilesUnder(target);
  if (files.length === 0)
    throw new UsageError(`${target} holds no scenario (*.yaml); name a file or another folder`);
  return files;
}

/** The command's work on the command line read (exported for tests that judge it in process). */
export async function main({ values, positionals }: CommandLine<typeof command.options>): Promise<number> {
  const trace = values.trace;
  if (trace !== undefined) {
    if (positionals.length > 0)
      throw new UsageError('--trace replays one trace; give no scenario files with it');
    return replayTraceCommand(trace, {
      variant: values.variant,
      scope: values.scope,
      toScenario: values['to-scenario'],
      property: values.property,
    });
  }
  for (const flag of ['scope', 'to-scenario', 'property'] as const)
    if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to --trace; add --trace FILE`);
  if (values['write-docs'] === true) {
    for (const path of await generateScenariosDoc(projectRoot)) console.log(`wrote ${path}`);
    if (positionals.length === 0) return exitCodes.ok;
  }
  if (positionals.length === 0)
    throw new UsageError('no scenario given; name files or folders, e.g. npm run replay -- scenarios');
  const files = positionals.flatMap(scenarioFiles);
  const variant = typeof values.variant === 'string' ? values.variant : undefined;
  const known = [baseVariantName, ...variants.map((v) => v.name)];
  if (variant !== undefined && !known.includes(variant)) {
    const guess = closest(variant, known);
    throw new UsageError(
      `unknown variant ${JSON.stringify(variant)}; ${guess ? `did you mean ${guess}? ` : ''}known: ${known.join(', ')}`,
    );
  }
  const reports: ScenarioReport[] = [];
  for (const file of files) {
    const report = replayFile(file, undefined, variant);
    reports.push(report);
    // Titles and steps come from the file: an escape code in one must not reach the terminal raw.
    for (const line of formatReport(report, { verbose: values.verbose === true }))
      console.log(terminalText(line));
    console.log('');
  }
  console.log(summary(reports));
  const any = (status: ScenarioReport['status']) => reports.some((r) => r.status === status);
  if (any('malformed')) return exitCodes.usage;
  if (any('failed')) return exitCodes.expectationFailed;
  if (any('pending')) return exitCodes.pending;
  return exitCodes.ok;
}

if (isEntryPoint(import.meta.url)) await defineCommand(command, main);
