import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isScalar, LineCounter, type Node, parseDocument } from 'yaml';
import type { Scope } from '../machines/scope.ts';
import { UsageError } from './cli.ts';
import { InputFileError, inputCaps, nonFiniteNumber, readInputText, yamlSpelling } from './input-file.ts';
import { kubernetesIssue } from './kubernetes-validation.ts';
import { scopeDocumentSchema } from './scope-format.ts';
import { type FieldPath, issueOfZod, type ScopeIssue } from './scope-issues.ts';
import { documentToScope } from './scope-yaml.ts';
import { scopeSymmetry } from './symmetry.ts';

/**
 * `--scope NAME|FILE`: a scope file (checker/scope-format.ts), by name from `scopes/NAME.yaml` or by
 * path. Every error is one line naming the file, the line, the field and the fix; nothing is explored.
 */
export type ScopeSource = { kind: 'named'; name: string } | { kind: 'file'; path: string };

/** The folder of the built-in scopes, wherever the command runs from (no URL object: tests may swap it for a DOM's). */
export const scopesFolder = `${join(dirname(fileURLToPath(import.meta.url)), '..', 'scopes')}/`;
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
  if (!scopeNames().includes(name))
    throw new UsageError(
      `--scope: unknown scope ${JSON.stringify(name)}; use one of ${scopeNames().join(', ')}, or a path to a scope file`,
    );
  return loadScopeFile(scopeFileOf(name), `scopes/${name}.yaml`);
}

/** Every built-in scope, by name: the files under scopes/ are their only source. */
export function builtInScopes(): Record<string, Scope> {
  return Object.fromEntries(scopeNames().map((name) => [name, scopeByName(name)]));
}

/** A built-in scope by name, else a scope file; anything else names the valid choices. */
export function resolveScope(text: string): { scopeSource: ScopeSource; scope: Scope } {
  if (!/[./]/.test(text)) return { scopeSource: { kind: 'named', name: text }, scope: scopeByName(text) };
  return { scopeSource: { kind: 'file', path: text }, scope: loadScopeFile(text) };
}

/** Reads and checks a scope file; errors are UsageErrors of one line, `--scope: FILE:LINE: ...`. */
export function loadScopeFile(path: string, shown = path): Scope {
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
  try {
    return parseScope(text, shown);
  } catch (error) {
    if (error instanceof ScopeFileError) throw new UsageError(`--scope: ${error.message}`);
    throw error;
  }
}

/** A scope document's text to a Scope, or a ScopeFileError for its first problem. */
export function parseScope(text: string, file: string): Scope {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = lines.linePos(syntax.pos[0]).line;
    const problem = syntax.message
      .split('\n')[0]
      .replace(/ at line \d+, column \d+.*$/, '')
      .replace(/;.*$/, '');
    const fix =
      syntax.code === 'MULTIPLE_DOCS' ? 'keep one scope per file' : 'correct the YAML syntax on that line';
    throw new ScopeFileError(file, line, '', `not YAML (${problem})`, fix);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount });
  } catch (error) {
    throw new ScopeFileError(
      file,
      1,
      '',
      `refused: ${(error as Error).message}`,
      'write each value out instead of through aliases',
    );
  }
  const fail = (issue: ScopeIssue): never => {
    throw new ScopeFileError(
      file,
      lineOfPath(doc, lines, issue.path),
      fieldOf(issue.path),
      issue.problem,
      issue.fix,
    );
  };
  const infinite = nonFiniteNumber(data);
  if (infinite)
    fail({
      path: infinite.path,
      problem: `${yamlSpelling(infinite.value)} is not a number the model can take`,
      fix: 'write a finite whole number',
    });
  const result = scopeFromData(data);
  return 'problem' in result ? fail(result) : result;
}

/** A scope document already parsed (a scenario's `given.scope`): the Scope, or its first issue. */
export function scopeFromData(data: unknown): Scope | ScopeIssue {
  const parsed = scopeDocumentSchema.safeParse(data);
  if (!parsed.success) return issueOfZod(parsed.error.issues, data);
  const result = documentToScope(parsed.data);
  if ('issues' in result) return result.issues[0];
  // What the apiserver would refuse (schema, RBAC rules, names) or the scope's world lacks (users, system namespaces).
  const refused = kubernetesIssue(parsed.data);
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
function lineOfPath(doc: ReturnType<typeof parseDocument>, lines: LineCounter, path: FieldPath): number {
  for (let length = path.length; length >= 0; length--) {
    const keys = path.slice(0, length);
    const parent = length === 0 ? null : doc.getIn(keys.slice(0, -1), true);
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === keys.at(-1));
      const node = pair?.key as Node | undefined;
      if (node?.range) return lines.linePos(node.range[0]).line;
    }
    const node = (length === 0 ? doc.contents : doc.getIn(keys, true)) as Node | null | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range)
      return lines.linePos(node.range[0]).line;
  }
  return 1;
}
