import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './fs-atomic.ts';

describe('writeFileAtomic', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'nsmodel-atomic-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('creates missing folders and writes text and bytes', async () => {
    const textPath = join(folder, 'a', 'b', 'text.txt');
    const bytesPath = join(folder, 'bytes.bin');
    await writeFileAtomic(textPath, 'hello\n');
    await writeFileAtomic(bytesPath, new Uint8Array([0, 1, 2]));
    expect(await readFile(textPath, 'utf8')).toBe('hello\n');
    expect([...(await readFile(bytesPath))]).toEqual([0, 1, 2]);
  });

  it('replaces existing content and leaves no temporary file behind', async () => {
    const path = join(folder, 'file.txt');
    await writeFile(path, 'old');
    await writeFileAtomic(path, 'new');
    expect(await readFile(path, 'utf8')).toBe('new');
    expect(await readdir(folder)).toEqual(['file.txt']);
  });

  it('keeps the old content when writing fails', async () => {
    const path = join(folder, 'file.txt');
    await writeFile(path, 'old');
    const unwritable = { toString: () => 'never' } as unknown as string;
    await expect(writeFileAtomic(path, unwritable)).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe('old');
    expect(await readdir(folder)).toEqual(['file.txt']);
  });

  it('never exposes a partial file to concurrent readers', async () => {
    const path = join(folder, 'file.txt');
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
