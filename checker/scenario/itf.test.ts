import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { safetyProperties } from '../../properties/safety.ts';
import { machinesFor, mutants } from '../../variants/variants.ts';
import { builtInScopes } from '../cli/scope-file.ts';
import { check } from '../judging/check.ts';
import { systemModel } from '../model/system-model.ts';
import { counterexampleItf } from './counterexample-itf.ts';
import {
  actionVariable,
  decodeItfValue,
  encodeItfValue,
  firstDuplicateKey,
  ItfEncodingError,
  itfText,
  itfTraceSchema,
  parseItf,
  traceToItf,
} from './itf.ts';

const scopes = builtInScopes();

/**
 * An independent reading of ADR-015's shape, written apart from itf.ts's own schema so the writer is
 * not judged by its own code: top-level `#meta`/`vars`/`states`, each state's `#meta.index`, tagged values.
 */
const adrValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.boolean(),
    z.string(),
    z.strictObject({ '#bigint': z.string().regex(/^-?[0-9]+$/) }),
    z.strictObject({ '#set': z.array(adrValue) }),
    z.strictObject({ '#map': z.array(z.tuple([adrValue, adrValue])) }),
    z.strictObject({ '#tup': z.array(adrValue) }),
    z.array(adrValue),
    z.record(z.string(), adrValue),
  ]),
);
const adrTrace = z.object({
  '#meta': z.record(z.string(), z.unknown()),
  vars: z.array(z.string()),
  loop: z.number().int().optional(),
  states: z.array(
    z.object({ '#meta': z.object({ index: z.number().int() }).passthrough() }).catchall(adrValue),
  ),
});

interface Toy {
  n: number;
  tags: string[];
}
const toyTrace = {
  initial: { n: 0, tags: [] } as Toy,
  steps: [
    { event: 'inc', state: { n: 1, tags: ['b', 'a'] } as Toy },
    { event: 'inc', state: { n: 2, tags: ['a'] } as Toy },
  ],
};
const toyOptions = {
  view: (s: Toy) => ({ count: s.n, tags: new Set(s.tags), byTag: new Map(s.tags.map((t) => [t, s.n])) }),
  action: (e: string) => ({ label: e, details: { kind: 'toy' } }),
};

describe('encodeItfValue', () => {
  it('writes integers as #bigint, sets and maps sorted, records with sorted keys', () => {
    expect(encodeItfValue(3)).toEqual({ '#bigint': '3' });
    expect(encodeItfValue(2n ** 70n)).toEqual({ '#bigint': '1180591620717411303424' });
    expect(encodeItfValue(new Set(['b', 'a']))).toEqual({ '#set': ['a', 'b'] });
    expect(
      encodeItfValue(
        new Map([
          ['z', 1],
          ['a', 2],
        ]),
      ),
    ).toEqual({
      '#map': [
        ['a', { '#bigint': '2' }],
        ['z', { '#bigint': '1' }],
      ],
    });
    expect(JSON.stringify(encodeItfValue({ b: true, a: 'x' }))).toBe('{"a":"x","b":true}');
    expect(encodeItfValue(['x', 1])).toEqual(['x', { '#bigint': '1' }]);
  });

  it('refuses what ITF cannot hold, naming where it is', () => {
    expect(() => encodeItfValue({ ratio: 0.5 }, 'state')).toThrow(/state\.ratio: 0\.5 is not an integer/);
    expect(() => encodeItfValue({ '#set': 1 }, 'v')).toThrow(ItfEncodingError);
    expect(() => encodeItfValue(() => 1, 'f')).toThrow(/f: a function cannot/);
  });

  it('decodes back to plain data', () => {
    const value = { n: 5, s: new Set(['b', 'a']), m: new Map([['k', [1, 2]]]), big: 2n ** 60n };
    expect(decodeItfValue(encodeItfValue(value))).toEqual({
      big: 2n ** 60n,
      m: { k: [1, 2] },
      n: 5,
      s: ['a', 'b'],
    });
    expect(decodeItfValue({ '#map': [[{ '#bigint': '1' }, 'x']] })).toEqual([[1, 'x']]);
    expect(decodeItfValue({ '#tup': ['a', { '#bigint': '-2' }] })).toEqual(['a', -2]);
  });
});

describe('traceToItf', () => {
  it('numbers the states, records each action, and passes both schemas', () => {
    const itf = traceToItf(toyTrace, { ...toyOptions, meta: { property: 'toy' } });
    expect(itf.vars).toEqual(['byTag', 'count', 'tags', actionVariable]);
    expect(itf.states.map((s) => s['#meta'].index)).toEqual([0, 1, 2]);
    expect(itf.states.map((s) => s[actionVariable])).toEqual(['init', 'inc', 'inc']);
    expect(itf.states[1].tags).toEqual({ '#set': ['a', 'b'] });
    expect(itf['#meta']).toMatchObject({ format: 'ITF', property: 'toy' });
    expect(itf.loop).toBeUndefined();
    expect(adrTrace.safeParse(JSON.parse(itfText(itf))).success).toBe(true);
    expect(itfTraceSchema.safeParse(JSON.parse(itfText(itf))).success).toBe(true);
  });

  it('records a lasso as ADR-015 `loop` and `#meta.loopStart`', () => {
    const itf = traceToItf(toyTrace, { ...toyOptions, loopStart: 1 });
    expect(itf.loop).toBe(1);
    expect(itf['#meta'].loopStart).toBe(1);
    expect(() => traceToItf(toyTrace, { ...toyOptions, loopStart: 3 })).toThrow(
      /loopStart: 3 is not the index/,
    );
  });

  it('gives the same bytes for the same trace, whatever the insertion order of sets and maps', () => {
    const reversed = {
      ...toyOptions,
      view: (s: Toy) => toyOptions.view({ ...s, tags: [...s.tags].reverse() }),
    };
    expect(itfText(traceToItf(toyTrace, reversed))).toBe(itfText(traceToItf(toyTrace, toyOptions)));
  });

  it('refuses a view whose variables change from state to state', () => {
    const shifting = { ...toyOptions, view: (s: Toy) => (s.n === 0 ? { a: 1 } : { b: 1 }) };
    expect(() => traceToItf(toyTrace, shifting)).toThrow(/states\[1\]: variables b differ from a/);
  });

  it('parseItf names the file and the first bad field', () => {
    expect(() => parseItf('{', 'x.itf.json')).toThrow(/^x\.itf\.json: not JSON/);
    const bad = JSON.parse(itfText(traceToItf(toyTrace, toyOptions)));
    bad.states[1]['#meta'].index = 7;
    expect(() => parseItf(JSON.stringify(bad), 'y.itf.json')).toThrow(
      /y\.itf\.json: not an ITF trace: states\.1\.#meta\.index/,
    );
  });

  it('names the forms an ITF value takes when one fits none (zod said only "Invalid input")', () => {
    const bad = JSON.parse(itfText(traceToItf(toyTrace, toyOptions)));
    const [name] = bad.vars;
    bad.states[0][name] = { '#map': [[1]] };
    expect(() => parseItf(JSON.stringify(bad), 'm.itf.json')).toThrow(
      `m.itf.json: not an ITF trace: states.0.${name}: not an ITF value: expected a boolean, a string, an integer, a list, a record, or`,
    );
  });

  it('refuses a top-level field ADR-015 does not define, which a reader would otherwise ignore', () => {
    const extra = { ...JSON.parse(itfText(traceToItf(toyTrace, toyOptions))), scopeDocument: 'x' };
    expect(() => parseItf(JSON.stringify(extra), 'z.itf.json')).toThrow(
      'z.itf.json: not an ITF trace: (top): Unrecognized key: "scopeDocument"',
    );
  });
});

describe('a seeded fault as ITF', () => {
  it('the counterexample of create-in-terminating is ITF that names each step and ends in the violation', () => {
    const machines = machinesFor('create-in-terminating', scopes.default);
    expect(mutants.some((m) => m.name === 'create-in-terminating')).toBe(true);
    if (!machines) throw new Error('no machines for create-in-terminating');
    const model = systemModel(scopes.default, machines);
    const property = safetyProperties.filter((p) => p.id === 'no-create-in-terminating');
    const result = check(model, property, { stopWhenAllViolated: true });
    const violated = result.properties[0];
    expect(violated.status).toBe('violated');
    const text = counterexampleItf(model, violated, 'create-in-terminating');
    const itf = parseItf(text, 'no-create-in-terminating.itf.json');
    expect(adrTrace.safeParse(JSON.parse(text)).success).toBe(true);
    expect(itf.states).toHaveLength((violated.violation?.trace.steps.length ?? 0) + 1);
    expect(itf['#meta']).toMatchObject({
      property: 'no-create-in-terminating',
      variant: 'create-in-terminating',
    });
    // Typed: each namespace a variant (Absent, Removed or Exists with its fields), each enum a variant.
    const final = JSON.parse(text).states.at(-1) as {
      namespaces: { '#map': [string, { tag: string; value: Record<string, unknown> }][] };
    };
    const terminating = final.namespaces['#map'].filter(
      ([, ns]) =>
        ns.tag === 'Exists' &&
        isDeepStrictEqual(ns.value.phase, { tag: 'Terminating', value: { '#tup': [] } }) &&
        (ns.value.content as { '#set': string[] })['#set'].length > 0,
    );
    // The last step created content in a terminating namespace: the state says so in Kubernetes words.
    expect(terminating).toHaveLength(1);
    const lastState = itf.states[itf.states.length - 1];
    expect(lastState[actionVariable]).toBe('principalRequest');
    expect(lastState['#meta'].action?.label).toMatch(/: create .* -> 201 Created$/);
    expect(lastState['mbt::nondetPicks']).toMatchObject({
      request: { tag: 'Some', value: { verb: { tag: 'CreateVerb', value: { '#tup': [] } } } },
    });
    expect(itf.params).toEqual(['scope', 'scopeDocument']);
    expect(lastState.scope).toBe('default');
  });
});

describe('a key written twice in one object', () => {
  const trace = (state: string) =>
    `{\n  "#meta": { "format": "ITF", "format-description": "x" },\n  "vars": ["x"],\n  "states": [\n    ${state}\n  ]\n}`;

  it('is refused with its line and path, where JSON.parse would keep the last silently', () => {
    const text = trace('{ "#meta": { "index": 0 }, "x": { "a": 1, "b": "a", "a": 2 } }');
    expect(firstDuplicateKey(text)).toEqual({ key: 'a', line: 5, path: 'states[].x' });
    expect(() => parseItf(text, 't.itf.json')).toThrow(
      't.itf.json: line 5: key "a" appears twice in one object (at states[].x)',
    );
    expect(firstDuplicateKey('{"vars": [], "vars": []}')).toEqual({ key: 'vars', line: 1, path: '' });
  });

  it('is told apart from the same key in sibling objects, a value equal to a key, and escaped quotes', () => {
    expect(
      firstDuplicateKey(trace('{ "#meta": { "index": 0 }, "x": [{ "a": "a" }, { "a": "\\"a\\"" }] }')),
    ).toBe(undefined);
    expect(firstDuplicateKey('{"a": {"a": {"a": 1}}, "b": "a"}')).toBe(undefined);
  });
});
