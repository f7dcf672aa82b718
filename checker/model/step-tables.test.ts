import { describe, expect, it } from 'vitest';
import { defaultMachines, type Enabled, SystemModel } from '../../machines/system.ts';
import { scopeFor, variantByName } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { explore } from '../engine/explore.ts';
import { systemCodec } from './encoding.ts';

/** Every state's successors from the tables and from the step code itself: the same list, in order. */
function expectTablesAgree(model: SystemModel, maxStates?: number) {
  const search = explore(model, { codec: systemCodec(model), ...(maxStates ? { maxStates } : {}) });
  const listed = (steps: Enabled[]) => steps.map((e) => [e.event, model.key(e.next)]);
  let edges = 0;
  // The first state whose lists differ, judged by expect once: one expect per edge costs more than the search.
  let differing: { state: string; looked: unknown; computed: unknown } | undefined;
  for (let index = 0; index < search.states && differing === undefined; index++) {
    const s = search.stateAt(index);
    model.stepTables.enabled = true;
    const looked = listed(model.enabled(s));
    model.stepTables.enabled = false;
    const computed = listed(model.enabled(s));
    // Events are interned, so the same step is the same object on both paths.
    const same =
      looked.length === computed.length &&
      looked.every(([event, key], j) => event === computed[j][0] && key === computed[j][1]);
    if (!same) differing = { state: model.key(s), looked, computed };
    edges += looked.length;
  }
  expect(differing).toBeUndefined();
  model.stepTables.enabled = true;
  // A complete search took exactly these edges; a cut one expanded only some of its states.
  if (search.complete) expect(edges).toBe(search.transitions);
  else expect(edges).toBeGreaterThan(search.transitions);
  // The tables were used, not bypassed.
  expect(model.stepTables.hits).toBeGreaterThan(model.stepTables.misses);
  return search;
}

describe('step tables (checker/engine/step-tables.ts) against the step code', () => {
  for (const name of ['quick', 'admin-finalize']) {
    it(`gives the same successors on every state of ${name}`, () => {
      const search = expectTablesAgree(new SystemModel(scopeByName(name)));
      expect(search.complete).toBe(true);
    }, 240_000);
  }

  for (const mutant of ['create-in-terminating', 'initializer-out-of-order', 'stale-configuration-used']) {
    it(`gives the same successors on the mutant ${mutant}`, () => {
      const variant = variantByName(mutant);
      if (!variant) throw new Error(`no mutant ${mutant}`);
      const scope = scopeFor(mutant, scopeByName('quick'));
      const model = new SystemModel(scope, variant.machines(defaultMachines, scope));
      expectTablesAgree(model, 1500);
    }, 240_000);
  }
});
