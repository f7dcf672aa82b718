import { z } from 'zod';
import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { livenessProperties } from '../properties/liveness.ts';
import { safetyProperties } from '../properties/safety.ts';
import { compiledFor, type LaneSink } from './compiled.ts';
import { exploreCompiled } from './compiled-explore.ts';
import { systemCodec } from './encoding.ts';
import { type PromelaModel, promelaModel } from './promela.ts';
import { schemaRef } from './schema-ref.ts';
import { removeSpinRun, replayTrail, runSpin, type SpinRun } from './spin.ts';

/**
 * The cross-check of `verify` by SPIN: the same model searched by nsmodel's compiled engine and by
 * pan on the generated Promela, compared figure by figure. What SPIN does not judge yet (the safety
 * and liveness properties) is listed as not compared, never counted as agreement.
 */

export interface Comparison {
  what: string;
  verify: number;
  spin: number;
  agrees: boolean;
}

/** A SPIN trail read back into the model's states and confirmed step by step on the TypeScript model. */
export interface TrailCheck {
  file: string;
  steps: number;
  /** Empty when every step is a step of the model and the last state is a deadlock there; else what failed. */
  problem: string;
  trace: { initial: SystemState; steps: { event: SystemEvent; state: SystemState }[] };
}

export interface CrossCheck {
  scope: string;
  variant: string;
  verify: { states: number; transitions: number; depth: number; deadlocks: number; seconds: number };
  spin: Omit<SpinRun, 'output' | 'dir'>;
  export: { seconds: number; bytes: number; runs: number };
  comparisons: Comparison[];
  /** Deadlock trails SPIN wrote, each confirmed (or not) on the model. */
  trails: TrailCheck[];
  /** What this cross-check does not compare, in words. */
  notCompared: string[];
  /** True when every comparison agrees, the SPIN search is complete and every trail is confirmed. */
  agrees: boolean;
}

/** The `verify` figures the cross-check compares: the compiled search, and each state's successor count. */
export function verifyFigures(model: SystemModel): CrossCheck['verify'] {
  const started = performance.now();
  const compiled = compiledFor(model);
  const result = exploreCompiled(compiled);
  if (!result.complete) throw new Error('the search did not complete');
  const codec = systemCodec(model);
  const lanes = new Uint32Array(codec.width);
  let successors = 0;
  const counting: LaneSink = {
    eachSelfLoop: false,
    self: () => successors++,
    selfLoops: (n) => {
      successors += n;
    },
    change: () => successors++,
    whole: () => successors++,
  };
  let deadlocks = 0;
  for (let index = 0; index < result.states; index++) {
    codec.encode(result.stateAt(index), lanes, 0);
    successors = 0;
    compiled.expand(lanes, counting);
    if (successors === 0) deadlocks++;
  }
  return {
    states: result.states,
    transitions: result.transitions,
    depth: result.depth,
    deadlocks,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The lanes of the Promela state `g ns... ctl...` (indices into the tables). */
function lanesOf(promela: PromelaModel, fields: readonly number[]): Uint32Array {
  const { tables } = promela;
  const lanes = new Uint32Array(tables.width);
  const [g, ...rest] = fields;
  lanes.set(tables.globals[g], 0);
  for (let i = 0; i < tables.namespaces; i++) lanes[3 + i] = tables.slotIds[i][rest[i]];
  for (let k = 0; k < tables.initializers; k++)
    lanes[3 + tables.namespaces + k] = tables.controllerIds[k][rest[tables.namespaces + k]];
  return lanes;
}

/** Reads a trail's replay (`nsmodel-step` lines) and follows it on the model: each step must be a successor. */
export function confirmDeadlockTrail(
  model: SystemModel,
  promela: PromelaModel,
  file: string,
  replay: string,
): TrailCheck {
  const codec = systemCodec(model);
  const [initial] = model.initialStates();
  const steps: TrailCheck['trace']['steps'] = [];
  const key = (s: SystemState) => model.key(s);
  let state = initial;
  const lines = replay.split('\n').filter((line) => line.startsWith('nsmodel-step '));
  const fail = (problem: string): TrailCheck => ({
    file,
    steps: steps.length,
    problem,
    trace: { initial, steps },
  });
  for (const line of lines) {
    const fields = line.split(' ').slice(1).map(Number);
    const lanes = lanesOf(promela, fields.slice(2));
    const target = key(codec.decode(lanes, 0));
    const step = model.enabled(state).find((e) => key(e.next) === target);
    if (!step) return fail(`step ${steps.length + 1} (action ${fields[0]}) is no step of the model`);
    steps.push({ event: step.event, state: step.next });
    state = step.next;
  }
  // A trail of no step is a deadlock in the initial state; the replay must still have run.
  if (lines.length === 0 && !/trail ends after|#processes/.test(replay))
    return fail('the trail did not replay');
  if (model.enabled(state).length > 0)
    return fail('the last state has successors in the model: no deadlock there');
  return { file, steps: steps.length, problem: '', trace: { initial, steps } };
}

/** Exports the model, runs SPIN on it and compares with `verify`'s search. */
export function crossCheck(model: SystemModel, variant: string, defines: string[] = []): CrossCheck {
  let started = performance.now();
  const promela = promelaModel(model, { variant });
  const exported = {
    seconds: (performance.now() - started) / 1000,
    bytes: Buffer.byteLength(promela.text),
    runs: promela.tables.runs,
  };
  const verify = verifyFigures(model);
  started = performance.now();
  // Breadth-first, as verify searches (same depth, shortest trails); -c0 -e: go on past errors, a trail each.
  const run = runSpin(promela.text, {
    maxDepth: verify.states + 1,
    defines: ['BFS', ...defines],
    panFlags: ['-c0', '-e'],
    keep: true,
  });
  try {
    const trails = run.trails
      .slice(0, 3)
      .map((trail) =>
        confirmDeadlockTrail(model, promela, trail, replayTrail(run, trail, verify.states + 1)),
      );
    const compare = (what: string, a: number, b: number): Comparison => ({
      what,
      verify: a,
      spin: b,
      agrees: a === b,
    });
    const comparisons = [
      compare('distinct states', verify.states, run.states),
      // pan counts stored + matched states: one more than the edges, for the initial state.
      compare('transitions (pan: stored + matched - 1)', verify.transitions, run.transitions - 1),
      compare('depth (pan -DBFS)', verify.depth, run.depth),
      // With no assertions in the model, every error pan counts is an invalid end state.
      compare('deadlocks (pan: invalid end states)', verify.deadlocks, run.errors),
    ];
    const notCompared = [
      `${safetyProperties.length} safety properties (${safetyProperties.map((p) => p.id).join(', ')}): not in the Promela model yet, so SPIN judges none of them`,
      `${livenessProperties.length} liveness properties (${livenessProperties.map((p) => p.id).join(', ')}): no never claims yet`,
    ];
    const { output: _output, dir: _dir, ...figures } = run;
    return {
      scope: model.scope.name,
      variant,
      verify,
      spin: figures,
      export: exported,
      comparisons,
      trails,
      notCompared,
      agrees:
        run.complete &&
        comparisons.every((c) => c.agrees) &&
        trails.every((t) => t.problem === '') &&
        (run.errors === 0 || trails.length > 0),
    };
  } finally {
    removeSpinRun(run);
  }
}

/** A cross-check as `crosscheck --json` prints it: its `$schema`, and each trail without its decoded states. */
export type CrossCheckLine = { $schema: string } & Omit<CrossCheck, 'trails'> & {
    trails: Omit<TrailCheck, 'trace'>[];
  };

export function crossCheckLine(check: CrossCheck): CrossCheckLine {
  return {
    $schema: schemaRef('crosscheck'),
    ...check,
    trails: check.trails.map(({ trace: _trace, ...trail }) => trail),
  };
}

const count = z.number().int().nonnegative();
const seconds = z.number().nonnegative();

/** The schema of a `crosscheck --json` line (schemas/crosscheck.schema.json is generated from it). */
export const crossCheckLineSchema = z
  .strictObject({
    $schema: z.string(),
    scope: z.string(),
    variant: z.string(),
    verify: z.strictObject({ states: count, transitions: count, depth: count, deadlocks: count, seconds }),
    spin: z.strictObject({
      states: count,
      transitions: count,
      depth: count,
      errors: count,
      complete: z.boolean(),
      incomplete: z.string().optional(),
      seconds,
      stateVectorBytes: count,
      trails: z.array(z.string()),
      generateSeconds: seconds,
      compileSeconds: seconds,
    }),
    export: z.strictObject({ seconds, bytes: count, runs: count }),
    comparisons: z.array(
      z.strictObject({ what: z.string(), verify: z.number(), spin: z.number(), agrees: z.boolean() }),
    ),
    trails: z.array(z.strictObject({ file: z.string(), steps: count, problem: z.string() })),
    notCompared: z.array(z.string()),
    agrees: z.boolean(),
  })
  .meta({
    title: 'nsmodel SPIN cross-check',
    description:
      "One line of npm run crosscheck -- --json: verify's and SPIN's states, transitions, depth and deadlocks on one model, compared.",
  }) as unknown as z.ZodType<CrossCheckLine>;
