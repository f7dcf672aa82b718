import fc from 'fast-check';
import { stringify } from 'yaml';
import type { z } from 'zod';
import { baseVariantName, machinesFor } from '../../variants/variants.ts';
import { UsageError } from '../cli/cli.ts';
import { decodeInput, InputFileError } from '../cli/input-file.ts';
import { parseScope, ScopeFileError, scopeByName } from '../cli/scope-file.ts';
import { scopeDocumentSchema } from '../cli/scope-format.ts';
import { scopeToDocument } from '../cli/scope-yaml.ts';
import { systemModel } from '../model/system-model.ts';
import { itfTraceSchema, parseItf } from '../scenario/itf.ts';
import { ScenarioFileError } from '../scenario/load.ts';
import { prepareScenario, replayCompiled } from '../scenario/replay.ts';
import { scenarioSchema } from '../scenario/schema.ts';
import { replayTrace } from '../scenario/trace-replay.ts';

/**
 * Generated hostile input: YAML scopes and scenarios and ITF traces whose shape comes from the formats'
 * own zod schemas (so a new field is fuzzed the day it is added), mutated and corrupted as text. The
 * judge says whether a loader behaved: it accepts (and the model builds) or refuses with one line that
 * names the file, never another exception, never past the time limit.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Def = { type: string; [field: string]: unknown };
const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def;

/** Plausible words, so generated names sometimes meet the scope's own (users, namespaces, roles). */
const words = fc.constantFrom(
  'alice',
  'bob',
  'team-a',
  'default',
  'kube-system',
  'edit',
  'admin',
  'ConfigMap',
  'quota.example.com',
  'kubernetes',
  'system:authenticated',
  '$creator',
  '',
  'Team_C',
  '<b>x</b>',
  '\u001b[2J',
  // Secret and ConfigMap data: a type with required keys, base64 and not, an invisible character.
  'kubernetes.io/tls',
  'kubernetes.io/dockerconfigjson',
  'tls.key',
  'YQ==',
  'not base64!',
  'ab\u200bc',
);

/** An arbitrary of the JSON values `schema` describes, depth-limited for recursive schemas. */
export function arbitraryOf(schema: z.core.$ZodType, depth = 0): fc.Arbitrary<Json> {
  const def = defOf(schema);
  const deeper = (s: z.core.$ZodType) => arbitraryOf(s, depth + 1);
  const checks =
    (def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined)?.map((c) => c._zod.def) ?? [];
  switch (def.type) {
    case 'string': {
      const pattern = checks.find((c) => c.format === 'regex')?.pattern as RegExp | undefined;
      return pattern
        ? fc.oneof(
            fc.stringMatching(pattern).filter((s) => s.length <= 40),
            words,
          )
        : fc.oneof(words, fc.string({ maxLength: 12 }));
    }
    case 'number': {
      const low = checks.find((c) => c.check === 'greater_than');
      const high = checks.find((c) => c.check === 'less_than');
      const min = low ? Number(low.value) + (low.inclusive ? 0 : 1) : -5;
      const max = high ? Number(high.value) - (high.inclusive ? 0 : 1) : 40;
      return fc.oneof(
        fc.integer({ min, max: Math.max(min, Math.min(max, min + 60)) }),
        fc.constantFrom(0, -1, max + 1),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values as Json[]));
    case 'enum':
      return fc.constantFrom(...(Object.values(def.entries as Record<string, Json>) as Json[]));
    case 'optional':
    case 'default':
    case 'readonly':
      return deeper(def.innerType as z.core.$ZodType);
    case 'nullable':
      return fc.oneof(fc.constant(null), deeper(def.innerType as z.core.$ZodType));
    case 'pipe':
      return deeper(def.in as z.core.$ZodType);
    case 'lazy':
      return depth > 4 ? fc.constant<Json>([]) : deeper((def.getter as () => z.core.$ZodType)());
    case 'array':
      return depth > 6
        ? fc.constant<Json>([])
        : fc.array(deeper(def.element as z.core.$ZodType), { maxLength: 3 });
    case 'tuple':
      return fc.tuple(...(def.items as z.core.$ZodType[]).map(deeper)) as fc.Arbitrary<Json>;
    case 'record':
      return depth > 6
        ? fc.constant<Json>({})
        : fc.dictionary(
            arbitraryOf(def.keyType as z.core.$ZodType, depth + 1).map(String),
            deeper(def.valueType as z.core.$ZodType),
            { maxKeys: 3 },
          );
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      const required = Object.keys(shape).filter((k) => defOf(shape[k]).type !== 'optional');
      if (depth > 6) return fc.constant<Json>({});
      return fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, deeper(v)])), {
        requiredKeys: required,
      }) as fc.Arbitrary<Json>;
    }
    case 'union':
      return fc.oneof(...(def.options as z.core.$ZodType[]).map(deeper));
    default:
      return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  }
}

/** A value no schema expects at a field: wrong types, the numbers YAML can spell, hostile strings. */
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, [], {}, -1, 0, 1e15, 3601, 1.5, '', 'x'.repeat(300), '\u0000', '.inf'),
  fc.string({ maxLength: 8 }),
  fc.integer(),
);

/** `doc` with one field (chosen by `pick`) replaced, deleted or given a stranger sibling. */
function mutate(doc: Json, pick: number, value: Json, how: number): Json {
  const paths: (string | number)[][] = [];
  const walk = (v: Json, path: (string | number)[]) => {
    paths.push(path);
    if (Array.isArray(v)) for (const [i, item] of v.entries()) walk(item, [...path, i]);
    else if (v && typeof v === 'object') for (const [k, item] of Object.entries(v)) walk(item, [...path, k]);
  };
  walk(doc, []);
  const path = paths[pick % paths.length];
  const copy = structuredClone(doc);
  if (path.length === 0) return value;
  const parent = path.slice(0, -1).reduce<Json>((v, k) => (v as Record<string, Json>)[k], copy) as Record<
    string,
    Json
  >;
  const key = path[path.length - 1];
  if (how === 0) parent[key] = value;
  else if (how === 1 && !Array.isArray(parent)) delete parent[key];
  else if (Array.isArray(parent)) parent.push(structuredClone(parent[key as number]));
  else parent[`${String(key)}x`] = value;
  return copy;
}

/** Text damage a file may carry: a byte that is not UTF-8, a control character, CR line ends, a cut. */
function damage(text: string, kind: number, at: number): string | Uint8Array {
  const i = text.length === 0 ? 0 : at % text.length;
  switch (kind) {
    case 0:
      return text.slice(0, i);
    case 1:
      return `${text.slice(0, i)}\u001b${text.slice(i)}`;
    case 2:
      return text.replace(/\n/g, '\r');
    case 3: {
      const bytes = Buffer.from(text, 'utf8');
      return Buffer.concat([bytes.subarray(0, i), Buffer.from([0xe9]), bytes.subarray(i)]);
    }
    default:
      return text;
  }
}

export type FuzzKind = 'scope' | 'scenario' | 'trace';
export interface FuzzInput {
  kind: FuzzKind;
  /** The file's bytes, as a command would read them. */
  bytes: Uint8Array;
}

const quickDocument = scopeToDocument(scopeByName('quick')) as unknown as Json;

/** Documents of `schema`: generated whole, or a real one with one field changed; then maybe damaged as text. */
function inputs(
  kind: FuzzKind,
  schema: z.core.$ZodType,
  real: Json,
  serialize: (v: Json) => string,
): fc.Arbitrary<FuzzInput> {
  const documents = fc.oneof(
    arbitraryOf(schema),
    fc
      .tuple(fc.nat(), fc.oneof(hostileValue, arbitraryOf(schema, 5)), fc.nat({ max: 3 }))
      .map(([pick, value, how]) => mutate(real, pick, value, how)),
  );
  return fc.tuple(documents, fc.nat({ max: 9 }), fc.nat()).map(([doc, kindOfDamage, at]) => {
    const damaged = damage(serialize(doc), kindOfDamage, at);
    return {
      kind,
      bytes: typeof damaged === 'string' ? new Uint8Array(Buffer.from(damaged, 'utf8')) : damaged,
    };
  });
}

export const baseScenario: Json = {
  title: 'Generated story',
  requirements: ['NS-1'],
  given: { scope: quickDocument },
  steps: [
    { as: 'alice', do: 'create namespaces/team-a', expect: 201 },
    { tick: 1 },
    // Request bodies whose data the apiserver decodes and validates (400, 422): mutations reach them.
    {
      as: 'carol',
      do: 'create namespaces/team-b/secrets/s',
      body: {
        kind: 'Secret',
        metadata: { name: 's' },
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': 'YQ==', 'tls.key': 'YQ==' },
      },
      expect: 201,
    },
    {
      as: 'carol',
      do: 'create namespaces/team-b/configmaps/c',
      body: { kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' }, binaryData: { b: 'YQ==' } },
      expect: 201,
    },
    {
      as: 'carol',
      do: 'create namespaces/team-b/pods/p',
      body: { kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      expect: 201,
    },
  ],
};

/** Every generated input: scope files, scenario files and ITF traces. */
export function fuzzInputs(trace: Json): fc.Arbitrary<FuzzInput> {
  return fc.oneof(
    inputs('scope', scopeDocumentSchema, quickDocument, (v) => stringify(v)),
    inputs('scenario', scenarioSchema, baseScenario, (v) => stringify(v)),
    inputs('trace', itfTraceSchema, trace, (v) => JSON.stringify(v)),
  );
}

/** How a loader treated one input, or the defect it showed. */
export type Judgement = { outcome: 'accepted' | 'refused' } | { defect: string };

const file = 'fuzz.input';
const located = (message: string) => message.startsWith(`${file}:`) || message.includes(` ${file}:`);

/** Runs the loader of `input.kind` on it: accepted (the model builds) or refused naming the file; anything else is a defect. */
export function judgeInput(input: FuzzInput, limitMs = 10_000): Judgement {
  // The time the judge computed, not the wall clock: on a loaded machine a quick judgement may wait
  // seconds for a core, and a loader that loops burns its own CPU time either way.
  const started = process.cpuUsage();
  const judgement = judge(input);
  const used = process.cpuUsage(started);
  const ms = (used.user + used.system) / 1000;
  if (ms > limitMs) return { defect: `took ${Math.round(ms)} ms, over the ${limitMs} ms limit` };
  return judgement;
}

function judge(input: FuzzInput): Judgement {
  try {
    // Decoded as every command decodes a file it read (input-file.ts), then given to the kind's loader.
    const text = decodeInput(file, input.bytes);
    if (input.kind === 'scope') {
      const scope = parseScope(text, file);
      systemModel(scope, machinesFor(baseVariantName, scope));
      return { outcome: 'accepted' };
    }
    if (input.kind === 'scenario') {
      const prepared = prepareScenario(file, text);
      if (prepared instanceof ScenarioFileError)
        return located(prepared.message)
          ? { outcome: 'refused' }
          : { defect: `unlocated: ${prepared.message}` };
      // Replayed too: the answers the replay gives itself (a body's data: 400, 422) run on every input.
      replayCompiled(prepared);
      return { outcome: 'accepted' };
    }
    const trace = parseItf(text, file);
    const result = replayTrace(trace, file);
    return { outcome: result.replayed ? 'accepted' : 'refused' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const expected =
      error instanceof ScopeFileError ||
      error instanceof ScenarioFileError ||
      error instanceof UsageError ||
      error instanceof InputFileError ||
      (input.kind === 'trace' && error instanceof Error && error.constructor === Error);
    if (expected && located(message)) return { outcome: 'refused' };
    return {
      defect: `${error instanceof Error ? error.constructor.name : typeof error}: ${message.split('\n')[0]}`,
    };
  }
}
