import { lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, parse, posix, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { UsageError } from './cli.ts';
import { entryKind, writeFileAtomic } from './fs-atomic.ts';
import { schemaRef } from './schema-ref.ts';

/**
 * Where a run may write: one folder of its own. `--out` is refused when it is the file system's root,
 * the project or a folder above it, something other than a folder, or (for a side run) the committed
 * `generated/` outside `generated/runs/`; every check runs before the search, so a bad folder costs nothing.
 */

/** The list of files a command wrote into its output folder: the only files it ever deletes there. */
export const manifestName = '.nsmodel-written.json';

/** The manifest: its `$schema`, then the names of the files written, relative to its folder, sorted. */
export interface WrittenManifest {
  $schema: string;
  files: string[];
}

/** The schema of the manifest (schemas/written.schema.json is generated from it). */
export const writtenManifestSchema = z
  .strictObject({ $schema: z.string(), files: z.array(z.string()) })
  .meta({
    title: 'nsmodel output folder manifest',
    description: `${manifestName}: the files a command wrote into its output folder, relative to it; the only files a later run deletes there.`,
  }) as unknown as z.ZodType<WrittenManifest>;

const inside = (folder: string, path: string) => path === folder || path.startsWith(`${folder}${sep}`);

/**
 * The output folder `out` (relative to `root`, or absolute), checked, as a POSIX path relative to
 * `root`; a UsageError names the flag, the folder and the fix.
 */
export function checkOutputFolder(
  out: string,
  root: string,
  { flag = '--out', committedRun = false }: { flag?: string; committedRun?: boolean } = {},
): string {
  const target = resolve(root, out);
  const refuse = (problem: string, fix = `give a folder of its own, e.g. ${flag} runs/mine`): never => {
    throw new UsageError(`${flag}: ${JSON.stringify(out)} ${problem}; fix: ${fix}`);
  };
  if (target === parse(target).root) refuse('is the root of the file system');
  const project = resolve(root);
  if (inside(target, project))
    refuse('holds the project itself: the report would be written among its files');
  const committed = join(project, 'generated');
  if (!committedRun && inside(committed, target) && !inside(join(committed, 'runs'), target))
    refuse(
      'is the committed generated/ folder, which only the full default run writes',
      `drop ${flag} for the default side folder (generated/runs/<variant>-<scope>/), or give one under generated/runs/`,
    );
  // The nearest entry that exists must be a folder: a file, a device or a FIFO on the path is refused.
  for (let path = target; ; path = dirname(path)) {
    let info: Stats;
    try {
      info = statSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') refuse(`passes through a symbolic link loop at ${path}`);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && path !== dirname(path)) continue;
      return refuse(`cannot be used (${code ?? String(error)} at ${path})`);
    }
    if (!info.isDirectory())
      refuse(
        path === target
          ? `is ${entryKind(info)}, not a folder`
          : `is under ${path}, which is ${entryKind(info)}, not a folder`,
      );
    break;
  }
  return relative(root, target).split(sep).join(posix.sep) || '.';
}

/**
 * A folder the user names must be new, empty, or one this tool wrote before (it holds the manifest):
 * otherwise the report would land among files it did not write, and replace any of the same name (a
 * source folder of the project, /dev, /proc/self, a home folder).
 */
export function checkOwnFolder(out: string, root: string, { flag = '--out' }: { flag?: string } = {}): void {
  const target = resolve(root, out);
  let entries: string[];
  try {
    entries = readdirSync(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new UsageError(
      `${flag}: ${JSON.stringify(out)} cannot be read (${code ?? String(error)}); fix: give a folder of its own, e.g. ${flag} runs/mine`,
    );
  }
  if (entries.length === 0) return;
  if (entries.includes(manifestName)) {
    // An earlier run's folder: what it holds must still be files and folders, so a write or a delete
    // that follows a link (counterexamples -> elsewhere) never lands outside it.
    const odd = strangeEntry(target, '');
    if (odd)
      throw new UsageError(
        `${flag}: ${JSON.stringify(out)} holds ${odd.name}, ${odd.kind}: a run writes and deletes only inside its folder, and this would lead it elsewhere; fix: remove ${odd.name}, or give a new folder, e.g. ${flag} runs/mine`,
      );
    return;
  }
  const shown = entries.sort().slice(0, 3).join(', ');
  throw new UsageError(
    `${flag}: ${JSON.stringify(out)} holds ${entries.length} entries this tool did not write (${shown}${entries.length > 3 ? ', ...' : ''}), which the report could replace; fix: give a new or empty folder, or one an earlier run wrote, e.g. ${flag} runs/mine`,
  );
}

/** The first entry under `folder` (depth-first, a few levels) that is neither a regular file nor a folder. */
function strangeEntry(folder: string, prefix: string, depth = 0): { name: string; kind: string } | undefined {
  if (depth > 4) return undefined;
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    const shown = prefix ? `${prefix}/${name}` : name;
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return { name: shown, kind: 'a symbolic link' };
    if (info.isDirectory()) {
      const inner = strangeEntry(path, shown, depth + 1);
      if (inner) return inner;
    } else if (!info.isFile()) return { name: shown, kind: entryKind(info) };
  }
  return undefined;
}

/** The files the previous run recorded in `folder`'s manifest (relative to the folder); none when absent or unreadable. */
export async function previousOutputs(rootDir: string, folder: string): Promise<Set<string>> {
  const path = join(rootDir, folder, manifestName);
  try {
    if (!lstatSync(path).isFile()) return new Set();
    const data: unknown = JSON.parse(await readFile(path, 'utf8'));
    const files = (data as { files?: unknown }).files;
    if (!Array.isArray(files)) return new Set();
    // A name that climbs out of the folder is never honoured: the manifest could have been edited.
    return new Set(
      files.filter(
        (f): f is string =>
          typeof f === 'string' && !posix.isAbsolute(f) && !posix.normalize(f).startsWith('..'),
      ),
    );
  } catch {
    return new Set();
  }
}

/**
 * Records `written` (paths relative to `rootDir`, inside `folder`) as the folder's manifest, merged
 * with `kept` (folder-relative names still current), and deletes every file the previous manifest
 * named that this run did not write again. Returns the deleted paths.
 */
export async function recordOutputs(
  rootDir: string,
  folder: string,
  written: readonly string[],
  { merge = false }: { merge?: boolean } = {},
): Promise<string[]> {
  const previous = await previousOutputs(rootDir, folder);
  const now = new Set(written.map((path) => posix.relative(folder, path)));
  const deleted: string[] = [];
  if (merge) for (const name of previous) now.add(name);
  else
    for (const name of previous) {
      if (now.has(name)) continue;
      const path = join(rootDir, folder, name);
      const info = (() => {
        try {
          return lstatSync(path);
        } catch {
          return undefined;
        }
      })();
      // Only a regular file is ever deleted, and only inside the folder: a folder or a device the
      // manifest names is left alone, and so is a file reached through a link on the way.
      const within = (() => {
        try {
          const real = realpathSync(join(rootDir, folder));
          return inside(real, realpathSync(dirname(path)));
        } catch {
          return false;
        }
      })();
      if (info?.isFile() && within) {
        await rm(path, { force: true });
        deleted.push(posix.join(folder, name));
      }
    }
  const manifest: WrittenManifest = {
    $schema: schemaRef('written', posix.join(folder, manifestName)),
    files: [...now].sort(),
  };
  await writeFileAtomic(join(rootDir, folder, manifestName), `${JSON.stringify(manifest, null, 2)}\n`);
  return deleted;
}
