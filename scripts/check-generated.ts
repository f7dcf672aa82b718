import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, sep } from 'node:path';
import {
  type CommandSpec,
  exitCodes,
  helpText,
  isEntryPoint,
  parseCommandLine,
  runCommand,
  UsageError,
  versionText,
} from '../checker/cli/cli.ts';
import type { Generator } from '../checker/report/generator.ts';
import { generators } from '../checker/report/generators.ts';
import { stampedOutputs, stampProblems } from '../checker/report/stamp.ts';

/**
 * `npm run check:generated`: names every stale, missing or unexpected generated file. Quick generators
 * run into an empty folder and are compared with the tree: text byte for byte, an SVG by its render
 * stamp. Long ones (the report's search, the mutants, the alternatives) and the screenshots are judged
 * by their stamps, a digest of every source they can read, in seconds; `--full` runs the long ones
 * again and compares their bytes too. Nothing is ignored silently.
 */
export const spec: CommandSpec = {
  name: 'npm run check:generated --',
  summary:
    'Names every stale, missing or unexpected generated file; long outputs are judged by their stamps.',
  options: {
    full: {
      type: 'boolean',
      description:
        'also run the long generators (report search, mutants, alternatives) again and compare their bytes (minutes)',
    },
    only: {
      type: 'string',
      value: 'NAME',
      multiple: true,
      description: `check only these generators: ${generators.map((g) => g.name).join(', ')}`,
    },
  },
  exitCodes: [exitCodes.ok, exitCodes.internal, exitCodes.usage, exitCodes.stale],
  notes: ['Progress: one line when each generator starts and ends; the long ones print a line every 5 s.'],
};

const rootDir = process.cwd();

async function filesUnder(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => null);
  if (!info) return [];
  if (info.isFile()) return [path];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

const toPosix = (path: string) => path.split(sep).join(posix.sep);

interface Findings {
  stale: string[];
  missing: string[];
  checked: number;
}

/** Copies a generator's committed files into `scratch`, for the generators after it. */
async function copyCommitted(generator: Generator, scratch: string): Promise<void> {
  for (const owned of generator.owns ?? [])
    for (const file of await filesUnder(join(rootDir, owned))) {
      const target = join(scratch, relative(rootDir, file));
      await mkdir(dirname(target), { recursive: true });
      await copyFile(file, target);
    }
}

/** Judges a stamped generator's committed outputs by its stamp, and copies them into `scratch` for the generators after it. */
async function judgeByStamp(generator: Generator, scratch: string, found: Findings): Promise<Set<string>> {
  const stampSpec = generator.stamp;
  if (!stampSpec) throw new Error(`${generator.name} has no stamp`);
  const judged = new Set([...(await stampedOutputs(rootDir, stampSpec)), stampSpec.file]);
  for (const path of judged) {
    const from = join(rootDir, path);
    if (await stat(from).catch(() => null)) {
      await mkdir(dirname(join(scratch, path)), { recursive: true });
      await copyFile(from, join(scratch, path));
    }
  }
  found.checked += judged.size;
  if (!(await stat(join(rootDir, stampSpec.file)).catch(() => null))) {
    found.missing.push(`${stampSpec.file} (run \`${stampSpec.command}\`)`);
    return judged;
  }
  const problems = await stampProblems(rootDir, stampSpec, generator.normalize);
  if (problems.length > 0) {
    const shown = problems.slice(0, 8).map((p) => `\n    ${p}`);
    const more = problems.length > shown.length ? `\n    ... and ${problems.length - shown.length} more` : '';
    found.stale.push(`${stampSpec.file}: rerun \`${stampSpec.command}\`:${shown.join('')}${more}`);
  }
  return judged;
}

/** Runs a generator into `scratch` and compares what it wrote with the tree. */
async function compareByRunning(
  generator: Generator,
  scratch: string,
  found: Findings,
): Promise<Set<string>> {
  const output = generator.generateForCheck
    ? await generator.generateForCheck(scratch)
    : { written: await generator.generate(scratch), judged: [] };
  const written = new Set(output.written.map(toPosix));
  for (const path of written) {
    found.checked++;
    const fresh = await readFile(join(scratch, path));
    const committed = await readFile(join(rootDir, path)).catch(() => null);
    const normalized = (bytes: Buffer) =>
      generator.normalize ? Buffer.from(generator.normalize(path, bytes.toString('utf8'))) : bytes;
    if (committed === null) found.missing.push(path);
    else if (!normalized(committed).equals(normalized(fresh))) found.stale.push(path);
  }
  for (const path of output.judged.map(toPosix)) {
    found.checked++;
    written.add(path);
    const committed = await readFile(join(rootDir, path), 'utf8').catch(() => null);
    const problem =
      committed === null ? null : generator.judge ? generator.judge(path, committed) : 'no judge for it';
    if (committed === null) found.missing.push(path);
    else if (problem !== null) found.stale.push(`${path}: ${problem}`);
  }
  return written;
}

async function main(): Promise<number> {
  const line = parseCommandLine(spec, process.argv.slice(2));
  if (line.help || line.version) {
    console.log(line.help ? helpText(spec) : versionText());
    return exitCodes.ok;
  }
  const full = line.values.full === true;
  const only = (line.values.only as string[] | undefined) ?? [];
  const unknown = only.filter((name) => !generators.some((g) => g.name === name));
  if (unknown.length > 0)
    throw new UsageError(
      `--only: no generator ${unknown.map((n) => JSON.stringify(n)).join(', ')}; use one of ${generators.map((g) => g.name).join(', ')}`,
    );
  const selected = only.length > 0 ? generators.filter((g) => only.includes(g.name)) : generators;
  const scratch = await mkdtemp(join(tmpdir(), 'nsmodel-generated-'));
  const found: Findings = { stale: [], missing: [], checked: 0 };
  const unexpected: string[] = [];
  const started = performance.now();
  const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
  try {
    for (const generator of generators) {
      const byStamp = generator.stamp !== undefined && (!full || generator.stampOnly === true);
      // A generator left out by --only provides its committed files to a later one (the site reads the report).
      if (!selected.includes(generator)) {
        await copyCommitted(generator, scratch);
        continue;
      }
      const begun = performance.now();
      const how = byStamp ? 'by its stamp' : generator.stamp ? 'running it again (long)' : 'running it';
      console.log(`check:generated: ${generator.name}: checking ${how}; ${elapsed(started)} so far`);
      const written = byStamp
        ? await judgeByStamp(generator, scratch, found)
        : await compareByRunning(generator, scratch, found);
      for (const owned of generator.owns ?? []) {
        for (const file of await filesUnder(join(rootDir, owned))) {
          const path = toPosix(relative(rootDir, file));
          if (!written.has(path)) unexpected.push(path);
        }
      }
      console.log(`check:generated: ${generator.name}: ${written.size} files checked in ${elapsed(begun)}`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const { stale, missing, checked } = found;
  for (const [heading, paths] of [
    ['stale (regenerate and commit)', stale],
    ['missing (generate and commit)', missing],
    ['unexpected (no generator writes them: delete, or regenerate)', unexpected],
  ] as const) {
    if (paths.length === 0) continue;
    console.log(`${heading}:`);
    for (const path of [...paths].sort()) console.log(`  ${path}`);
  }
  const mode = full ? 'every generator run again' : 'long outputs judged by their stamps';
  if (stale.length + missing.length + unexpected.length === 0) {
    console.log(
      `check:generated: all ${checked} generated files are up to date (${mode}) in ${elapsed(started)}.`,
    );
    return exitCodes.ok;
  }
  console.log(
    `check:generated: ${stale.length} stale, ${missing.length} missing, ${unexpected.length} unexpected of ${checked} files (${mode}); regenerate (npm run diagrams for the diagrams and docs/machines.md, npm run schemas for schemas/, npm run verify for the report, npm run mutants, npm run alternatives, npm run screenshots) and commit the result.`,
  );
  return exitCodes.stale;
}

if (isEntryPoint(import.meta.url)) await runCommand('check:generated', main);
