import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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
  await mkdir(folder, { recursive: true });
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
