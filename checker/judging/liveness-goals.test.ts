import { describe, expect, it } from 'vitest';
import type { SystemModel, SystemState } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import type { LivenessProperty } from '../../properties/types.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import { check } from './check.ts';
import { type GoalAnswer, GoalMemo, type GoalOf, goalAnswer } from './liveness-goals.ts';

/** Every state of a search of `model`, in index order. */
function statesOf(model: CheckedSystemModel, maxStates?: number): SystemState[] {
  const states: SystemState[] = [];
  check(model, [], {
    ...(maxStates === undefined ? {} : { maxStates }),
    memo: false,
    recorder: {
      wrap: (m) => m,
      expanding() {},
      edge() {},
      state: (state) => {
        states.push(state);
      },
      finish() {},
    },
  });
  return states;
}

/** The goal's answer asked directly of its property: the oracle the memo must agree with. */
function asked(model: SystemModel, { property, slot }: GoalOf, state: SystemState): GoalAnswer {
  if (property.q(model, state, slot)) return goalAnswer.met;
  return property.p === undefined || property.p(model, state, slot)
    ? goalAnswer.triggered
    : goalAnswer.pending;
}

const goalsOf = (model: SystemModel, properties: readonly LivenessProperty[]): GoalOf[] =>
  properties.flatMap((property) =>
    property.perNamespace
      ? model.scope.namespaces.map((_, slot) => ({ property, slot }))
      : [{ property, slot: -1 }],
  );

/** The memo's answers for every goal of every state, beside the properties' own. */
function compare(model: CheckedSystemModel, properties: readonly LivenessProperty[], states: SystemState[]) {
  const goals = goalsOf(model, properties);
  const memo = new GoalMemo(model, goals);
  let mismatches = 0;
  for (const state of states)
    memo.judge(state, (j, answer) => {
      if (answer !== asked(model, goals[j], state)) mismatches++;
    });
  return { mismatches, runs: memo.runs, goals: goals.length };
}

const base = {
  kind: 'leads-to' as const,
  requirements: [],
  statement: 'a test goal',
  premise: 'p',
  goal: 'q',
  fairness: [],
  perNamespace: true,
};

/** Reads another slot than its own (the next one): it may not be remembered by its own slot. */
const readsTheNextSlot: LivenessProperty = {
  ...base,
  id: 'reads-the-next-slot',
  q: (model, s, i) => model.view(s, (i + 1) % model.scope.namespaces.length).value === 'active',
};

/** Reads every slot through `views`. */
const readsEverySlot: LivenessProperty = {
  ...base,
  id: 'reads-every-slot',
  p: (model, s, i) => model.views(s).filter((v) => v.value === 'initializing').length > 0 && i >= 0,
  q: (model, s, i) => model.view(s, i).value === 'removed',
};

/** Reads its own slot and the lanes outside the slots (the configuration copy's age). */
const readsOutside: LivenessProperty = {
  ...base,
  id: 'reads-outside',
  p: (model, s, i) => model.view(s, i).value !== 'absent',
  q: (model, s) => model.systemView(s).secondsSinceConfigRead > 0,
};

/** Reads the state by enumerating its fields: no key holds what that may read. */
const readsKeys: LivenessProperty = {
  ...base,
  id: 'reads-keys',
  perNamespace: false,
  q: (_model, s) => Object.keys(s).length > 100,
};

describe('the liveness goals asked once per own slot and outside lanes', () => {
  const model = systemModel(scopeByName('quick'));
  const states = statesOf(model);

  it('answers every goal of the built-in properties as the properties do, on every state of quick', () => {
    const { mismatches, runs, goals } = compare(model, livenessProperties, states);
    expect(mismatches).toBe(0);
    // Remembered: far fewer runs than asking every goal on every state (at most 2 runs each).
    expect(runs).toBeLessThan((states.length * goals) / 4);
  });

  it('asks again on every state a goal that read another slot, every slot or the state as a whole', () => {
    for (const property of [readsTheNextSlot, readsEverySlot, readsKeys]) {
      const { mismatches, runs } = compare(model, [property], states);
      expect(mismatches, property.id).toBe(0);
      // Not remembered: at least one run per goal and state.
      expect(runs, property.id).toBeGreaterThanOrEqual(states.length * goalsOf(model, [property]).length);
    }
  });

  it('remembers a goal that read its own slot and the lanes outside the slots, keyed by both', () => {
    const { mismatches, runs, goals } = compare(model, [readsOutside], states);
    expect(mismatches).toBe(0);
    expect(runs).toBeLessThan((states.length * goals) / 4);
  });

  it('on default, where every slot moves: the same answers on the first states', () => {
    const wide = systemModel(scopeByName('default'));
    const { mismatches } = compare(
      wide,
      [...livenessProperties, readsTheNextSlot, readsOutside],
      statesOf(wide, 4000),
    );
    expect(mismatches).toBe(0);
  });
});
