import { beforeAll, describe, expect, it } from 'vitest';
import {
  defaultMachines,
  type Enabled,
  type SystemEvent,
  SystemModel,
  type SystemState,
} from '../../machines/system.ts';
import {
  type CompiledSearches,
  compiledSearches,
  expectCompiledSame,
} from '../../test-support/engine-searches.ts';
import { scopeFor, variantByName } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { type ExploreResult, explore } from '../engine/explore.ts';
import { loadManifest } from '../judging/manifest.ts';
import { CompiledSystem } from './compiled.ts';
import { type CheckedSystemModel, systemModel } from './system-model.ts';

/**
 * The search engines against one another, on the same model: string keys against packed states
 * (checker/engine/explore.ts with and without checker/model/encoding.ts), the step tables against the
 * step code (checker/engine/step-tables.ts), the compiled system (checker/model/compiled.ts) against the
 * packed explorer, cold and warm. Each scope or seeded fault is one model searched by every engine in
 * turn, so its packed search is made once and every comparison reads it: the model's caches are pure,
 * and each engine's own tables start empty (the compiled one searches first, on the fresh model).
 */

/** Every engine's search of one model, the compiled ones first (on the fresh model), then string keys. */
interface Searches extends CompiledSearches {
  keyed: ExploreResult<SystemState, SystemEvent>;
}

function searchAll(model: CheckedSystemModel, maxStates?: number): Searches {
  const compiled = compiledSearches(model, maxStates);
  return { ...compiled, keyed: explore(model, maxStates === undefined ? {} : { maxStates }) };
}

/** Both stores: the same states in the same discovery order, the same parents and events. */
function expectKeyedSame({ model, keyed, packed }: Searches) {
  expect(packed).toMatchObject({
    states: keyed.states,
    transitions: keyed.transitions,
    depth: keyed.depth,
    complete: keyed.complete,
  });
  // The first state whose key, index or depth differs, judged once: one expect per state costs more than the search.
  let differing: { index: number; keyed: unknown; packed: unknown } | undefined;
  for (let index = 0; index < keyed.states && differing === undefined; index++) {
    const key = model.key(keyed.stateAt(index));
    const seen = [model.key(packed.stateAt(index)), packed.indexOfKey(key), packed.depthOf(index)];
    const expected = [key, index, keyed.depthOf(index)];
    if (seen.some((value, i) => value !== expected[i])) differing = { index, keyed: expected, packed: seen };
  }
  expect(differing).toBeUndefined();
  // Shortest traces take the same events through the same states.
  for (const index of [keyed.states - 1, Math.floor(keyed.states / 2), 1]) {
    const a = keyed.traceTo(index);
    const b = packed.traceTo(index);
    expect(b.steps.map((s) => s.event)).toEqual(a.steps.map((s) => s.event));
    expect(b.steps.map((s) => model.key(s.state))).toEqual(a.steps.map((s) => model.key(s.state)));
  }
}

/** Every state's successors from the tables and from the step code itself: the same list, in order. */
function expectTablesAgree({ model, packed: search }: Searches) {
  const listed = (steps: Enabled[]) => steps.map((e) => [e.event, model.key(e.next)]);
  let edges = 0;
  // The first state whose lists differ, judged by expect once: one expect per edge costs more than the search.
  let differing: { state: string; looked: unknown; computed: unknown } | undefined;
  try {
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
  } finally {
    model.stepTables.enabled = true;
  }
  expect(differing).toBeUndefined();
  // A complete search took exactly these edges; a cut one expanded only some of its states.
  if (search.complete) expect(edges).toBe(search.transitions);
  else expect(edges).toBeGreaterThan(search.transitions);
  // The tables were used, not bypassed.
  expect(model.stepTables.hits).toBeGreaterThan(model.stepTables.misses);
}

const golden = (name: string) => loadManifest().scopes.find((s) => s.name === name);

describe.each(['quick', 'admin-finalize'])('every engine on the %s scope', (name) => {
  let searches: Searches;
  beforeAll(() => {
    searches = searchAll(systemModel(scopeByName(name)));
  }, 240_000);

  it('finds the golden counts with packed states, and completes', () => {
    const figures = golden(name);
    if (!figures?.explored) throw new Error(`scopes/${name}.yaml: no explored golden figures`);
    expect(searches.packed).toMatchObject({
      states: figures.states,
      transitions: figures.transitions,
      depth: figures.depth,
      complete: true,
    });
  });

  it('explores it with string keys as with packed states', () => {
    expectKeyedSame(searches);
  });

  it('explores it with the compiled model identically, cold and warm', () => {
    expectCompiledSame(searches);
    expect(searches.warm.complete).toBe(true);
    // The search filled the tables: more than a model compiled and never searched holds.
    expect(searches.compiled.tableBytes).toBeGreaterThan(
      new CompiledSystem(systemModel(scopeByName(name))).tableBytes,
    );
  });

  it('gives the same successors from the step tables as from the step code on every state', () => {
    expectTablesAgree(searches);
  });
});

describe.each(['create-in-terminating', 'initializer-out-of-order', 'stale-configuration-used'])(
  'every engine on the first 4,000 states of the mutant %s',
  (mutant) => {
    let searches: Searches;
    beforeAll(() => {
      const variant = variantByName(mutant);
      if (!variant) throw new Error(`no mutant ${mutant}`);
      const scope = scopeFor(mutant, scopeByName('quick'));
      searches = searchAll(systemModel(scope, variant.machines(defaultMachines, scope)), 4000);
    }, 240_000);

    it('explores it with string keys as with packed states', () => {
      expectKeyedSame(searches);
    });

    it('explores it with the compiled model identically, cold and warm', () => {
      expectCompiledSame(searches);
    });

    it('gives the same successors from the step tables as from the step code', () => {
      expectTablesAgree(searches);
    });
  },
);

describe.each(['admin-finalize'])('the %s scope without the engine', (name) => {
  it('the specification alone (machines/system.ts: no step table, no request memo, no packed key) finds the same counts', () => {
    const figures = golden(name);
    if (!figures?.explored) throw new Error(`scopes/${name}.yaml: no explored golden figures`);
    const spec = new SystemModel(scopeByName(name));
    // Every lane of the state by value, its interned parts by id: equal states, equal texts.
    const key = (s: SystemState) =>
      JSON.stringify([
        s.configSync,
        s.faults,
        s.registeredConfigs,
        s.namespaces.map((ns) => ns.id),
        s.initializers,
        s.clusterObjects,
      ]);
    const result = explore({
      initialStates: () => spec.initialStates(),
      successors: (s, emit) => spec.successors(s, emit),
      key,
    });
    expect(result).toMatchObject({
      states: figures.states,
      transitions: figures.transitions,
      depth: figures.depth,
      complete: true,
    });
  });
});
