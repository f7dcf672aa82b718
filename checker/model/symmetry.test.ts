import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SystemState } from '../../machines/system.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { twoTenantsCrossed, twoTenantsFixture } from '../../test-support/two-tenants.ts';
import { baseVariantName, machinesFor, scopeFor } from '../../variants/variants.ts';
import { parseScope, scopeByName } from '../cli/scope-file.ts';
import { explore } from '../engine/explore.ts';
import { type CheckResult, check } from '../judging/check.ts';
import { growthScope } from '../judging/growth.ts';
import { compiledFor } from './compiled.ts';
import { exploreCompiled } from './compiled-explore.ts';
import { systemCodec } from './encoding.ts';
import { fairnessWarnings, StateSymmetry, scopeSymmetry, symmetryOf } from './symmetry.ts';
import { type CheckedSystemModel, systemModel } from './system-model.ts';

const fixture = twoTenantsFixture;
const text = readFileSync(fixture, 'utf8');
const scope = parseScope(text, fixture);

function run(variant: string, reduce: boolean): { model: CheckedSystemModel; result: CheckResult } {
  const variantScope = scopeFor(variant, scope);
  const machines = machinesFor(variant, variantScope);
  if (!machines) throw new Error(`no machines for ${variant}`);
  const model = systemModel(variantScope, machines);
  const symmetry = reduce ? new StateSymmetry(model, symmetryOf(model.scope)) : undefined;
  return { model, result: check(model, safetyProperties, symmetry ? { symmetry } : {}) };
}

const fail = (): never => {
  throw new Error('no machines for the base variant');
};

const verdicts = (result: CheckResult) =>
  Object.fromEntries(
    result.properties.map((p) => [p.property.id, [p.status, p.violation?.trace.steps.length ?? null]]),
  );

/** Every step of the trace is a step the model takes from the state before it: a concrete, replayable path. */
function expectConcrete(
  model: CheckedSystemModel,
  trace: { initial: SystemState; steps: { event: unknown; state: SystemState }[] },
) {
  expect(model.initialStates().map((s) => model.key(s))).toContain(model.key(trace.initial));
  let current = trace.initial;
  for (const step of trace.steps) {
    const next: string[] = [];
    model.successors(current, (event, after) => {
      if (event === step.event) next.push(model.key(after));
    });
    expect(next).toContain(model.key(step.state));
    current = step.state;
  }
}

describe('a scope that declares interchangeable tenants', () => {
  it('is accepted, and its group exchanges the two tenant namespaces together with their creators', () => {
    const symmetry = symmetryOf(scope);
    expect(symmetry.slotPermutations).toEqual([
      [0, 1, 2],
      [1, 0, 2],
    ]);
  });

  // Each tenant may also create the other's namespace: then a recorded creator must be renamed too.
  const crossed = twoTenantsCrossed();

  it.each([
    ['as declared', scope],
    ['with crossed creates', crossed],
  ])(
    'maps every state of an orbit to one representative, and the representative to itself (%s)',
    (_, scope) => {
      const model = systemModel(scope);
      const symmetry = new StateSymmetry(model, symmetryOf(scope));
      const seen: SystemState[] = [];
      let frontier = model.initialStates();
      for (let depth = 0; depth < 4; depth++) {
        const next: SystemState[] = [];
        for (const s of frontier) model.successors(s, (_, after) => next.push(after));
        seen.push(...next);
        frontier = next;
      }
      // The group's element: exchange the tenant slots, and rename the creators each namespace records.
      const users = new Map(symmetryOf(scope).users.flatMap(([a, b]) => [[a, b] as const, [b, a] as const]));
      const renamed = (ns: SystemState['namespaces'][number]) => {
        const snapshot = model.namespaceStepper.snapshot(ns.lifecycle);
        const to = snapshot.context.creator === null ? undefined : users.get(snapshot.context.creator);
        if (to === undefined) return ns;
        const context = { ...snapshot.context, creator: to };
        const lifecycle = model.namespaceStepper.intern(
          model.machines.namespace.resolveState({ value: snapshot.value, context }),
        );
        return model.namespaceState(lifecycle, ns.content, ns.external, ns.timer);
      };
      const swapped = (s: SystemState): SystemState => ({
        ...s,
        namespaces: [renamed(s.namespaces[1]), renamed(s.namespaces[0]), renamed(s.namespaces[2])],
      });
      let folded = 0;
      for (const s of seen) {
        const c = symmetry.canonical(s);
        expect(model.key(symmetry.canonical(c))).toBe(model.key(c));
        expect(model.key(symmetry.canonical(swapped(s)))).toBe(model.key(c));
        const size = symmetry.orbitSize(s);
        expect(size).toBe(model.key(s) === model.key(swapped(s)) ? 1 : 2);
        if (size === 2) folded++;
      }
      expect(folded).toBeGreaterThan(0);
      // Only with crossed creates does alice ever create dave's team-c.
      expect(seen.some((s) => model.view(s, 1).creator === 'alice')).toBe(scope === crossed);
    },
  );
});

describe('the search with and without symmetry reduction', () => {
  const plain = run(baseVariantName, false);
  const reduced = run(baseVariantName, true);

  it('keeps fewer states, and the orbits it keeps stand for exactly the states and steps of the full search', () => {
    expect(plain.result.complete && reduced.result.complete).toBe(true);
    expect(reduced.result.states).toBeLessThan(plain.result.states);
    expect(reduced.result.symmetry).toEqual({
      order: 2,
      represented: { states: plain.result.states, transitions: plain.result.transitions },
    });
    expect(reduced.result.depth).toBe(plain.result.depth);
  });

  it('keeps the same representatives, in the same order, on the compiled lanes as on decoded states', () => {
    const model = systemModel(scope, machinesFor(baseVariantName, scope) ?? fail());
    const symmetry = new StateSymmetry(model, symmetryOf(model.scope));
    const generic = explore(model, { codec: systemCodec(model), canonical: symmetry.canonical });
    const count = model.scope.namespaces.length;
    const compiled = exploreCompiled(compiledFor(model), {
      lanesSymmetry: {
        canonical: (lanes, out) => symmetry.canonicalLanes(lanes, out, 3, count),
        orbitSize: (lanes) => symmetry.orbitSizeOfLanes(lanes, 3, count),
      },
    });
    expect(compiled.states).toBe(generic.states);
    expect(compiled.transitions).toBe(generic.transitions);
    expect(compiled.depth).toBe(generic.depth);
    for (let i = 0; i < generic.states; i++)
      expect(model.key(compiled.stateAt(i))).toBe(model.key(generic.stateAt(i)));
    expect(compiled.represented).toEqual({
      states: plain.result.states,
      transitions: plain.result.transitions,
    });
  });

  it('gives every property the same verdict and covers the same machine transitions', () => {
    expect(verdicts(reduced.result)).toEqual(verdicts(plain.result));
    expect(reduced.result.coverage.covered).toEqual(plain.result.coverage.covered);
  });

  // Seeded faults this scope can show: each must still be killed, with a counterexample as short and concrete.
  it.each([
    'create-in-terminating',
    'finalize-before-content-gone',
    'initialize-check-skipped',
    'kubernetes-finalizer-not-added',
  ])(
    'still kills the seeded fault %s, with counterexamples of the same lengths that replay step by step',
    (variant) => {
      const without = run(variant, false);
      const withSymmetry = run(variant, true);
      const violated = withSymmetry.result.properties.filter((p) => p.status === 'violated');
      expect(violated.length).toBeGreaterThan(0);
      expect(verdicts(withSymmetry.result)).toEqual(verdicts(without.result));
      for (const p of violated) {
        const trace = p.violation?.trace;
        if (!trace) throw new Error('a violated property without a trace');
        expectConcrete(withSymmetry.model, trace);
        const end = trace.steps.at(-1)?.state ?? trace.initial;
        if (p.property.kind === 'invariant')
          expect(p.property.predicate(withSymmetry.model, end)).not.toBe(true);
      }
    },
  );
});

describe('symmetry sets that are not interchangeable', () => {
  const refused = (replace: [string, string]) => () =>
    parseScope(text.replace(replace[0], replace[1]), 'tenants.yaml');

  it('refuses namespaces whose creators are not exchanged with them, naming the line, the field and the fix', () => {
    expect(refused(['  users: [[alice, dave]]\n', ''])).toThrow(
      /^tenants\.yaml:\d+: symmetry\.namespaces\[0\]\[1\]: "team-c" is not interchangeable with "team-a": exchanging them changes .+; fix: .*declare their creators as a users set/,
    );
  });

  it('refuses tenants whose requests differ', () => {
    expect(
      refused([
        'namespaces: [team-c]\n    requests: [create-namespace, complete-first-initializer, create-content]',
        'namespaces: [team-c]\n    requests: [create-namespace, create-content]',
      ]),
    ).toThrow(
      /symmetry\.namespaces\[0\]\[1\]: "team-c" is not interchangeable with "team-a": exchanging them changes principals/,
    );
  });

  it('refuses a system namespace and a system identity', () => {
    expect(refused(['namespaces: [[team-a, team-c]]', 'namespaces: [[team-a, team-c, default]]'])).toThrow(
      /symmetry\.namespaces\[0\]\[2\]: "default" is a system namespace, never interchangeable; fix: drop it from the set/,
    );
    const withAccount = scopeSymmetry({
      ...scope,
      symmetry: { users: [['alice', 'system:serviceaccount:kube-system:namespace-controller']] },
    });
    expect(withAccount).toMatchObject({ issue: { path: ['symmetry', 'users', 0, 1] } });
  });

  it('refuses a valid and an invalid namespace name in one set: storage tells them apart', () => {
    const renamed = text.replaceAll('team-c', 'Team_C');
    expect(() => parseScope(renamed, 'tenants.yaml')).toThrow(/"Team_C" is an invalid namespace name/);
  });
});

describe('the built-in scopes', () => {
  it('large declares its two interchangeable tenants, and they are', () => {
    expect(symmetryOf(scopeByName('large')).slotPermutations).toHaveLength(2);
  });
});

describe('fairness that names a member of a symmetry set', () => {
  it('is warned about in one line per property', () => {
    const symmetry = symmetryOf(scope);
    const warnings = fairnessWarnings(symmetry, [
      { id: 'alice-progresses', fairness: [{ actor: 'alice' }, { actor: 'carol' }] },
      { id: 'anyone-progresses', fairness: [{}] },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/alice-progresses assumes fairness for alice, a member of a symmetry set/);
  });
});

describe('a group that only permutes namespaces (every permutation of one set): sorted, not searched', () => {
  it('picks the same representative and orbit size as trying every element, on every state of four tenants', () => {
    const model = systemModel(growthScope({ namespaces: 4, principals: 1, initializers: 1 }));
    const symmetry = new StateSymmetry(model, symmetryOf(model.scope));
    expect(symmetry.order).toBe(24);
    const full = exploreCompiled(compiledFor(model));
    expect(full.complete).toBe(true);
    const codec = systemCodec(model);
    const width = codec.width;
    const lanes = new Uint32Array(width);
    const out = new Uint32Array(width);
    const moved = new Uint32Array(width);
    // The oracle tries every element on decoded states (`canonical`), and counts an orbit's size as the
    // states of the full search with its representative (the group fixes the initial state: all reachable).
    const orbitSizes = new Map<string, number>();
    for (let index = 0; index < full.states; index++) {
      const least = model.key(symmetry.canonical(full.stateAt(index)));
      orbitSizes.set(least, (orbitSizes.get(least) ?? 0) + 1);
    }
    let differing: unknown;
    for (let index = 0; index < full.states && differing === undefined; index++) {
      const s = full.stateAt(index);
      codec.encode(s, lanes, 0);
      const g = symmetry.canonicalLanes(lanes, out, 3, 4);
      const least = model.key(symmetry.canonical(s));
      symmetry.applyLanes(g, lanes, moved, 3, 4);
      const seen = [
        model.key(codec.decode(out, 0)),
        symmetry.orbitSizeOfLanes(lanes, 3, 4),
        symmetry.orbitSize(s),
        [...moved],
      ];
      const expected = [least, orbitSizes.get(least), orbitSizes.get(least), [...out]];
      if (JSON.stringify(seen) !== JSON.stringify(expected)) differing = { index, seen, expected };
    }
    expect(differing).toBeUndefined();
  });
});
