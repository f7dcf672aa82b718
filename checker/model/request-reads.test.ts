import { describe, expect, it } from 'vitest';
import type { RequestCommand } from '../../machines/commands.ts';
import {
  type Enabled,
  LocalKind,
  type SystemEvent,
  SystemModel,
  type SystemState,
} from '../../machines/system.ts';
import { twoTenantsCrossed } from '../../test-support/two-tenants.ts';
import { machinesFor } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { compiledFor } from './compiled.ts';
import { exploreCompiled } from './compiled-explore.ts';
import { type CheckedSystemModel, systemModel } from './system-model.ts';

/**
 * What a request into one namespace reads, as the request memo and the compiled tables key its outcome
 * (checker/model/system-model.ts): of admission's configuration copy only its freshness and the
 * configurations and versions it read, never its age (`CopyReads`); of the RBAC objects only those of
 * its own namespace and the cluster's (`requestsReadOwnRoleBindings`, for the shipped authorization
 * machine). Judged against the specification's own `perform` (machines/system.ts, not the memo's),
 * run on every distinct (request, namespace state, copy, RBAC context) of the states searched: any two
 * runs with one key must give the same event and the same namespace after. A request across
 * namespaces (a list or watch) reads each namespace's listing, the copy as above, the cluster's
 * objects and the whole RBAC context; not the faults or the stored configurations. The other local
 * actions read the global context with the copy as `CopyReads` sees it.
 */

interface Disagreement {
  request: string;
  outcomes: [string, string];
}

/** What a request reads by the model's declaration: own RBAC objects (cluster's only) or the whole context. */
type RbacRead = 'own' | 'whole';

/** The first two runs of a request with one key whose outcomes differ, or undefined. */
function firstDisagreement(
  model: CheckedSystemModel,
  states: Iterable<SystemState>,
  rbacRead: RbacRead,
): Disagreement | undefined {
  // The specification's perform on the same model (its interned states and events), without the memo.
  const perform = SystemModel.prototype.perform;
  const events = new Map<SystemEvent, number>();
  const commands = model.actions.flatMap((a) =>
    a.type === 'local' && a.kind === LocalKind.Command ? [{ j: a.k, i: a.i }] : [],
  );
  // By the declared key: the outcome first seen.
  const byReads = new Map<string, string>();
  const performed = new Set<string>();
  for (const s of states) {
    const rbac = model.authorizer.roleBindingMask(s);
    const copy = model.copyReads.id(s);
    const context = rbacRead === 'own' ? `cluster ${s.clusterObjects ?? 0}` : `rbac ${rbac}`;
    for (const { j, i } of commands) {
      const exact = `${j}.${s.namespaces[i].id}.${rbac}.${s.configSync}`;
      if (performed.has(exact)) continue;
      performed.add(exact);
      const { event, next } = perform.call(model, s, model.principalCommand(j).command);
      // Events are interned: an equal event is the same object.
      if (!events.has(event)) events.set(event, events.size);
      const outcome = `${events.get(event)}→${next === s ? 'unchanged' : next.namespaces[i].id}`;
      const reads = `${j}.${s.namespaces[i].id}.${copy}.${context}`;
      const first = byReads.get(reads);
      if (first === undefined) byReads.set(reads, outcome);
      else if (first !== outcome) return { request: reads, outcomes: [first, outcome] };
    }
  }
  return undefined;
}

/** The same for requests across namespaces (lists, watches): keyed by the copy's id, the cluster's objects, the RBAC context and each namespace's listing. */
function firstListDisagreement(
  model: CheckedSystemModel,
  states: Iterable<SystemState>,
): Disagreement | undefined {
  const perform = SystemModel.prototype.perform;
  const events = new Map<SystemEvent, number>();
  const lists = model.actions.flatMap((a) => (a.type === 'wide' ? [a.j] : []));
  const byReads = new Map<string, string>();
  const performed = new Set<string>();
  for (const s of states) {
    const listings = s.namespaces.map((ns) => {
      const { exists, initialized, content } = model.listing(ns);
      return `${+exists}${+initialized}.${content}`;
    });
    const context = `${model.copyReads.id(s)}.${s.clusterObjects ?? 0}.${model.authorizer.roleBindingMask(s)}`;
    const global = `${s.configSync}.${s.faults}.${s.registeredConfigs}.${s.clusterObjects ?? 0}.${model.authorizer.roleBindingMask(s)}`;
    for (const j of lists) {
      const exact = `${j}.${global}.${s.namespaces.map((ns) => ns.id).join(',')}`;
      if (performed.has(exact)) continue;
      performed.add(exact);
      const { event, next } = perform.call(model, s, model.principalCommand(j).command);
      if (!events.has(event)) events.set(event, events.size);
      const outcome = `${events.get(event)}→${next === s ? 'unchanged' : model.key(next)}`;
      const reads = `${j}.${context}.${listings.join(',')}`;
      const first = byReads.get(reads);
      if (first === undefined) byReads.set(reads, outcome);
      else if (first !== outcome) return { request: reads, outcomes: [first, outcome] };
    }
  }
  return undefined;
}

/**
 * The same for the other local actions (initializers, the namespace controller, finalizer owners, the
 * API server's timers), whose compiled entries are keyed by the global context with the copy as
 * `CopyReads` sees it: run as the specification writes them, their requests performed without the memo.
 */
function firstLocalDisagreement(
  model: CheckedSystemModel,
  states: Iterable<SystemState>,
): Disagreement | undefined {
  const perform = SystemModel.prototype.perform;
  const spec: CheckedSystemModel = Object.create(model, {
    perform: { value: (s: SystemState, command: RequestCommand) => perform.call(model, s, command) },
  });
  const events = new Map<SystemEvent, number>();
  const locals = model.actions.flatMap((a, at) =>
    a.type === 'local' && a.kind !== LocalKind.Command ? [at] : [],
  );
  const byReads = new Map<string, string>();
  const performed = new Set<string>();
  for (const s of states) {
    const rest = `${s.faults}.${s.registeredConfigs}.${s.clusterObjects ?? 0}.${model.authorizer.roleBindingMask(s)}`;
    for (const at of locals) {
      const a = model.actions[at];
      if (a.type !== 'local') continue;
      const controller = a.controller < 0 ? '' : s.initializers[a.controller];
      const exact = `${at}.${s.namespaces[a.i].id}.${s.configSync}.${rest}.${controller}`;
      if (performed.has(exact)) continue;
      performed.add(exact);
      const out: Enabled[] = [];
      a.step(spec, s, a.k, a.i, out);
      const outcome = out
        .map(({ event, next }) => {
          if (!events.has(event)) events.set(event, events.size);
          // Slot i's state after, and whether every lane outside it kept its value (else the step is run each time).
          const others =
            next.namespaces.every((ns, j) => j === a.i || ns === s.namespaces[j]) &&
            next.initializers.every((c, k) => c === s.initializers[k]) &&
            next.configSync === s.configSync &&
            next.faults === s.faults &&
            next.registeredConfigs === s.registeredConfigs &&
            next.clusterObjects === s.clusterObjects;
          const after = next === s ? 'unchanged' : `${next.namespaces[a.i].id}|${others}`;
          return `${events.get(event)}→${after}`;
        })
        .join(' ');
      const reads = `${at}.${s.namespaces[a.i].id}.${model.copyReads.id(s)}.${rest}.${controller}`;
      const first = byReads.get(reads);
      if (first === undefined) byReads.set(reads, outcome);
      else if (first !== outcome) return { request: reads, outcomes: [first, outcome] };
    }
  }
  return undefined;
}

function searched(model: CheckedSystemModel, maxStates?: number): SystemState[] {
  const result = exploreCompiled(compiledFor(model), maxStates === undefined ? {} : { maxStates });
  return Array.from({ length: result.states }, (_, index) => result.stateAt(index));
}

describe('what a request reads (CopyReads, requestsReadOwnRoleBindings, lists)', () => {
  it('every request agrees on each key, on every state of quick; some keys stand for several copies and RBAC contexts', () => {
    const model = systemModel(scopeByName('quick'));
    expect(model.ownRoleBindings).toBe(true);
    const states = searched(model);
    expect(firstDisagreement(model, states, 'own')).toBeUndefined();
    expect(firstListDisagreement(model, states)).toBeUndefined();
    expect(firstLocalDisagreement(model, states)).toBeUndefined();
    const copies = new Set(states.map((s) => s.configSync));
    expect(new Set(states.map((s) => model.copyReads.id(s))).size).toBeLessThan(copies.size);
    expect(new Set(states.map((s) => model.authorizer.roleBindingMask(s))).size).toBeGreaterThan(1);
  }, 120_000);

  it('holds on the first 30,000 states of default, where fresh and stale copies of two configuration sets occur', () => {
    const model = systemModel(scopeByName('default'));
    const states = searched(model, 30_000);
    expect(firstDisagreement(model, states, 'own')).toBeUndefined();
    expect(firstListDisagreement(model, states)).toBeUndefined();
    expect(firstLocalDisagreement(model, states)).toBeUndefined();
    // Each copy id is of one freshness, and both occur; and some ids stand for several copies.
    const freshness = new Map<number, Set<boolean>>();
    for (const s of states) {
      const id = model.copyReads.id(s);
      freshness.set(id, (freshness.get(id) ?? new Set<boolean>()).add(model.configurationFresh(s)));
    }
    expect([...freshness.values()].map((seen) => seen.size)).toEqual([...freshness.keys()].map(() => 1));
    expect(new Set([...freshness.values()].flatMap((seen) => [...seen]))).toEqual(new Set([true, false]));
    expect(freshness.size).toBeLessThan(new Set(states.map((s) => s.configSync)).size);
  }, 240_000);

  it('holds where RoleBindings name $creator, so who created a namespace is part of its RBAC objects', () => {
    const model = systemModel(twoTenantsCrossed());
    expect(firstDisagreement(model, searched(model, 20_000), 'own')).toBeUndefined();
  }, 120_000);

  it("is not claimed for a seeded fault whose RoleBindings grant in every namespace: there another namespace's bindings change the outcome", () => {
    const scope = scopeByName('quick');
    const model = systemModel(scope, machinesFor('rolebinding-grants-cluster-wide', scope));
    expect(model.ownRoleBindings).toBe(false);
    const states = searched(model);
    expect(firstDisagreement(model, states, 'own')).toBeDefined();
    expect(firstDisagreement(model, states, 'whole')).toBeUndefined();
  }, 120_000);
});
