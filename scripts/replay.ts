import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../checker/scenario/catalog.ts';
import { generateScenariosDoc } from '../checker/scenario/docs.ts';
import { formatReport, summary } from '../checker/scenario/format.ts';
import { replayFile, type ScenarioReport } from '../checker/scenario/replay.ts';

/**
 * `npm run replay -- <file or folder>...`: replays each scenario on the model and prints every step
 * with its outcome. Exits 0 only when every scenario matches (pending ones are known gaps and do not
 * fail the run); a malformed file gets one line and the run goes on to the next. `--verbose` shows
 * every controller action; `--write-docs` first regenerates docs/scenarios.md.
 */
const args = process.argv.slice(2);
const verbose = args.includes('--verbose') || args.includes('-v');
if (args.includes('--write-docs')) {
  try {
    for (const path of await generateScenariosDoc(projectRoot)) console.log(`wrote ${path}`);
  } catch (error) {
    console.error(
      `cannot write the scenarios doc: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}
const targets = args.filter((a) => !a.startsWith('-'));
if (targets.length === 0) targets.push('scenarios');

function scenarioFiles(target: string): string[] {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(target);
  } catch {
    return [target];
  }
  if (!info.isDirectory()) return [target];
  return readdirSync(target)
    .filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'))
    .sort()
    .map((name) => join(target, name));
}

const reports: ScenarioReport[] = [];
for (const file of targets.flatMap(scenarioFiles)) {
  const report = replayFile(file);
  reports.push(report);
  for (const line of formatReport(report, { verbose })) console.log(line);
  console.log('');
}
console.log(summary(reports));
process.exit(reports.every((r) => r.status === 'passed' || r.status === 'pending') ? 0 : 1);
