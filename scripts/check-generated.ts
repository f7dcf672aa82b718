import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, relative, sep } from 'node:path';
import {
  type CommandSpec,
  exitCodes,
  helpText,
  parseCommandLine,
  runCommand,
  versionText,
} from '../checker/cli.ts';
import { generators } from '../checker/generators.ts';

/**
 * `npm run check:generated`: runs every generator into an empty folder and compares the result with the
 * working tree. Text outputs (.mmd, reports, Markdown) are compared byte for byte; an SVG is fresh when
 * its render stamp names the current source and renderer settings, it parses and shows no Mermaid error,
 * so a contributor with another Chromium gets no false alarm. Nothing is ignored silently.
 */
const spec: CommandSpec = {
  name: 'npm run check:generated --',
  summary:
    'Regenerates everything into a scratch folder and names every stale, missing or unexpected generated file.',
  options: {},
  exitCodes: [exitCodes.ok, exitCodes.internal, exitCodes.usage, exitCodes.stale],
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

async function main(): Promise<number> {
  const line = parseCommandLine(spec, process.argv.slice(2));
  if (line.help || line.version) {
    console.log(line.help ? helpText(spec) : versionText());
    return exitCodes.ok;
  }
  const scratch = await mkdtemp(join(tmpdir(), 'nsmodel-generated-'));
  const stale: string[] = [];
  const missing: string[] = [];
  const unexpected: string[] = [];
  let checked = 0;
  try {
    for (const generator of generators) {
      const started = performance.now();
      const output = generator.generateForCheck
        ? await generator.generateForCheck(scratch)
        : { written: await generator.generate(scratch), judged: [] };
      const written = new Set(output.written.map(toPosix));
      for (const path of written) {
        checked++;
        const fresh = await readFile(join(scratch, path));
        const committed = await readFile(join(rootDir, path)).catch(() => null);
        const normalized = (bytes: Buffer) =>
          generator.normalize ? Buffer.from(generator.normalize(path, bytes.toString('utf8'))) : bytes;
        if (committed === null) missing.push(path);
        else if (!normalized(committed).equals(normalized(fresh))) stale.push(path);
      }
      for (const path of output.judged.map(toPosix)) {
        checked++;
        written.add(path);
        const committed = await readFile(join(rootDir, path), 'utf8').catch(() => null);
        const problem =
          committed === null ? null : generator.judge ? generator.judge(path, committed) : 'no judge for it';
        if (committed === null) missing.push(path);
        else if (problem !== null) stale.push(`${path}: ${problem}`);
      }
      for (const owned of generator.owns ?? []) {
        for (const file of await filesUnder(join(rootDir, owned))) {
          const path = toPosix(relative(rootDir, file));
          if (!written.has(path)) unexpected.push(path);
        }
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`${generator.name}: ${written.size} files checked in ${seconds} s`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  for (const [heading, paths] of [
    ['stale (regenerate and commit)', stale],
    ['missing (generate and commit)', missing],
    ['unexpected (no generator writes them: delete, or regenerate)', unexpected],
  ] as const) {
    if (paths.length === 0) continue;
    console.log(`${heading}:`);
    for (const path of [...paths].sort()) console.log(`  ${path}`);
  }
  if (stale.length + missing.length + unexpected.length === 0) {
    console.log(`check:generated: all ${checked} generated files are up to date.`);
    return exitCodes.ok;
  }
  console.log(
    `check:generated: ${stale.length} stale, ${missing.length} missing, ${unexpected.length} unexpected of ${checked} files; regenerate (npm run diagrams for the diagrams and docs/machines.md, npm run verify for the report) and commit the result.`,
  );
  return exitCodes.stale;
}

await runCommand('check:generated', main);
