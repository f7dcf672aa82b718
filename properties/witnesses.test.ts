import { beforeAll, describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { check } from '../checker/judging/check.ts';
import { type Enabled, SystemModel, type SystemState } from '../machines/system.ts';
import { invariant, onState } from './declare.ts';
import { safetyProperties } from './safety.ts';
import type { Property } from './types.ts';

/**
 * A witness says the case a property guards occurred. One that fires in every state (or, for a step
 * witness, from every state) says nothing: the property could hold there for a reason that has no
 * bearing on its rule, as `initialized-is-forever` once did with a namespace initialized from the start.
 */
const model = new SystemModel(scopeByName('quick'));

/** Properties whose guarded case is an attempt open in every state, with the reason; the count checks still apply. */
const openInEveryState: Record<string, string> = {
  'tenant-isolation':
    "alice may always send her requests into bob's team-b, which exists from the start: the attack is open in every state",
  'cluster-wide-as-declared':
    'alice may always list across all namespaces, a cluster-wide request she is not declared for',
};

// Each state's steps, computed once for all witnesses.
const stepsOf = new WeakMap<SystemState, Enabled[]>();
const steps = (s: SystemState): Enabled[] => {
  let found = stepsOf.get(s);
  if (!found) {
    found = model.enabled(s);
    stepsOf.set(s, found);
  }
  return found;
};

/** Each property's witness as a state test: it holds there, or one of the state's steps fires it. */
function firesFrom(p: Property): Property {
  const w = p.witness;
  const test =
    w.on === 'state'
      ? w.test
      : (m: SystemModel, s: SystemState) => steps(s).some((e) => w.test(m, s, e.event, e.next));
  return invariant(p.id, p.requirements, {
    statement: p.statement,
    predicate: () => true,
    witness: onState(w.description, test),
  });
}

describe('every witness on the quick scope', () => {
  let states = 0;
  let transitions = 0;
  let firing: Map<string, number>;
  let counted: Map<string, number>;
  beforeAll(() => {
    const judged = check(model, safetyProperties);
    states = judged.states;
    transitions = judged.transitions;
    counted = new Map(judged.properties.map((p) => [p.property.id, p.witnesses]));
    const spread = check(model, safetyProperties.map(firesFrom), { memo: false });
    firing = new Map(spread.properties.map((p) => [p.property.id, p.witnesses]));
  }, 300_000);

  it('fires somewhere', () => {
    expect(safetyProperties.filter((p) => (firing.get(p.id) ?? 0) === 0).map((p) => p.id)).toEqual([]);
  });

  it('does not fire in (or from) every state, but where an attempt is open in every state', () => {
    const everywhere = safetyProperties.filter((p) => firing.get(p.id) === states).map((p) => p.id);
    expect(everywhere).toEqual(Object.keys(openInEveryState));
  });

  it('holds in some states only (a state witness) or fires on some steps only (a step witness)', () => {
    const all = safetyProperties.filter((p) =>
      p.witness.on === 'state' ? counted.get(p.id) === states : counted.get(p.id) === transitions,
    );
    expect(all.map((p) => p.id)).toEqual([]);
  });

  it('has a count other than the number of states', () => {
    expect(safetyProperties.filter((p) => counted.get(p.id) === states).map((p) => p.id)).toEqual([]);
  });
});
