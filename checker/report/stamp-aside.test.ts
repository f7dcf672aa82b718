import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { keptStampSources, sourceDigest, sourceRoot, stampSources } from './stamp.ts';
import { stampSourcesAside } from './stamp-aside.ts';

describe('stamp sources taken in a child process', () => {
  const scratch = useTempDir('stamp-aside');

  it('are the digests and packages the run would take itself', async () => {
    const spec = { entry: 'checker/report/stamp.ts', data: ['package.json'] };
    const aside = await stampSourcesAside(sourceRoot, spec).sources;
    expect(Object.keys(aside.sources)).toContain('checker/report/stamp.ts');
    expect(aside).toEqual(stampSources(sourceRoot, spec));
  }, 30_000);

  it('are read from kept answers, with no child, once a process has taken them', async () => {
    // A module no run has parsed before: its content names this test's own folder.
    const root = scratch();
    mkdirSync(join(root, 'lib'), { recursive: true });
    writeFileSync(
      join(root, 'lib/entry.ts'),
      `import { b } from './b.ts';\nexport const where = ${JSON.stringify(root)} + b;\n`,
    );
    writeFileSync(join(root, 'lib/b.ts'), `/** ${root} */\nexport const b = 'b';\n`);
    const spec = { entry: 'lib/entry.ts' };
    expect(keptStampSources(root, spec)).toBeUndefined();
    const first = stampSourcesAside(root, spec);
    expect(first.taken).toBe('child');
    const taken = await first.sources;
    // The child kept its answers for the next run: this process reads them without TypeScript.
    const second = stampSourcesAside(root, spec);
    expect(second.taken).toBe('kept');
    expect(await second.sources).toEqual(taken);
    // Each digest computed again from the file's bytes, past every cache.
    expect(taken.sources).toEqual(
      Object.fromEntries(
        ['lib/b.ts', 'lib/entry.ts'].map((path) => [
          path,
          sourceDigest(path, readFileSync(join(root, path))),
        ]),
      ),
    );
  }, 30_000);

  it("fail with the stamp's own one-line message when an import does not resolve", async () => {
    // A root of its own with one module that imports a file that is not there.
    const root = scratch();
    mkdirSync(join(root, 'lib'), { recursive: true });
    writeFileSync(join(root, 'lib/entry.ts'), "import { gone } from './gone.ts';\nexport const x = gone;\n");
    await expect(stampSourcesAside(root, { entry: 'lib/entry.ts' }).sources).rejects.toThrow(
      /^lib\/gone\.ts: imported but missing; fix the import or restore the file$/,
    );
  }, 30_000);
});
