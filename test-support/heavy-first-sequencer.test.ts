import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heavyFirst } from './heavy-first-sequencer.ts';

describe('the heavy-first list of the test order', () => {
  it('names each file once, and every name is a test file of the project', () => {
    expect(new Set(heavyFirst).size).toBe(heavyFirst.length);
    expect(heavyFirst.filter((file) => !file.endsWith('.test.ts') || !existsSync(file))).toEqual([]);
  });
});
