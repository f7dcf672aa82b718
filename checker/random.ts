import fc from 'fast-check';
import type { SystemModel, SystemState } from '../machines/system.ts';
import type { Property } from '../properties/types.ts';
import type { Trace } from './check.ts';
import { type CounterexampleStep, traceSteps } from './counterexample.ts';

/**
 * Random walks beyond the exhaustive bound. A walk is a list of choice indices: at each step the
 * index (modulo the number of enabled events) picks what happens next, and every property is judged
 * on the state and the step. fast-check generates the lists and shrinks a failing one, so the
 * counterexample is short, and its seed and path replay it exactly.
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

/** One walk judged: where it stopped and why. */
export interface Walk {
  trace: Trace;
  /** Empty when every property held all along. */
  violations: Violation[];
}

export interface RandomFailure {
  /** Every property broken by the last step of the shrunk walk. */
  violations: Violation[];
  /** The shrunk walk, in the format of the exhaustive counterexamples. */
  steps: CounterexampleStep[];
  trace: Trace;
  /** The shrunk choice indices, for replay through `walk`. */
  choices: number[];
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
  model: SystemModel,
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

/**
 * Follows the choices from the model's first initial state. At every state reached, every enabled
 * step is judged (refused requests and reads included, which change nothing), then the choice picks
 * one of the distinct states the steps lead to, so each choice moves the walk. Stops at the first
 * violation, whose step ends the trace, or where nothing changes the state. Deterministic.
 */
export function walk(model: SystemModel, properties: Property[], choices: readonly number[]): Walk {
  const [initial] = model.initialStates();
  const trace: Trace = { initial, steps: [] };
  const atStart = judge(model, properties, null, null, initial);
  if (atStart.length > 0) return { trace, violations: atStart };
  let state = initial;
  for (let taken = 0; ; taken++) {
    const moves = new Map<string, Step>();
    const here = model.key(state);
    for (const { event, next } of model.enabled(state)) {
      const violations = judge(model, properties, state, event, next);
      if (violations.length > 0) {
        trace.steps.push({ event, state: next });
        return { trace, violations };
      }
      const key = model.key(next);
      if (key !== here && !moves.has(key)) moves.set(key, { event, state: next });
    }
    if (taken === choices.length || moves.size === 0) return { trace, violations: [] };
    const move = [...moves.values()][choices[taken] % moves.size];
    trace.steps.push(move);
    state = move.state;
  }
}

/** Random walks with shrinking; the first failing walk is shrunk and reported with its seed and path. */
export function randomRun(
  model: SystemModel,
  properties: Property[],
  options: RandomRunOptions = {},
): RandomRunResult {
  const maxSteps = options.steps ?? defaultRandomSteps;
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0;
  let stepsTaken = 0;
  const choicesArb = fc.array(fc.nat({ max: 0xffff }), { maxLength: maxSteps, size: 'max' });
  const result = fc.check(
    fc.property(choicesArb, (choices) => {
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
      // Only the choices the walk used: the rest never ran.
      choices: choices.slice(0, shrunk.trace.steps.length),
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
