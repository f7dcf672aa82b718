import { z } from 'zod';
import type { Scope } from '../../machines/scope.ts';
import type { Enabled, SystemEvent, SystemState } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { schemaRef } from '../cli/schema-ref.ts';
import { defaultMemoryLimitBytes, searchMemoryBytes } from '../engine/explore.ts';
import { compiledFor, type LaneSink } from '../model/compiled.ts';
import { exploreCompiled } from '../model/compiled-explore.ts';
import { systemCodec } from '../model/encoding.ts';
import { checkLiveness, describeFairness, type LivenessStatus } from '../model/liveness-system.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import { counterexampleItf, lassoItf } from '../scenario/counterexample-itf.ts';
import { parseItf } from '../scenario/itf.ts';
import { replayLasso } from '../scenario/lasso-replay.ts';
import { replayTrace } from '../scenario/trace-replay.ts';
import { check } from './check.ts';
import { type PromelaModel, promelaModel, spinLiveness } from './promela.ts';
import {
  asPanPrints,
  PanFailed,
  panRounded,
  removeSpinRun,
  replayTrail,
  rerunPan,
  runSpin,
  type SpinRun,
} from './spin.ts';

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
  /** Every safety property's verdict by each engine, with SPIN's counterexample replayed on the model. */
  verdicts: VerdictCheck[];
  /** The liveness verdicts by each engine (absent when not judged). */
  liveness?: LivenessCrossCheck;
  /** Deadlock trails SPIN wrote, each confirmed (or not) on the model. */
  trails: TrailCheck[];
  /** What this cross-check does not compare, in words. */
  notCompared: string[];
  /** True when every comparison agrees, the SPIN search is complete and every trail is confirmed. */
  agrees: boolean;
}

/** verify's search of the model stopped before its end (memory, a bound): there is nothing complete to compare with. */
export class SearchIncomplete extends Error {}

/** The heap in use and the memory guard's limit, for an error that says why a search stopped. */
function heapFigures(): string {
  const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
  return `heap and buffers in use ${mib(searchMemoryBytes())}, guard ${mib(defaultMemoryLimitBytes())}`;
}

/** The `verify` figures the cross-check compares: the compiled search, and each state's successor count. */
export function verifyFigures(model: CheckedSystemModel): CrossCheck['verify'] {
  const started = performance.now();
  const compiled = compiledFor(model);
  const result = exploreCompiled(compiled);
  if (!result.complete)
    throw new SearchIncomplete(
      `verify's search stopped after ${result.states} states (${result.stopReason ?? 'no reason given'}, ${heapFigures()})`,
    );
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

/** The steps action `a` of `model.actions` offers in `state`, in the order the tables number its outcomes. */
function outcomesOf(model: CheckedSystemModel, a: number, state: SystemState): Enabled[] {
  const action = model.actions[a];
  const out: Enabled[] = [];
  if (action === undefined) return out;
  if (action.type === 'global') action.step(model, state, out);
  else if (action.type === 'local') action.step(model, state, action.k, action.i, out);
  else action.step(model, state, action.j, -1, out);
  return out;
}

/** Why a counterexample's ITF text is no run of the model: the step its replay stopped at, and why. */
const notReplayed = (what: 'trace' | 'lasso', failed: { step: number; problem: string }): string =>
  `the ITF ${what} does not replay: step ${failed.step}, ${failed.problem}`;

/** The property a SPIN trail is a counterexample to, by its id in `properties`, and the trail followed on the model. */
function propertyTrail<P extends { id: string }>(
  properties: readonly P[],
  kind: string,
  propertyId: string,
  model: CheckedSystemModel,
  promela: PromelaModel,
  replay: string,
): { property: P; trace: TrailCheck['trace']; problem: string } {
  const property = properties.find((p) => p.id === propertyId);
  if (!property) throw new Error(`no ${kind} property ${propertyId}`);
  return { property, ...followTrail(model, promela, replay) };
}

/** Reads a trail's replay (`nsmodel-step` lines) and follows it on the model: each step must be a successor. */
export function followTrail(
  model: CheckedSystemModel,
  promela: PromelaModel,
  replay: string,
): { trace: TrailCheck['trace']; problem: string } {
  const codec = systemCodec(model);
  const [initial] = model.initialStates();
  const steps: TrailCheck['trace']['steps'] = [];
  const key = (s: SystemState) => model.key(s);
  let state = initial;
  const lines = replay.split('\n').filter((line) => line.startsWith('nsmodel-step '));
  for (const line of lines) {
    const fields = line.split(' ').slice(1).map(Number);
    const lanes = lanesOf(promela, fields.slice(2));
    const target = key(codec.decode(lanes, 0));
    // The step SPIN took: outcome j of action a (a self-loop is one of many steps to the same state).
    const [a, j] = fields;
    const step = outcomesOf(model, a, state)[j];
    if (!step || key(step.next) !== target)
      return {
        trace: { initial, steps },
        problem: `step ${steps.length + 1} (outcome ${j} of action ${a}) is no step of the model`,
      };
    steps.push({ event: step.event, state: step.next });
    state = step.next;
  }
  // A trail of no step ends in the initial state; the replay must still have run.
  if (lines.length === 0 && !/trail ends after|#processes/.test(replay))
    return { trace: { initial, steps }, problem: 'the trail did not replay' };
  return { trace: { initial, steps }, problem: '' };
}

/** A deadlock trail followed on the model: its last state must have no successor there. */
export function confirmDeadlockTrail(
  model: CheckedSystemModel,
  promela: PromelaModel,
  file: string,
  replay: string,
): TrailCheck {
  const { trace, problem } = followTrail(model, promela, replay);
  const last = trace.steps.at(-1)?.state ?? trace.initial;
  const found =
    problem !== '' || model.enabled(last).length === 0
      ? problem
      : 'the last state has successors in the model: no deadlock there';
  return { file, steps: trace.steps.length, problem: found, trace };
}

/**
 * A SPIN counterexample to a safety property: the trail followed on the model, written as ITF with the
 * project's writer (as `verify` writes its counterexamples) and replayed by `npm run replay -- --trace`'s
 * code, which must find the property violated on the model the trace names (its exit 12).
 */
export function confirmPropertyTrail(
  model: CheckedSystemModel,
  promela: PromelaModel,
  file: string,
  replay: string,
  propertyId: string,
  variant: string,
  givenScope: Scope,
): PropertyTrail {
  const { property, trace, problem } = propertyTrail(
    safetyProperties,
    'safety',
    propertyId,
    model,
    promela,
    replay,
  );
  const result = { file, steps: trace.steps.length, problem, itf: '', trace };
  if (problem !== '') return result;
  const itf = counterexampleItf(
    model,
    {
      property,
      violation: { message: `found by SPIN (pan trail ${file})`, trace },
    },
    variant,
    undefined,
    givenScope,
  );
  const replayed = replayTrace(parseItf(itf, file), file);
  if (!replayed.replayed) return { ...result, itf, problem: notReplayed('trace', replayed) };
  if (replayed.violatedAt === undefined)
    return { ...result, itf, problem: `the trace replays, but ${propertyId} holds in every state of it` };
  return { ...result, itf };
}

export interface PropertyTrail extends TrailCheck {
  /** The counterexample as ITF text (empty when the trail was no run of the model). */
  itf: string;
}

/** One safety property's verdict by each engine. */
export interface VerdictCheck {
  property: string;
  verify: 'holds' | 'violated' | 'vacuous';
  spin: 'holds' | 'violated';
  /** Both find it violated, or neither does (vacuous is not violated). */
  agrees: boolean;
  /** Steps of verify's shortest counterexample, when violated. */
  verifySteps?: number;
  /** SPIN's trail for it (the first violation its breadth-first search met), replayed on the model. */
  trail?: PropertyTrail;
}

/** Which trail pan wrote for what: each `nsmodel-violated B` line precedes the trail of property B; a trail without one is a deadlock's. */
export function trailsByCause(output: string): { deadlocks: string[]; properties: Map<number, string> } {
  const deadlocks: string[] = [];
  const properties = new Map<number, string>();
  let pending: number | undefined;
  for (const line of output.split('\n')) {
    const violated = /^nsmodel-violated (\d+)$/.exec(line);
    if (violated) {
      pending = Number(violated[1]);
      continue;
    }
    const wrote = /^pan: wrote (\S+\.trail)/.exec(line);
    if (!wrote) continue;
    if (pending === undefined) deadlocks.push(wrote[1]);
    else properties.set(pending, wrote[1]);
    pending = undefined;
  }
  return { deadlocks, properties };
}

/** One liveness property's verdict by each engine. */
export interface LivenessVerdictCheck {
  property: string;
  verify: LivenessStatus;
  /** `incomplete` when a pan run for one of its goals did not finish (depth bound, memory). */
  spin: 'holds' | 'violated' | 'incomplete';
  /** The namespace of SPIN's accepting cycle. */
  namespace?: string;
  /** Both find it violated, or neither does and SPIN's search was complete (and SPIN's lasso is confirmed). */
  agrees: boolean;
  /** SPIN's accepting cycle, followed on the model, written as an ITF lasso and replayed as `replay --trace` replays one. */
  lasso?: LassoCheck;
}

/** An accepting cycle of pan read back as a lasso of the model and confirmed by the lasso replay (its exit 13). */
export interface LassoCheck {
  /** Steps of the lasso, and the step its cycle starts at (ITF `loop`). */
  steps: number;
  loop: number;
  /** Empty when the ITF lasso replays and the replay confirms the violation; else what failed. */
  problem: string;
  /** The lasso as ITF text (empty when the trail was no run of the model). */
  itf: string;
}

/**
 * An accepting cycle's trail (`pan -r` of a `pan -a` trail): the steps before pan's START OF CYCLE line
 * are the prefix, the rest the cycle, whose last state must be the state the prefix ended in. Written
 * with verify's lasso writer and replayed by `npm run replay -- --trace`'s lasso code, which must
 * confirm a fair run that never reaches the goal after its premise.
 */
export function confirmLassoTrail(
  model: CheckedSystemModel,
  promela: PromelaModel,
  replay: string,
  propertyId: string,
  slot: number,
  variant: string,
): LassoCheck {
  const { property, trace, problem } = propertyTrail(
    livenessProperties,
    'liveness',
    propertyId,
    model,
    promela,
    replay,
  );
  const marker = replay.indexOf('<<<<<START OF CYCLE>>>>>');
  const loop =
    marker < 0
      ? -1
      : replay
          .slice(0, marker)
          .split('\n')
          .filter((line) => line.startsWith('nsmodel-step ')).length;
  const result = { steps: trace.steps.length, loop, problem, itf: '' };
  if (problem !== '') return result;
  if (loop < 0) return { ...result, problem: 'the trail has no START OF CYCLE: no accepting cycle' };
  if (loop >= trace.steps.length)
    return { ...result, problem: `the cycle from step ${loop} has no step of the model` };
  const namespace = slot >= 0 ? model.scope.namespaces[slot].name : undefined;
  const itf = lassoItf(
    model,
    {
      property,
      status: 'violated',
      triggers: 1,
      fairness: property.fairness.map((f) => describeFairness(f)),
      ...(namespace !== undefined ? { namespace } : {}),
      lasso: {
        initial: trace.initial,
        steps: trace.steps.map((s) => ({ event: s.event, state: s.state })),
        loopStart: loop,
      },
    },
    variant,
  );
  const replayed = replayLasso(parseItf(itf, 'spin-lasso.itf.json'), 'spin-lasso.itf.json');
  if (!replayed.replayed) return { ...result, itf, problem: notReplayed('lasso', replayed) };
  if (replayed.confirmed === undefined)
    return { ...result, itf, problem: `the lasso replays but is no counterexample: ${replayed.unconfirmed}` };
  return { ...result, itf };
}

export interface LivenessCrossCheck {
  verdicts: LivenessVerdictCheck[];
  /** pan -a runs, one per goal (property and namespace slot) until one is violated. */
  runs: number;
  /** Product states pan stored, summed over the runs. */
  states: number;
  seconds: { export: number; verify: number; spin: number };
}

/**
 * The liveness verdicts: verify's (checker/model/liveness-system.ts on the state graph) against pan's
 * acceptance-cycle search (-a) with each goal's never claim, on the liveness build of the Promela.
 */
export function crossCheckLiveness(
  model: CheckedSystemModel,
  variant: string,
  states: number,
): LivenessCrossCheck {
  // verify's search before the export, as in crossCheck: the tables are not live during the search.
  let started = performance.now();
  const judged = checkLiveness(model, spinLiveness);
  if (!judged.complete)
    throw new SearchIncomplete(
      `verify's liveness search stopped after ${judged.states} states (${judged.stopReason ?? 'no reason given'}, ${heapFigures()}): no verdicts to compare`,
    );
  const verifySeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const promela = promelaModel(model, { variant, liveness: true });
  const exportSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  // The product with the claim has at most (conditions + 2) states per model state; a DFS goes no deeper.
  const maxDepth = states * 4 + 1000;
  const goal = (property: number, slot: number) => ({ NSMODEL_GOAL: `${property} ${slot}` });
  // A pan that ended without its summary is named by its goal, so the error says which run it was.
  const named = <T>(b: number, slot: number, runIt: () => T): T => {
    try {
      return runIt();
    } catch (error) {
      if (!(error instanceof PanFailed)) throw error;
      const on = slot >= 0 ? ` on ${model.scope.namespaces[slot].name}` : '';
      throw new PanFailed(error.exit, error.output, `pan -a for ${spinLiveness[b].id}${on}`);
    }
  };
  const first = spinLiveness[0].perNamespace ? 0 : -1;
  const run = named(0, first, () =>
    runSpin(promela.text, { maxDepth, panFlags: ['-a'], env: goal(0, first), keep: true }),
  );
  let runs = 0;
  let stored = 0;
  try {
    const verdicts = spinLiveness.map((property, b): LivenessVerdictCheck => {
      const slots = property.perNamespace ? model.scope.namespaces.map((_, i) => i) : [-1];
      let spin: LivenessVerdictCheck['spin'] = 'holds';
      let namespace: string | undefined;
      let lasso: LassoCheck | undefined;
      for (const slot of slots) {
        const figures =
          b === 0 && slot === slots[0]
            ? run
            : named(b, slot, () => rerunPan(run, maxDepth, ['-a'], goal(b, slot)));
        runs++;
        stored += figures.states;
        if (/no goal/.test(figures.output)) throw new Error('pan ran without its goal');
        if (figures.errors > 0) {
          spin = 'violated';
          namespace = slot >= 0 ? model.scope.namespaces[slot].name : undefined;
          // pan -a stops at its first accepting cycle and writes it as model.pml.trail (each run overwrites it).
          const replay = replayTrail(run, 'model.pml.trail', maxDepth, goal(b, slot));
          lasso = confirmLassoTrail(model, promela, replay, property.id, slot, variant);
          break;
        }
        if (!figures.complete) spin = 'incomplete';
      }
      const result = judged.properties.find((r) => r.property.id === property.id);
      const verify = result?.status ?? 'incomplete';
      return {
        property: property.id,
        verify,
        spin,
        ...(namespace !== undefined ? { namespace } : {}),
        ...(lasso ? { lasso } : {}),
        agrees:
          spin === 'violated'
            ? verify === 'violated' && lasso?.problem === ''
            : spin === 'holds' && verify !== 'violated',
      };
    });
    return {
      verdicts,
      runs,
      states: stored,
      seconds: { export: exportSeconds, verify: verifySeconds, spin: (performance.now() - started) / 1000 },
    };
  } finally {
    removeSpinRun(run);
  }
}

/** Exports the model, runs SPIN on it and compares with `verify`'s search and verdicts. */
export function crossCheck(
  model: CheckedSystemModel,
  variant: string,
  defines: string[] = [],
  /** The scope as given, before a seeded fault's change to it: what the ITF counterexamples embed. */
  givenScope: Scope = model.scope,
  options: { liveness?: boolean } = {},
): CrossCheck {
  // The safety part returns before the liveness part starts, so its export and pan output are garbage by then.
  const safety = crossCheckSafety(model, variant, defines, givenScope);
  if (options.liveness === false)
    return {
      ...safety,
      notCompared: [`${spinLiveness.length} liveness properties: not judged in this run (--safety-only)`],
    };
  const liveness = crossCheckLiveness(model, variant, safety.verify.states);
  return {
    ...safety,
    liveness,
    agrees: safety.agrees && liveness.verdicts.every((v) => v.agrees),
  };
}

/** The figures, deadlocks and safety verdicts of `crossCheck`. */
function crossCheckSafety(
  model: CheckedSystemModel,
  variant: string,
  defines: string[],
  givenScope: Scope,
): CrossCheck {
  // verify's searches first, the export after them: the export's tables are not live while verify's
  // memory guard measures the heap (with them, the search of names-not-validated on quick stopped at it).
  const verify = verifyFigures(model);
  let started = performance.now();
  const judged = check(model, safetyProperties);
  if (!judged.complete)
    throw new SearchIncomplete(
      `verify's search judging the properties stopped after ${judged.states} states (${judged.stopReason ?? 'no reason given'}, ${heapFigures()}): no verdicts to compare`,
    );
  const verifyVerdicts = { ...verify, seconds: verify.seconds + (performance.now() - started) / 1000 };
  started = performance.now();
  const promela = promelaModel(model, { variant });
  const exported = {
    seconds: (performance.now() - started) / 1000,
    bytes: Buffer.byteLength(promela.text),
    runs: promela.tables.runs,
  };
  // Breadth-first, as verify searches (same depth, shortest trails); -c0 -e: go on past errors, a trail each.
  const run = runSpin(promela.text, {
    maxDepth: verify.states + 1,
    defines: ['BFS', ...defines],
    panFlags: ['-c0', '-e'],
    keep: true,
  });
  try {
    const causes = trailsByCause(run.output);
    const replay = (trail: string) => replayTrail(run, trail, verify.states + 1);
    const trails = causes.deadlocks
      .slice(0, 3)
      .map((trail) => confirmDeadlockTrail(model, promela, trail, replay(trail)));
    const ids = promela.tables.properties.map((p) => p.id);
    const verdicts: VerdictCheck[] = judged.properties.map((result) => {
      const b = ids.indexOf(result.property.id);
      const file = b < 0 ? undefined : causes.properties.get(b);
      const spin = file === undefined ? 'holds' : 'violated';
      return {
        property: result.property.id,
        verify: result.status,
        spin,
        agrees: (result.status === 'violated') === (spin === 'violated'),
        ...(result.violation ? { verifySteps: result.violation.trace.steps.length } : {}),
        ...(file !== undefined
          ? {
              trail: confirmPropertyTrail(
                model,
                promela,
                file,
                replay(file),
                result.property.id,
                variant,
                givenScope,
              ),
            }
          : {}),
      };
    });
    const compare = (what: string, a: number, b: number): Comparison => ({
      what,
      verify: a,
      spin: b,
      agrees: a === b,
    });
    // A count pan printed rounded (from 10^8 on, 8 significant digits) is compared with verify's rounded
    // the same way, and the comparison says so.
    const compareCount = (what: string, a: number, printed: number, offset: number): Comparison =>
      panRounded(printed)
        ? {
            what: `${what} (pan: 8 significant digits)`,
            verify: a,
            spin: printed - offset,
            agrees: asPanPrints(a + offset) === printed,
          }
        : compare(what, a, printed - offset);
    const spinDeadlocks = run.errors - causes.properties.size;
    const comparisons = [
      compareCount('distinct states', verify.states, run.states, 0),
      // pan counts stored + matched states: one more than the edges, for the initial state.
      compareCount('transitions (pan: stored + matched - 1)', verify.transitions, run.transitions, 1),
      compare('depth (pan -DBFS)', verify.depth, run.depth),
      // Every error pan counts is a property's first violation (its trail follows an nsmodel-violated line) or an invalid end state.
      compare('deadlocks (pan: invalid end states)', verify.deadlocks, spinDeadlocks),
      compare(
        'safety properties violated',
        verdicts.filter((v) => v.verify === 'violated').length,
        verdicts.filter((v) => v.spin === 'violated').length,
      ),
    ];
    const { output: _output, dir: _dir, ...figures } = run;
    return {
      scope: model.scope.name,
      variant,
      verify: verifyVerdicts,
      spin: figures,
      export: exported,
      comparisons,
      verdicts,
      trails,
      notCompared: [],
      agrees:
        run.complete &&
        comparisons.every((c) => c.agrees) &&
        verdicts.every((v) => v.agrees && (v.trail === undefined || v.trail.problem === '')) &&
        trails.every((t) => t.problem === '') &&
        (spinDeadlocks === 0 || trails.length > 0),
    };
  } finally {
    removeSpinRun(run);
  }
}

/** A cross-check as `crosscheck --json` prints it: its `$schema`, and each trail without its decoded states or ITF text. */
export type CrossCheckLine = { $schema: string } & Omit<CrossCheck, 'trails' | 'verdicts' | 'liveness'> & {
    trails: Omit<TrailCheck, 'trace'>[];
    verdicts: (Omit<VerdictCheck, 'trail'> & { trail?: Omit<PropertyTrail, 'trace' | 'itf'> })[];
    liveness?: Omit<LivenessCrossCheck, 'verdicts'> & {
      verdicts: (Omit<LivenessVerdictCheck, 'lasso'> & { lasso?: Omit<LassoCheck, 'itf'> })[];
    };
  };

export function crossCheckLine(check: CrossCheck): CrossCheckLine {
  const { liveness, ...rest } = check;
  return {
    $schema: schemaRef('crosscheck'),
    ...rest,
    ...(liveness
      ? {
          liveness: {
            ...liveness,
            verdicts: liveness.verdicts.map(({ lasso, ...verdict }) => {
              if (!lasso) return verdict;
              const { itf: _itf, ...kept } = lasso;
              return { ...verdict, lasso: kept };
            }),
          },
        }
      : {}),
    trails: check.trails.map(({ trace: _trace, ...trail }) => trail),
    verdicts: check.verdicts.map(({ trail, ...verdict }) => {
      if (!trail) return verdict;
      const { trace: _trace, itf: _itf, ...kept } = trail;
      return { ...verdict, trail: kept };
    }),
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
    verdicts: z.array(
      z.strictObject({
        property: z.string(),
        verify: z.enum(['holds', 'violated', 'vacuous']),
        spin: z.enum(['holds', 'violated']),
        agrees: z.boolean(),
        verifySteps: count.optional(),
        trail: z.strictObject({ file: z.string(), steps: count, problem: z.string() }).optional(),
      }),
    ),
    liveness: z
      .strictObject({
        verdicts: z.array(
          z.strictObject({
            property: z.string(),
            verify: z.enum(['holds', 'violated', 'vacuous', 'needs-relative-time', 'incomplete']),
            spin: z.enum(['holds', 'violated', 'incomplete']),
            namespace: z.string().optional(),
            agrees: z.boolean(),
            lasso: z.strictObject({ steps: count, loop: count, problem: z.string() }).optional(),
          }),
        ),
        runs: count,
        states: count,
        seconds: z.strictObject({ export: seconds, verify: seconds, spin: seconds }),
      })
      .optional(),
    notCompared: z.array(z.string()),
    agrees: z.boolean(),
  })
  .meta({
    title: 'nsmodel SPIN cross-check',
    description:
      "One line of npm run crosscheck -- --json: verify's and SPIN's states, transitions, depth, deadlocks and every property's verdict on one model, compared.",
  }) as unknown as z.ZodType<CrossCheckLine>;
