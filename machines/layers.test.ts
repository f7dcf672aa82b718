import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const machinesDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(machinesDir, '..');
/** Layers point one way: machines → properties → checker → scripts. */
const above = ['checker', 'properties', 'scripts'];

/** Every non-test TypeScript source under a folder, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports or re-exports, static or dynamic. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g))
    found.push(m[1]);
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]);
  return found;
}

/** An HTTP outcome written as data: a status code or a wire reason given a value. */
function decidesAnswer(text: string): string[] {
  return [...text.matchAll(/\b(?:code:\s*[1-5]\d\d\b|reason:\s*'[A-Z][A-Za-z]+')/g)].map((m) => m[0]);
}

describe('layers', () => {
  it('finds the specification sources it judges', () => {
    expect(sources(machinesDir).map((p) => relative(root, p))).toContain('machines/system.ts');
  });

  it('machines/ (the specification) imports nothing from checker/, properties/ or scripts/', () => {
    const offending = sources(machinesDir).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => relative(root, resolve(dirname(file), spec)))
        .filter((target) => above.some((layer) => target === layer || target.startsWith(`${layer}/`)))
        .map((target) => `${relative(root, file)} imports ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('no HTTP answer is decided outside machines/: no status literal, no wire reason, no response builder', () => {
    const offending = above
      .flatMap((layer) => sources(join(root, layer)))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        const builds = specifiers(text).some((spec) => /machines\/(http|storage)\.ts$/.test(spec));
        return [...decidesAnswer(text), ...(builds ? ['imports a response builder'] : [])].map(
          (what) => `${relative(root, file)}: ${what}`,
        );
      });
    expect(offending).toEqual([]);
  });

  it('the answer scan sees a decided status and reason when there is one', () => {
    expect(decidesAnswer("const r = { code: 403, reason: 'Forbidden' };")).toEqual([
      'code: 403',
      "reason: 'Forbidden'",
    ]);
    expect(decidesAnswer('if (response.code >= 400) return;')).toEqual([]);
  });

  it('the import scan sees a forbidden import when there is one', () => {
    expect(
      specifiers("import type { X } from '../checker/engine/model.ts';\nexport { y } from './y.ts';"),
    ).toEqual(['../checker/engine/model.ts', './y.ts']);
  });
});
