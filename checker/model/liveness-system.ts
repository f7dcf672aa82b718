import type { SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import type { Fairness, LivenessProperty } from '../../properties/types.ts';
import type { SearchLimits } from '../engine/explore.ts';
import {
  checkGoal,
  deadlocks,
  type FairnessCondition,
  type GoalVerdict,
  type Lasso,
} from '../engine/liveness.ts';
import type { StopReason } from '../engine/model.ts';
import { buildStateGraph, type StateGraph } from '../engine/state-graph.ts';
import { JudgementStopped } from '../engine/tarjan.ts';
import type { CheckedSystemModel } from './system-model.ts';

/**
 * Liveness and deadlock verdicts on the system model: each property's fairness data compiled to event
 * predicates, judged per namespace slot, on one explored graph shared by every property.
 */

/** `incomplete`: the search stopped at a limit and no lasso was found among the states explored. */
export type LivenessStatus = 'holds' | 'violated' | 'vacuous' | 'needs-relative-time' | 'incomplete';

export interface LivenessResult {
  property: LivenessProperty;
  status: LivenessStatus;
  /** States where the premise held and the goal was pending. */
  triggers: number;
  /** The fairness conditions assumed, one line each (per-namespace ones expanded). */
  fairness: string[];
  /** The namespace the lasso is about (per-namespace properties). */
  namespace?: string;
  lasso?: Lasso<SystemState, SystemEvent>;
}

export interface DeadlockResult {
  count: number;
  /** States without successors only because the bounded clock reached its horizon: declared terminal. */
  atHorizon: number;
  trace?: { initial: SystemState; steps: { event: SystemEvent; state: SystemState }[] };
}

export interface LivenessRun {
  states: number;
  transitions: number;
  durationMs: number;
  complete: boolean;
  stopReason?: StopReason;
  deadlock: DeadlockResult;
  properties: LivenessResult[];
  /**
   * Under symmetry reduction: judged on pairs (orbit representative, slot a property follows), the group's
   * order, the orbits and the pairs the judgements walked (checker/judging/liveness-symmetric.ts).
   */
  judgedOn?: { kind: 'symmetry'; order: number; orbits: number; pairs: number };
  /** The judgement passed its deadline after this many properties (in order); the rest are `incomplete`. */
  stoppedAt?: { judged: number };
}

/** Runs a judgement; true when it passed its deadline (`JudgementStopped`) before the end. */
export function judgedUntil(judgement: () => void): boolean {
  try {
    judgement();
    return false;
  } catch (error) {
    if (error instanceof JudgementStopped) return true;
    throw error;
  }
}

/** Every property's result: those judged, then the rest `incomplete`, with where the judgement stopped. */
export function untilStopped(
  properties: readonly LivenessProperty[],
  judged: readonly LivenessResult[],
  stopped: boolean,
): Pick<LivenessRun, 'properties' | 'stoppedAt'> {
  const rest = properties.slice(judged.length).map(
    (property): LivenessResult => ({
      property,
      status: 'incomplete',
      triggers: 0,
      fairness: property.fairness.map((f) => describeFairness(f)),
    }),
  );
  return { properties: [...judged, ...rest], ...(stopped ? { stoppedAt: { judged: judged.length } } : {}) };
}

/** What a liveness run says of the search it judged: its size, time and whether it finished. */
export function searchFigures(
  search: { states: number; transitions: number; complete: boolean; stopReason?: StopReason },
  started: number,
): Pick<LivenessRun, 'states' | 'transitions' | 'durationMs' | 'complete' | 'stopReason'> {
  return {
    states: search.states,
    transitions: search.transitions,
    durationMs: performance.now() - started,
    complete: search.complete,
    ...(search.stopReason ? { stopReason: search.stopReason } : {}),
  };
}

/** A model that declares where its bounded clock stops; runs that stall there may only be out of time. */
export interface HorizonAware<S> {
  atHorizon(state: S): boolean;
}

/** A model that declares states where the system is meant to stop: those are not deadlocks. */
export interface TerminalAware<S> {
  isTerminal(state: S): boolean;
}

/** The states a model declares terminal: its own `isTerminal`, and the states where its clock stops. */
export function systemTerminal(model: SystemModel): (state: SystemState) => boolean {
  return systemTerminalDeclared(model) ?? (() => false);
}

/** The model's own `isTerminal`, or undefined when it declares none. */
export function systemTerminalDeclared(model: SystemModel): ((state: SystemState) => boolean) | undefined {
  const declared = (model as Partial<TerminalAware<SystemState>>).isTerminal;
  return typeof declared === 'function' ? (s) => declared.call(model, s) : undefined;
}

/** A model's horizon, if it declares one; the system model's time is relative and has none (docs/time.md). */
export function systemHorizon(model: SystemModel): (state: SystemState) => boolean {
  return systemHorizonDeclared(model) ?? (() => false);
}

/** The model's own `atHorizon`, or undefined when it declares none. */
export function systemHorizonDeclared(model: SystemModel): ((state: SystemState) => boolean) | undefined {
  const declared = (model as Partial<HorizonAware<SystemState>>).atHorizon;
  return typeof declared === 'function' ? (s) => declared.call(model, s) : undefined;
}

/** A property relies on time passing when it assumes the clock fair. */
export const needsTime = (p: LivenessProperty) => p.fairness.some((f) => f.actorKind === 'clock');

export function describeFairness(f: Fairness, namespace?: string): string {
  const who = f.actor ?? `every ${f.actorKind}`;
  const label = f.request ? ` ${f.request.verb} requests on the ${f.request.target}` : ' steps';
  const where = namespace !== undefined ? ` on ${namespace}` : f.perNamespace ? ' on each namespace' : '';
  return `${f.kind === 'weak' ? 'WF' : 'SF'}(${who}${label}${where}): ${f.why}`;
}

/** One condition per fairness entry, or per namespace slot for per-namespace entries. */
export function compileFairness(model: SystemModel, fairness: Fairness[]): FairnessCondition<SystemEvent>[] {
  return fairness.flatMap((f) => {
    const base = (e: SystemEvent) =>
      e.actorKind === f.actorKind &&
      (f.actor === undefined || e.actor === f.actor) &&
      (f.request === undefined ||
        (e.request?.verb === f.request.verb &&
          e.request.target === f.request.target &&
          // A request on a sub-resource (status) is not one on the object itself (D-30).
          e.request.subresource === undefined));
    if (!f.perNamespace) return [{ kind: f.kind, name: describeFairness(f), matches: base }];
    return model.scope.namespaces.map((spec, i) => ({
      kind: f.kind,
      name: describeFairness(f, spec.name),
      matches: (e: SystemEvent) => base(e) && e.namespace === i,
    }));
  });
}

const rank: Record<LivenessStatus, number> = {
  vacuous: 0,
  holds: 1,
  incomplete: 1,
  'needs-relative-time': 2,
  violated: 3,
};

/** Judges one property on an explored graph of the system model. */
export function judgeLiveness(
  model: SystemModel,
  graph: StateGraph<SystemState, SystemEvent>,
  property: LivenessProperty,
): LivenessResult {
  const conditions = compileFairness(model, property.fairness);
  const atHorizon = systemHorizon(model);
  const stateAt = graph.search.stateAt;
  const { p } = property;
  return combineSlots(model, property, graph.complete, (slot) =>
    checkGoal(
      graph,
      {
        ...(p ? { p: (s: number) => p(model, stateAt(s), slot) } : {}),
        q: (s) => property.q(model, stateAt(s), slot),
      },
      conditions,
      { horizon: (s) => atHorizon(stateAt(s)) },
    ),
  );
}

/**
 * One property's verdict from its goals' verdicts, slot by slot (one slot, -1, for a system-wide
 * property): the worst status wins, the first violation ends the walk.
 */
export function combineSlots(
  model: SystemModel,
  property: LivenessProperty,
  complete: boolean,
  verdictOf: (slot: number) => GoalVerdict<SystemState, SystemEvent>,
): LivenessResult {
  const slots = property.perNamespace ? model.scope.namespaces.map((_, i) => i) : [-1];
  const timed = needsTime(property);
  let result: LivenessResult = {
    property,
    status: 'vacuous',
    triggers: 0,
    fairness: property.fairness.map((f) => describeFairness(f)),
  };
  for (const slot of slots) {
    const verdict = verdictOf(slot);
    result.triggers += verdict.triggers;
    if (verdict.triggers === 0) continue;
    const status: LivenessStatus =
      verdict.lasso === undefined
        ? 'holds'
        : verdict.onlyAtHorizon && timed
          ? 'needs-relative-time'
          : 'violated';
    if (rank[status] > rank[result.status]) {
      result = {
        ...result,
        status,
        ...(verdict.lasso ? { lasso: verdict.lasso } : {}),
        ...(slot >= 0 && verdict.lasso ? { namespace: model.scope.namespaces[slot].name } : {}),
      };
    }
    if (status === 'violated') break;
  }
  // A pass needs the whole graph: an incomplete search never reports one.
  if (!complete && (result.status === 'holds' || result.status === 'vacuous'))
    return { ...result, status: 'incomplete' };
  return result;
}

/** Explores the model once, then judges deadlock and every liveness property on the graph. */
export function checkLiveness(
  model: CheckedSystemModel,
  properties: LivenessProperty[],
  options: SearchLimits & { graph?: StateGraph<SystemState, SystemEvent> } = {},
): LivenessRun {
  const { graph: given, ...limits } = options;
  const graph = given ?? buildStateGraph(model, limits);
  const started = performance.now();
  const atHorizon = systemHorizon(model);
  const stopsAtHorizon = (s: number) => atHorizon(graph.search.stateAt(s));
  const terminal = systemTerminal(model);
  const declared = (s: number) => terminal(graph.search.stateAt(s));
  const stuck = deadlocks(graph, (s) => declared(s) || stopsAtHorizon(s));
  const horizonStops = deadlocks(graph, declared).length - stuck.length;
  const results = properties.map((p) => judgeLiveness(model, graph, p));
  return {
    states: graph.size,
    transitions: graph.transitions,
    durationMs: (given ? 0 : graph.durationMs) + (performance.now() - started),
    complete: graph.complete,
    ...(graph.stopReason ? { stopReason: graph.stopReason } : {}),
    deadlock: {
      count: stuck.length,
      atHorizon: horizonStops,
      ...(stuck.length > 0 ? { trace: graph.search.traceTo(stuck[0]) } : {}),
    },
    properties: results,
  };
}
