import { beforeAll, describe, expect, it } from 'vitest';
import type { Enabled, SystemModel, SystemState } from '../../machines/system.ts';
import { invariant, onState } from '../../properties/declare.ts';
import { safetyProperties } from '../../properties/safety.ts';
import type { Property } from '../../properties/types.ts';
import { baseVariantName, machinesFor } from '../../variants/variants.ts';
import { parseScope, scopeByName, scopeNames } from '../cli/scope-file.ts';
import { StateSymmetry, symmetryOf } from '../model/symmetry.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import { buildReport, reportSchema } from '../report/report.ts';
import { type CheckResult, check, systemTransitions } from './check.ts';
import { machineCapacity } from './estimate.ts';
import { expectationsFor } from './expectations.ts';
import { goldenDifferences, loadManifest, manifestVerdicts } from './manifest.ts';

/**
 * Explores every scope whose file marks it explored (`golden:`) and compares its figures and verdicts
 * with them. A change to a machine, the system model or a scope that moves them must update the scope
 * file's `golden:` on purpose, in the same commit, saying why they moved.
 */
const manifest = loadManifest();
// A scope pinned by verify is compared by CI's `npm run verify` on every change (figures, verdicts, undeclared
// vacuity and coverage), too long for the suite's budget; the nightly run (NSMODEL_SLOW_SCOPES=1) judges it
// here in full as well (witnesses, every declaration used, the report's schema).
const explored = manifest.scopes.filter(
  (scope) => scope.explored && (scope.pinnedBy !== 'verify' || process.env.NSMODEL_SLOW_SCOPES === '1'),
);

function modelOf(scopeName: string): CheckedSystemModel {
  // The scope files every command reads (scopes/NAME.yaml), so their figures are the ones pinned here.
  const scope = scopeByName(scopeName);
  const machines = machinesFor(baseVariantName, scope);
  if (!machines) throw new Error(`no machines for ${baseVariantName}`);
  return systemModel(scope, machines);
}

describe('the manifest', () => {
  it('lists every named scope once, and nothing else', () => {
    expect(manifest.scopes.map((scope) => scope.name).sort()).toEqual(scopeNames());
  });

  it('lists every safety property for each explored scope', () => {
    for (const scope of manifest.scopes) {
      if (!scope.explored) continue;
      expect(Object.keys(scope.properties), scope.name).toEqual(safetyProperties.map((p) => p.id));
    }
  });

  it('pins the default scope, which CI searches, through verify, and its quick cut through the suite', () => {
    const pinnedBy = (name: string) => {
      const scope = manifest.scopes.find((s) => s.name === name);
      return scope?.explored ? (scope.pinnedBy ?? 'suite') : undefined;
    };
    expect([pinnedBy('default'), pinnedBy('quick')]).toEqual(['verify', 'suite']);
  });

  it('names each way a search moved from its pinned figures, and nothing when it did not', () => {
    const pinned = manifest.scopes.find((s) => s.name === 'quick');
    if (!pinned?.explored) throw new Error('quick is pinned');
    const same = { ...pinned, properties: { ...pinned.properties } };
    expect(goldenDifferences(pinned, same)).toEqual([]);
    const moved = {
      ...same,
      states: same.states + 1,
      properties: {
        ...same.properties,
        'no-orphans': { verdict: 'violated' as const, counterexampleSteps: 4 },
      },
    };
    expect(goldenDifferences(pinned, moved)).toEqual([
      `states: ${new Intl.NumberFormat('en-US').format(pinned.states + 1)}, pinned ${new Intl.NumberFormat('en-US').format(pinned.states)}`,
      'no-orphans: violated in 4 steps, pinned holds',
    ]);
  });

  it("compares a slow scope's measured figures, and no verdicts, which it does not pin", () => {
    const slowScope = manifest.scopes.find((s) => s.name === 'creators-delete');
    if (slowScope?.explored !== false || slowScope.measured === undefined)
      throw new Error('creators-delete pins measured figures');
    const { states, transitions, depth } = slowScope.measured;
    const verdicts = { 'no-orphans': { verdict: 'violated' as const, counterexampleSteps: 4 } };
    expect(goldenDifferences(slowScope, { states, transitions, depth, properties: verdicts })).toEqual([]);
    expect(
      goldenDifferences(slowScope, { states, transitions, depth: depth + 1, properties: verdicts }),
    ).toEqual([`depth: ${depth + 1}, pinned ${depth}`]);
  });

  it('compares a reduced search with the figures pinned under symmetry, and what its orbits stand for', () => {
    const slowScope = manifest.scopes.find((s) => s.name === 'large');
    if (slowScope?.explored !== false || slowScope.measured?.symmetry === undefined)
      throw new Error('large pins measured figures under symmetry');
    const { states, transitions, depth, represented } = slowScope.measured.symmetry;
    const found = { states, transitions, depth, properties: {}, represented };
    expect(goldenDifferences(slowScope, found)).toEqual([]);
    expect(
      goldenDifferences(slowScope, {
        ...found,
        states: states + 1,
        represented: { ...represented, transitions: represented.transitions - 1 },
      }),
    ).toEqual([
      `orbits' states: ${(states + 1).toLocaleString('en-US')}, pinned ${states.toLocaleString('en-US')}`,
      `represented transitions: ${(represented.transitions - 1).toLocaleString('en-US')}, pinned ${represented.transitions.toLocaleString('en-US')}`,
    ]);
    // A scope with no figures under symmetry pins nothing a reduced search could be compared with.
    const creators = manifest.scopes.find((s) => s.name === 'creators-delete');
    if (!creators) throw new Error('creators-delete is a built-in scope');
    expect(goldenDifferences(creators, { ...found, states: 1 })).toEqual([]);
  });

  it('says why a scope is not explored', () => {
    for (const scope of manifest.scopes) if (!scope.explored) expect(scope.reason.length).toBeGreaterThan(20);
  });

  it('refuses malformed golden figures in one line naming the file, the line and the field', () => {
    const text = [
      'extends: quick',
      'name: bad-golden',
      'description: quick, pinned wrongly.',
      'golden:',
      '  explored: maybe',
    ];
    expect(() => parseScope(text.join('\n'), 'bad-golden.yaml')).toThrow(
      /^bad-golden\.yaml:5: golden\.explored: /,
    );
  });
});

/** One search per explored scope, shared by every test that judges it (here and the witnesses' below). */
const searches = new Map<string, { model: CheckedSystemModel; result: CheckResult }>();
function searchOf(name: string): { model: CheckedSystemModel; result: CheckResult } {
  let searched = searches.get(name);
  if (!searched) {
    const model = modelOf(name);
    searched = { model, result: check(model, safetyProperties) };
    searches.set(name, searched);
  }
  return searched;
}

describe.each(explored.map((scope) => [scope.name, scope] as const))(
  'scope %s, explored once',
  (name, scope) => {
    if (!scope.explored) throw new Error('unreachable: filtered to explored scopes');
    let model: CheckedSystemModel;
    let result: CheckResult;
    // One full search per scope; admin-finalize takes over a minute on a loaded two-core machine.
    beforeAll(() => {
      ({ model, result } = searchOf(name));
    }, 900_000);

    it('is searched completely, with the pinned distinct states, transitions and depth', () => {
      expect(result.complete).toBe(true);
      expect({ states: result.states, transitions: result.transitions, depth: result.depth }).toEqual({
        states: scope.states,
        transitions: scope.transitions,
        depth: scope.depth,
      });
    });

    it('gives every safety property its pinned verdict', () => {
      expect(manifestVerdicts(result)).toEqual(scope.properties);
    });

    it('witnesses every property that holds: none holds vacuously', () => {
      const unwitnessed = result.properties.filter((p) => p.status === 'holds' && p.witnesses === 0);
      expect(unwitnessed.map((p) => p.property.id)).toEqual([]);
    });

    it('declares every machine transition it does not take, and declares nothing it takes', () => {
      const { untaken } = expectationsFor(name);
      expect(result.coverage.uncovered.map((t) => t.id).filter((id) => !(id in untaken))).toEqual([]);
      const known = new Set(systemTransitions(model).map((t) => t.id));
      const taken = new Set(result.coverage.covered);
      for (const id of Object.keys(untaken)) {
        expect(known.has(id), `${id} is not a transition of the machines`).toBe(true);
        expect(taken.has(id), `${id} is taken now: drop its explanation`).toBe(false);
      }
    });

    it('reports in the schema of report.json, nothing undeclared and every declaration used', () => {
      const report = buildReport(result, { model, variant: 'model', outDir: 'generated' });
      expect(reportSchema.safeParse(report).success).toBe(true);
      expect(report.undeclared).toEqual({ vacuous: [], uncovered: [] });
      expect(report.declarations.unused).toEqual([]);
      expect([...report.declarations.untaken].sort()).toEqual(
        Object.keys(expectationsFor(name).untaken).sort(),
      );
      // A counterexample only for a property the manifest pins violated.
      const violated = Object.keys(scope.properties).filter(
        (id) => scope.properties[id].verdict === 'violated',
      );
      expect(report.properties.filter((p) => p.counterexample !== undefined).map((p) => p.id)).toEqual(
        violated,
      );
    });
  },
);

/** Scopes that complete, too slowly for every run: their pinned figures are checked on demand. */
const measuredScopes = manifest.scopes.flatMap((scope) =>
  !scope.explored && scope.measured ? [[scope.name, scope.measured] as const] : [],
);
/**
 * Those a test process holds (verify's own rule: the states its default heap's guard keeps); a larger
 * one is pinned from a `verify` run given the memory, whose command its reason gives.
 */
const slowScopes = measuredScopes.filter(([, measured]) => measured.states <= machineCapacity());
const slow = process.env.NSMODEL_SLOW_SCOPES === '1';

describe('the scopes that complete too slowly for every run', () => {
  it('pin their figures, and their orbits stand for exactly the states and transitions of the full search', () => {
    expect(slowScopes.map(([name]) => name)).toContain('large');
    // wide needs more than a test process holds: its figures come from a verify run given the memory.
    expect(measuredScopes.filter((s) => !slowScopes.includes(s)).map(([name]) => name)).toEqual(['wide']);
    for (const [, measured] of measuredScopes)
      if (measured.symmetry)
        expect(measured.symmetry.represented).toEqual({
          states: measured.states,
          transitions: measured.transitions,
        });
  });

  describe.skipIf(!slow).each(slowScopes)('scope %s (NSMODEL_SLOW_SCOPES=1)', (name, measured) => {
    it('is searched completely with the pinned figures, without symmetry', () => {
      const result = check(modelOf(name), safetyProperties);
      expect(result.complete).toBe(true);
      expect({ states: result.states, transitions: result.transitions, depth: result.depth }).toEqual({
        states: measured.states,
        transitions: measured.transitions,
        depth: measured.depth,
      });
    }, 3_600_000);

    it.skipIf(!measured.symmetry)(
      'and with symmetry reduction',
      () => {
        const model = modelOf(name);
        const result = check(model, safetyProperties, {
          symmetry: new StateSymmetry(model, symmetryOf(model.scope)),
        });
        expect(result.complete).toBe(true);
        expect({
          states: result.states,
          transitions: result.transitions,
          depth: result.depth,
          represented: result.symmetry?.represented,
        }).toEqual(measured.symmetry);
      },
      3_600_000,
    );
  });
});

/**
 * A witness says the case a property guards occurred. One that fires in every state (or, for a step
 * witness, from every state) says nothing: the property could hold there for a reason that has no
 * bearing on its rule, as `initialized-is-forever` once did with a namespace initialized from the start.
 */

/** Properties whose guarded case is an attempt open in every state, with the reason; the count checks still apply. */
const openInEveryState: Record<string, string> = {
  'tenant-isolation':
    "alice may always send her requests into bob's team-b, which exists from the start: the attack is open in every state",
  'cluster-wide-as-declared':
    'alice may always list across all namespaces, a cluster-wide request she is not declared for',
};

// Each state's steps, computed once for all witnesses.
const stepsOf = new WeakMap<SystemState, Enabled[]>();
const steps = (model: SystemModel, s: SystemState): Enabled[] => {
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
      : (m: SystemModel, s: SystemState) => steps(m, s).some((e) => w.test(m, s, e.event, e.next));
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
  // The quick scope's search above: its witness counts; then each witness judged as a state test.
  beforeAll(() => {
    const { model, result: judged } = searchOf('quick');
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
