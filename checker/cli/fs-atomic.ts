import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { closeSync, lstatSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './cli.ts';

/**
 * Writes a file so that readers see either the old content or the new, never a torn one: the bytes
 * go to a temporary file in the same folder (same file system, so the rename is atomic), are flushed,
 * then renamed over the target. Missing folders are created.
 */
/** Temporary files being written; removed when the process exits mid-write (a signal's process.exit). */
const inFlight = new Set<string>();
process.on('exit', () => {
  for (const path of inFlight) rmSync(path, { force: true });
});

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const folder = dirname(path);
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot write ${path}: its folder ${folder} cannot be made (${code ?? String(error)}: a file is in the way); fix: write elsewhere, or move that file`,
    );
  }
  // A rename would put a file in place of a device, a FIFO, a folder or a link: only a regular file is replaced.
  const existing = await lstat(path).catch(() => undefined);
  if (existing && !existing.isFile())
    throw new UsageError(
      `refusing to write ${path}: it is ${entryKind(existing)}, and only a regular file is ever replaced; fix: give the path of a new or regular file`,
    );
  const temporary = join(folder, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  inFlight.add(temporary);
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    inFlight.delete(temporary);
  }
}

/**
 * An output file named by `flag` (`--out FILE`), checked before any work: a new file in a folder that is
 * one, or a regular file whose first bytes hold `mark` (one this command wrote before). A device, a FIFO,
 * a folder, a link, or a file the command did not write (a source, a scope) is refused in one line.
 */
export function checkOutputFile(path: string, flag: string, mark: string): void {
  const refuse = (problem: string, fix = 'give the path of a new file'): never => {
    throw new UsageError(`${flag}: ${JSON.stringify(path)} ${problem}; fix: ${fix}`);
  };
  let info: Stats | undefined;
  try {
    info = lstatSync(path);
  } catch {
    info = undefined;
  }
  if (!info) {
    // The nearest entry that exists on the way up must be a folder.
    for (let folder = dirname(path); ; folder = dirname(folder)) {
      let above: Stats | undefined;
      try {
        above = statSync(folder);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if ((code === 'ENOENT' || code === 'ENOTDIR') && folder !== dirname(folder)) continue;
        refuse(`cannot be written (${code ?? String(error)} at ${folder})`);
      }
      if (!above) continue;
      if (!above.isDirectory()) refuse(`is under ${folder}, which is ${entryKind(above)}, not a folder`);
      return;
    }
  }
  if (!info.isFile())
    refuse(`is ${entryKind(info)}; only a regular file this command wrote is ever replaced`);
  const handle = openSync(path, 'r');
  try {
    const head = Buffer.alloc(400);
    const length = readSync(handle, head, 0, head.length, 0);
    if (!head.subarray(0, length).toString('utf8').includes(mark))
      refuse(
        'is a file this command did not write, which the output would replace',
        'give a new path, or remove that file first if it is yours to lose',
      );
  } finally {
    closeSync(handle);
  }
}

/** What kind of file system entry `info` is, in words. */
export function entryKind(info: Stats): string {
  if (info.isFile()) return 'a regular file';
  if (info.isDirectory()) return 'a folder';
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}
