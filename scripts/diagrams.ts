import { exitCodes, isEntryPoint, UsageError } from '../checker/cli/cli.ts';
import { ChromiumNotFoundError, diagramSets, generateDiagrams } from '../checker/report/render.ts';
import { type CommandLine, defineCommand } from './entry.ts';

/**
 * `npm run diagrams [-- --force]`: regenerates every machine's Mermaid source and SVG and
 * docs/machines.md. An SVG whose source and renderer did not change is kept unless --force is given.
 */
export const command = {
  script: 'diagrams',
  summary:
    'Writes generated/diagrams/<id>.mmd and .svg and docs/machines.md from the machines; only stale SVGs are re-rendered (one Chromium per run).',
  options: {
    force: { type: 'boolean', description: 'redraw every SVG, even those whose stamp matches their source' },
  },
  notes: ['SIGINT/SIGTERM close the browser and remove unfinished files before exiting.'],
} as const;

async function main({ values }: CommandLine<typeof command.options>): Promise<number> {
  const started = performance.now();
  try {
    const written = await generateDiagrams(process.cwd(), diagramSets, {
      force: values.force === true,
      log: (line) => console.log(line),
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`diagrams: ${written.length} files up to date in ${seconds} s`);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof ChromiumNotFoundError) throw new UsageError(error.message);
    throw error;
  }
}

if (isEntryPoint(import.meta.url)) await defineCommand(command, main);
