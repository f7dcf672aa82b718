import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import { command as replayCommand, main as replayMain } from '../../scripts/replay.ts';
import { runCommandInProcess, thrownMessage } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { UsageError } from '../cli/cli.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { check } from '../judging/check.ts';
import { counterexampleItf } from './counterexample-itf.ts';
import { canonicalItf, type ItfValue, itfEqual, parseItf } from './itf.ts';
import { replayTrace } from './trace-replay.ts';

/** replay's main in this process, on the command line given (its entry point is spawned in checker/cli/input-file.test.ts). */
const replay = (argv: string[]) => runCommandInProcess(replayCommand, replayMain, argv);

/**
 * A trace is judged by what it means in ITF, not by how it is spelt (set and map order, integers as
 * `#bigint` or plain numbers), and by everything it records, the model's answers included.
 */
const variant = 'create-in-terminating';
let itf = '';

beforeAll(() => {
  const model = variantModel(variant, scopeByName('quick'));
  const property = safetyProperties.filter((p) => p.id === 'no-create-in-terminating');
  itf = counterexampleItf(model, check(model, property, { stopOnFirst: true }).properties[0], variant);
});

/** Rewrites every value of the trace's states by `change`, leaving `#meta` alone. */
function rewritten(change: (value: unknown) => unknown): string {
  const trace = JSON.parse(itf) as { states: Record<string, unknown>[] };
  for (const state of trace.states)
    for (const key of Object.keys(state)) if (key !== '#meta') state[key] = change(state[key]);
  return JSON.stringify(trace);
}

/** Every set's elements and map's pairs reversed, recursively. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record['#set'])) return { '#set': record['#set'].map(reversed).reverse() };
  if (Array.isArray(record['#map'])) return { '#map': record['#map'].map(reversed).reverse() };
  return Object.fromEntries(
    Object.entries(record)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** Every `{"#bigint": "n"}` written as the plain number n. */
function plainNumbers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (typeof record['#bigint'] === 'string') return Number(record['#bigint']);
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, plainNumbers(v)]));
}

const count = (text: string, what: string) => text.split(what).length - 1;

describe('ITF values compare by meaning', () => {
  it('sets and maps in any order, with or without repeats, are equal; other contents are not', () => {
    const a: ItfValue = { '#set': [{ '#bigint': '1' }, 'x'] };
    expect(itfEqual(a, { '#set': ['x', 1, { '#bigint': '01' }] })).toBe(true);
    expect(itfEqual(a, { '#set': ['x', 2] })).toBe(false);
    const m: ItfValue = {
      '#map': [
        ['a', 1],
        ['b', { '#set': [] }],
      ],
    };
    expect(
      itfEqual(m, {
        '#map': [
          ['b', { '#set': [] }],
          ['a', { '#bigint': '1' }],
        ],
      }),
    ).toBe(true);
    expect(
      itfEqual(m, {
        '#map': [
          ['a', 2],
          ['b', { '#set': [] }],
        ],
      }),
    ).toBe(false);
    // A sequence keeps its order: only sets and maps are unordered.
    expect(itfEqual([1, 2], [2, 1])).toBe(false);
    expect(canonicalItf({ b: 1, a: -0 })).toEqual({ a: { '#bigint': '0' }, b: { '#bigint': '1' } });
  });

  it('a trace with every set and map reversed still confirms the violation', () => {
    const text = rewritten(reversed);
    expect(text).not.toBe(JSON.stringify(JSON.parse(itf)));
    expect(count(itf, '"#set"') + count(itf, '"#map"')).toBeGreaterThan(0);
    const result = replayTrace(parseItf(text, 't'), 't');
    expect(result).toMatchObject({ replayed: true, violatedAt: 3 });
  });

  it('a trace with integers as plain numbers still confirms the violation', () => {
    const text = rewritten(plainNumbers);
    expect(count(text, '"#bigint"')).toBe(0);
    expect(count(itf, '"#bigint"')).toBeGreaterThan(0);
    const result = replayTrace(parseItf(text, 't'), 't');
    expect(result).toMatchObject({ replayed: true, violatedAt: 3 });
  });
});

describe('a trace naming what does not exist is refused naming the file', () => {
  it('an unknown variant in #meta or scope in params', () => {
    const trace = JSON.parse(itf) as {
      '#meta': Record<string, unknown>;
      params: string[];
      states: Record<string, unknown>[];
    };
    const variant = thrownMessage(UsageError, () =>
      replayTrace(
        parseItf(JSON.stringify({ ...trace, '#meta': { ...trace['#meta'], variant: 'nope' } }), 't.json'),
        't.json',
      ),
    );
    expect(variant).toMatch(/^t\.json: #meta\.variant: unknown variant "nope"; fix: /);
    // Without the scope document, the scope parameter names a built-in scope.
    const named = {
      ...trace,
      params: ['scope'],
      states: trace.states.map(({ scopeDocument: _, ...state }) => ({ ...state, scope: 'nowhere' })),
    };
    const scope = thrownMessage(UsageError, () =>
      replayTrace(parseItf(JSON.stringify(named), 't.json'), 't.json'),
    );
    expect(scope).toMatch(/^t\.json: states\[0\]\.scope: unknown scope "nowhere"/);
  });
});

describe('every recorded response is checked', () => {
  const scratch = useTempDir('trace-response');

  /** The trace with step 3's answer edited to 403 Forbidden, in its label and its details. */
  function edited(): string {
    const trace = JSON.parse(itf) as {
      states: { '#meta': { action: { label: string; details: { response: unknown } } } }[];
    };
    const action = trace.states[3]['#meta'].action;
    action.label = action.label.replace('201 Created', '403 Forbidden');
    action.details.response = { code: 403, reason: 'Forbidden' };
    return JSON.stringify(trace);
  }

  it('a trace whose recorded response was edited is not a run of the variant', () => {
    const result = replayTrace(parseItf(edited(), 't'), 't');
    expect(result).toMatchObject({ replayed: false, step: 3 });
    if (result.replayed) return;
    expect(result.problem).toBe(
      `the trace records "ci-robot: create namespaces/team-a/configmaps/app -> 403 Forbidden" (response 403 Forbidden), but ${variant} answers "ci-robot: create namespaces/team-a/configmaps/app -> 201 Created" (response 201 Created)`,
    );
  });

  it('replay --trace exits 14 on it, never CONFIRMED', async () => {
    const path = join(scratch(), 'edited.itf.json');
    await writeFile(path, edited());
    const run = await replay(['--trace', path]);
    expect(run.code).toBe(14);
    expect(run.stdout).toContain('NOT REPLAYED at step 3');
    expect(run.stdout).not.toContain('CONFIRMED:');
  });
});
