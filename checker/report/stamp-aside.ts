/**
 * A stamp's source digests taken beside a long run. Read from what earlier runs kept when every module's
 * answer is there (no TypeScript loaded); else in a child process, since parsing every module with
 * TypeScript (about 2 s of CPU and 57 MB of heap on the report's sources) would be paid before the run's
 * search and held through it.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isEntryPoint } from '../cli/cli.ts';
import { keptStampSources, type StampSources, type StampSpec, stampSources } from './stamp.ts';

type Asked = Pick<StampSpec, 'entry' | 'data'>;

/** Where tsx resolves from, whatever `root` the digests are asked under. */
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The digests of `spec`'s sources under `root` as they are now, `taken` from kept answers or by a child
 * process started now (which keeps its answers for the next run); `cancel` stops it.
 */
export function stampSourcesAside(
  root: string,
  spec: Asked,
): { sources: Promise<StampSources>; cancel: () => void; taken: 'kept' | 'child' } {
  const asked: Asked = { entry: spec.entry, ...(spec.data ? { data: spec.data } : {}) };
  let kept: StampSources | undefined;
  try {
    kept = keptStampSources(root, asked);
  } catch (error) {
    // Judged where the digests are awaited, as the child's failure is.
    const failed = Promise.reject(error as Error);
    failed.catch(() => undefined);
    return { sources: failed, cancel: () => undefined, taken: 'kept' };
  }
  // A child would compete with the search for the second core and hold about 150 MB for a second or two.
  if (kept !== undefined) return { sources: Promise.resolve(kept), cancel: () => undefined, taken: 'kept' };
  // tsx as every npm script loads it, and not this process's other flags (a --cpu-prof would profile the child too).
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), root, JSON.stringify(asked)],
    { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Below the run's own priority: the search needs the second core for its collector more than the digests need it now.
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, 19);
    } catch {
      // A system that refuses leaves the child at the run's priority.
    }
  }
  let cancelled = false;
  const sources = new Promise<StampSources>((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new Error(`stamp sources: ${error.message}`)));
    child.on('close', (code) => {
      if (cancelled) return reject(new Error('stamp sources: cancelled'));
      if (code === 0) return resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as StampSources);
      const message = Buffer.concat(err).toString('utf8').trim().split('\n')[0];
      reject(new Error(message || `stamp sources: the child process exited with ${code}`));
    });
  });
  // A cancelled or failed child is judged where the digests are awaited, never as an unhandled rejection.
  sources.catch(() => undefined);
  return {
    sources,
    taken: 'child',
    cancel: () => {
      cancelled = true;
      child.kill();
    },
  };
}

if (isEntryPoint(import.meta.url)) {
  const [root, asked] = process.argv.slice(2);
  try {
    process.stdout.write(JSON.stringify(stampSources(root, JSON.parse(asked) as Asked)));
  } catch (error) {
    // One line, as the run's own process would have thrown it before its search.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
