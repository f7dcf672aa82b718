import { describe, expect, it } from 'vitest';
import { LocalKind } from '../../machines/system-types.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { expectNamesItsSchema, expectValidOutput } from '../../test-support/output-schema.ts';
import { baseVariantName } from '../../variants/variants.ts';
import { compiledFor } from '../model/compiled.ts';
import { exploreCompiled } from '../model/compiled-explore.ts';
import { systemCodec } from '../model/encoding.ts';
import { check as judgeAll } from './check.ts';
import {
  confirmDeadlockTrail,
  confirmLassoTrail,
  crossCheck,
  crossCheckLine,
  crossCheckLiveness,
  trailsByCause,
  verifyFigures,
} from './crosscheck.ts';
import { modelOf, promelaModel, spinLiveness } from './promela.ts';
import { removeSpinRun, replayTrail, runSpin, spinAvailable } from './spin.ts';

const withSpin = spinAvailable();

describe('the Promela export', () => {
  const model = modelOf(baseVariantName, 'admin-finalize');
  const promela = promelaModel(model, { variant: baseVariantName });

  it("covers every projection of every reachable state (the fixpoint's sets contain the search's)", () => {
    // The same model instance: its intern ids are the ones the tables name.
    const result = exploreCompiled(compiledFor(model));
    const codec = systemCodec(model);
    const lanes = new Uint32Array(codec.width);
    const { tables } = promela;
    const globals = new Set(tables.globals.map((g) => g.join(',')));
    const seen = { globals: new Set<string>(), slots: tables.slotIds.map(() => new Set<number>()) };
    for (let index = 0; index < result.states; index++) {
      codec.encode(result.stateAt(index), lanes, 0);
      seen.globals.add([lanes[0], lanes[1], lanes[2]].join(','));
      for (let i = 0; i < tables.namespaces; i++) seen.slots[i].add(lanes[3 + i]);
      for (let k = 0; k < tables.initializers; k++)
        expect(tables.controllerIds[k]).toContain(lanes[3 + tables.namespaces + k]);
    }
    for (const g of seen.globals) expect(globals).toContain(g);
    seen.slots.forEach((ids, i) => {
      for (const id of ids) expect(tables.slotIds[i]).toContain(id);
    });
  });

  it('is the same text for the same model (deterministic)', () => {
    const again = promelaModel(modelOf(baseVariantName, 'admin-finalize'), { variant: baseVariantName });
    expect(again.text).toBe(promela.text);
  });

  it.skipIf(!withSpin)('gives SPIN the same states, transitions, deadlocks and verdicts as verify', () => {
    const check = crossCheck(modelOf(baseVariantName, 'admin-finalize'), baseVariantName);
    expect(check.spin.complete).toBe(true);
    expect(check.comparisons.map((c) => [c.what, c.verify === c.spin])).toEqual(
      check.comparisons.map((c) => [c.what, true]),
    );
    // Not vacuous: this scope breaks some safety property, and each SPIN trail breaks it on the model.
    const violated = check.verdicts.filter((v) => v.spin === 'violated');
    expect(violated.length).toBeGreaterThan(0);
    for (const v of violated) {
      expect(v.verify).toBe('violated');
      expect(v.trail?.problem).toBe('');
      expect(v.trail?.itf).toContain(`"property": "${v.property}"`);
    }
    expect(check.verdicts).toHaveLength(safetyProperties.length);
    expect(check.liveness?.verdicts.every((v) => v.agrees)).toBe(true);
    expect(check.agrees).toBe(true);
    // What crosscheck --json prints of it (one line per cross-check) validates against its committed schema.
    const line = JSON.parse(JSON.stringify(crossCheckLine(check))) as { $schema?: unknown };
    expectValidOutput('crosscheck', line);
    expectNamesItsSchema('crosscheck', line, 'stdout');
  });

  it.skipIf(!withSpin)('can disagree on verdicts: without its judgements SPIN finds no violation', () => {
    const blind = promela.text.replace('#define SAFETY_JUDGED 1', '#define SAFETY_JUDGED 0');
    expect(blind).not.toBe(promela.text);
    const verdicts = judgeAll(modelOf(baseVariantName, 'admin-finalize'), safetyProperties);
    expect(verdicts.properties.some((p) => p.status === 'violated')).toBe(true);
    const run = runSpin(blind, { maxDepth: 10000, defines: ['BFS'], panFlags: ['-c0', '-e'] });
    expect(trailsByCause(run.output).properties.size).toBe(0);
  });

  it("tells property trails from deadlock trails in pan's output", () => {
    const output = [
      'nsmodel-violated 3',
      'pan:1: safety property violated (at depth 2)',
      'pan: wrote model.pml1.trail',
      'pan:2: invalid end state (at depth 4)',
      'pan: wrote model.pml2.trail',
      'nsmodel-violated 0',
      'pan: wrote model.pml3.trail',
    ].join('\n');
    const causes = trailsByCause(output);
    expect(causes.deadlocks).toEqual(['model.pml2.trail']);
    expect([...causes.properties]).toEqual([
      [3, 'model.pml1.trail'],
      [0, 'model.pml3.trail'],
    ]);
  });

  it.skipIf(!withSpin)(
    "finds a seeded liveness fault's accepting cycle under the property's fairness",
    () => {
      // The namespace controller never syncs: a Terminating namespace is never removed though it is fair to it.
      const stalls = modelOf('namespace-controller-stalls', 'admin-finalize');
      const liveness = crossCheckLiveness(
        stalls,
        'namespace-controller-stalls',
        verifyFigures(stalls).states,
      );
      const removed = liveness.verdicts.find((v) => v.property === 'terminating-namespace-is-removed');
      expect(removed?.spin).toBe('violated');
      // SPIN's accepting cycle, as an ITF lasso, is confirmed by the lasso replay on the model.
      expect(removed?.lasso?.problem).toBe('');
      expect(removed?.lasso?.loop).toBeLessThan(removed?.lasso?.steps ?? 0);
      expect(removed?.lasso?.itf).toMatch(/"loop": \d+/);
      expect(liveness.verdicts.every((v) => v.agrees)).toBe(true);
    },
  );

  it.skipIf(!withSpin)(
    'refuses an accepting cycle read back wrong: no cycle, or one that does not close',
    () => {
      const stalls = modelOf('namespace-controller-stalls', 'admin-finalize');
      const live = promelaModel(stalls, { variant: 'namespace-controller-stalls', liveness: true });
      const b = spinLiveness.findIndex((p) => p.id === 'terminating-namespace-is-removed');
      const env = { NSMODEL_GOAL: `${b} 0` };
      const run = runSpin(live.text, { maxDepth: 100000, panFlags: ['-a'], env, keep: true });
      try {
        expect(run.errors).toBeGreaterThan(0);
        const replay = replayTrail(run, 'model.pml.trail', 100000, env);
        const judge = (text: string) =>
          confirmLassoTrail(
            stalls,
            live,
            text,
            'terminating-namespace-is-removed',
            0,
            'namespace-controller-stalls',
          );
        expect(judge(replay).problem).toBe('');
        const marker = '<<<<<START OF CYCLE>>>>>\n';
        const unmarked = replay.replace(marker, '');
        expect(judge(unmarked).problem).toMatch(/no START OF CYCLE/);
        // The cycle said to start at the initial state: the lasso's last state is not that state.
        expect(judge(marker + unmarked).problem).toMatch(/does not replay.*cycle does not close/);
      } finally {
        removeSpinRun(run);
      }
    },
  );

  it.skipIf(!withSpin)('can disagree: a model without the clock gives SPIN other figures', () => {
    const clockless = promela.text
      .split('\n')
      .filter((line) => !line.includes('one second */'))
      .join('\n');
    expect(clockless).not.toBe(promela.text);
    const verify = verifyFigures(modelOf(baseVariantName, 'admin-finalize'));
    const run = runSpin(clockless, { maxDepth: verify.states + 1 });
    expect(run.states).not.toBe(verify.states);
  });

  it.skipIf(!withSpin)('reads a SPIN trail back and refuses one that is no deadlock of the model', () => {
    // Only the controllers' alternatives: SPIN finds deadlocks the model (whose principals can always act) has not.
    const controllers = new Set(
      model.actions.flatMap((a, at) => (a.type === 'local' && a.kind !== LocalKind.Command ? [at] : [])),
    );
    const cut = promela.text
      .split('\n')
      .filter((line) => !line.startsWith('  :: ') || controllers.has(Number(/take\((\d+),/.exec(line)?.[1])))
      .join('\n');
    const run = runSpin(cut, { maxDepth: 1000, defines: ['BFS'], panFlags: ['-c0', '-e'], keep: true });
    try {
      const [deadlock] = trailsByCause(run.output).deadlocks;
      expect(deadlock).toBeDefined();
      const check = confirmDeadlockTrail(model, promela, deadlock, replayTrail(run, deadlock, 1000));
      expect(check.problem).toMatch(/has successors in the model/);
    } finally {
      removeSpinRun(run);
    }
  });

  it.skipIf(!withSpin)('follows a breadth-first SPIN trail of many steps on the model, step by step', () => {
    // An assertion on the last namespace state of slot 0: SPIN's shortest trail to it has many steps.
    const last = promela.tables.slotIds[0].length - 1;
    const probe = promela.text
      .replace('#define SAFETY_JUDGED 1', '#define SAFETY_JUDGED 0')
      .replace('  do\n', `  do\n  :: c_expr { (now.ns[0] == ${last}) } -> assert(0)\n`);
    const run = runSpin(probe, { maxDepth: 10000, defines: ['BFS'], panFlags: ['-e'], keep: true });
    try {
      expect(run.trails).toHaveLength(1);
      const check = confirmDeadlockTrail(
        model,
        promela,
        run.trails[0],
        replayTrail(run, run.trails[0], 10000),
      );
      // Every step was found among the model's steps; only the last state is no deadlock.
      expect(check.steps).toBe(run.depth - 1);
      expect(check.steps).toBeGreaterThan(5);
      expect(check.problem).toMatch(/has successors in the model/);
    } finally {
      removeSpinRun(run);
    }
  });
});
