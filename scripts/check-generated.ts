import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, relative, sep } from 'node:path';
import { generators } from '../checker/generators.ts';
import { ChromiumNotFoundError } from '../checker/render.ts';

/**
 * `npm run check:generated`: runs every generator into an empty folder and compares the result with the
 * working tree. Prints stale (content differs), missing (not in the tree) and unexpected (in a folder a
 * generator owns, but not generated) files; exits 1 when anything differs.
 */
const rootDir = process.cwd();

async function filesUnder(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => null);
  if (!info) return [];
  if (info.isFile()) return [path];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

const toPosix = (path: string) => path.split(sep).join(posix.sep);

async function readOrNull(path: string): Promise<Buffer | null> {
  return readFile(path).catch(() => null);
}

const scratch = await mkdtemp(join(tmpdir(), 'nsmodel-generated-'));
const stale: string[] = [];
const missing: string[] = [];
const unexpected: string[] = [];
let checked = 0;
try {
  for (const generator of generators) {
    const started = performance.now();
    const written = new Set((await generator.generate(scratch)).map(toPosix));
    for (const path of written) {
      checked++;
      const fresh = await readFile(join(scratch, path));
      const committed = await readOrNull(join(rootDir, path));
      const normalized = (bytes: Buffer) =>
        generator.normalize ? Buffer.from(generator.normalize(path, bytes.toString('utf8'))) : bytes;
      if (committed === null) missing.push(path);
      else if (!normalized(committed).equals(normalized(fresh))) stale.push(path);
    }
    for (const owned of generator.owns ?? []) {
      for (const file of await filesUnder(join(rootDir, owned))) {
        const path = toPosix(relative(rootDir, file));
        if (!written.has(path)) unexpected.push(path);
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${generator.name}: ${written.size} files generated in ${seconds} s`);
  }
} catch (error) {
  if (error instanceof ChromiumNotFoundError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
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
if (stale.length + missing.length + unexpected.length > 0) {
  console.log(
    `check:generated: ${stale.length} stale, ${missing.length} missing, ${unexpected.length} unexpected of ${checked} files; regenerate (npm run diagrams for the diagrams and docs/machines.md, npm run verify for the report) and commit the result.`,
  );
  const redrawOnly = stale.filter(
    (path) => path.endsWith('.svg') && !stale.includes(path.replace(/\.svg$/, '.mmd')),
  );
  if (redrawOnly.length > 0) {
    console.log(
      'SVGs stale with unchanged sources were drawn by another Chromium or other fonts: `npm run diagrams -- --force`.',
    );
  }
  process.exit(1);
}
console.log(`check:generated: all ${checked} generated files are up to date.`);
