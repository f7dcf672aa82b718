import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { sourceRoot, stampSources } from './stamp.ts';
import { stampSourcesAside } from './stamp-aside.ts';

describe('stamp sources taken in a child process', () => {
  const scratch = useTempDir('stamp-aside');

  it('are the digests and packages the run would take itself', async () => {
    const spec = { entry: 'checker/report/stamp.ts', data: ['package.json'] };
    const aside = await stampSourcesAside(sourceRoot, spec).sources;
    expect(Object.keys(aside.sources)).toContain('checker/report/stamp.ts');
    expect(aside).toEqual(stampSources(sourceRoot, spec));
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
