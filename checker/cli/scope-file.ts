import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scope } from '../../machines/scope.ts';
import { UsageError } from './cli.ts';
import { InputFileError, inputCaps, readInputText, refusedValue } from './input-file.ts';
import { kubernetesIssue } from './kubernetes-validation.ts';
import { closest } from './request-line.ts';
import { ExtendsIssue, mergeScopeDocuments, type Origins, pathInPatch } from './scope-extends.ts';
import { type ScopeDocument, scopeDocumentSchema } from './scope-format.ts';
import { type FieldPath, issueOfZod, type ScopeIssue } from './scope-issues.ts';
import { scopeSymmetry } from './scope-symmetry.ts';
import { documentToScope } from './scope-yaml.ts';
import { keyLine, nodeLine, parseYamlDocument, type YamlDocument } from './yaml-document.ts';

/**
 * `--scope NAME|FILE`: a scope file (checker/cli/scope-format.ts), by name from `scopes/NAME.yaml` or by
 * path. Every error is one line naming the file, the line, the field and the fix; nothing is explored.
 */
export type ScopeSource =
  /** A built-in scope with its file as read: its golden figures and expectations need no second parse. */
  { kind: 'named'; name: string; file: LoadedScopeFile } | { kind: 'file'; path: string };

/** The folder of the built-in scopes, wherever the command runs from (no URL object: tests may swap it for a DOM's). */
export const scopesFolder = `${join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scopes')}/`;
// Against YAML bombs: a scope needs no aliases at all, so a few is generous.
const maxAliasCount = 20;

/** A scope file's problem, located: `FILE:LINE: FIELD: PROBLEM; fix: FIX`. */
export class ScopeFileError extends Error {
  override readonly name = 'ScopeFileError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${file}:${line}: ${field || '(top level)'}: ${problem}; fix: ${fix}`);
  }
}

/** The built-in scopes' names: the files under scopes/. */
export function scopeNames(): string[] {
  if (!existsSync(scopesFolder)) return [];
  return readdirSync(scopesFolder)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

export const scopeFileOf = (name: string): string => `${scopesFolder}${name}.yaml`;

/** A built-in scope by name (scopes/NAME.yaml); throws with the names there are. */
export function scopeByName(name: string): Scope {
  return scopeFileByName(name).scope;
}

/** Every built-in scope, by name: the files under scopes/ are their only source. */
export function builtInScopes(): Record<string, Scope> {
  return Object.fromEntries(scopeNames().map((name) => [name, scopeByName(name)]));
}

/** A built-in scope by name (with its file as read), else a scope file; anything else names the valid choices. */
export function resolveScope(text: string): { scopeSource: ScopeSource; scope: Scope } {
  if (!/[./]/.test(text)) {
    const file = scopeFileByName(text);
    return { scopeSource: { kind: 'named', name: text, file }, scope: file.scope };
  }
  return { scopeSource: { kind: 'file', path: text }, scope: loadScopeFile(text) };
}

/** Reads and checks a scope file; errors are UsageErrors of one line, `--scope: FILE:LINE: ...`. */
export function loadScopeFile(path: string, shown = path): Scope {
  return loadScopeDocument(path, shown).scope;
}

/** A scope file read whole: the Scope, and what the file itself declares besides (never inherited). */
export interface LoadedScopeFile {
  scope: Scope;
  /** The file as shown in messages (scopes/NAME.yaml for a built-in scope). */
  file: string;
  expectations?: ScopeDocument['expectations'];
  golden?: ScopeDocument['golden'];
}

/** A built-in scope's file read whole (scopes/NAME.yaml), with its expectations and golden figures. */
export function scopeFileByName(name: string): LoadedScopeFile {
  if (!scopeNames().includes(name))
    throw new UsageError(
      `--scope: unknown scope ${JSON.stringify(name)}; use one of ${scopeNames().join(', ')}, or a path to a scope file`,
    );
  return loadScopeDocument(scopeFileOf(name), `scopes/${name}.yaml`);
}

/** The file of a seeded fault's own scope (`sweepScope` in variants/variants.ts): scopes/faults/NAME.yaml. */
export const faultScopeFileOf = (name: string): string => `${scopesFolder}faults/${name}.yaml`;

/** A seeded fault's own scope, read from scopes/faults/NAME.yaml (not a built-in scope: it has no golden figures). */
export function faultScope(name: string): Scope {
  return loadScopeDocument(faultScopeFileOf(name), `scopes/faults/${name}.yaml`).scope;
}

/** Reads a scope file and the files it extends; errors are UsageErrors of one line. */
export function loadScopeDocument(path: string, shown = path): LoadedScopeFile {
  const text = readScopeText(path, shown);
  try {
    return {
      ...parseScopeDocument(text, shown, { folder: dirname(path), chain: [resolve(path)] }),
      file: shown,
    };
  } catch (error) {
    if (error instanceof ScopeFileError) throw new UsageError(`--scope: ${error.message}`);
    throw error;
  }
}

function readScopeText(path: string, shown: string): string {
  let text: string;
  try {
    text = readInputText(path, inputCaps.scope);
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    const names = error.problem === 'no such file' ? ` or a scope name (${scopeNames().join(', ')})` : '';
    throw new UsageError(`--scope: ${shown}:${error.line}: ${error.problem}; fix: ${error.fix}${names}`);
  }
  if (text.trim() === '')
    throw new UsageError(
      `--scope: ${shown}:1: (top level): the file is empty; fix: write a scope (see scopes/default.yaml)`,
    );
  return text;
}

/** Where `extends` looks: the folder of the file that extends, and the files already on the way (against cycles). */
interface ExtendsContext {
  folder: string;
  chain: readonly string[];
}

/** A scope document's text to a Scope, or a ScopeFileError for its first problem. */
export function parseScope(text: string, file: string): Scope {
  return parseScopeText(text, file).scope;
}

/** A scope document's text read whole (a base it extends is looked up under scopes/), or a ScopeFileError. */
export function parseScopeText(text: string, file: string): Omit<LoadedScopeFile, 'file'> {
  return parseScopeDocument(text, file, { folder: scopesFolder, chain: [] });
}

interface ParsedText extends YamlDocument {
  data: unknown;
}

function parseYaml(text: string, file: string): ParsedText {
  const { doc, lines } = parseYamlDocument(text, {
    syntax: (syntax, line) => {
      const problem = syntax.message
        .split('\n')[0]
        .replace(/ at line \d+, column \d+.*$/, '')
        .replace(/;.*$/, '');
      // The parser records its own stack overflow on a deeply nested value as a syntax error.
      if (/Maximum call stack/.test(problem))
        throw new ScopeFileError(
          file,
          line,
          '',
          'nested too deeply',
          'a scope is a few levels of maps and lists',
        );
      const fix =
        syntax.code === 'MULTIPLE_DOCS' ? 'keep one scope per file' : 'correct the YAML syntax on that line';
      throw new ScopeFileError(file, line, '', `not YAML (${problem})`, fix);
    },
    tag: (tag, line) => {
      throw new ScopeFileError(
        file,
        line,
        '',
        `unknown YAML tag${tag}`,
        'remove the tag: a scope holds plain YAML values',
      );
    },
  });
  try {
    return { doc, lines, data: doc.toJS({ maxAliasCount }) };
  } catch (error) {
    if (error instanceof RangeError)
      throw new ScopeFileError(file, 1, '', 'nested too deeply', 'a scope is a few levels of maps and lists');
    throw new ScopeFileError(
      file,
      1,
      '',
      `refused: ${(error as Error).message}`,
      'write each value out instead of through aliases',
    );
  }
}

/**
 * The document a file stands for, with `extends` resolved (checker/cli/scope-extends.ts): its base's, with
 * the file's changes. A problem anywhere is a ScopeFileError of the file that has it.
 */
function resolvedData(
  parsed: ParsedText,
  file: string,
  context: ExtendsContext,
): { data: unknown; origins?: Origins } {
  const { data } = parsed;
  if (!isMapValue(data) || !Object.hasOwn(data, 'extends')) return { data };
  const at = (path: FieldPath) => lineOfPath(parsed, path);
  const fail = (path: FieldPath, problem: string, fix: string): never => {
    throw new ScopeFileError(file, at(path), fieldOf(path), problem, fix);
  };
  const base = data.extends;
  if (typeof base !== 'string' || base === '')
    return fail(
      ['extends'],
      'expected a scope name or a path to a scope file',
      'write e.g. `extends: default`',
    );
  const named = !/[./]/.test(base);
  const basePath = named ? scopeFileOf(base) : resolve(context.folder, base);
  const baseShown = named ? `scopes/${base}.yaml` : base;
  if (named && !scopeNames().includes(base)) {
    const guess = closest(base, scopeNames());
    return fail(
      ['extends'],
      `unknown scope ${JSON.stringify(base)}`,
      `${guess ? `did you mean "${guess}"? ` : ''}use one of ${scopeNames().join(', ')}, or a path to a scope file`,
    );
  }
  if (!named && !existsSync(basePath))
    return fail(
      ['extends'],
      `no file ${base} (looked in ${context.folder})`,
      'give a path relative to this file, or a scope name',
    );
  const target = resolve(basePath);
  if (context.chain.includes(target)) {
    const names = [...context.chain, target].map((p) => basename(p));
    return fail(
      ['extends'],
      `a cycle: ${names.join(' extends ')}`,
      'let one of these files stand alone (copy what it needs instead of extending)',
    );
  }
  let baseText: string;
  try {
    baseText = readScopeText(basePath, baseShown);
  } catch (error) {
    // The refusal names this file's `extends` line: the base could not be read at all.
    if (!(error instanceof UsageError)) throw error;
    return fail(
      ['extends'],
      `cannot read the base: ${error.message.replace(/^--scope: /, '').split('; fix: ')[0]}`,
      'name a regular scope file, or a scope name',
    );
  }
  const baseParsed = parseYaml(baseText, baseShown);
  const baseContext = { folder: dirname(basePath), chain: [...context.chain, target] };
  const baseData = resolvedData(baseParsed, baseShown, baseContext).data;
  // The base must be a scope of its own, so its problems are reported in its own file.
  checkedScope(baseParsed, baseData, baseShown);
  const origins: Origins = new WeakMap();
  try {
    return { data: mergeScopeDocuments(baseData as Record<string, unknown>, data, origins), origins };
  } catch (error) {
    if (error instanceof ExtendsIssue) return fail(error.issue.path, error.issue.problem, error.issue.fix);
    throw error;
  }
}

const isMapValue = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Validates a document's data; a problem is located in the file's own text (an inherited entry at `extends`). */
function checkedScope(
  parsed: ParsedText,
  data: unknown,
  file: string,
  origins?: Origins,
): ScopeDocument & { scope: Scope } {
  const fail = (issue: ScopeIssue): never => {
    const own = origins ? pathInPatch(data, parsed.data, issue.path, origins) : issue.path;
    if (own === null)
      throw new ScopeFileError(
        file,
        lineOfPath(parsed, ['extends']),
        fieldOf(issue.path),
        `${issue.problem} (an entry of the base, with this file's changes)`,
        issue.fix,
      );
    throw new ScopeFileError(file, lineOfPath(parsed, own), fieldOf(own), issue.problem, issue.fix);
  };
  const refused = refusedValue(data);
  if (refused) fail(refused);
  const parsedDoc = scopeDocumentSchema.safeParse(data);
  if (!parsedDoc.success) return fail(issueOfZod(parsedDoc.error.issues, data));
  const twice = declaredTwice(parsedDoc.data.expectations);
  if (twice) return fail(twice);
  const result = scopeOfDocument(parsedDoc.data);
  return 'problem' in result ? fail(result) : { ...parsedDoc.data, scope: result };
}

/** A property or transition declared under two reasons of `expectations`: the second place. */
function declaredTwice(declared: ScopeDocument['expectations']): ScopeIssue | undefined {
  for (const [field, ids] of [
    ['vacuous', 'properties'],
    ['untaken', 'transitions'],
  ] as const) {
    const seen = new Set<string>();
    const groups = (declared?.[field] ?? []) as { reason: string; [ids: string]: string[] | string }[];
    for (const [i, group] of groups.entries())
      for (const [j, id] of (group[ids] as string[]).entries()) {
        if (seen.has(id))
          return {
            path: ['expectations', field, i, ids, j],
            problem: `${id} is declared twice`,
            fix: 'keep it under one reason',
          };
        seen.add(id);
      }
  }
  return undefined;
}

function parseScopeDocument(
  text: string,
  file: string,
  context: ExtendsContext,
): Omit<LoadedScopeFile, 'file'> {
  const parsed = parseYaml(text, file);
  const { data, origins } = resolvedData(parsed, file, context);
  const checked = checkedScope(parsed, data, file, origins);
  return {
    scope: checked.scope,
    ...(checked.expectations ? { expectations: checked.expectations } : {}),
    ...(checked.golden ? { golden: checked.golden } : {}),
  };
}

/** A scope document already parsed (a scenario's `given.scope`): the Scope, or its first issue. */
export function scopeFromData(data: unknown): Scope | ScopeIssue {
  if (isMapValue(data) && Object.hasOwn(data, 'extends'))
    return {
      path: ['extends'],
      problem: 'a scope written inline cannot extend another',
      fix: 'write the whole scope, or name a scope file instead',
    };
  const parsed = scopeDocumentSchema.safeParse(data);
  if (!parsed.success) return issueOfZod(parsed.error.issues, data);
  return scopeOfDocument(parsed.data);
}

function scopeOfDocument(doc: ScopeDocument): Scope | ScopeIssue {
  const result = documentToScope(doc);
  if ('issues' in result) return result.issues[0];
  // What the apiserver would refuse (schema, RBAC rules, names) or the scope's world lacks (users, system namespaces).
  const refused = kubernetesIssue(doc);
  if (refused) return refused;
  // Declared symmetry sets must really be interchangeable, or the reduced search would be unsound.
  const symmetry = result.scope.symmetry ? scopeSymmetry(result.scope) : undefined;
  return symmetry && 'issue' in symmetry ? symmetry.issue : result.scope;
}

/** `namespaces[0].name` for a field path. */
export function fieldOf(path: FieldPath): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${part}`))
    .join('');
}

/** The line of the field at `path`: the key's line when it is there, else its nearest present parent's. */
function lineOfPath(parsed: YamlDocument, path: FieldPath): number {
  for (let length = path.length; length >= 0; length--) {
    const keys = path.slice(0, length);
    const line =
      (length === 0 ? undefined : keyLine(parsed, keys.slice(0, -1), keys.at(-1))) ?? nodeLine(parsed, keys);
    if (line !== undefined) return line;
  }
  return 1;
}
