import { beforeAll, describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import { escalationCounterexampleItf } from '../../test-support/escalation-itf.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { scopeToDocument } from '../cli/scope-yaml.ts';
import { check, type PropertyResult } from '../judging/check.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import { stepperOf } from '../report/site/stepper.ts';
import { counterexampleItf } from './counterexample-itf.ts';
import { itfText, parseItf, traceToItf } from './itf.ts';
import { typedState, varTypes } from './itf-types.ts';
import { readableState, stepAction } from './state-view.ts';
import { replayTrace } from './trace-replay.ts';

/**
 * Typed ITF beside the shape traces had before it: a trace of the older shape (enums as strings,
 * namespaces as records of two shapes, the scope in #meta, each step's data in #meta.action) still
 * replays, the report's stepper reads both shapes as the same YAML, and a value the types do not
 * declare is refused naming where it is.
 */
const variant = 'create-in-terminating';
let model: CheckedSystemModel;
let result: PropertyResult;
let typed = '';
let older = '';

beforeAll(() => {
  model = variantModel(variant, scopeByName('quick'));
  result = check(
    model,
    safetyProperties.filter((p) => p.id === 'no-create-in-terminating'),
    {
      stopOnFirst: true,
    },
  ).properties[0];
  typed = counterexampleItf(model, result, variant);
  // The older writer: the readable view encoded as it is, the scope and the step's data in #meta.
  const trace = result.violation?.trace;
  if (!trace) throw new Error('no counterexample');
  older = itfText(
    traceToItf(trace, {
      view: (s) => readableState(model, s),
      action: (event) => stepAction(event, model),
      meta: {
        property: result.property.id,
        variant,
        scope: 'quick',
        scopeDocument: scopeToDocument(model.scope),
      },
    }),
  );
});

describe('typed ITF and the older shape', () => {
  it('the two shapes differ: the typed one has params, picks and variants', () => {
    const a = JSON.parse(typed);
    const b = JSON.parse(older);
    expect(a.params).toEqual(['scope', 'scopeDocument']);
    expect(b.params).toBeUndefined();
    expect(a.vars).toContain('mbt::nondetPicks');
    expect(b.vars).not.toContain('mbt::nondetPicks');
    expect(a.states[0].namespaces).not.toEqual(b.states[0].namespaces);
  });

  it('both replay on the variant and confirm the violation at the same step', () => {
    const a = replayTrace(parseItf(typed, 'typed.itf.json'), 'typed.itf.json');
    const b = replayTrace(parseItf(older, 'older.itf.json'), 'older.itf.json');
    expect(a).toMatchObject({ replayed: true, violatedAt: 3 });
    expect(b).toMatchObject({ replayed: true, violatedAt: 3 });
    if (!a.replayed || !b.replayed) return;
    expect(a.steps.map((s) => s.label)).toEqual(b.steps.map((s) => s.label));
  });

  it('the stepper shows both as the same YAML, labels and changes', () => {
    const a = stepperOf(parseItf(typed, 't'));
    const b = stepperOf(parseItf(older, 'o'));
    expect(a.steps.map((s) => [s.label, s.yaml, s.changes])).toEqual(
      b.steps.map((s) => [s.label, s.yaml, s.changes]),
    );
    expect(a.steps.at(-1)?.yaml).toMatch(/phase: Terminating/);
  });

  it('an edited pick is no step of the model: the replay stops there', () => {
    const trace = JSON.parse(typed);
    trace.states[3]['mbt::nondetPicks'].actor = { tag: 'Some', value: 'mallory' };
    const replay = replayTrace(parseItf(JSON.stringify(trace), 't'), 't');
    expect(replay).toMatchObject({ replayed: false, step: 3 });
  });

  it('a trace naming no property or scope takes them from the command line, and an unknown one is refused', () => {
    const trace = JSON.parse(typed);
    const { property: _, ...meta } = trace['#meta'];
    const bare = parseItf(JSON.stringify({ ...trace, '#meta': meta }), 'bare.itf.json');
    expect(() => replayTrace(bare, 'bare.itf.json')).toThrow(
      /^bare\.itf\.json: #meta\.property: "" is no safety property/,
    );
    expect(replayTrace(bare, 'bare.itf.json', { property: 'no-create-in-terminating' })).toMatchObject({
      replayed: true,
      violatedAt: 3,
    });
    expect(() => replayTrace(bare, 'bare.itf.json', { property: 'nope' })).toThrow(
      /^--property: "nope" is no safety property; fix: name one of .*no-create-in-terminating/,
    );
  });

  it('a value the types do not declare is refused naming where it is', () => {
    const view = readableState(model, model.initialStates()[0]);
    const namespaces = new Map(view.namespaces as Map<string, Record<string, unknown>>);
    const existing = [...namespaces].find(([, v]) => v.exists === true);
    if (!existing) throw new Error('the quick scope has a namespace before any step');
    namespaces.set(existing[0], { ...existing[1], phase: 'Pending' });
    expect(() => typedState({ ...view, namespaces })).toThrow(
      `ITF: namespaces[${existing[0]}].phase: "Pending" is no Phase (Initializing, Active, Terminating)`,
    );
  });
});

/**
 * D-23: a scope's cluster RBAC objects are a state variable of its traces, `clusterObjects`, each stored
 * one by `clusterroles/NAME` or `clusterrolebindings/NAME` with the version stored; a scope without any
 * has no such variable, so its traces keep their shape.
 */
describe('clusterObjects in the ITF state', () => {
  const text = escalationCounterexampleItf();

  it('declares the variable with its type, and holds the binding once the fault stored it', () => {
    const trace = JSON.parse(text);
    expect(trace.vars).toContain('clusterObjects');
    expect(trace['#meta'].varTypes.clusterObjects).toBe('(Str -> Int)');
    expect(trace.states[0].clusterObjects).toEqual({ '#map': [] });
    expect(trace.states.at(-1).clusterObjects).toEqual({
      '#map': [['clusterrolebindings/rbac-manager-is-cluster-admin', { '#bigint': '0' }]],
    });
  });

  it('replays on the fault, the stored objects compared state by state', () => {
    expect(replayTrace(parseItf(text, 'c.itf.json'), 'c.itf.json')).toMatchObject({
      replayed: true,
      violatedAt: JSON.parse(text).states.length - 1,
    });
    const edited = JSON.parse(text);
    edited.states.at(-1).clusterObjects = { '#map': [] };
    expect(replayTrace(parseItf(JSON.stringify(edited), 'e.itf.json'), 'e.itf.json')).toMatchObject({
      replayed: false,
    });
  });

  it('is no variable of a scope without cluster objects', () => {
    expect(varTypes()).not.toHaveProperty('clusterObjects');
    expect(JSON.parse(typed).vars).not.toContain('clusterObjects');
  });
});
