import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { command as replayCommand, main as replayMain } from '../../scripts/replay.ts';
import { runCommandInProcess } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { variantByName } from '../../variants/variants.ts';
import { check } from '../judging/check.ts';
import { removalScope } from '../judging/liveness-fixtures.ts';
import { checkLiveness, type LivenessRun } from '../model/liveness-system.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import { buildReport, writeReport } from '../report/report.ts';
import { lassoItf } from './counterexample-itf.ts';
import { itfTraceSchema, parseItf } from './itf.ts';
import { replayLasso } from './lasso-replay.ts';
import { replayFile } from './replay.ts';

/** replay's main in this process, on the command line given (its entry point is spawned in checker/cli/input-file.test.ts). */
const replay = (argv: string[]) => runCommandInProcess(replayCommand, replayMain, argv);

/**
 * A liveness counterexample is a lasso: written as ITF with `loop`, replayed step by step, its cycle
 * closed and its fairness judged again. The seeded fault controller-never-finalizes leaves team-a
 * Terminating forever, a lasso of terminating-namespace-is-removed.
 */
const variant = 'controller-never-finalizes';
const removal = livenessProperties.filter((p) => p.id === 'terminating-namespace-is-removed');
let model: CheckedSystemModel;
let run: LivenessRun;
let itf = '';

beforeAll(() => {
  const fault = variantByName(variant);
  if (!fault) throw new Error(`no variant ${variant}`);
  model = systemModel(removalScope, fault.machines(defaultMachines, removalScope));
  run = checkLiveness(model, removal);
  itf = lassoItf(model, run.properties[0], variant);
});

type Trace = { loop: number; states: { '#meta': { action: { label: string } } }[] };

describe('lasso counterexamples as ITF', () => {
  it('are written with loop, the index of the state the cycle returns to', () => {
    const trace = JSON.parse(itf) as Trace & { '#meta': Record<string, unknown> };
    expect(itfTraceSchema.safeParse(trace).success).toBe(true);
    const lasso = run.properties[0].lasso;
    expect(trace.loop).toBe(lasso?.loopStart);
    expect(trace.states).toHaveLength((lasso?.steps.length ?? 0) + 1);
    expect(trace['#meta']).toMatchObject({
      property: 'terminating-namespace-is-removed',
      namespace: 'team-a',
    });
    // The same state, reached by another action: only the variables, not the action taken, must agree.
    const {
      '#meta': _last,
      'mbt::actionTaken': _a,
      'mbt::nondetPicks': _c,
      ...last
    } = trace.states.at(-1) as Record<string, unknown>;
    const {
      '#meta': _entry,
      'mbt::actionTaken': _b,
      'mbt::nondetPicks': _d,
      ...entry
    } = trace.states[trace.loop] as Record<string, unknown>;
    expect(last).toEqual(entry);
  });

  it('replay confirms the lasso on its variant: a fair run that never reaches the goal', () => {
    const result = replayLasso(parseItf(itf, 't'), 't');
    expect(result).toMatchObject({ replayed: true, namespace: 'team-a' });
    if (!result.replayed) return;
    expect(result.confirmed).toMatch(/never holds, and the cycle .* is fair for every condition assumed$/);
  });

  it('is no violation on the machines as written: there the cycle is unfair to the controller', () => {
    const result = replayLasso(parseItf(itf, 't'), 't', { variant: 'model' });
    expect(result).toMatchObject({ replayed: true });
    if (!result.replayed) return;
    expect(result.confirmed).toBeUndefined();
    expect(result.unconfirmed).toMatch(
      /^the cycle is not fair: .*namespace-controller.* enabled in every state of it yet never taken$/,
    );
  });

  it('refuses a loop that names another state: the cycle must close', () => {
    const trace = JSON.parse(itf) as Trace;
    const moved = trace.loop === 0 ? 1 : trace.loop - 1;
    const result = replayLasso(parseItf(JSON.stringify({ ...trace, loop: moved }), 't'), 't');
    expect(result).toMatchObject({ replayed: false });
    if (result.replayed) return;
    expect(result.problem).toMatch(/the cycle does not close|leads elsewhere|no step/);
  });

  it('is written beside the Markdown lasso by the report', async () => {
    const safety = check(model, safetyProperties);
    const context = { model, variant, outDir: 'run', liveness: run };
    await writeReport(scratch(), buildReport(safety, context), safety, context);
    const written = await readFile(
      join(scratch(), 'run', 'counterexamples', 'terminating-namespace-is-removed.itf.json'),
      'utf8',
    );
    expect(written).toBe(itf);
  });

  const scratch = useTempDir('lasso');

  it('replay --trace exits 13 when it confirms a lasso, and --to-scenario writes it as a scenario', async () => {
    const path = join(scratch(), 'lasso.itf.json');
    await writeFile(path, itf);
    const confirmed = await replay(['--trace', path]);
    expect(confirmed.code).toBe(13);
    expect(confirmed.stdout).toContain('cycle, repeated forever:');
    expect(confirmed.stdout).toMatch(
      /CONFIRMED: terminating-namespace-is-removed is violated for team-a on controller-never-finalizes/,
    );
    const out = join(scratch(), 'x.yaml');
    const scenario = await replay(['--trace', path, '--to-scenario', out]);
    expect(scenario.code, scenario.stderr).toBe(13);
    expect(scenario.stdout).toContain(
      `wrote ${out}: a scenario whose \`eventually\` fails on controller-never-finalizes; it passes on the model`,
    );
    const text = await readFile(out, 'utf8');
    expect(text).toMatch(/^# {3}1\. nothing happens \(the state stays\)$/m);
    expect(text).toMatch(/- eventually:\n\s+any:\n\s+- namespace: team-a\n\s+gone: true\n/);
    expect(replayFile('x.yaml', text, 'model').status).toBe('passed');
    const onFault = replayFile('x.yaml', text);
    expect(onFault.status).toBe('failed');
    expect(onFault.steps.filter((s) => !s.ok).map((s) => s.text)).toEqual([
      "eventually team-a is gone or admission's copy is stale",
    ]);
  });
});
