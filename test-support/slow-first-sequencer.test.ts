import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { slowFirst } from './slow-first-sequencer.ts';

describe('the files the suite starts first', () => {
  it('are test files of the project, each named once', () => {
    expect(slowFirst.filter((file) => !file.endsWith('.test.ts') || !existsSync(file))).toEqual([]);
    expect(new Set(slowFirst).size).toBe(slowFirst.length);
  });
});
