import { execFileSync, spawn } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main as verifyMain } from '../../scripts/verify.ts';
import { oneProcessCommand, runMainInProcess, thrownMessage } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { UsageError } from './cli.ts';
import { writeFileAtomic } from './fs-atomic.ts';
import { checkOutputFolder, checkOwnFolder, manifestName, recordOutputs } from './output-folder.ts';

const project = resolve('.');

describe('the output folder', () => {
  const scratch = useTempDir('out', { fresh: true });
  const refusal = (out: string, options = {}) =>
    thrownMessage(UsageError, () => checkOutputFolder(out, project, options));

  it('refuses the root of the file system', () => {
    expect(refusal('/')).toMatch(/^--out: "\/" is the root of the file system; fix: /);
  });

  it('refuses the project and every folder above it', () => {
    expect(refusal('.')).toMatch(/holds the project itself/);
    expect(refusal('..')).toMatch(/holds the project itself/);
  });

  it('refuses the committed generated/ folder and its subfolders for a side run, not generated/runs/', () => {
    expect(refusal('generated')).toMatch(/is the committed generated\/ folder.*fix: drop --out/);
    expect(refusal('generated/counterexamples')).toMatch(/committed generated\//);
    expect(refusal('generated', { committedRun: true })).toBeNull();
    expect(checkOutputFolder('generated/runs/mine', project)).toBe('generated/runs/mine');
  });

  it('refuses a device, a regular file, a path under a file and a symbolic link loop', async () => {
    expect(refusal('/dev/null')).toMatch(/"\/dev\/null" is a character device, not a folder/);
    const file = join(scratch(), 'report.md');
    await writeFile(file, 'mine');
    expect(refusal(file)).toMatch(/is a regular file, not a folder/);
    expect(refusal(join(file, 'deeper'))).toMatch(/is under .*report\.md, which is a regular file/);
    await symlink(join(scratch(), 'loop'), join(scratch(), 'loop'));
    expect(refusal(join(scratch(), 'loop', 'x'))).toMatch(/symbolic link loop/);
  });

  it('accepts a new or existing folder of its own', async () => {
    expect(checkOutputFolder(join(scratch(), 'new', 'deeper'), project)).toMatch(/new\/deeper$/);
    expect(checkOutputFolder(scratch(), project)).not.toBe('.');
  });

  it('refuses a named folder holding files it did not write (sources, /dev, /proc/self); a new, empty or earlier run folder is its own', async () => {
    const own = (out: string) => thrownMessage(UsageError, () => checkOwnFolder(out, project));
    expect(own('scopes')).toMatch(
      /^--out: "scopes" holds \d+ entries this tool did not write \(admin-finalize\.yaml, .*\), which the report could replace; fix: /,
    );
    expect(own('/dev')).toMatch(/^--out: "\/dev" holds \d+ entries this tool did not write/);
    expect(own('/proc/self')).toMatch(/this tool did not write/);
    expect(own(join(scratch(), 'not-yet'))).toBeNull();
    await mkdir(join(scratch(), 'empty'));
    expect(own(join(scratch(), 'empty'))).toBeNull();
    await mkdir(join(scratch(), 'earlier'));
    await writeFile(join(scratch(), 'earlier', manifestName), '{"files":[]}');
    await writeFile(join(scratch(), 'earlier', 'report.md'), 'an earlier run');
    expect(own(join(scratch(), 'earlier'))).toBeNull();
  });

  it('deletes only files its manifest names, never a file it did not write', async () => {
    const root = scratch();
    const folder = 'run';
    await mkdir(join(root, folder, 'counterexamples'), { recursive: true });
    await writeFile(join(root, folder, 'counterexamples', 'old.md'), 'written by the tool');
    await writeFile(join(root, folder, 'counterexamples', 'notes.md'), 'written by a person');
    await recordOutputs(root, folder, ['run/report.md', 'run/counterexamples/old.md']);
    const deleted = await recordOutputs(root, folder, ['run/report.md']);
    expect(deleted).toEqual(['run/counterexamples/old.md']);
    expect(await readdir(join(root, folder, 'counterexamples'))).toEqual(['notes.md']);
    const manifest = JSON.parse(await readFile(join(root, folder, manifestName), 'utf8'));
    expect(manifest).toEqual({ $schema: '../schemas/written.schema.json', files: ['report.md'] });
  });

  it('never deletes a path an edited manifest points outside the folder', async () => {
    const root = scratch();
    await mkdir(join(root, 'run'), { recursive: true });
    await writeFile(join(root, 'precious.txt'), 'keep');
    await writeFile(join(root, 'run', manifestName), JSON.stringify({ files: ['../precious.txt'] }));
    expect(await recordOutputs(root, 'run', [])).toEqual([]);
    expect(await readFile(join(root, 'precious.txt'), 'utf8')).toBe('keep');
  });

  it('never deletes a file its manifest names through a link that leads out of the folder', async () => {
    const root = scratch();
    await mkdir(join(root, 'run'), { recursive: true });
    await mkdir(join(root, 'elsewhere'), { recursive: true });
    await writeFile(join(root, 'elsewhere', 'keep.md'), 'keep');
    await symlink('../elsewhere', join(root, 'run', 'counterexamples'));
    await writeFile(join(root, 'run', manifestName), JSON.stringify({ files: ['counterexamples/keep.md'] }));
    expect(await recordOutputs(root, 'run', [])).toEqual([]);
    expect(await readFile(join(root, 'elsewhere', 'keep.md'), 'utf8')).toBe('keep');
  });

  it("refuses an earlier run's folder that holds a link or a FIFO, before the search", async () => {
    const own = (out: string) => thrownMessage(UsageError, () => checkOwnFolder(out, project));
    const linked = join(scratch(), 'linked');
    await mkdir(linked, { recursive: true });
    await writeFile(join(linked, manifestName), '{"files":["report.md"]}');
    await symlink('../elsewhere', join(linked, 'counterexamples'));
    expect(own(linked)).toBe(
      `--out: ${JSON.stringify(linked)} holds counterexamples, a symbolic link: a run writes and deletes only inside its folder, and this would lead it elsewhere; fix: remove counterexamples, or give a new folder, e.g. --out runs/mine`,
    );
    const piped = join(scratch(), 'piped');
    await mkdir(join(piped, 'site'), { recursive: true });
    await writeFile(join(piped, manifestName), '{"files":[]}');
    execFileSync('mkfifo', [join(piped, 'site', 'index.html')]);
    expect(own(piped)).toMatch(/holds site\/index\.html, a FIFO \(named pipe\): /);
  });
});

describe('atomic writes replace only a regular file', () => {
  const scratch = useTempDir('atomic-kind', { fresh: true });

  it('refuses a character device without touching it', async () => {
    await expect(writeFileAtomic('/dev/null', 'x')).rejects.toThrow(
      /refusing to write \/dev\/null: it is a character device/,
    );
  });

  it('refuses a FIFO, a folder and a symbolic link', async () => {
    const fifo = join(scratch(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    await expect(writeFileAtomic(fifo, 'x')).rejects.toThrow(/it is a FIFO \(named pipe\)/);
    await mkdir(join(scratch(), 'folder'));
    await expect(writeFileAtomic(join(scratch(), 'folder'), 'x')).rejects.toThrow(/it is a folder/);
    await symlink(fifo, join(scratch(), 'link'));
    await expect(writeFileAtomic(join(scratch(), 'link'), 'x')).rejects.toThrow(/it is a symbolic link/);
    expect((await readdir(scratch())).sort()).toEqual(['folder', 'link', 'pipe']);
  });

  it('names the file in the way of a folder it must make', async () => {
    await writeFile(join(scratch(), 'file'), 'x');
    await expect(writeFileAtomic(join(scratch(), 'file', 'a.md'), 'x')).rejects.toThrow(
      /cannot write .*file\/a\.md: its folder .* cannot be made \(E[A-Z]+: a file is in the way/,
    );
  });
});

describe('verify --out', () => {
  // verify's main as its entry runs it, from the project folder; the entry itself is spawned in verify.test.ts.
  const verify = (args: string[]) => runMainInProcess('verify', () => verifyMain(args, project));

  it('refuses /dev/null before the search, in one line', async () => {
    const run = await verify(['--scope', 'quick', '--out', '/dev/null']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'verify: --out: "/dev/null" is a character device, not a folder; fix: give a folder of its own, e.g. --out runs/mine',
    );
    expect(run.stdout).not.toContain('states');
  });

  it('refuses / and the committed generated/ folder for a side run', async () => {
    const root = await verify(['--scope', 'quick', '--out', '/']);
    expect(root.code).toBe(2);
    expect(root.stderr).toContain('is the root of the file system');
    const committed = await verify(['--scope', 'quick', '--out', 'generated']);
    expect(committed.code).toBe(2);
    expect(committed.stderr).toContain('is the committed generated/ folder');
  });
});

/** Starts a command with its standard output closed at once, as `| head -0` does, and gathers stderr. */
function withClosedStdout(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const [command, argv] = oneProcessCommand(script, args);
  return new Promise((done) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('a closed pipe ends every command quietly', () => {
  // The guard is runCommand's, which every script's entry calls (scripts/commands.test.ts checks that):
  // once per way a script reads its command line, the shared entry of the others (site), verify's and
  // check:generated's own.
  const commands = ['verify', 'check-generated', 'site'];
  it.each(commands)('%s --help into a closed pipe: no EPIPE, no stack trace', async (name) => {
    const run = await withClosedStdout(`scripts/${name}.ts`, ['--help']);
    expect(run.stderr).not.toMatch(/EPIPE|at .*\.ts:\d+|node:internal/);
    expect(run.code).toBe(0);
  });

  it('replay of every scenario into a closed pipe ends quietly', async () => {
    const run = await withClosedStdout('scripts/replay.ts', ['scenarios']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});
