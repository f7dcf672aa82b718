import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { exitCodes } from '../cli/cli.ts';
import { mutantsJsonPath, mutantsMarkdownPath, mutantsStamp } from './mutants.ts';
import {
  declaredReads,
  hasComputedImport,
  keptStampSources,
  runtimeImports,
  sourceDigest,
  sourceRoot,
  stampProblems,
  stampSources,
  writeStamp,
} from './stamp.ts';

/** Every non-test module the commands can load. */
function modules(): string[] {
  return ['machines', 'properties', 'checker', 'scripts', 'test-support'].flatMap((folder) =>
    readdirSync(join(sourceRoot, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
      .map((path) => `${folder}/${path.split('\\').join('/')}`),
  );
}

describe('the sources of a stamp', () => {
  it('follow imports that run: static, re-exported, dynamic with a literal, and worker URLs; not type-only ones', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "export { c } from './c.ts';",
      "export type { D } from './d.ts';",
      "const e = await import('./e.ts');",
      "const worker = new URL('./f.ts', import.meta.url);",
      "import { z } from 'zod';",
    ].join('\n');
    expect(runtimeImports('x.ts', text)).toEqual(['./a.ts', './c.ts', './e.ts', './f.ts', 'zod']);
    expect(hasComputedImport('x.ts', text)).toBe(false);
    expect(hasComputedImport('x.ts', 'const m = await import(name);')).toBe(true);
  });

  it('ignore comments in TypeScript but not a character of code, a string or a template', () => {
    // A template literal's source, built so no string here holds a placeholder of its own.
    const template = (inside: string, spaces: string) => `export const a = \`x $\{${inside}}${spaces}y\`;`;
    const base = `${template('1', '  ')} // note\n`;
    const digestOf = (text: string) => sourceDigest('m.ts', Buffer.from(text));
    expect(digestOf(`/** why */\n${template('1', '  ')} // other note\n`)).toBe(digestOf(base));
    expect(digestOf(`${template('1', ' ')}\n`)).not.toBe(digestOf(base));
    expect(digestOf(`${template('2', '  ')}\n`)).not.toBe(digestOf(base));
    expect(sourceDigest('s.yaml', Buffer.from('a: 1 # c\n'))).not.toBe(
      sourceDigest('s.yaml', Buffer.from('a: 1\n')),
    );
  });

  it('declare every file a module reads: each module that touches the file system or imports a computed name is listed', () => {
    const undeclared = modules().filter((path) => {
      const text = readFileSync(join(sourceRoot, path), 'utf8');
      const readsFiles = /from 'node:(fs|fs\/promises|module)'/.test(text);
      return (readsFiles || hasComputedImport(path, text)) && !Object.hasOwn(declaredReads, path);
    });
    expect(
      undeclared,
      'add each to declaredReads in checker/report/stamp.ts with the paths it reads',
    ).toEqual([]);
    const all = new Set(modules());
    expect(Object.keys(declaredReads).filter((path) => !all.has(path))).toEqual([]);
  });

  it('of the mutants table hold the machines, the properties, the scopes and the packages it imports', () => {
    const { sources, packages } = stampSources(sourceRoot, mutantsStamp);
    expect(Object.keys(sources)).toEqual(
      expect.arrayContaining([
        'scripts/mutants.ts',
        'variants/variants.ts',
        'machines/namespace.ts',
        'properties/safety.ts',
        'scopes/default.yaml',
      ]),
    );
    expect(Object.keys(packages)).toEqual(expect.arrayContaining(['xstate', 'yaml', 'zod']));
    // What only tests import is no source of the table.
    expect(Object.keys(sources).filter((path) => path.endsWith('.test.ts'))).toEqual([]);
  });
});

describe('a stamped output', () => {
  const temp = useTempDir('stamp');
  let copy: string;
  const problems = () => stampProblems(copy, mutantsStamp);

  beforeAll(async () => {
    // A copy of the tree as git sees it (tracked and new files), with its stamp written from the copy.
    copy = join(temp(), 'tree');
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: sourceRoot })
      .toString('utf8')
      .split('\0')
      .filter((path) => path !== '' && !path.startsWith('generated/'));
    for (const path of [...files, mutantsJsonPath, mutantsMarkdownPath]) {
      await mkdir(dirname(join(copy, path)), { recursive: true });
      await copyFile(join(sourceRoot, path), join(copy, path)).catch(() => undefined);
    }
    await symlink(join(sourceRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
    await writeStamp(copy, mutantsStamp, [mutantsJsonPath, mutantsMarkdownPath], {
      sources: stampSources(copy, mutantsStamp),
    });
  });

  it('is fresh while its sources are as they were, whatever their comments say', async () => {
    expect(await problems()).toEqual([]);
    await appendFile(join(copy, 'machines/namespace.ts'), '// a comment changes nothing that runs\n');
    expect(await problems()).toEqual([]);
  });

  it('is stale once a source it depends on changes, and check:generated names the source and the command', async () => {
    await appendFile(join(copy, 'machines/namespace.ts'), 'export const addedForTheTest = 1;\n');
    expect(await problems()).toEqual(['machines/namespace.ts: source changed since the outputs were made']);
    const run = await runScript(join(copy, 'scripts/check-generated.ts'), ['--only', 'mutants'], {
      cwd: copy,
    });
    expect(run.code).toBe(exitCodes.stale);
    expect(run.stdout).toContain(
      `${mutantsStamp.file}: rerun \`npm run mutants\`:\n    machines/namespace.ts: source changed since the outputs were made`,
    );
    expect(run.stdout).toMatch(/check:generated: mutants: checking by its stamp/);
  });

  it('is stale when a scope appears or an output is edited by hand', async () => {
    await writeFile(join(copy, 'scopes/added.yaml'), 'name: added\n');
    const markdown = join(copy, mutantsMarkdownPath);
    await writeFile(markdown, `${await readFile(markdown, 'utf8')}edited\n`);
    expect(await problems()).toEqual(
      expect.arrayContaining([
        'scopes/added.yaml: source added since the outputs were made',
        `${mutantsMarkdownPath}: not what \`npm run mutants\` wrote (edited by hand?)`,
      ]),
    );
  });
});

describe("TypeScript's answers kept between runs", () => {
  it("serve the project's own stamp with each digest TypeScript gives the file now", () => {
    stampSources(sourceRoot, mutantsStamp);
    const kept = keptStampSources(sourceRoot, mutantsStamp);
    expect(kept).toBeDefined();
    const sources = Object.entries(kept?.sources ?? {});
    expect(sources.length).toBeGreaterThan(50);
    // Each digest computed again from the file's bytes, past every cache.
    for (const [path, digest] of sources)
      expect([path, digest]).toEqual([path, sourceDigest(path, readFileSync(join(sourceRoot, path)))]);
  });
});
