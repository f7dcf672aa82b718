import { parseArgs } from 'node:util';
import { quietOnClosedPipe, UsageError } from '../checker/cli.ts';
import { checkOutputFolder } from '../checker/output-folder.ts';
import { buildSite, siteFolder } from '../checker/site/build.ts';

/**
 * `npm run site`: writes the one-page HTML report, `generated/site/index.html`, from what `npm run verify`
 * and `npm run diagrams` wrote. `--from generated/runs/<run>` builds the page of a side run instead.
 */
const usage = `usage: npm run site [-- --from DIR]

  --from DIR   the folder holding report.json (default: generated); the page goes to DIR/site/index.html
  --help       this text

Open the page from disk: it needs no server and no network.`;

const rootDir = process.cwd();
const debug = process.env.NSMODEL_DEBUG === '1';

function main(): Promise<number> | number {
  let values: { from?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { from: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`site: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const from = values.from ?? 'generated';
  // The page goes into --from's own site/ folder: the same refusals as verify's --out, the committed folder allowed.
  const reportDir = checkOutputFolder(from, rootDir, { flag: '--from', committedRun: true });
  return buildSite(rootDir, reportDir).then((written) => {
    console.log(`site: wrote ${written.join(', ')}; open ${siteFolder(reportDir)}/index.html in a browser`);
    return 0;
  });
}

quietOnClosedPipe();
try {
  process.exitCode = await main();
} catch (error) {
  console.error(`site: ${(error as Error).message.split('\n')[0]}`);
  if (debug) console.error(error);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
