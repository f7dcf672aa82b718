import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { faultScope, scopeByName } from '../checker/cli/scope-file.ts';
import { check, type PropertyResult, type Trace } from '../checker/judging/check.ts';
import { systemModel } from '../checker/model/system-model.ts';
import {
  type MutantResult,
  mutantProperties,
  type ShortestKill,
  shortestKill,
} from '../checker/report/mutants.ts';
import { counterexampleItf } from '../checker/scenario/counterexample-itf.ts';
import { parseItf } from '../checker/scenario/itf.ts';
import { replayFile } from '../checker/scenario/replay.ts';
import { replayTrace } from '../checker/scenario/trace-replay.ts';
import { traceToScenario } from '../checker/scenario/trace-scenario.ts';
import type { Scope } from '../machines/scope.ts';
import { defaultMachines, type SystemModel, type SystemState } from '../machines/system.ts';
import { livenessProperties } from '../properties/liveness.ts';
import type { Property } from '../properties/types.ts';
import { baseVariantName, machinesFor, mutants, variantByName, variants } from './variants.ts';

const quickScope = scopeByName('quick');

/** The property each seeded fault exists for: its shortest counterexample must break it. */
const killerOf: Record<string, string> = {
  'namespace-controller-purges-live-namespaces': 'content-changes-only-by-requests',
  'create-in-terminating': 'no-create-in-terminating',
  'initialize-check-skipped': 'no-access-before-ready',
  'initializers-set-at-create-by-anyone': 'pending-merged-in-name-order',
  'pending-list-editable-by-anyone': 'pending-only-by-initializers',
  'initializer-out-of-order': 'initializers-in-order',
  'removal-with-finalizers-left': 'no-removal-with-finalizers',
  'removal-with-metadata-finalizers-left': 'no-removal-with-finalizers',
  'finalize-before-content-gone': 'content-gone-before-finalize',
  'pending-grows-after-active': 'initialized-is-forever',
  'failure-result-ignored': 'failed-never-active',
  // The copy stays fresh at 5 s: the read's own check sees it a step before a write is admitted.
  'stale-configuration-used': 'configuration-copy-refreshed',
  'rolebinding-grants-cluster-wide': 'tenant-isolation',
  'rolebinding-opens-cross-namespace-list': 'tenant-isolation',
  'kubernetes-finalizer-not-added': 'kubernetes-finalizer-on-create',
  'creator-not-recorded': 'tenant-isolation',
  'owner-removes-foreign-finalizer': 'owners-remove-only-their-own',
  'immortal-namespace-deletable': 'system-namespaces-immortal',
  'finalize-names-not-validated': 'valid-names',
  'deletion-timestamp-reset': 'phase-consistency',
  'delete-clears-finalizers': 'finalizers-only-by-finalize',
  'timer-never-armed': 'timer-runs-for-first-pending',
  'timer-ignores-timeout': 'timeout-follows-failure-policy',
  'fail-closed-timeout-removes': 'timeout-follows-failure-policy',
  'fail-behaves-like-ignore': 'timeout-follows-failure-policy',
  'read-repair-disabled': 'read-repair-after-global-timeout',
  'read-repair-ignores-global-timeout': 'read-repair-after-global-timeout',
  'configuration-copy-never-updated': 'configuration-copy-refreshed',
  'initializer-re-adds-itself': 'phase-consistency',
  'initialize-check-skipped-for-reads': 'no-access-before-ready',
  // The view role's empty list of team-a, a step before its get of the quota, is refused by IN-6 too.
  'view-role-gains-initialize': 'watch-before-ready',
  'namespace-creator-gains-delete': 'tenant-isolation',
  'namespace-creator-updates-default': 'cluster-wide-as-declared',
  'duplicate-content-accepted': 'unique-names',
  'names-not-validated': 'valid-names',
  'gate-opens-once-terminating': 'never-initialized-stays-closed',
  'configurations-merged-in-list-order': 'pending-merged-in-name-order',
  'escalation-check-skipped': 'no-escalation-through-bindings',
  'cluster-escalation-check-skipped': 'no-escalation-through-bindings',
  'deletecollection-deletes-nothing': 'deletecollection-while-terminating',
  'watch-opens-before-ready': 'watch-before-ready',
  'failure-result-after-initialized': 'initialized-is-forever',
  'initializers-create-in-terminating': 'no-create-in-terminating',
  'merge-keeps-last-listed': 'pending-merged-in-name-order',
  'initializer-completes-without-its-work': 'pending-only-by-initializers',
  'cluster-object-delete-kept': 'content-changes-only-by-requests',
  'body-namespace-ignored': 'content-changes-only-by-requests',
  'status-phase-not-validated': 'phase-consistency',
};

/** Faults that closed a gap: no property but their own catches them, over the whole quick scope. */
const onlyKilledBy: Record<string, string> = {
  'gate-opens-once-terminating': 'never-initialized-stays-closed',
  'configurations-merged-in-list-order': 'pending-merged-in-name-order',
  'deletecollection-deletes-nothing': 'deletecollection-while-terminating',
  'cluster-escalation-check-skipped': 'no-escalation-through-bindings',
  'watch-opens-before-ready': 'watch-before-ready',
  'failure-result-after-initialized': 'initialized-is-forever',
  'initializer-completes-without-its-work': 'pending-only-by-initializers',
  'cluster-object-delete-kept': 'content-changes-only-by-requests',
  'body-namespace-ignored': 'content-changes-only-by-requests',
  'status-phase-not-validated': 'phase-consistency',
  'creator-not-recorded': 'tenant-isolation',
};

/** Faults no single step shows: killed by a liveness property with a lasso (checker/judging/liveness-mutants.test.ts). */
const livenessKillerOf: Record<string, string> = {
  'initializer-never-completes': 'running-initializer-completes',
  'namespace-controller-stalls': 'terminating-namespace-is-removed',
  'controller-never-finalizes': 'terminating-namespace-is-removed',
  'owner-keeps-its-finalizer': 'terminating-namespace-is-removed',
  'owner-reprovisions-while-terminating': 'terminating-namespace-is-removed',
};

const requirementIds = new Set(
  [
    ...readFileSync(new URL('../docs/requirements.md', import.meta.url), 'utf8').matchAll(
      /\*\*([A-Z]+-\d+)\*\*/g,
    ),
  ].map((m) => m[1]),
);

/** Whether a property breaks on the last step of a trace (or on its state). */
function breaksAtEnd(model: SystemModel, property: Property, trace: Trace): boolean {
  const last = trace.steps.at(-1);
  if (!last) return property.kind === 'invariant' && property.predicate(model, trace.initial) !== true;
  const before = trace.steps.at(-2)?.state ?? trace.initial;
  return property.kind === 'invariant'
    ? property.predicate(model, last.state) !== true
    : property.predicate(model, before, last.event, last.state) !== true;
}

/** Replays the same requests by who sent them and what they asked, on other machines; null where one is not enabled. */
function replayByLabel(model: SystemModel, trace: Trace): Trace | null {
  let state: SystemState = model.initialStates()[0];
  const replayed: Trace = { initial: state, steps: [] };
  for (const { event } of trace.steps) {
    const same = model
      .enabled(state)
      .find((e) => e.event.actor === event.actor && e.event.label === event.label);
    if (!same) return null;
    replayed.steps.push({ event: same.event, state: same.next });
    state = same.next;
  }
  return replayed;
}

describe('the variant registry', () => {
  it('names every variant once, in kebab-case, with a description and catalogued requirements', () => {
    expect(new Set(variants.map((v) => v.name)).size).toBe(variants.length);
    for (const v of variants) {
      expect(v.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(v.name).not.toBe(baseVariantName);
      expect(v.description.length).toBeGreaterThan(20);
      expect(v.requirements.length).toBeGreaterThan(0);
      for (const id of v.requirements) expect(requirementIds, `${v.name} cites ${id}`).toContain(id);
    }
  });

  it('lists a killing property for every mutant, and every listed mutant exists', () => {
    expect(mutants.map((m) => m.name).sort()).toEqual(
      [...Object.keys(killerOf), ...Object.keys(livenessKillerOf)].sort(),
    );
    const ids = new Set(mutantProperties.map((p) => p.id));
    for (const id of Object.values(killerOf)) expect(ids).toContain(id);
    const liveness = new Set(livenessProperties.map((p) => p.id));
    for (const id of Object.values(livenessKillerOf)) expect(liveness).toContain(id);
  });

  it('names as killed by a safety property exactly the faults npm run mutants finds so (their scenarios round-trip below)', () => {
    const written = JSON.parse(readFileSync(new URL('../generated/mutants.json', import.meta.url), 'utf8')) as
      | { mutants: MutantResult[] }
      | MutantResult[];
    // mutants.json is `{ $schema, mutants }`; a file written before it carried its schema is the bare list.
    const table = Array.isArray(written) ? written : written.mutants;
    expect(
      table
        .filter((r) => r.search === 'exhaustive')
        .map((r) => r.mutant)
        .sort(),
    ).toEqual(Object.keys(killerOf).sort());
  });

  it('resolves the model and each variant by name, and nothing else', () => {
    expect(machinesFor(baseVariantName, quickScope)).toBe(defaultMachines);
    expect(machinesFor('no-such-variant', quickScope)).toBeUndefined();
    for (const v of variants) {
      expect(variantByName(v.name)).toBe(v);
      expect(machinesFor(v.name, quickScope)).toBeDefined();
    }
  });

  it('gives names-not-validated a scope of its own: quick with one namespace name that is no DNS label, not three', () => {
    const own = variantByName('names-not-validated')?.sweepScope;
    expect(own).toBeDefined();
    const scope = faultScope(own as string);
    // A DNS label (RFC 1123): lower-case letters, digits and '-', alphanumeric at both ends, 63 at most.
    const label = (name: string) => name.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name);
    const invalid = (names: string[]) => names.filter((n) => !label(n));
    expect(invalid(quickScope.namespaces.map((n) => n.name))).toHaveLength(3);
    expect(invalid(scope.namespaces.map((n) => n.name))).toEqual(['Team_C']);
    // Everything else is quick's: the same valid namespaces, in the same order.
    expect(scope.namespaces.filter((n) => label(n.name))).toEqual(
      quickScope.namespaces.filter((n) => label(n.name)),
    );
    // Only that fault has one; every other is searched on the scope it is given.
    expect(variants.filter((v) => v.sweepScope !== undefined).map((v) => v.name)).toEqual([
      'names-not-validated',
    ]);
  });

  it('replaces machines without touching the base set', () => {
    const before = { ...defaultMachines };
    for (const v of variants) v.machines(defaultMachines, quickScope);
    expect(defaultMachines).toEqual(before);
  });
});

/**
 * A whole search of quick per fault (about 45 s of CPU for ten faults), so in the nightly run
 * (NSMODEL_SLOW_SCOPES=1); every run still checks each of these faults is killed by its property below.
 */
const wholeSearches = process.env.NSMODEL_SLOW_SCOPES === '1';

describe.skipIf(!wholeSearches).each(Object.entries(onlyKilledBy))(
  '%s (NSMODEL_SLOW_SCOPES=1)',
  (name, propertyId) => {
    it(`breaks ${propertyId} and no other safety property`, () => {
      const variant = variantByName(name);
      if (!variant) throw new Error(`no mutant ${name}`);
      // A data fault (a cluster RBAC attempt or a watch added) applies to the scope it runs on.
      const scope = variant.scope ? variant.scope(quickScope) : quickScope;
      const model = systemModel(scope, variant.machines(defaultMachines, scope));
      const result = check(model, mutantProperties);
      expect(result.complete).toBe(true);
      expect(result.properties.filter((p) => p.status === 'violated').map((p) => p.property.id)).toEqual([
        propertyId,
      ]);
    }, 120_000);
  },
);

describe('every mutant is killed on the default scope by a shortest counterexample', () => {
  // One search per mutant and scope, shared by its tests; no horizon past the first kill keeps it short.
  interface Search {
    model: SystemModel;
    base: SystemModel;
    kill: ShortestKill | null;
    violated: PropertyResult[];
  }
  const searches = new Map<string, Search>();
  // The model as written, one per scope the faults are given (the model is pure): every replay reads it.
  const bases = new Map<Scope, SystemModel>();
  const baseOn = (given: Scope) => {
    let base = bases.get(given);
    if (!base) {
      base = systemModel(given);
      bases.set(given, base);
    }
    return base;
  };
  const searchOn = (name: string, given: Scope): Search => {
    const key = `${name} on ${given.name}`;
    let found = searches.get(key);
    if (!found) {
      const variant = variantByName(name);
      if (!variant) throw new Error(`no mutant ${name}`);
      const scope = variant.scope ? variant.scope(given) : given;
      const model = systemModel(scope, variant.machines(defaultMachines, scope));
      const { kill, violated } = shortestKill(model, mutantProperties, { horizonSteps: 0 });
      found = { model, base: baseOn(given), kill, violated };
      searches.set(key, found);
    }
    return found;
  };
  // A fault with a scope of its own is killed there, as the sweeps search it.
  const sweepScopes = new Map<string, Scope>();
  const killOf = (name: string) => {
    const own = variantByName(name)?.sweepScope;
    if (!own) return searchOn(name, quickScope);
    let scope = sweepScopes.get(own);
    if (!scope) {
      scope = faultScope(own);
      sweepScopes.set(own, scope);
    }
    return searchOn(name, scope);
  };

  describe.each(Object.entries(killerOf))('%s', (name, propertyId) => {
    const property = mutantProperties.find((p) => p.id === propertyId) as Property;

    it(`is killed by ${propertyId}`, () => {
      const { kill } = killOf(name);
      expect(kill).not.toBeNull();
      expect(kill?.violations.map((v) => v.propertyId)).toContain(propertyId);
      expect(kill?.brokenWithin[propertyId]).toBe(kill?.trace.steps.length);
    });

    it('has a counterexample whose every step the mutant can take, ending where the property breaks', () => {
      const { model, kill } = killOf(name);
      if (!kill) throw new Error(`${name} survived`);
      let state = kill.trace.initial;
      expect(model.key(state)).toBe(model.key(model.initialStates()[0]));
      for (const step of kill.trace.steps) {
        const taken = model.enabled(state).find((e) => e.event === step.event);
        expect(taken, `${step.event.actor}: ${step.event.label}`).toBeDefined();
        expect(model.key(taken?.next as SystemState)).toBe(model.key(step.state));
        state = step.state;
      }
      expect(breaksAtEnd(model, property, kill.trace)).toBe(true);
    });

    it('breaks nothing when the model as written receives the same requests', () => {
      const { kill, base } = killOf(name);
      if (!kill) throw new Error(`${name} survived`);
      const replayed = replayByLabel(base, kill.trace);
      // Either the model never offers one of the steps, or it takes them all and the property holds.
      if (replayed) expect(breaksAtEnd(base, property, replayed)).toBe(false);
    });

    // `replay --trace FILE --to-scenario OUT` on each counterexample `verify --variant NAME --scope quick`
    // writes (the search above, on quick for every fault): the scenario is a regression test of its trace.
    it('has counterexamples that, written as scenarios, pass on the model and fail on the mutant', () => {
      const { model, violated } = searchOn(name, quickScope);
      expect(violated.length).toBeGreaterThan(0);
      for (const p of violated) {
        const file = `${p.property.id}.itf.json`;
        const itf = counterexampleItf(model, p, name, undefined, quickScope);
        const trace = replayTrace(parseItf(itf, file), file);
        if (!trace.replayed) throw new Error(`${file} does not replay on ${name}: ${trace.problem}`);
        expect(trace.violatedAt).toBe(trace.steps.length);
        const text = traceToScenario(trace, file);
        const onModel = replayFile(`${p.property.id}.yaml`, text, 'model');
        expect(onModel.status, JSON.stringify(onModel.steps.filter((s) => !s.ok))).toBe('passed');
        const onFault = replayFile(`${p.property.id}.yaml`, text);
        expect(onFault.variant).toBe(name);
        expect(onFault.status, p.property.id).toBe('failed');
      }
    });
  });
});
