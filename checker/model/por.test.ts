import { describe, expect, it } from 'vitest';
import { scopeByName } from '../cli/scope-file.ts';
import { compiledFor } from './compiled.ts';
import { exploreCompiled } from './compiled-explore.ts';
import { actionKind, commutationCensus, dependent, laneFootprints } from './por.ts';
import { systemModel } from './system-model.ts';

const model = systemModel(scopeByName('quick'));
const footprints = laneFootprints(model);
const kinds = model.actions.map((_, a) => actionKind(model, a));
const indices = [...model.actions.keys()];

describe('independence of the actions (partial-order reduction)', () => {
  it('names every global action of the quick scope by what it does', () => {
    const global = indices.filter((a) => model.actions[a].type === 'global').map((a) => kinds[a]);
    expect(new Set(global)).toEqual(
      new Set(['initializer crash', 'restart', 'configuration change', 'clock', 'configuration read fault']),
    );
  });

  it('by lanes, every global action is dependent on every namespace action, so no ample set may leave one out', () => {
    const local = indices.filter((a) => model.actions[a].type === 'local');
    const global = indices.filter((a) => model.actions[a].type === 'global');
    for (const g of global) for (const a of local) expect(dependent(footprints[g], footprints[a])).toBe(true);
  });

  it('by lanes, actions of two namespaces are dependent only through what they read: each writes its own slot alone', () => {
    const local = indices.filter((a) => model.actions[a].type === 'local');
    const slot = (a: number) =>
      model.actions[a].type === 'local' ? (model.actions[a] as { i: number }).i : -1;
    for (const a of local) expect([...footprints[a].writes]).toEqual([3 + slot(a)]);
    const [a, b] = [local[0], local.find((x) => slot(x) !== slot(local[0])) ?? -1];
    expect(dependent(footprints[a], footprints[b])).toBe(true);
    expect(
      dependent(
        { reads: new Set([3 + slot(a)]), writes: footprints[a].writes },
        {
          reads: new Set([3 + slot(b)]),
          writes: footprints[b].writes,
        },
      ),
    ).toBe(false);
  });

  it('by trial on every state of quick, the clock and the apiserver restart do not commute with namespace steps', () => {
    const search = exploreCompiled(compiledFor(model));
    const states = Array.from({ length: search.states }, (_, index) => search.stateAt(index));
    // Only the pairs judged below are tried (the census of every pair: commutationCensus without kinds).
    const kinds = new Set(['clock', 'restart', 'configuration change', 'configuration read fault']);
    const census = Object.fromEntries(commutationCensus(model, states, kinds).map((c) => [c.pair, c]));
    expect(Object.keys(census).sort()).toEqual([...kinds].map((kind) => `namespace × ${kind}`).sort());
    // Time passes for every namespace at once, and a restart loses every running timer: a reduction
    // that took either for independent of a namespace's steps would lose states.
    expect(census['namespace × clock'].differ).toBeGreaterThan(0);
    expect(census['namespace × restart'].differ).toBeGreaterThan(0);
    // The configuration changes and read faults commute wherever they were tried, though their lanes
    // say they may not: the lanes over-approximate, and only they hold in states not tried.
    for (const kind of ['configuration change', 'configuration read fault']) {
      expect(census[`namespace × ${kind}`].differ, kind).toBe(0);
      expect(census[`namespace × ${kind}`].commute, kind).toBeGreaterThan(0);
    }
  });
});
