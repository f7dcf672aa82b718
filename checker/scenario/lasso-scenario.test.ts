import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SystemState } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { mutants, scopeFor } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { buildStateGraph } from '../engine/state-graph.ts';
import { checkLivenessOnTheFly } from '../judging/liveness-fly.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import type { MutantResult } from '../report/mutants.ts';
import { projectRoot } from './catalog.ts';
import { lassoItf } from './counterexample-itf.ts';
import { conditionHolds, fairnessOfWord } from './eventually.ts';
import { parseItf } from './itf.ts';
import { replayLasso } from './lasso-replay.ts';
import { eventuallyOf, fairnessWord, goalsInScenarioWords, lassoToScenario } from './lasso-scenario.ts';
import { replayFile } from './replay.ts';

/**
 * `replay --trace LASSO --to-scenario`: a liveness counterexample as a scenario whose `eventually`
 * states the violated property's goal. The round trip covers every seeded fault `npm run mutants` kills
 * with a liveness property; the goals in scenario words are checked against the properties' own.
 */
const written = JSON.parse(readFileSync(join(projectRoot, 'generated/mutants.json'), 'utf8')) as {
  mutants: MutantResult[];
};
const table = written.mutants;
const byLiveness = table.filter((r) => r.search === 'liveness');

describe('every liveness property, in scenario words', () => {
  it('has its goal written for it, and each of its fairness assumptions has a word', () => {
    expect([...goalsInScenarioWords].sort()).toEqual(livenessProperties.map((p) => p.id).sort());
    for (const p of livenessProperties) {
      for (const f of p.fairness) expect(fairnessWord(f), `${p.id}: ${f.why}`).toBeDefined();
      const written = eventuallyOf(p, 'team-a', 'quota.example.com');
      expect(written.fair.map((w) => fairnessOfWord[w].actorKind)).toEqual(
        p.fairness.map((f) => f.actorKind),
      );
    }
  });

  /**
   * The words agree with each property's goal on the first states of the quick scope (initializing,
   * terminating, stale copies, crashed initializers, lost timers): the same verdict in every state and
   * namespace. The goal of running-initializer-completes names the initializer first pending where the
   * premise held; it agrees wherever that initializer is still first pending, and is implied elsewhere.
   */
  it('agrees with the goal each property judges, state by state', () => {
    const model = variantModel('model', scopeByName('quick'));
    const graph = buildStateGraph(model, { maxStates: 3000 });
    const states: SystemState[] = Array.from({ length: graph.size }, (_, i) => graph.search.stateAt(i));
    const initializers = [
      ...new Set(model.scope.configurations.flatMap((c) => c.initializers.map((i) => i.name))),
    ];
    const slots = model.scope.namespaces.map((_, i) => i);
    const seen = { true: 0, false: 0 };
    // Every disagreement, judged by one expect at the end: an expect per state and slot costs more than the judging.
    const disagreements: string[] = [];
    const agree = (words: boolean, q: boolean, what: () => string) => {
      if (words !== q && disagreements.length < 10)
        disagreements.push(`${what()}: words ${words}, goal ${q}`);
    };
    // A goal's words depend on the property, the namespace and the initializer, not on the state: made once each.
    const words = new Map<string, ReturnType<typeof eventuallyOf>>();
    const holds = (m: CheckedSystemModel, s: SystemState, slot: number, id: string, first?: string) => {
      const at = `${id} ${slot} ${first}`;
      let e = words.get(at);
      if (!e) {
        const property = livenessProperties.find((p) => p.id === id);
        if (!property) throw new Error(id);
        e = eventuallyOf(property, model.scope.namespaces[slot].name, first);
        words.set(at, e);
      }
      return e.any.some((c) => conditionHolds(m, s, c, 'namespace' in c ? slot : -1));
    };
    for (const p of livenessProperties)
      for (const slot of p.perNamespace ? slots : [0])
        for (const s of states) {
          const q = p.q(model, s, p.perNamespace ? slot : -1);
          seen[q ? 'true' : 'false']++;
          if (p.id !== 'running-initializer-completes') {
            agree(holds(model, s, slot, p.id), q, () => `${p.id} on slot ${slot} in ${model.key(s)}`);
            continue;
          }
          const first = model.view(s, slot).pending[0];
          for (const name of initializers) {
            const said = holds(model, s, slot, p.id, name);
            if (name === first) agree(said, q, () => `${p.id}, ${name} first pending in ${model.key(s)}`);
            else if (q) agree(said, true, () => `${p.id}, ${name} not first pending in ${model.key(s)}`);
          }
        }
    expect(disagreements).toEqual([]);
    expect(seen.true).toBeGreaterThan(0);
    expect(seen.false).toBeGreaterThan(0);
  });
});

describe('every seeded fault caught by a liveness property, as a scenario from its lasso', () => {
  it('covers the faults npm run mutants kills by a lasso', () => {
    expect(byLiveness.length).toBeGreaterThan(0);
    for (const r of byLiveness) expect(mutants.map((m) => m.name)).toContain(r.mutant);
  });

  it.each(byLiveness.map((r) => [r.mutant, r.killedBy]))(
    '%s: eventually holds on the model, fails on the fault',
    (name, killedBy) => {
      const given = scopeByName('quick');
      const model = variantModel(name, scopeFor(name, given));
      // The properties that caught it, on the first states of the quick scope: a lasso found there is a
      // run of the fault (every state on it expanded, its fairness judged on all their steps), as
      // verify --variant stops early too; none found fails the test, so the cap never hides a miss.
      const run = checkLivenessOnTheFly(
        model,
        livenessProperties.filter((p) => killedBy.includes(p.id)),
        { maxStates: 2000 },
      );
      const violated = run.properties.filter((p) => p.status === 'violated');
      expect(violated.length).toBeGreaterThan(0);
      for (const p of violated) {
        const file = `${p.property.id}.itf.json`;
        const lasso = replayLasso(parseItf(lassoItf(model, p, name), file), file);
        if (!lasso.replayed) throw new Error(`${file} does not replay on ${name}: ${lasso.problem}`);
        expect(lasso.confirmed, lasso.unconfirmed).toBeDefined();
        const text = lassoToScenario(lasso, file);
        const onModel = replayFile(`${p.property.id}.yaml`, text, 'model');
        expect(onModel.status, JSON.stringify(onModel.steps.filter((s) => !s.ok))).toBe('passed');
        expect(onModel.steps.at(-1)?.text).toMatch(/^eventually /);
        const onFault = replayFile(`${p.property.id}.yaml`, text);
        expect(onFault.variant).toBe(name);
        expect(onFault.status, p.property.id).toBe('failed');
        // The judge of the goal catches it, and names the cycle it found.
        const judged = onFault.steps.at(-1);
        expect(judged?.ok).toBe(false);
        expect(judged?.mismatch.filter((l) => l.startsWith('cycle:')).length).toBeGreaterThan(0);
      }
    },
  );
});
