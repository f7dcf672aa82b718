import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { writeFileAtomic } from './fs-atomic.ts';

describe('writeFileAtomic', () => {
  const scratch = useTempDir('atomic', { fresh: true });

  it('creates missing folders and writes text and bytes', async () => {
    const textPath = join(scratch(), 'a', 'b', 'text.txt');
    const bytesPath = join(scratch(), 'bytes.bin');
    await writeFileAtomic(textPath, 'hello\n');
    await writeFileAtomic(bytesPath, new Uint8Array([0, 1, 2]));
    expect(await readFile(textPath, 'utf8')).toBe('hello\n');
    expect([...(await readFile(bytesPath))]).toEqual([0, 1, 2]);
  });

  it('replaces existing content and leaves no temporary file behind', async () => {
    const path = join(scratch(), 'file.txt');
    await writeFile(path, 'old');
    await writeFileAtomic(path, 'new');
    expect(await readFile(path, 'utf8')).toBe('new');
    expect(await readdir(scratch())).toEqual(['file.txt']);
  });

  it('keeps the old content when writing fails', async () => {
    const path = join(scratch(), 'file.txt');
    await writeFile(path, 'old');
    const unwritable = { toString: () => 'never' } as unknown as string;
    await expect(writeFileAtomic(path, unwritable)).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe('old');
    expect(await readdir(scratch())).toEqual(['file.txt']);
  });

  it('never exposes a partial file to concurrent readers', async () => {
    const path = join(scratch(), 'file.txt');
    const small = 'a'.repeat(10);
    const large = 'b'.repeat(1_000_000);
    await writeFileAtomic(path, small);
    const writes = Array.from({ length: 10 }, (_, index) => writeFileAtomic(path, index % 2 ? small : large));
    const seen = new Set<number>();
    const reads = Array.from({ length: 50 }, async () => seen.add((await readFile(path, 'utf8')).length));
    await Promise.all([...writes, ...reads]);
    for (const length of seen) expect([small.length, large.length]).toContain(length);
  });
});
