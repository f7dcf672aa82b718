import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exitCodes, isEntryPoint, UsageError } from '../checker/cli/cli.ts';
import { checkOutputFolder } from '../checker/cli/output-folder.ts';
import { buildSite, siteFolder } from '../checker/report/site/build.ts';
import { type CommandLine, defineCommand } from './entry.ts';

/**
 * `npm run site`: writes the one-page HTML report, `generated/site/index.html`, from what `npm run verify`
 * and `npm run diagrams` wrote. `--from generated/runs/<run>` builds the page of a side run instead.
 */
export const command = {
  script: 'site',
  summary: 'Writes the one-page HTML report from what npm run verify and npm run diagrams wrote.',
  options: {
    from: {
      type: 'string',
      value: 'DIR',
      description:
        'the folder holding report.json (default: generated); the page goes to DIR/site/index.html',
    },
  },
  notes: ['Open the page from disk: it needs no server and no network.'],
} as const;

async function main({ values }: CommandLine<typeof command.options>): Promise<number> {
  // The page goes into --from's own site/ folder: the same refusals as verify's --out, the committed folder allowed.
  const reportDir = checkOutputFolder(values.from ?? 'generated', process.cwd(), {
    flag: '--from',
    committedRun: true,
  });
  // A folder without a report is the caller's mistake (exit 2), not the page builder's.
  if (!existsSync(join(process.cwd(), reportDir, 'report.json')))
    throw new UsageError(
      `${reportDir}/report.json: missing; run npm run verify to write it, or name a run's folder with --from`,
    );
  const written = await buildSite(process.cwd(), reportDir);
  console.log(`site: wrote ${written.join(', ')}; open ${siteFolder(reportDir)}/index.html in a browser`);
  return exitCodes.ok;
}

if (isEntryPoint(import.meta.url)) await defineCommand(command, main);
