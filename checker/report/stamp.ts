import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type ts from 'typescript';
import { z } from 'zod';
import { writeFileAtomic } from '../cli/fs-atomic.ts';
import { KeptAnswers } from '../cli/kept-answers.ts';
import { contentDigest, projectCacheFolder } from '../cli/project-cache.mjs';
import { schemaRef } from '../cli/schema-ref.ts';

/**
 * Stamps: what a long generator's output was made from, so `npm run check:generated` judges it fresh
 * without running it again. A stamp lists a digest of every source the generator's command can read
 * (its modules by their static imports, the data files those modules read, the packages they import)
 * and of every file it wrote. The outputs are fresh while each digest matches the tree; any source
 * edited, added or removed makes them stale, so a stale file is never called fresh.
 */

/** The project root, wherever the command runs from (no URL object: tests may swap it for a DOM's). */
export const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A long generator's stamp: where it is written, the command that writes it and the module it runs. */
export interface StampSpec {
  /** The stamp file, relative to the root. */
  file: string;
  /** The command that regenerates the outputs and the stamp, as a reader types it. */
  command: string;
  /** The command's entry module, relative to the root: its import closure is what it can run. */
  entry: string;
  /** Data the outputs depend on besides the closure's declared reads (a page a browser opens). */
  data?: readonly string[];
}

export interface Stamp {
  command: string;
  /** Output path → digest of its text after the generator's normalization (a run time masked). */
  outputs: Record<string, string>;
  /** Package name → installed version, for every package the closure imports. */
  packages: Record<string, string>;
  /** Source path → digest; TypeScript without comments, other files byte for byte. */
  sources: Record<string, string>;
}

/** A stamp file as written: its `$schema`, a line saying what it is for, then the stamp. */
export type StampFile = { $schema: string; $comment: string } & Stamp;

const digestMap = z.record(z.string(), z.string());

/** The schema of every `*.stamp.json` (schemas/stamp.schema.json is generated from it). */
export const stampFileSchema = z
  .strictObject({
    $schema: z.string(),
    $comment: z.string(),
    command: z.string(),
    outputs: digestMap,
    packages: digestMap,
    sources: digestMap,
  })
  .meta({
    title: 'nsmodel stamp',
    description:
      "A long generator's stamp (generated/*.stamp.json): the digest of every source its command can read, the versions of the packages it imports, and the digest of every file it wrote.",
  }) as unknown as z.ZodType<StampFile>;

/**
 * What a module reads besides its imports: paths relative to the root (a folder ends in `/`, `*.ext`
 * keeps one extension of a folder), `package:NAME` for a package read through the file system, and
 * modules it imports under a name computed at run time. Every module that imports `node:fs`,
 * `node:fs/promises` or `node:module`, or imports a computed name, is listed (checker/report/stamp.test.ts);
 * one that reads only paths it is given, or the outputs it writes, lists nothing.
 */
export const declaredReads: Readonly<Record<string, readonly string[]>> = {
  'checker/report/alternatives.ts': [],
  // package.json's version, for --version only: no generated file holds it.
  'checker/cli/cli.ts': [],
  'checker/cli/fs-atomic.ts': [],
  // The files a user names (scopes, scenarios, traces), never a project source by itself.
  'checker/cli/input-file.ts': [],
  // The cache file it is given, which no output depends on.
  'checker/cli/kept-answers.ts': [],
  'checker/cli/output-folder.ts': [],
  'checker/report/render.ts': ['package:@mermaid-js/mermaid-cli'],
  'checker/report/report.ts': [],
  'checker/judging/scenario-invariants.ts': ['scenarios/'],
  'checker/scenario/catalog.ts': ['docs/requirements.md', 'docs/decisions.md'],
  'checker/report/scenario-docs.ts': ['scenarios/'],
  'checker/scenario/load.ts': [],
  // yaml's version keys the parses it keeps in node_modules/.cache, a cache no output depends on.
  'checker/scenario/parsed-cache.ts': ['package:yaml'],
  'checker/cli/scope-file.ts': ['scopes/'],
  'checker/report/site/build.ts': ['package:mermaid'],
  'checker/report/site/inputs.ts': [],
  // SPIN's trail files in its own temporary folder.
  'checker/judging/spin.ts': [],
  'checker/judging/swarm.ts': [],
  'checker/report/site/screenshots.ts': ['generated/diagrams/*.mmd', 'generated/mutants.json'],
  // Its digests kept in node_modules/.cache are keyed by TypeScript's version and this file: no output depends on them.
  'checker/report/stamp.ts': ['package:typescript'],
  'checker/scenario/trace-command.ts': [],
  'checker/judging/traceability.ts': ['docs/requirements.md'],
  'scripts/bench.ts': ['scopes/', 'machines/system.ts'],
  'scripts/check-generated.ts': [],
  'scripts/export.ts': [],
  'scripts/replay.ts': [],
  'scripts/screenshots.ts': [],
  'scripts/site.ts': [],
  // The merged results of swarm slices the user names.
  'scripts/swarm.ts': [],
  // The mutation judge replays the committed scenarios, as verify does.
  'scripts/mutation/judge.ts': ['scenarios/'],
  'scripts/verify.ts': ['scenarios/', 'checker/judging/random.ts'],
  // The committed JSON Schemas the tests validate written output against.
  'test-support/output-schema.ts': ['schemas/'],
  'test-support/run-command.ts': [],
  'test-support/temp-dir.ts': [],
  'test-support/two-tenants.ts': [],
};

/** How a module names another: an import or re-export (type-only or not), a literal `import()`, a worker URL, a `require`. */
export type ModuleReferenceKind = 'import' | 'type-import' | 'dynamic-import' | 'worker' | 'require';

/**
 * Every module a module names with a literal specifier, read with the TypeScript parser (text that only
 * looks like an import, in a string or a comment, is none): static imports and re-exports, literal dynamic
 * imports, `new URL('….ts')` worker URLs, and `require(…)` and `require.resolve(…)` calls, including
 * `createRequire(…)(…)` and `createRequire(…).resolve(…)`.
 */
export function moduleReferences(
  path: string,
  text: string,
): { specifier: string; kind: ModuleReferenceKind }[] {
  const { t } = typescript();
  const file = t.createSourceFile(path, text, t.ScriptTarget.ES2022, true, t.ScriptKind.TS);
  const found: { specifier: string; kind: ModuleReferenceKind }[] = [];
  const isRequire = (callee: ts.Expression): boolean =>
    (t.isIdentifier(callee) && callee.text === 'require') ||
    (t.isCallExpression(callee) &&
      t.isIdentifier(callee.expression) &&
      callee.expression.text === 'createRequire');
  const visit = (node: ts.Node): void => {
    if (t.isImportDeclaration(node) && t.isStringLiteral(node.moduleSpecifier)) {
      found.push({
        specifier: node.moduleSpecifier.text,
        kind: node.importClause?.isTypeOnly ? 'type-import' : 'import',
      });
    } else if (
      t.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      t.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, kind: node.isTypeOnly ? 'type-import' : 'import' });
    } else if (t.isCallExpression(node) && node.arguments[0] && t.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      const specifier = node.arguments[0].text;
      if (callee.kind === t.SyntaxKind.ImportKeyword) found.push({ specifier, kind: 'dynamic-import' });
      else if (
        isRequire(callee) ||
        (t.isPropertyAccessExpression(callee) &&
          callee.name.text === 'resolve' &&
          isRequire(callee.expression))
      )
        found.push({ specifier, kind: 'require' });
    } else if (
      t.isNewExpression(node) &&
      t.isIdentifier(node.expression) &&
      node.expression.text === 'URL' &&
      node.arguments?.[0] &&
      t.isStringLiteralLike(node.arguments[0]) &&
      /\.ts$/.test(node.arguments[0].text)
    ) {
      // A worker started from a URL is code the command runs, like an import.
      found.push({ specifier: node.arguments[0].text, kind: 'worker' });
    }
    t.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The modules a module imports at run time: static imports and re-exports (not type-only), literal dynamic imports and worker URLs. */
export function runtimeImports(path: string, text: string): string[] {
  return moduleReferences(path, text)
    .filter((reference) => reference.kind !== 'type-import' && reference.kind !== 'require')
    .map((reference) => reference.specifier);
}

/** True when a module imports a name computed at run time, which no closure can follow without a declaration. */
export function hasComputedImport(path: string, text: string): boolean {
  const { t } = typescript();
  const file = t.createSourceFile(path, text, t.ScriptTarget.ES2022, true, t.ScriptKind.TS);
  let computed = false;
  const visit = (node: ts.Node): void => {
    if (
      t.isCallExpression(node) &&
      node.expression.kind === t.SyntaxKind.ImportKeyword &&
      !(node.arguments[0] && t.isStringLiteralLike(node.arguments[0]))
    )
      computed = true;
    t.forEachChild(node, visit);
  };
  visit(file);
  return computed;
}

let loaded: { t: typeof ts; printer: ts.Printer } | undefined;
/** TypeScript, loaded on first use: a command that writes or judges no stamp never pays its tens of MB of heap. */
function typescript(): { t: typeof ts; printer: ts.Printer } {
  if (!loaded) {
    const t = createRequire(import.meta.url)('typescript') as typeof ts;
    loaded = { t, printer: t.createPrinter({ removeComments: true }) };
  }
  return loaded;
}

/** A source's digest: TypeScript as printed without comments (a comment edit changes nothing run), anything else by its bytes. */
export function sourceDigest(path: string, bytes: Buffer): string {
  if (!path.endsWith('.ts')) return digest(bytes);
  const { t, printer } = typescript();
  const file = t.createSourceFile(
    path,
    bytes.toString('utf8'),
    t.ScriptTarget.ES2022,
    false,
    t.ScriptKind.TS,
  );
  return digest(printer.printFile(file));
}

export const digest = (data: string | Buffer): string =>
  createHash('sha256').update(data).digest('hex').slice(0, 16);

/** An output's digest: its bytes, or its text as the generator normalizes it (a run time masked). */
const outputDigest = (path: string, bytes: Buffer, normalize?: (path: string, text: string) => string) =>
  digest(normalize ? normalize(path, bytes.toString('utf8')) : bytes);

/** What a file's bytes give, computed once per process: several stamps share most of their sources. */
const memo = new Map<string, unknown>();

/** Thrown by `cached` when an answer that needs TypeScript is kept nowhere and TypeScript may not be loaded. */
class NotKept extends Error {}

let keptAnswersLoaded: KeptAnswers<unknown> | undefined;
/**
 * What TypeScript made of each module's bytes (its imports, its digest), kept between runs: parsing and
 * printing every module takes about 2 s of CPU and 150 MB, and an answer depends only on the bytes,
 * TypeScript's version and this file. Two per module, edited many times over, fit in the limit.
 */
const kept = (): KeptAnswers<unknown> => {
  if (keptAnswersLoaded === undefined) {
    const typescriptVersion = (() => {
      try {
        return (createRequire(import.meta.url)('typescript/package.json') as { version: string }).version;
      } catch {
        return 'not installed';
      }
    })();
    const self = contentDigest(readFileSync(fileURLToPath(import.meta.url)));
    keptAnswersLoaded = new KeptAnswers(
      join(projectCacheFolder(sourceRoot), 'stamp-answers.bin'),
      contentDigest(`${typescriptVersion}\n${self}`),
      4096,
    );
  }
  return keptAnswersLoaded;
};

/**
 * `compute(bytes)` once per process, and the answers TypeScript gives (the only costly ones) once per content
 * across runs; with `keptOnly`, such an answer kept nowhere throws `NotKept` instead of loading TypeScript.
 */
function cached<T>(
  what: string,
  path: string,
  bytes: Buffer,
  compute: (bytes: Buffer) => T,
  keptOnly = false,
): T {
  const key = `${what} ${path.endsWith('.ts') ? 'ts' : 'bytes'} ${contentDigest(bytes)}`;
  if (memo.has(key)) return memo.get(key) as T;
  // Imports are read with TypeScript's parser, whatever the file; a digest only for TypeScript files.
  const parsed = what === 'imports' || path.endsWith('.ts');
  let answer = parsed ? (kept().get(key) as T | undefined) : undefined;
  if (answer === undefined) {
    if (parsed && keptOnly) throw new NotKept(path);
    answer = compute(bytes);
    if (parsed) kept().set(key, answer);
  }
  memo.set(key, answer);
  return answer;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); null for a Node built-in. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function packageVersion(root: string, name: string): string {
  const file = join(root, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return 'not installed';
  return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'no version';
}

/** Every file of a declared read: a file, a folder's files (`folder/`), or one extension of a folder (`folder/*.ext`). */
function filesOf(root: string, declared: string): string[] {
  const star = declared.indexOf('/*.');
  const folder = declared.endsWith('/') ? declared : star >= 0 ? declared.slice(0, star + 1) : null;
  if (folder === null) return [declared];
  const extension = star >= 0 ? declared.slice(star + 2) : '';
  const absolute = join(root, folder);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) =>
      posix.join(folder, posix.relative(absolute, join(entry.parentPath, entry.name)).split('\\').join('/')),
    )
    .sort();
}

/**
 * The sources and packages `spec`'s command can read under `root`: its entry's import closure, what
 * each module of it declares it reads, and `spec.data`. A relative import that does not resolve throws.
 */
export function stampSources(
  root: string,
  spec: Pick<StampSpec, 'entry' | 'data'>,
): { sources: Record<string, string>; packages: Record<string, string> } {
  const taken = collectSources(root, spec, false);
  kept().save();
  return taken;
}

/**
 * `stampSources`, when every TypeScript module's answer is kept from an earlier run (no TypeScript loaded,
 * a few tens of milliseconds); undefined when one is not.
 */
export function keptStampSources(
  root: string,
  spec: Pick<StampSpec, 'entry' | 'data'>,
): { sources: Record<string, string>; packages: Record<string, string> } | undefined {
  try {
    return collectSources(root, spec, true);
  } catch (error) {
    if (error instanceof NotKept) return undefined;
    throw error;
  }
}

function collectSources(
  root: string,
  spec: Pick<StampSpec, 'entry' | 'data'>,
  keptOnly: boolean,
): { sources: Record<string, string>; packages: Record<string, string> } {
  const modules = new Set<string>();
  const data = new Set<string>(spec.data ?? []);
  const packages = new Set<string>();
  const queue = [spec.entry];
  while (queue.length > 0) {
    const module = queue.pop() as string;
    if (modules.has(module)) continue;
    const absolute = join(root, module);
    if (!existsSync(absolute))
      throw new Error(`${module}: imported but missing; fix the import or restore the file`);
    modules.add(module);
    for (const read of declaredReads[module] ?? []) {
      if (read.startsWith('package:')) packages.add(read.slice('package:'.length));
      else if (read.endsWith('.ts')) queue.push(read);
      else data.add(read);
    }
    for (const specifier of cached(
      'imports',
      module,
      readFileSync(absolute),
      (bytes) => runtimeImports(module, bytes.toString('utf8')),
      keptOnly,
    )) {
      if (specifier.startsWith('.'))
        queue.push(posix.normalize(posix.join(posix.dirname(module), specifier)));
      else {
        const name = packageOf(specifier);
        if (name) packages.add(name);
      }
    }
  }
  const sources: Record<string, string> = {};
  const paths = [...modules, ...[...data].flatMap((d) => filesOf(root, d))];
  for (const path of [...new Set(paths)].sort()) {
    const absolute = join(root, path);
    sources[path] = existsSync(absolute)
      ? cached('digest', path, readFileSync(absolute), (bytes) => sourceDigest(path, bytes), keptOnly)
      : 'missing';
  }
  const versions = Object.fromEntries([...packages].sort().map((name) => [name, packageVersion(root, name)]));
  return { sources, packages: versions };
}

const stampComment = (spec: StampSpec) =>
  `Written by \`${spec.command}\` with the outputs below: a digest of each source it can read and of each file it wrote. \`npm run check:generated\` judges the outputs fresh while every digest matches the tree; never edit by hand.`;

export type StampSources = ReturnType<typeof stampSources>;

/**
 * The stamp of outputs just written under `rootDir`. `sources` should be taken before the run began
 * (stampSources(sourceRoot, spec)), so an edit made while a long run goes on leaves the outputs stale.
 */
export async function writeStamp(
  rootDir: string,
  spec: StampSpec,
  outputs: readonly string[],
  options: { normalize?: (path: string, text: string) => string; sources?: StampSources } = {},
): Promise<string> {
  const digests: Record<string, string> = {};
  for (const path of [...outputs].sort())
    digests[path] = outputDigest(path, await readFile(join(rootDir, path)), options.normalize);
  const { sources, packages } = options.sources ?? stampSources(sourceRoot, spec);
  const stamp: StampFile = {
    $schema: schemaRef('stamp', spec.file),
    $comment: stampComment(spec),
    command: spec.command,
    outputs: digests,
    packages,
    sources,
  };
  await writeFileAtomic(join(rootDir, spec.file), `${JSON.stringify(stamp, null, 2)}\n`);
  return spec.file;
}

function parseStamp(text: string, file: string): Stamp | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `${file} is not JSON (${(error as Error).message})`;
  }
  const record = (value: unknown) =>
    typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');
  const stamp = json as Partial<Stamp>;
  for (const field of ['outputs', 'packages', 'sources'] as const)
    if (!record(stamp[field])) return `${file}: field ${field} is not a map of strings`;
  if (typeof stamp.command !== 'string') return `${file}: field command is not a string`;
  return stamp as Stamp;
}

/**
 * Why the outputs a stamp lists are not fresh under `root` (empty when they are): a source changed,
 * appeared or went away since they were made, a package moved, or an output is not what was written.
 */
export async function stampProblems(
  root: string,
  spec: StampSpec,
  normalize?: (path: string, text: string) => string,
): Promise<string[]> {
  const text = await readFile(join(root, spec.file), 'utf8').catch(() => null);
  if (text === null) return [`${spec.file} is missing; run \`${spec.command}\` and commit what it writes`];
  const stamp = parseStamp(text, spec.file);
  if (typeof stamp === 'string') return [`${stamp}; run \`${spec.command}\``];
  const problems: string[] = [];
  for (const [path, want] of Object.entries(stamp.outputs)) {
    const output = await readFile(join(root, path)).catch(() => null);
    if (output === null) problems.push(`${path}: missing, the stamp lists it`);
    else if (outputDigest(path, output, normalize) !== want)
      problems.push(`${path}: not what \`${spec.command}\` wrote (edited by hand?)`);
  }
  const now = stampSources(root, spec);
  const changed = (before: Record<string, string>, after: Record<string, string>, what: string) => {
    for (const path of Object.keys(after)) {
      if (!Object.hasOwn(before, path)) problems.push(`${path}: ${what} added since the outputs were made`);
      else if (before[path] !== after[path])
        problems.push(
          `${path}: ${what} changed since the outputs were made${what === 'package' ? ` (${before[path]} → ${after[path]})` : ''}`,
        );
    }
    for (const path of Object.keys(before))
      if (!Object.hasOwn(after, path)) problems.push(`${path}: ${what} gone since the outputs were made`);
  };
  changed(stamp.sources, now.sources, 'source');
  changed(stamp.packages, now.packages, 'package');
  return problems;
}

/** The outputs a stamp lists, or none when it is missing or unreadable. */
export async function stampedOutputs(root: string, spec: StampSpec): Promise<string[]> {
  const text = await readFile(join(root, spec.file), 'utf8').catch(() => null);
  const stamp = text === null ? null : parseStamp(text, spec.file);
  return stamp && typeof stamp !== 'string' ? Object.keys(stamp.outputs) : [];
}
