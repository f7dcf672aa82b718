import fc from 'fast-check';
import type { RequestCommand } from '../../machines/commands.ts';
import type { SystemEvent, SystemState } from '../../machines/system.ts';
import type { Property } from '../../properties/types.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import { type CounterexampleStep, traceSteps } from '../scenario/counterexample-story.ts';
import type { Trace } from './check.ts';
import { requestCommandArb } from './random-commands.ts';

/**
 * Random walks beyond the exhaustive bound. A walk is a list of steps: a request command of the
 * scope (drawn by checker/judging/random-commands.ts from what the search expands), or a choice index that
 * picks one of the other steps enabled (controllers, the configuration administrator, the clock,
 * faults). Every property is judged on every state and every enabled step. fast-check generates the
 * lists and shrinks a failing one, so the counterexample is short, and its seed and path replay it.
 */

export interface RandomRunOptions {
  /** Walks to try (fast-check `numRuns`). */
  runs?: number;
  /** fast-check seed; a random one when absent, reported either way. */
  seed?: number;
  /** Longest walk, in steps. */
  steps?: number;
  /** fast-check path of a reported failure: with its seed, replays that one walk (and its shrinking). */
  path?: string;
}

export interface Violation {
  propertyId: string;
  message: string;
}

/** A walk's step: a principal's request, or the n-th (modulo) of the other steps that change the state. */
export type WalkStep = RequestCommand | number;

/** One walk judged: where it stopped and why. */
export interface Walk {
  trace: Trace;
  /** How many of the walk's steps it used before it stopped. */
  used: number;
  /** Empty when every property held all along. */
  violations: Violation[];
}

export interface RandomFailure {
  /** Every property broken by the last step of the shrunk walk. */
  violations: Violation[];
  /** The shrunk walk, in the format of the exhaustive counterexamples. */
  steps: CounterexampleStep[];
  trace: Trace;
  /** The shrunk walk's steps, for replay through `walk`. */
  choices: WalkStep[];
  /** fast-check's path to the shrunk case: `--seed S --path P` replays it. */
  path: string;
  shrinks: number;
}

export interface RandomRunResult {
  ok: boolean;
  /** Walks run (stops at the first failure). */
  runs: number;
  seed: number;
  /** Steps taken over all walks, shrinking included. */
  stepsTaken: number;
  failure?: RandomFailure;
}

export const defaultRandomSteps = 60;

type Step = Trace['steps'][number];

/** Judges the invariants on a state and the step properties on the step into it (none for an initial state). */
export function judge(
  model: CheckedSystemModel,
  properties: Property[],
  before: SystemState | null,
  event: Step['event'] | null,
  after: SystemState,
): Violation[] {
  const broken: Violation[] = [];
  for (const p of properties) {
    const verdict =
      p.kind === 'invariant'
        ? p.predicate(model, after)
        : before && event
          ? p.predicate(model, before, event, after)
          : true;
    if (verdict !== true) broken.push({ propertyId: p.id, message: verdict });
  }
  return broken;
}

/** A step other than a principal's own request: a controller's, the API server's, the configuration administrator's, the clock's or a fault. */
const isOther = (e: SystemEvent) => e.actorKind !== 'principal' || e.command?.kind === 'configuration';

/**
 * Follows the steps from the model's first initial state. At every state reached, every enabled
 * step is judged (refused requests and reads included), then the walk's next step is taken: its
 * request command run through the model, or the choice among the distinct states the other steps
 * lead to. A step that changes nothing is judged but not recorded, so every recorded step moves.
 * Stops at the first violation, whose step ends the trace, or when the steps run out. Deterministic.
 */
export function walk(model: CheckedSystemModel, properties: Property[], steps: readonly WalkStep[]): Walk {
  const [initial] = model.initialStates();
  const trace: Trace = { initial, steps: [] };
  const atStart = judge(model, properties, null, null, initial);
  if (atStart.length > 0) return { trace, used: 0, violations: atStart };
  let state = initial;
  for (let used = 0; ; used++) {
    const others = new Map<string, Step>();
    const here = model.key(state);
    for (const { event, next } of model.enabled(state)) {
      const violations = judge(model, properties, state, event, next);
      if (violations.length > 0) {
        trace.steps.push({ event, state: next });
        return { trace, used, violations };
      }
      const key = model.key(next);
      if (isOther(event) && key !== here && !others.has(key)) others.set(key, { event, state: next });
    }
    if (used === steps.length) return { trace, used, violations: [] };
    const step = steps[used];
    let move: Step | undefined;
    if (typeof step === 'number')
      move = others.size > 0 ? [...others.values()][step % others.size] : undefined;
    else {
      const { event, next } = step.run(model, state);
      const violations = judge(model, properties, state, event, next);
      if (violations.length > 0) {
        trace.steps.push({ event, state: next });
        return { trace, used: used + 1, violations };
      }
      if (model.key(next) !== here) move = { event, state: next };
    }
    if (move) {
      trace.steps.push(move);
      state = move.state;
    }
  }
}

/** A walk's steps: the scope's request commands and choices among the other steps, mixed. */
export function walkArb(model: CheckedSystemModel, maxSteps: number): fc.Arbitrary<WalkStep[]> {
  const requests = requestCommandArb(model.scope, model.objects);
  const choice = fc.nat({ max: 0xffff });
  const step: fc.Arbitrary<WalkStep> = requests ? fc.oneof(requests, choice) : choice;
  return fc.array(step, { maxLength: maxSteps, size: 'max' });
}

/** Random walks with shrinking; the first failing walk is shrunk and reported with its seed and path. */
export function randomRun(
  model: CheckedSystemModel,
  properties: Property[],
  options: RandomRunOptions = {},
): RandomRunResult {
  const maxSteps = options.steps ?? defaultRandomSteps;
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0;
  let stepsTaken = 0;
  const result = fc.check(
    fc.property(walkArb(model, maxSteps), (choices) => {
      const w = walk(model, properties, choices);
      stepsTaken += w.trace.steps.length;
      return w.violations.length === 0;
    }),
    { numRuns: options.runs ?? 100, seed, ...(options.path !== undefined ? { path: options.path } : {}) },
  );
  const base = { runs: result.numRuns, seed: result.seed, stepsTaken };
  if (!result.failed || result.counterexample === null) return { ok: !result.failed, ...base };
  const [choices] = result.counterexample;
  const shrunk = walk(model, properties, choices);
  return {
    ok: false,
    ...base,
    failure: {
      violations: shrunk.violations,
      steps: traceSteps(model, shrunk.trace),
      trace: shrunk.trace,
      // Only the steps the walk used: the rest never ran.
      choices: choices.slice(0, shrunk.used),
      path: result.counterexamplePath ?? '',
      shrinks: result.numShrinks,
    },
  };
}

/** The failure as numbered steps with what broke, and how to replay it. */
export function randomFailureText(result: RandomRunResult): string {
  const f = result.failure;
  if (!f) return `${result.runs} random walks: every property held (seed ${result.seed}).`;
  return [
    `Random walk broke ${f.violations.map((v) => v.propertyId).join(', ')} after ${f.steps.length} steps (shrunk ${f.shrinks} times):`,
    ...f.steps.map((s, i) => `  ${i + 1}. ${s.actor}: ${s.event} — ${s.summary}`),
    ...f.violations.map((v) => `  ${v.propertyId}: ${v.message}`),
    `Replay: --seed ${result.seed} --path ${f.path}`,
  ].join('\n');
}
