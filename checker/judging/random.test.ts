import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { variantByName } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { systemModel } from '../model/system-model.ts';
import { traceSteps } from '../report/counterexample.ts';
import { randomFailureText, randomRun, walk, walkArb } from './random.ts';

const quickScope = scopeByName('quick');

const properties = safetyProperties;
const model = systemModel(quickScope);
const mutantModel = (name: string) => {
  const variant = variantByName(name);
  if (!variant) throw new Error(`no variant ${name}`);
  return systemModel(quickScope, variant.machines(defaultMachines, quickScope));
};

describe('walk', () => {
  // A walk of the scope's request commands and choices among the other steps, as randomRun draws them.
  const sampled = fc.sample(walkArb(model, 30), { seed: 5, numRuns: 20 }).flat();

  it('follows the same choices to the same states', () => {
    const choices = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, ...sampled];
    const keys = (w: ReturnType<typeof walk>) => w.trace.steps.map((s) => model.key(s.state));
    expect(keys(walk(model, properties, choices))).toEqual(keys(walk(model, properties, choices)));
  });

  it('moves on every choice: each step leads to a state other than the one before', () => {
    const w = walk(model, properties, [0, 7, 2, 11, 5, 3, 8, 1, 13, 4, ...sampled]);
    expect(w.violations).toEqual([]);
    let previous = model.key(w.trace.initial);
    for (const step of w.trace.steps) {
      expect(model.key(step.state)).not.toBe(previous);
      previous = model.key(step.state);
    }
  });

  it("sends the scope's own request commands, as the exhaustive search expands them", () => {
    const expanded = new Set(model.principalCommands().map(({ command }) => JSON.stringify(command.data)));
    const sent = walk(model, properties, sampled)
      .trace.steps.filter(
        (s) => s.event.actorKind === 'principal' && s.event.command?.kind !== 'configuration',
      )
      .map((s) => JSON.stringify(s.event.command));
    expect(sent.length).toBeGreaterThan(0);
    for (const c of sent) expect(expanded).toContain(c);
  });

  it('judges every step it could take, not only the one it takes', () => {
    // One choice: the mutant's bad create is judged at the first state where it is enabled.
    const mutant = mutantModel('kubernetes-finalizer-not-added');
    const w = walk(mutant, properties, []);
    expect(w.violations.map((v) => v.propertyId)).toContain('kubernetes-finalizer-on-create');
    expect(w.trace.steps).toHaveLength(1);
  });
});

describe('randomRun', () => {
  it('finds no violation on the model as written', () => {
    const result = randomRun(model, properties, { runs: 100, seed: 20240611 });
    expect(result.failure).toBeUndefined();
    expect(result).toMatchObject({ ok: true, runs: 100, seed: 20240611 });
    expect(result.stepsTaken).toBeGreaterThan(100);
  });

  it('shrinks a mutant failure to a short walk, in the step format of the exhaustive counterexamples', () => {
    const mutant = mutantModel('initialize-check-skipped');
    const result = randomRun(mutant, properties, { runs: 200, seed: 7 });
    expect(result.ok).toBe(false);
    const failure = result.failure;
    if (!failure) throw new Error('no failure');
    expect(failure.violations.map((v) => v.propertyId)).toContain('no-access-before-ready');
    // The exhaustive search's shortest counterexample has 2 steps; shrinking gets close to it.
    expect(failure.steps.length).toBeLessThanOrEqual(4);
    expect(failure.steps).toEqual(traceSteps(mutant, failure.trace));
    for (const step of failure.steps) expect(Object.keys(step).sort()).toEqual(['actor', 'event', 'summary']);
    expect(randomFailureText(result)).toContain(`Replay: --seed ${result.seed} --path ${failure.path}`);
  });

  it('replays a reported failure exactly from its seed and path', () => {
    const mutant = mutantModel('failure-result-ignored');
    const first = randomRun(mutant, properties, { runs: 300, seed: 11 });
    const failure = first.failure;
    if (!failure) throw new Error('no failure');
    const again = randomRun(mutant, properties, { seed: first.seed, path: failure.path });
    expect(again.failure?.steps).toEqual(failure.steps);
    expect(again.failure?.choices).toEqual(failure.choices);
    expect(walk(mutant, properties, failure.choices).violations).toEqual(failure.violations);
  });

  it('says when every property held, with the seed that replays the runs', () => {
    const result = randomRun(model, properties, { runs: 5, seed: 3 });
    expect(randomFailureText(result)).toBe('5 random walks: every property held (seed 3).');
  });
});
