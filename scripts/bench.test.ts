import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { npmVerifyCommand } from './bench.ts';

describe("the bench's verify cases", () => {
  it('run `npm run verify` as package.json spells it: its environment and node arguments, the launcher last', () => {
    const { env, nodeArgs } = npmVerifyCommand();
    expect(env).toHaveProperty('MALLOC_MMAP_THRESHOLD_');
    expect(nodeArgs.at(-1)).toBe(resolve('scripts/verify-bundled.mjs'));
    expect(existsSync(nodeArgs.at(-1)!)).toBe(true);
    for (const flag of nodeArgs.slice(0, -1)) expect(flag).toMatch(/^--[a-z-]+(=\S+)?$/);
  });
});
