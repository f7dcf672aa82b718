import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleReferences } from '../report/stamp.ts';

/**
 * Every package the project's code loads is declared in package.json, so `npm ci` installs it by name
 * and never by luck through another package's dependencies (puppeteer arrived through mermaid-cli once,
 * and the ELK layout through mermaid-cli 11 until mermaid-cli 12 dropped it). Read from the sources
 * themselves with the TypeScript parser the stamps use (checker/report/stamp.ts): static, type-only and
 * dynamic imports, `require(...)`, `require.resolve(...)` and `createRequire` look-ups of a package's files.
 */

const folders = ['machines', 'properties', 'checker', 'scripts', 'scenarios', 'test-support'];
const rootFiles = ['vitest.config.ts', 'stryker.config.mjs'];

function sourceFiles(): string[] {
  const files: string[] = rootFiles.map((f) => resolve(f));
  for (const folder of folders)
    for (const entry of readdirSync(resolve(folder), { recursive: true, withFileTypes: true }))
      if (entry.isFile() && /\.(ts|mts|mjs|js)$/.test(entry.name))
        files.push(join(entry.parentPath, entry.name));
  return files;
}

/** The package a module specifier names: `@scope/name` or `name`; null for a relative path or a built-in. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? null : name;
}

describe('package.json', () => {
  it('reads a specifier as the package it names', () => {
    expect(packageOf('@mermaid-js/mermaid-cli')).toBe('@mermaid-js/mermaid-cli');
    expect(packageOf('mermaid/package.json')).toBe('mermaid');
    expect(packageOf('xstate/graph')).toBe('xstate');
    expect(packageOf('ajv/dist/2020.js')).toBe('ajv');
    expect(packageOf('node:fs')).toBeNull();
    expect(packageOf('fs')).toBeNull();
    expect(packageOf('./cli.ts')).toBeNull();
  });

  it('declares every package the code imports or resolves', () => {
    const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const declared = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.devDependencies ?? {}),
    ]);
    const used = new Map<string, string>();
    for (const file of sourceFiles()) {
      for (const { specifier, kind } of moduleReferences(file, readFileSync(file, 'utf8'))) {
        // A worker's URL is resolved against its module's own URL: a file beside it, never a package.
        const name = kind === 'worker' ? null : packageOf(specifier);
        if (name !== null && !used.has(name)) used.set(name, relative(process.cwd(), file));
      }
    }
    // The scan finds what the project is known to load, so an empty or broken scan cannot pass.
    for (const known of [
      'xstate',
      'zod',
      'yaml',
      'vitest',
      'mermaid',
      '@mermaid-js/mermaid-cli',
      'puppeteer',
      'axe-core',
      // Loaded only through createRequire(...)('typescript'), as the stamps load it.
      'typescript',
    ])
      expect(used.has(known), `the scan should find ${known}`).toBe(true);
    const undeclared = [...used]
      .filter(([name]) => !declared.has(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(undeclared, 'imported but not in package.json').toEqual([]);
  });
});
