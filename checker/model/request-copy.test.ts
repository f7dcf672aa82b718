import { describe, expect, it } from 'vitest';
import { LocalKind, type SystemEvent, SystemModel, type SystemState } from '../../machines/system.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { compiledFor } from './compiled.ts';
import { exploreCompiled } from './compiled-explore.ts';
import { type CheckedSystemModel, systemModel } from './system-model.ts';

/**
 * `CopyReads` (checker/model/system-model.ts) claims that a request into one namespace reads of
 * admission's configuration copy only its freshness and the configurations and versions it read, never
 * its age: both the request memo and the compiled tables key a request's outcome by that id, so a
 * request is computed once for copies that differ only in their age. Judged here against the
 * specification's own `perform` (machines/system.ts, not the memo's), run on every distinct (request,
 * namespace state, copy, RoleBindings) of the states searched: any two copies with one id must give the
 * same event and the same namespace after.
 */

interface Disagreement {
  request: string;
  copies: [number, number];
  outcomes: [string, string];
}

/** The first two copies with one `CopyReads` id on which a request's outcome differs, or undefined. */
function firstDisagreement(
  model: CheckedSystemModel,
  states: Iterable<SystemState>,
): Disagreement | undefined {
  // The specification's perform on the same model (its interned states and events), without the memo.
  const perform = SystemModel.prototype.perform;
  const events = new Map<SystemEvent, number>();
  const commands = model.actions.flatMap((a) =>
    a.type === 'local' && a.kind === LocalKind.Command ? [{ j: a.k, i: a.i }] : [],
  );
  // By (command, namespace state, RoleBindings, copy's id): the copy first seen and its outcome.
  const byReads = new Map<string, { copy: number; outcome: string }>();
  const performed = new Set<string>();
  for (const s of states) {
    const rbac = model.authorizer.roleBindingMask(s);
    const copy = model.copyReads.id(s);
    for (const { j, i } of commands) {
      const exact = `${j}.${s.namespaces[i].id}.${rbac}.${s.configSync}`;
      if (performed.has(exact)) continue;
      performed.add(exact);
      const { event, next } = perform.call(model, s, model.principalCommand(j).command);
      // Events are interned: an equal event is the same object.
      if (!events.has(event)) events.set(event, events.size);
      const outcome = `${events.get(event)}→${next === s ? 'unchanged' : next.namespaces[i].id}`;
      const reads = `${j}.${s.namespaces[i].id}.${rbac}.${copy}`;
      const first = byReads.get(reads);
      if (first === undefined) byReads.set(reads, { copy: s.configSync, outcome });
      else if (first.outcome !== outcome)
        return { request: reads, copies: [first.copy, s.configSync], outcomes: [first.outcome, outcome] };
    }
  }
  return undefined;
}

function searched(model: CheckedSystemModel, maxStates?: number): SystemState[] {
  const result = exploreCompiled(compiledFor(model), maxStates === undefined ? {} : { maxStates });
  return Array.from({ length: result.states }, (_, index) => result.stateAt(index));
}

describe("what a request reads of admission's configuration copy (CopyReads)", () => {
  it('groups copies that differ in age only, and every request agrees on each group, on every state of quick', () => {
    const model = systemModel(scopeByName('quick'));
    const states = searched(model);
    expect(firstDisagreement(model, states)).toBeUndefined();
    // The claim is not empty: some copies of the search share an id (they differ in age only).
    const copies = new Set(states.map((s) => s.configSync));
    const ids = new Set(states.map((s) => model.copyReads.id(s)));
    expect(ids.size).toBeLessThan(copies.size);
  }, 120_000);

  it('holds on the first 60,000 states of default, where fresh and stale copies of two configuration sets occur', () => {
    const model = systemModel(scopeByName('default'));
    const states = searched(model, 60_000);
    expect(firstDisagreement(model, states)).toBeUndefined();
    // Each id is of one freshness, and both occur; and some ids stand for several copies.
    const freshness = new Map<number, Set<boolean>>();
    for (const s of states) {
      const id = model.copyReads.id(s);
      freshness.set(id, (freshness.get(id) ?? new Set<boolean>()).add(model.configurationFresh(s)));
    }
    expect([...freshness.values()].map((seen) => seen.size)).toEqual([...freshness.keys()].map(() => 1));
    expect(new Set([...freshness.values()].flatMap((seen) => [...seen]))).toEqual(new Set([true, false]));
    expect(freshness.size).toBeLessThan(new Set(states.map((s) => s.configSync)).size);
  }, 240_000);
});
