import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { type BundleRequest, freshBundle } from './bundled.mjs';

interface SmallProject {
  value: number;
  where: string;
}

describe('a command bundled from its sources, rebuilt when they change', () => {
  const scratch = useTempDir('bundled', { fresh: true });

  /** A project of two modules, one reading its own import.meta.url, with its cache folder beside it. */
  function smallProject(name = 'project', cacheFolder = join(scratch(), 'cache')): BundleRequest {
    const root = join(scratch(), name);
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'a.ts'), "export { value, where } from './b.ts';\n");
    writeFileSync(
      join(root, 'b.ts'),
      'export const value: number = 1;\nexport const where = import.meta.url;\n',
    );
    return { root, name: 'small', entry: "export { value, where } from './a.ts';\n", cacheFolder };
  }

  const load = async (path: string) => (await import(pathToFileURL(path).href)) as SmallProject;

  it('builds once, is reused while every input is unchanged, and is rebuilt when one changes', async () => {
    const request = smallProject();
    const first = await freshBundle(request);
    expect(first?.built).toBe(true);
    expect((await load(first!.path)).value).toBe(1);

    const again = await freshBundle(request);
    expect(again).toEqual({ path: first!.path, built: false });

    writeFileSync(join(request.root, 'b.ts'), 'export const value: number = 2;\nexport const where = "";\n');
    const changed = await freshBundle(request);
    expect(changed?.built).toBe(true);
    expect(changed?.path).not.toBe(first!.path);
    expect((await load(changed!.path)).value).toBe(2);
    // The earlier bundle is gone: one bundle and its map per project, and the record.
    expect(existsSync(first!.path)).toBe(false);
    expect(readdirSync(request.cacheFolder)).toHaveLength(3);
  });

  it('leaves no esbuild service running beside the command once it has built', async () => {
    // The service is a child process of this one: its command line names it (Linux's /proc).
    const services = () =>
      readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
        .split(' ')
        .filter((pid) => pid.trim() !== '')
        .map((pid) => {
          try {
            return readFileSync(`/proc/${pid.trim()}/cmdline`, 'utf8');
          } catch {
            return '';
          }
        })
        .filter((command) => command.includes('esbuild') && command.includes('--service'));
    const built = await freshBundle(smallProject());
    expect(built?.built).toBe(true);
    // esbuild's stop sends the service a signal and does not wait: give it up to 10 s to exit.
    for (let waited = 0; services().length > 0 && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(services()).toEqual([]);
  });

  it("keeps each module's own import.meta.url, so paths resolve as they do from the sources", async () => {
    const request = smallProject();
    const bundle = await freshBundle(request);
    expect((await load(bundle!.path)).where).toBe(pathToFileURL(join(request.root, 'b.ts')).href);
  });

  it('rebuilds when the entry or the TypeScript settings change, or its bundle is gone or edited', async () => {
    const request = smallProject();
    expect((await freshBundle(request))?.built).toBe(true);
    const otherEntry = await freshBundle({ ...request, entry: "export { value } from './a.ts';\n" });
    expect(otherEntry?.built).toBe(true);
    writeFileSync(join(request.root, 'tsconfig.json'), '{}\n');
    expect((await freshBundle(request))?.built).toBe(true);
    const latest = await freshBundle(request);
    expect(latest?.built).toBe(false);
    rmSync(latest!.path);
    expect(await freshBundle(request)).toEqual({ path: latest!.path, built: true });
    writeFileSync(latest!.path, 'export const value = 3;\n');
    expect(await freshBundle(request)).toEqual({ path: latest!.path, built: true });
    expect((await load(latest!.path)).value).toBe(1);
  });

  it('keeps apart two copies of a project that share one cache folder', async () => {
    const cacheFolder = join(scratch(), 'shared-cache');
    const one = smallProject('one', cacheFolder);
    const two = smallProject('two', cacheFolder);
    const builtOne = await freshBundle(one);
    const builtTwo = await freshBundle(two);
    expect([builtOne?.built, builtTwo?.built]).toEqual([true, true]);
    expect(await freshBundle(one)).toEqual({ path: builtOne!.path, built: false });
    expect(await freshBundle(two)).toEqual({ path: builtTwo!.path, built: false });
    expect((await load(builtTwo!.path)).where).toBe(pathToFileURL(join(two.root, 'b.ts')).href);
  });

  it('gives no bundle, rather than a broken one, when the cache folder cannot be written or a source is refused', async () => {
    const blocked = join(scratch(), 'a-file');
    writeFileSync(blocked, '');
    expect(await freshBundle({ ...smallProject(), cacheFolder: join(blocked, 'cache') })).toBeUndefined();
    const request = smallProject('broken');
    writeFileSync(join(request.root, 'b.ts'), 'export const value = ;\n');
    expect(await freshBundle(request)).toBeUndefined();
    // Nothing half-built is left in the cache folder.
    expect(readdirSync(request.cacheFolder).filter((file) => file.includes('.building.'))).toEqual([]);
  });
});

describe('npm run verify through its launcher (scripts/verify-bundled.mjs)', () => {
  const scratch = useTempDir('verify-bundled');

  it('runs verify from the bundle: its verdicts, its exit code, its one-line refusals', async () => {
    const run = await runScript(
      'scripts/verify-bundled.mjs',
      ['--scope', 'quick', '--max-states', '50', '--json'],
      {
        cwd: scratch(),
      },
    );
    expect(run.code).toBe(10);
    expect(JSON.parse(run.stdout)).toMatchObject({ states: 50, complete: false, stopReason: 'max-states' });
    const refused = await runScript('scripts/verify-bundled.mjs', ['--bogus'], { cwd: scratch() });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^verify: .*--bogus/)]);
  });

  it('runs the sources through tsx for --random, whose module verify loads by its path', async () => {
    const run = await runScript(
      'scripts/verify-bundled.mjs',
      ['--scope', 'quick', '--random', '--runs', '2', '--seed', '3'],
      { cwd: scratch() },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('2 random walks: every property held (seed 3).');
    expect(run.code).toBe(0);
  });
});
