import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { KeptAnswers } from './kept-answers.ts';

describe('answers kept between runs', () => {
  const temp = useTempDir('kept-answers');
  const fileOf = (path: string) =>
    deserialize(readFileSync(path)) as { key: string; entries: Map<string, unknown> };

  it('are read back by a later process under the same key, and by none under another', () => {
    const path = join(temp(), 'answers.bin');
    const first = new KeptAnswers<unknown>(path, 'key-1', 4096);
    expect(first.get('digest ts aa')).toBeUndefined();
    first.set('digest ts aa', '0123');
    first.set('imports ts bb', ['./c.ts']);
    first.save();
    const later = new KeptAnswers<unknown>(path, 'key-1', 4096);
    expect(later.get('digest ts aa')).toBe('0123');
    expect(later.get('imports ts bb')).toEqual(['./c.ts']);
    // Another version or another computing source: nothing kept applies.
    expect(new KeptAnswers<unknown>(path, 'key-2', 4096).get('digest ts aa')).toBeUndefined();
    // A file cut short holds nothing, and the next save writes it whole again.
    writeFileSync(path, readFileSync(path).subarray(0, 10));
    const afterCut = new KeptAnswers<unknown>(path, 'key-1', 4096);
    expect(afterCut.get('digest ts aa')).toBeUndefined();
    afterCut.set('digest ts dd', '4567');
    afterCut.save();
    expect(fileOf(path)).toEqual({ key: 'key-1', entries: new Map([['digest ts dd', '4567']]) });
  });

  it('past their limit keep only what the saving process used', () => {
    const path = join(temp(), 'answers.bin');
    const filler = new KeptAnswers<string>(path, 'k', 3);
    for (const name of ['a', 'b', 'c']) filler.set(name, name);
    filler.save();
    const reader = new KeptAnswers<string>(path, 'k', 3);
    expect(reader.get('b')).toBe('b');
    reader.set('d', 'd');
    reader.save();
    expect([...fileOf(path).entries.keys()].sort()).toEqual(['b', 'd']);
  });

  it('are read again when another process saved the file since', () => {
    const path = join(temp(), 'answers.bin');
    const reader = new KeptAnswers<string>(path, 'k', 16);
    expect(reader.get('a')).toBeUndefined();
    const writer = new KeptAnswers<string>(path, 'k', 16);
    writer.set('a', 'from another run');
    writer.save();
    expect(reader.get('a')).toBe('from another run');
  });
});
