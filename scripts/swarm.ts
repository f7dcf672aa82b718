import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { exitCodes, integerOption, isEntryPoint, UsageError } from '../checker/cli/cli.ts';
import { writeFileAtomic } from '../checker/cli/fs-atomic.ts';
import { schemaPath } from '../checker/cli/schema-ref.ts';
import { modelOf, promelaModel } from '../checker/judging/promela.ts';
import { spinAvailable } from '../checker/judging/spin.ts';
import {
  mergeSwarm,
  runSwarm,
  type SwarmReport,
  type SwarmSlice,
  sliceRuns,
  swarmSlice,
  swarmSliceSchema,
} from '../checker/judging/swarm.ts';
import { baseVariantName } from '../variants/variants.ts';
import { type CommandLine, count, defineCommand, scopeOption } from './entry.ts';

/**
 * `npm run swarm -- --scope NAME --runs N [--slice I/M] [--out FILE]`: N diversified bitstate runs of
 * SPIN on the exported Promela (checker/judging/swarm.ts); `--merge FILE...` combines the slices' reports.
 */
export const command = {
  script: 'swarm',
  summary:
    'Swarm verification: diversified bitstate runs of SPIN on the exported model, one report with the combined chance of a miss.',
  options: {
    scope: scopeOption(),
    variant: { type: 'string', value: 'NAME', description: `${baseVariantName} (default) or a seeded fault` },
    runs: { type: 'string', value: 'N', description: 'runs in the whole swarm (default 4)' },
    slice: {
      type: 'string',
      value: 'I/M',
      description: 'run only runs I, I+M, I+2M, ... (machine I of M; default 0/1, every run)',
    },
    log2: { type: 'string', value: 'K', description: 'each filter has 2^K bits (default 27: 16 MiB)' },
    'max-depth': { type: 'string', value: 'N', description: "pan's depth bound -m (default 2,000,000)" },
    out: { type: 'string', value: 'FILE', description: "write this slice's runs as JSON (for --merge)" },
    merge: {
      type: 'string',
      value: 'FILE',
      multiple: true,
      description: 'combine the JSON of slices into one report instead of running',
    },
  },
  exits: [exitCodes.partial],
  notes: [
    'A bitstate search may take a new state for a seen one, so a swarm proves nothing: it ends with exit 10 and the estimated chance that every run missed some state.',
    'On many machines: run the same command with --slice I/M --out slice-I.json on machine I, then --merge slice-*.json anywhere.',
  ],
} as const;

function printReport(report: SwarmReport): void {
  console.log(`swarm of ${report.runs.length} bitstate runs: ${report.variant} on ${report.scope}`);
  for (const r of report.runs)
    console.log(
      `  run ${String(r.run).padStart(3)} ${r.flags.join(' ').padEnd(28)} ${count(r.states).padStart(12)} states ${count(r.transitions).padStart(14)} transitions  ${r.seconds.toFixed(2)} s  expected missed ${r.expectedMissed.toExponential(2)}${r.truncated ? '  TRUNCATED (depth bound)' : ''}${r.errors > 0 ? `  ${r.errors} errors` : ''}`,
    );
  console.log(
    `  at least ${count(report.statesAtLeast)} states; chance a given state was missed by every run ${report.missPerState.toExponential(2)}; expected states missed ${report.expectedMissed.toExponential(2)}; combined chance of any miss ${report.missProbability.toExponential(2)}; ${report.errors} errors (invalid end states)`,
  );
}

function sliceOption(text: string | undefined): { index: number; count: number } {
  if (text === undefined) return { index: 0, count: 1 };
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match || Number(match[2]) < 1 || Number(match[1]) >= Number(match[2]))
    throw new UsageError(
      `--slice: ${JSON.stringify(text)} is not I/M with 0 <= I < M; write e.g. --slice 0/4`,
    );
  return { index: Number(match[1]), count: Number(match[2]) };
}

/** A slice file of `--out`, checked against its schema: a wrong one is named with the field at fault. */
export function readSlice(file: string): SwarmSlice {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `--merge: ${file}: ${(error as Error).message}; fix: name a file written by swarm --out`,
    );
  }
  const parsed = swarmSliceSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new UsageError(
    `--merge: ${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}; fix: name a file written by swarm --out (${schemaPath('swarm')})`,
  );
}

async function main({ values }: CommandLine<typeof command.options>): Promise<number> {
  const scope = values.scope ?? 'quick';
  const variant = values.variant ?? baseVariantName;
  const merged = values.merge ?? [];
  if (merged.length > 0) {
    const slices = merged.map((file) => readSlice(file));
    printReport(
      mergeSwarm(
        slices[0].scope,
        slices[0].variant,
        slices.flatMap((s) => s.runs),
      ),
    );
    return exitCodes.partial;
  }
  if (!spinAvailable()) throw new UsageError('spin and gcc are needed (Debian: apt-get install spin gcc)');
  const runs = integerOption(values, 'runs', { min: 1, max: 10000, example: '8' }) ?? 4;
  const log2Bits = integerOption(values, 'log2', { min: 10, max: 35, example: '27' }) ?? 27;
  const maxDepth = integerOption(values, 'max-depth', { min: 1000, example: '2000000' }) ?? 2_000_000;
  const part = sliceOption(values.slice);
  const model = modelOf(variant, scope);
  const promela = promelaModel(model, { variant });
  const done = runSwarm(promela.text, sliceRuns(runs, part.index, part.count), { log2Bits, maxDepth });
  const out = values.out;
  if (out !== undefined) {
    const slice = swarmSlice(
      model.scope.name,
      variant,
      done,
      relative(process.cwd(), resolve(out)).split(sep).join('/'),
    );
    await writeFileAtomic(out, `${JSON.stringify(slice, null, 2)}\n`);
    console.log(`wrote ${out}: runs ${done.map((r) => r.run).join(', ')} of ${runs}`);
  }
  printReport(mergeSwarm(model.scope.name, variant, done));
  return exitCodes.partial;
}

if (isEntryPoint(import.meta.url)) await defineCommand(command, main);
