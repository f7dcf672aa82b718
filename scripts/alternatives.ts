import { exitCodes, isEntryPoint } from '../checker/cli/cli.ts';
import {
  type AlternativeRow,
  alternatives,
  alternativesStamp,
  columns,
  runAlternatives,
  writeAlternatives,
} from '../checker/report/alternatives.ts';
import { sourceRoot, stampSources } from '../checker/report/stamp.ts';
import { type CommandLine, defineCommand } from './entry.ts';
import { selectNamed } from './named.ts';

/**
 * `npm run alternatives [-- NAME...]`: checks the model and every design alternative
 * (variants/design-variants.ts) against the documents' goals, the safety and the liveness properties,
 * prints one line per row, and writes generated/alternatives.md and .json when all rows were run.
 */
export const command = {
  script: 'alternatives',
  summary:
    'Checks every design alternative against every property; writes generated/alternatives.md, .json and the counterexamples they link when all are run.',
  positionals: {
    usage: '[NAME]...',
    description: `rows to run (default: all): ${alternatives.map((a) => a.name).join(', ')}`,
  },
  options: {},
  notes: ['A design alternative that breaks a property is a finding, not a failure: the exit code is 0.'],
} as const;

function line(row: AlternativeRow): string {
  const broken = columns.filter((c) => row.cells[c.id].verdict === 'violated').map((c) => c.id);
  const waiting = columns.filter((c) => row.cells[c.id].verdict === 'needs-relative-time').length;
  return `${row.variant}: ${broken.length > 0 ? `breaks ${broken.join(', ')}` : 'breaks nothing'}${waiting > 0 ? `; ${waiting} wait for relative time` : ''} (${row.states} states${row.complete ? '' : ', bounded'}, ${(row.durationMs / 1000).toFixed(1)} s)`;
}

async function main({ positionals: names }: CommandLine<typeof command.options>): Promise<number> {
  const selected = selectNamed('alternative', alternatives, names);
  // Taken before the run: an edit made meanwhile leaves the matrix stale, never falsely fresh.
  const sources = stampSources(sourceRoot, alternativesStamp);
  const started = performance.now();
  const result = runAlternatives({}, (row) => console.log(line(row)), selected);
  // A partial run would rewrite the matrix without the rows left out.
  if (selected.length === alternatives.length) {
    const written = await writeAlternatives(process.cwd(), result, sources);
    console.log(
      `alternatives: wrote ${written.length} files (generated/alternatives.md, .json, counterexamples)`,
    );
  }
  console.log(
    `alternatives: ${result.rows.length} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return exitCodes.ok;
}

if (isEntryPoint(import.meta.url)) await defineCommand(command, main);
