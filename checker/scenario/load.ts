import { type ZodType, z } from 'zod';
import { checkInputText, InputFileError, inputCaps, readInputText, refusedValue } from '../cli/input-file.ts';
import { scenarioManifestIssue } from '../cli/kubernetes-validation.ts';
import { closest } from '../cli/request-line.ts';
import { declaredResource, type KindDeclaration } from '../cli/scope-format.ts';
import type { FieldPath } from '../cli/scope-issues.ts';
import {
  type DocumentLines,
  documentLines,
  lineTreeOf,
  parseYamlDocument,
  treeLines,
} from '../cli/yaml-document.ts';
import type { ParsedTextCache } from './parsed-cache.ts';
import {
  type ContentManifestInput,
  contentBodySchemas,
  contentKinds,
  contentManifest,
  type ManifestInput,
  type ManifestKind,
  manifestSchemas,
  maxScenarioSeconds,
  type ScenarioHeader,
  type StepInput,
  type StepKind,
  scenarioSchema,
  stepKinds,
  stepSchemas,
} from './schema.ts';
import { validateScenario } from './validate.ts';

/** A path into the YAML document: keys and list indexes, as zod reports them (one type for scopes and scenarios). */
export type { FieldPath };

/** A problem with one field of a scenario; the loader turns it into `file:line: field: problem (hint)`. */
export class ScenarioFieldError extends Error {
  constructor(
    readonly path: FieldPath,
    readonly problem: string,
    readonly hint?: string,
    /** For an unknown key: the key itself, so the line is the key's own line. */
    readonly key?: string,
  ) {
    super(problem);
  }
}

/** The one line a malformed file gets. */
export class ScenarioFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string,
    readonly problem: string,
    readonly hint?: string,
  ) {
    super(`${file}:${line}: ${field ? `${field}: ` : ''}${problem}${hint ? ` (${hint})` : ''}`);
  }
}

export interface LoadedScenario {
  file: string;
  header: ScenarioHeader;
  steps: StepInput[];
  manifests: (
    | ManifestInput
    | (ContentManifestInput & { contentKind: keyof typeof contentKinds })
    /** An object of a kind given.kinds declares, by the resource its paths use (`events.events.k8s.io`). */
    | (ContentManifestInput & { declaredResource: string })
  )[];
  /** The 1-based line of a field, for messages about it after loading. */
  lineOf(path: FieldPath): number;
}

export const formatFieldPath = (path: FieldPath): string =>
  path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  );

/** The zod schema that validates the value at `path` under `schema`, for listing the fields allowed there. */
function schemaAt(schema: ZodType, path: FieldPath): ZodType | undefined {
  let current: ZodType | undefined = schema;
  for (const part of [...path, null]) {
    while (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
      current = current.unwrap() as ZodType;
    if (current instanceof z.ZodUnion)
      current = (current.options as ZodType[]).find((o) => o instanceof z.ZodObject);
    if (part === null || current === undefined) return current;
    if (current instanceof z.ZodObject) current = (current.shape as Record<string, ZodType>)[String(part)];
    else if (current instanceof z.ZodArray) current = current.element as ZodType;
    else if (current instanceof z.ZodRecord) current = current.valueType as ZodType;
    else return undefined;
  }
  return current;
}

const describeValue = (value: unknown): string =>
  value === undefined
    ? 'nothing'
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list'
        : typeof value === 'object'
          ? 'a map'
          : `${typeof value} ${JSON.stringify(value)}`;

const valueAt = (root: unknown, path: FieldPath): unknown =>
  path.reduce<unknown>(
    (value, part) =>
      value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined,
    root,
  );

/** The first zod issue as a field error, in the words a scenario author needs. */
function fieldErrorFrom(
  error: z.ZodError,
  schema: ZodType,
  input: unknown,
  prefix: FieldPath,
): ScenarioFieldError {
  const issue = error.issues[0];
  const path = [...prefix, ...(issue.path as (string | number)[])];
  const value = valueAt(input, issue.path as (string | number)[]);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const object = schemaAt(schema, issue.path as (string | number)[]);
      const known = object instanceof z.ZodObject ? Object.keys(object.shape as object) : [];
      const key = issue.keys[0];
      const guess = closest(key, known);
      // D-1: a namespace's labels and annotations are validated and never kept, so no check reads them.
      const notKept =
        path.at(-1) === 'check' && (key === 'labels' || key === 'annotations')
          ? `a namespace's ${key} are validated and never kept, so nothing reads them back (D-1); `
          : '';
      return new ScenarioFieldError(
        [...path, key],
        `unknown field "${key}"`,
        `${notKept}${guess ? `did you mean "${guess}"? ` : ''}fields here: ${known.join(', ')}`,
        key,
      );
    }
    case 'invalid_type':
      return value === undefined
        ? new ScenarioFieldError(path, 'missing', `required: ${issue.expected}`)
        : new ScenarioFieldError(path, `expected ${issue.expected}, got ${describeValue(value)}`);
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v));
      const guess = typeof value === 'string' ? closest(value, issue.values.map(String)) : undefined;
      return new ScenarioFieldError(
        path,
        `${describeValue(value)} is not allowed`,
        `${guess ? `did you mean "${guess}"? ` : ''}one of ${values.join(', ')}`,
      );
    }
    default:
      return new ScenarioFieldError(
        path,
        `${issue.message}${value !== undefined && typeof value !== 'object' ? ` (got ${JSON.stringify(value)})` : ''}`,
      );
  }
}

function validate<T>(schema: ZodType<T>, input: unknown, prefix: FieldPath): T {
  const result = schema.safeParse(input);
  if (!result.success) throw fieldErrorFrom(result.error, schema, input, prefix);
  return result.data;
}

function parseStep(raw: Record<string, unknown>, index: number): StepInput {
  const path = ['steps', index];
  const kinds = stepKinds.filter((kind) => kind in raw);
  if (kinds.length === 0) {
    const unknown = Object.keys(raw).find(
      (key) => !['as', 'groups', 'body', 'expect', 'namespace'].includes(key),
    );
    const guess = unknown ? closest(unknown, stepKinds) : undefined;
    throw new ScenarioFieldError(
      unknown ? [...path, unknown] : path,
      unknown ? `unknown step "${unknown}"` : 'a step needs an action',
      `${guess ? `did you mean "${guess}"? ` : ''}steps: ${stepKinds.join(', ')}`,
      unknown,
    );
  }
  if (kinds.length > 1)
    throw new ScenarioFieldError(
      [...path, kinds[1]],
      `a step does one thing: found both "${kinds[0]}" and "${kinds[1]}"`,
      'split it into two steps',
    );
  const kind: StepKind = kinds[0];
  const schema = stepSchemas[kind] as ZodType;
  return { kind, ...(validate(schema, raw, path) as object) } as StepInput;
}

/** A manifest as the apiserver validates it: its official schema and upstream's rules the schema cannot express. */
function refuseAsKubernetes(raw: Record<string, unknown>, path: FieldPath): void {
  const refused = scenarioManifestIssue(raw, path);
  if (refused) throw new ScenarioFieldError([...refused.path], refused.problem, `fix: ${refused.fix}`);
}

function parseManifest(
  raw: Record<string, unknown>,
  index: number,
  declared: readonly KindDeclaration[],
): LoadedScenario['manifests'][number] {
  const path = ['given', 'manifests', index];
  const kind = raw.kind;
  if (typeof kind !== 'string')
    throw new ScenarioFieldError([...path, 'kind'], 'missing', 'every manifest names its kind');
  if (kind in manifestSchemas) {
    const manifest = validate(manifestSchemas[kind as ManifestKind] as ZodType, raw, path) as ManifestInput;
    refuseAsKubernetes(raw, path);
    return manifest;
  }
  if (kind in contentKinds) {
    const manifest = validate(contentManifest, raw, path);
    validate(contentBodySchemas[kind as keyof typeof contentKinds] as ZodType, raw, path);
    refuseAsKubernetes(raw, path);
    return { ...manifest, contentKind: kind as keyof typeof contentKinds };
  }
  const ofKind = declared.filter((k) => k.kind === kind);
  if (ofKind.length > 0) {
    const manifest = validate(contentManifest, raw, path);
    const own = ofKind.find((k) => (k.group ? `${k.group}/${k.version}` : k.version) === manifest.apiVersion);
    if (!own)
      throw new ScenarioFieldError(
        [...path, 'apiVersion'],
        `no ${kind} of apiVersion "${manifest.apiVersion}" is declared`,
        `declared: ${ofKind.map((k) => (k.group ? `${k.group}/${k.version}` : k.version)).join(', ')}`,
      );
    refuseAsKubernetes(raw, path);
    return { ...manifest, declaredResource: declaredResource(own) };
  }
  const known = [
    ...new Set([
      ...Object.keys(manifestSchemas),
      ...Object.keys(contentKinds),
      ...declared.map((k) => k.kind),
    ]),
  ];
  const guess = closest(kind, known);
  throw new ScenarioFieldError(
    [...path, 'kind'],
    `unknown kind "${kind}"`,
    `${guess ? `did you mean "${guess}"? ` : ''}kinds: ${known.join(', ')}, or one declared under given.kinds`,
  );
}

/** Line lookup for fields: the field's own node, or the nearest enclosing one that exists. */
function lineLocator(lines: DocumentLines): (path: FieldPath, key?: string) => number {
  return (path, key) => {
    const line = key === undefined ? undefined : lines.keyLine(path.slice(0, -1), key);
    if (line !== undefined) return line;
    for (let length = path.length; length >= 0; length--) {
      // A missing field is reported on the line of the map that lacks it.
      const enclosing = lines.nodeLine(path.slice(0, length));
      if (enclosing !== undefined) return enclosing;
    }
    return 1;
  };
}

/** A YAML parser error in the words of a scenario author: what is wrong and how to fix it. */
function yamlProblem(code: string, message: string): [string, string] {
  switch (code) {
    case 'MULTIPLE_DOCS':
      return [
        'more than one document (a second `---`)',
        'a scenario file holds one story: split it into two files',
      ];
    case 'DUPLICATE_KEY':
      return ['a key appears twice in the same map', 'keep one of them'];
    case 'TAB_AS_INDENT':
      return ['a tab indents this line', 'indent with spaces'];
    default:
      return /call stack/i.test(message)
        ? ['nested too deeply', 'a scenario is a few levels of maps and lists']
        : [message.split('\n')[0].replace(/; please use .*$/, ''), 'check indentation and quoting'];
  }
}

/** A scenario's YAML parsed: its value and its lines; kept in `parsedTexts` when it can be read back whole. */
function parseScenarioText(
  file: string,
  source: string,
  parsedTexts: ParsedTextCache | undefined,
): { input: unknown; lines: DocumentLines } {
  const parsed = parseYamlDocument(source, {
    syntax: (error, line) => {
      const [problem, hint] = yamlProblem(error.code, error.message);
      throw new ScenarioFileError(file, line, '', `YAML: ${problem}`, hint);
    },
    tag: (tag, line) => {
      throw new ScenarioFileError(
        file,
        line,
        '',
        `YAML: unknown tag${tag}`,
        'remove the tag: a scenario holds plain YAML values',
      );
    },
  });
  const { doc, lines } = parsed;
  let input: unknown;
  try {
    // Aliases are expanded at most 100 times in all, so an alias bomb stops here instead of filling memory.
    input = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const deep = error instanceof RangeError;
    const alias = /alias/i.test(String(error));
    throw new ScenarioFileError(
      file,
      alias ? lines.linePos(source.indexOf('*')).line : 1,
      '',
      deep
        ? 'nested too deeply'
        : alias
          ? 'too many aliases (*name) expand into this file'
          : `cannot read: ${String(error).split('\n')[0]}`,
      alias ? 'write the values out, or use fewer aliases' : 'a scenario is a few levels of maps and lists',
    );
  }
  const tree = parsedTexts ? lineTreeOf(parsed) : undefined;
  if (tree) parsedTexts?.remember(source, { value: input, lines: tree });
  return { input, lines: documentLines(parsed) };
}

/**
 * Reads and validates one scenario file; throws ScenarioFileError (one line) when it is malformed. With
 * `parsedTexts`, a text parsed by an earlier run is read from there instead of parsed again.
 */
export function loadScenario(file: string, given?: string, parsedTexts?: ParsedTextCache): LoadedScenario {
  let source: string;
  try {
    // A file is read as bytes (regular, capped, UTF-8); a text handed in is checked the same way.
    if (given === undefined) source = readInputText(file, inputCaps.scenario);
    else {
      checkInputText(file, given);
      source = given;
    }
  } catch (error) {
    if (error instanceof InputFileError)
      throw new ScenarioFileError(file, error.line, '', error.problem, `fix: ${error.fix}`);
    throw error;
  }
  const cached = parsedTexts?.lookup(source);
  const { input, lines } = cached
    ? { input: cached.value, lines: treeLines(cached.lines) }
    : parseScenarioText(file, source, parsedTexts);
  const locate = lineLocator(lines);
  const located = (error: unknown): never => {
    if (error instanceof ScenarioFieldError)
      throw new ScenarioFileError(
        file,
        locate(error.path, error.key),
        formatFieldPath(error.path),
        error.problem,
        error.hint,
      );
    throw error;
  };
  try {
    if (input === null || typeof input !== 'object' || Array.isArray(input))
      throw new ScenarioFieldError([], 'a scenario is a map', 'with title, requirements, given and steps');
    const refused = refusedValue(input);
    if (refused) throw new ScenarioFieldError(refused.path, refused.problem, refused.fix);
    const header = validate(scenarioSchema, input, []);
    const steps = header.steps.map((raw, index) => parseStep(raw, index));
    const manifests = (header.given?.manifests ?? []).map((raw, index) =>
      parseManifest(raw, index, header.given?.kinds ?? []),
    );
    let seconds = 0;
    steps.forEach((step, index) => {
      if (step.kind !== 'tick') return;
      seconds += step.tick;
      if (seconds > maxScenarioSeconds)
        throw new ScenarioFieldError(
          ['steps', index, 'tick'],
          `the clock passes ${maxScenarioSeconds} s here (${seconds} s in all)`,
          'a scenario covers at most a day; tick less',
        );
    });
    const problem = validateScenario(header.given, manifests, steps);
    if (problem) throw new ScenarioFieldError(problem.path, problem.problem, problem.hint, problem.key);
    return { file, header, steps, manifests, lineOf: (path) => locate(path) };
  } catch (error) {
    return located(error);
  }
}

/** Turns a field error found after loading (by the compiler) into the file's one line. */
export function locateFieldError(scenario: LoadedScenario, error: ScenarioFieldError): ScenarioFileError {
  return new ScenarioFileError(
    scenario.file,
    scenario.lineOf(error.key !== undefined ? error.path.slice(0, -1) : error.path),
    formatFieldPath(error.path),
    error.problem,
    error.hint,
  );
}
