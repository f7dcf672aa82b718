import { exitCodes, isEntryPoint } from '../checker/cli/cli.ts';
import { createProgressReporter } from '../checker/engine/progress.ts';
import { livenessProgressLine, mutantsStamp, runMutants, writeMutants } from '../checker/report/mutants.ts';
import { sourceRoot, stampSources } from '../checker/report/stamp.ts';
import { mutants, type Variant } from '../variants/variants.ts';
import { type CommandLine, defineCommand } from './entry.ts';
import { selectNamed } from './named.ts';

/**
 * `npm run mutants [-- NAME...]`: checks every seeded fault (or the named ones), prints how each was
 * killed and how long it took, and writes generated/mutants.md and .json when all were run. A mutant
 * no property kills means a property is missing or too weak.
 */
export const command = {
  script: 'mutants',
  summary:
    'Checks that every seeded fault (variants/variants.ts) is killed by some property; writes generated/mutants.md and .json when all are run.',
  positionals: {
    usage: '[NAME]...',
    description: `mutants to run (default: all): ${mutants.map((m) => m.name).join(', ')}`,
  },
  options: {
    'stop-on-first': {
      type: 'boolean',
      description:
        'end each search at the level of its first violation instead of looking 3 steps further (faster; the tables are then not written)',
    },
    quiet: { type: 'boolean', short: 'q', description: 'print no progress, only one line per mutant' },
  },
  exits: [exitCodes.survived],
  notes: [
    "Progress: a bar redrawn in place on a terminal, a plain line every 5 s otherwise (CI), then a line per liveness property judged on a mutant's graph; NO_COLOR turns colour off.",
  ],
} as const;

async function main({ positionals: names, values }: CommandLine<typeof command.options>): Promise<number> {
  const stopOnFirst = values['stop-on-first'] === true;
  const selected = selectNamed('mutant', mutants, names);
  // Taken before the run: an edit made meanwhile leaves the tables stale, never falsely fresh.
  const sources = stampSources(sourceRoot, mutantsStamp);
  const started = performance.now();
  const label = (variant: Variant) =>
    `mutant ${selected.indexOf(variant) + 1}/${selected.length} ${variant.name}`;
  const results = runMutants(
    {
      ...(stopOnFirst ? { horizonSteps: 0 } : {}),
      ...(values.quiet === true
        ? {}
        : {
            progress: (variant) => createProgressReporter({ label: label(variant), transient: true }),
            livenessProgress: (variant, judged, total, id) =>
              console.error(livenessProgressLine(label(variant), judged, total, id)),
          }),
    },
    (r, ms) => {
      const seconds = (ms / 1000).toFixed(1);
      const verdict =
        r.killedBy.length > 0
          ? `killed by ${r.killedBy.join(', ')} in ${r.counterexampleSteps.length} steps (${r.search}, ${r.scope}, ${r.statesExplored} states)`
          : `SURVIVED (${r.statesExplored} states, then random walks)`;
      console.log(`${r.mutant}: ${verdict}, ${seconds} s`);
    },
    selected,
  );
  // The tables show what each mutant breaks within 3 more steps: a shorter look would rewrite them wrongly.
  if (selected.length === mutants.length && !stopOnFirst) {
    const written = await writeMutants(process.cwd(), results, sources);
    console.log(`mutants: wrote ${written.join(', ')}`);
  }
  const survivors = results.filter((r) => r.killedBy.length === 0);
  console.log(
    `mutants: ${results.length - survivors.length} of ${results.length} killed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (survivors.length === 0) return exitCodes.ok;
  console.error(`mutants: not killed by any property: ${survivors.map((r) => r.mutant).join(', ')}`);
  return exitCodes.survived;
}

if (isEntryPoint(import.meta.url)) await defineCommand(command, main);
