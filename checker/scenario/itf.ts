import { z } from 'zod';

/**
 * Counterexamples as data, in the Informal Trace Format (ITF) that Apalache and Quint read and write
 * (Apalache ADR-015): a JSON object with `#meta`, `vars` and `states`, each state holding one value per
 * variable. Integers are `{"#bigint": "n"}` (as Quint writes them), sets `{"#set": [...]}`, maps
 * `{"#map": [[k, v], ...]}`, tuples `{"#tup": [...]}`, records plain objects, sequences arrays.
 *
 * The writer knows nothing of the system model: it receives a readable view of each state and the
 * action of each step, so the model's internals can change without touching this file.
 */

/** An ITF value, as it appears in JSON. */
export type ItfValue =
  | boolean
  | string
  | number
  | { '#bigint': string }
  | { '#set': ItfValue[] }
  | { '#map': [ItfValue, ItfValue][] }
  | { '#tup': ItfValue[] }
  | { '#unserializable': string }
  | ItfValue[]
  | { [field: string]: ItfValue };

/** The action that led to a state, as recorded in that state's `#meta` and `mbt::actionTaken`. */
export interface ItfAction {
  /** One line a reviewer reads, e.g. `alice: delete namespaces/team-a -> 200 OK`. */
  label: string;
  /** Further readable facts about the step (actor, event, response, ...), plain JSON. */
  details?: Record<string, unknown>;
}

export interface ItfState {
  '#meta': { index: number; action?: ItfAction };
  [variable: string]: ItfValue | ItfState['#meta'];
}

export interface ItfTrace {
  '#meta': Record<string, unknown> & { format: 'ITF'; 'format-description': string };
  /** ITF parameters: names of values constant along the trace, held in every state beside the variables. */
  params?: string[];
  vars: string[];
  /** Index of the state the last one loops back to (a lasso), as ADR-015 names it. */
  loop?: number;
  states: ItfState[];
}

/** Quint's name for the variable holding the action taken into each state (model-based testing). */
export const actionVariable = 'mbt::actionTaken';
/** Quint's name for the variable holding the action's arguments (its nondeterministic picks). */
export const picksVariable = 'mbt::nondetPicks';
/** The action recorded for the initial state, as Quint names it. */
export const initAction = 'init';

export interface TraceInput<S, E> {
  initial: S;
  steps: readonly { event: E; state: S }[];
}

/** A step as Quint's model-based testing records it: the action's name and its arguments. */
export interface ItfMbtAction {
  /** `mbt::actionTaken`. */
  name: string;
  /** `mbt::nondetPicks`: a record of the action's arguments. */
  picks: ItfValue;
}

export interface ItfOptions<S, E> {
  /** A readable view of a state: variable name → value (numbers, strings, arrays, Sets, Maps, records). */
  view: (state: S) => Record<string, unknown>;
  /** The view as typed ITF values; without it, each value is written by encodeItfValue. */
  encodeView?: (view: Record<string, unknown>) => Record<string, ItfValue>;
  /** The action taken at a step. */
  action: (event: E) => ItfAction;
  /**
   * Typed traces: each step's `mbt::actionTaken` as the action's name and `mbt::nondetPicks` its
   * arguments (`initial` for state 0), rather than the action's label.
   */
  mbt?: { initial: ItfMbtAction; step: (event: E) => ItfMbtAction };
  /** ITF `params`: values constant along the trace, written in every state as ADR-015 asks. */
  params?: Record<string, ItfValue>;
  /** `#meta.varTypes`: each variable's and parameter's type in Apalache's syntax. */
  varTypes?: Record<string, string>;
  /** Extra top-level `#meta` fields (property, variant, scope, description, ...). */
  meta?: Record<string, unknown>;
  /** For a lasso (liveness): the index of the state the trace loops back to. */
  loopStart?: number;
}

export class ItfEncodingError extends Error {
  constructor(path: string, problem: string) {
    super(`ITF: ${path}: ${problem}`);
    this.name = 'ItfEncodingError';
  }
}

/** Total order on encoded values, so sets and maps are written in one order whatever the insertion order. */
function compareEncoded(a: ItfValue, b: ItfValue): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Encodes one readable value as ITF; `path` names it in errors. */
export function encodeItfValue(value: unknown, path = 'value'): ItfValue {
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return { '#bigint': value.toString() };
  if (typeof value === 'number') {
    if (!Number.isInteger(value))
      throw new ItfEncodingError(path, `${value} is not an integer (ITF has none)`);
    return { '#bigint': String(value) };
  }
  if (value === null || value === undefined) return { '#unserializable': String(value) };
  if (Array.isArray(value)) return value.map((v, i) => encodeItfValue(v, `${path}[${i}]`));
  if (value instanceof Set) {
    return { '#set': [...value].map((v, i) => encodeItfValue(v, `${path}{${i}}`)).sort(compareEncoded) };
  }
  if (value instanceof Map) {
    const pairs = [...value].map(
      ([k, v]) => [encodeItfValue(k, `${path} key`), encodeItfValue(v, `${path}[${String(k)}]`)] as const,
    );
    return {
      '#map': pairs.map(([k, v]): [ItfValue, ItfValue] => [k, v]).sort((a, b) => compareEncoded(a[0], b[0])),
    };
  }
  if (typeof value === 'object') {
    const record: Record<string, ItfValue> = {};
    for (const key of Object.keys(value).sort()) {
      if (key.startsWith('#'))
        throw new ItfEncodingError(`${path}.${key}`, 'record fields may not start with #');
      record[key] = encodeItfValue((value as Record<string, unknown>)[key], `${path}.${key}`);
    }
    return record;
  }
  throw new ItfEncodingError(path, `a ${typeof value} cannot be written as ITF`);
}

/** Reads an ITF value back into plain JSON-like data: sets become sorted arrays, maps with string keys objects. */
export function decodeItfValue(value: ItfValue): unknown {
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(decodeItfValue);
  if ('#bigint' in value && typeof value['#bigint'] === 'string') {
    const n = BigInt(value['#bigint']);
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  if ('#set' in value && Array.isArray(value['#set'])) return value['#set'].map(decodeItfValue);
  if ('#tup' in value && Array.isArray(value['#tup'])) return value['#tup'].map(decodeItfValue);
  if ('#unserializable' in value) return null;
  if ('#map' in value && Array.isArray(value['#map'])) {
    const pairs = (value['#map'] as [ItfValue, ItfValue][]).map(([k, v]) => [
      decodeItfValue(k),
      decodeItfValue(v),
    ]);
    if (pairs.every(([k]) => typeof k === 'string')) return Object.fromEntries(pairs);
    return pairs;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeItfValue(v as ItfValue)]));
}

/**
 * The normal form of an ITF value by its meaning: an integer is `{"#bigint": "n"}` whether written so
 * (any sign or leading zeros) or as a plain JSON number, a set's elements and a map's pairs are sorted
 * and a set's duplicates dropped (their order and repetition mean nothing), a record's fields are sorted.
 */
export function canonicalItf(value: ItfValue): ItfValue {
  if (typeof value === 'number')
    return Number.isInteger(value) ? { '#bigint': BigInt(value).toString() } : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(canonicalItf);
  if ('#bigint' in value && typeof value['#bigint'] === 'string' && /^-?\d+$/.test(value['#bigint']))
    return { '#bigint': BigInt(value['#bigint']).toString() };
  if ('#set' in value && Array.isArray(value['#set'])) {
    const unique = new Map(value['#set'].map((v) => [JSON.stringify(canonicalItf(v)), canonicalItf(v)]));
    return {
      '#set': [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v),
    };
  }
  if ('#map' in value && Array.isArray(value['#map']))
    return {
      '#map': (value['#map'] as [ItfValue, ItfValue][])
        .map(([k, v]): [ItfValue, ItfValue] => [canonicalItf(k), canonicalItf(v)])
        .sort((a, b) => compareEncoded(a[0], b[0])),
    };
  if ('#tup' in value && Array.isArray(value['#tup'])) return { '#tup': value['#tup'].map(canonicalItf) };
  const record: Record<string, ItfValue> = {};
  for (const key of Object.keys(value).sort())
    record[key] = canonicalItf((value as Record<string, ItfValue>)[key]);
  return record;
}

/** Whether two ITF values mean the same (canonicalItf of each is the same JSON). */
export function itfEqual(a: ItfValue, b: ItfValue): boolean {
  return JSON.stringify(canonicalItf(a)) === JSON.stringify(canonicalItf(b));
}

/**
 * The trace as ITF: state 0 is the initial state (action `init`), state i the state after step i. Every
 * state holds the same variables, those of the initial state's view, plus `mbt::actionTaken`.
 */
export function traceToItf<S, E>(trace: TraceInput<S, E>, options: ItfOptions<S, E>): ItfTrace {
  const all = [trace.initial, ...trace.steps.map((s) => s.state)];
  if (options.loopStart !== undefined) {
    if (!Number.isInteger(options.loopStart) || options.loopStart < 0 || options.loopStart >= all.length)
      throw new ItfEncodingError(
        'loopStart',
        `${options.loopStart} is not the index of a state (0..${all.length - 1})`,
      );
  }
  const encode =
    options.encodeView ??
    ((view: Record<string, unknown>) =>
      Object.fromEntries(Object.keys(view).map((name) => [name, encodeItfValue(view[name], name)])));
  const firstView = options.view(trace.initial);
  const params = options.params ?? {};
  const paramNames = Object.keys(params).sort();
  const vars = Object.keys(firstView).sort();
  for (const name of [...vars, ...paramNames])
    if (name === actionVariable || name === picksVariable)
      throw new ItfEncodingError(name, 'the view may not use this name');
  for (const name of paramNames)
    if (vars.includes(name)) throw new ItfEncodingError(name, 'a parameter may not share a variable name');
  const states = all.map((state, index): ItfState => {
    const view = index === 0 ? firstView : options.view(state);
    const names = Object.keys(view).sort();
    if (names.join('\0') !== vars.join('\0'))
      throw new ItfEncodingError(
        `states[${index}]`,
        `variables ${names.join(', ')} differ from ${vars.join(', ')}`,
      );
    const event = index === 0 ? undefined : trace.steps[index - 1].event;
    const action: ItfAction = event === undefined ? { label: initAction } : options.action(event);
    const encoded: ItfState = { '#meta': { index, action } };
    for (const name of paramNames) encoded[name] = params[name];
    const values = encode(view);
    for (const name of vars) encoded[name] = values[name];
    if (options.mbt) {
      const mbt = event === undefined ? options.mbt.initial : options.mbt.step(event);
      encoded[actionVariable] = mbt.name;
      encoded[picksVariable] = mbt.picks;
    } else encoded[actionVariable] = action.label;
    return encoded;
  });
  return {
    '#meta': {
      format: 'ITF',
      'format-description': 'https://apalache-mc.org/docs/adr/015adr-trace.html',
      ...(options.varTypes ? { varTypes: options.varTypes } : {}),
      ...options.meta,
      ...(options.loopStart !== undefined ? { loopStart: options.loopStart } : {}),
    },
    ...(paramNames.length > 0 ? { params: paramNames } : {}),
    vars: [...vars, actionVariable, ...(options.mbt ? [picksVariable] : [])],
    ...(options.loopStart !== undefined ? { loop: options.loopStart } : {}),
    states,
  };
}

/** The ITF text written to disk: two-space JSON and a final newline, the same bytes for the same trace. */
export function itfText(trace: ItfTrace): string {
  return `${JSON.stringify(trace, null, 2)}\n`;
}

const itfValueSchema: z.ZodType<ItfValue> = z.lazy(() =>
  z.union([
    z.boolean(),
    z.string(),
    z.number().int(),
    z.strictObject({ '#bigint': z.string().regex(/^-?\d+$/) }),
    z.strictObject({ '#set': z.array(itfValueSchema) }),
    z.strictObject({ '#map': z.array(z.tuple([itfValueSchema, itfValueSchema])) }),
    z.strictObject({ '#tup': z.array(itfValueSchema) }),
    z.strictObject({ '#unserializable': z.string() }),
    z.array(itfValueSchema),
    z.record(z.string().regex(/^[^#]/), itfValueSchema),
  ]),
);

const actionSchema = z.strictObject({
  label: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** The ITF shape (ADR-015), with this project's per-state action; tests and readers validate against it. */
export const itfTraceSchema = z
  // ADR-015 fixes the top-level fields: another one (a scope document beside the states, say) is refused
  // rather than ignored, so a trace never replays as something other than what it says.
  .strictObject({
    '#meta': z.object({ format: z.literal('ITF'), 'format-description': z.string() }).catchall(z.unknown()),
    params: z.array(z.string()).optional(),
    vars: z.array(z.string()),
    loop: z.number().int().nonnegative().optional(),
    states: z
      .array(
        z
          .object({
            // Other tools may add their own fields (Quint's diagnostics, say); this project's is action.
            '#meta': z
              .object({
                index: z.number().int().nonnegative(),
                action: actionSchema.optional(),
              })
              .catchall(z.unknown()),
          })
          .catchall(itfValueSchema),
      )
      .min(1),
  })
  .superRefine((trace, ctx) => {
    trace.states.forEach((state, i) => {
      if (state['#meta'].index !== i)
        ctx.addIssue({ code: 'custom', path: ['states', i, '#meta', 'index'], message: `expected ${i}` });
      const names = Object.keys(state)
        .filter((k) => k !== '#meta')
        .sort();
      if (names.join('\0') !== [...trace.vars, ...(trace.params ?? [])].sort().join('\0'))
        ctx.addIssue({
          code: 'custom',
          path: ['states', i],
          message: `variables differ from vars${trace.params ? ' and params' : ''}`,
        });
    });
    if (trace.loop !== undefined && trace.loop >= trace.states.length)
      ctx.addIssue({ code: 'custom', path: ['loop'], message: 'loop is not the index of a state' });
  });

/** Parses and validates ITF text; the error names the file and the first bad field. */
export function parseItf(text: string, file: string): ItfTrace {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON: ${(error as Error).message}`);
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate)
    throw new Error(
      `${file}: line ${duplicate.line}: key ${JSON.stringify(duplicate.key)} appears twice in one object (at ${duplicate.path || '(top)'}); JSON readers keep only one of them, so the trace may not say what its author wrote; fix: keep one`,
    );
  const parsed = itfTraceSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // A value that fits none of ITF's forms: zod says only "Invalid input", so the forms are named.
    const message =
      issue.code === 'invalid_union'
        ? 'not an ITF value: expected a boolean, a string, an integer, a list, a record, or { "#bigint" }, { "#set" }, { "#map": [[key, value], ...] }, { "#tup" } or { "#unserializable" }, each with nothing else in its object'
        : issue.message;
    throw new Error(`${file}: not an ITF trace: ${issue.path.join('.') || '(top)'}: ${message}`);
  }
  return parsed.data as unknown as ItfTrace;
}

/**
 * The first key written twice in one object of a JSON text, with its line and the path to that object
 * (JSON.parse silently keeps the last). The text is known to be valid JSON when this runs.
 */
export function firstDuplicateKey(text: string): { key: string; line: number; path: string } | undefined {
  // Per open container: its keys (null for an array), and the path to it.
  const stack: { keys: Set<string> | null; path: string; pending?: string }[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '{') stack.push({ keys: new Set(), path: childPath(stack) });
    else if (c === '[') stack.push({ keys: null, path: childPath(stack) });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      let next = end + 1;
      while (/\s/.test(text[next] ?? '')) next++;
      // A string followed by a colon is an object's key; any other string is a value.
      if (top?.keys && text[next] === ':') {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return { key, line, path: top.path };
        top.keys.add(key);
        top.pending = key;
      }
      i = end;
    }
  }
  return undefined;
}

/** The path of a container opened now: its parent's path and the key it is the value of. */
function childPath(stack: readonly { keys: Set<string> | null; path: string; pending?: string }[]): string {
  const parent = stack[stack.length - 1];
  if (!parent) return '';
  const step = parent.keys ? (parent.pending ?? '') : '[]';
  return parent.path === '' ? step : parent.keys ? `${parent.path}.${step}` : `${parent.path}${step}`;
}
