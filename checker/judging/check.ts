import { listTransitions, type TransitionInfo } from '../../machines/stepper.ts';
import type { SystemEvent, SystemState } from '../../machines/system.ts';
import type { InvariantProperty, Property, StepProperty } from '../../properties/types.ts';
import {
  type ExploreOptions,
  type ExploreResult,
  explore,
  exploreAsync,
  layerOf,
} from '../engine/explore.ts';
import {
  type BitstateFigures,
  exploreBitstate,
  type HashCompactFigures,
} from '../engine/explore-bitstate.ts';
import type { ExplorableModel, StopReason } from '../engine/model.ts';
import type { ProgressOption } from '../engine/progress.ts';
import { grown } from '../engine/state-store.ts';
import { type CompiledSystem, compiledFor } from '../model/compiled.ts';
import {
  type CompiledOptions,
  type CompiledResult,
  edgeDecoded,
  edgeHandled,
  edgeStop,
  exploreCompiled,
  exploreCompiledAsync,
} from '../model/compiled-explore.ts';
import { systemCodec } from '../model/encoding.ts';
import { type StateJudgement, StateMemo, type StepJudgement, StepMemo } from '../model/step-memo.ts';
import { concreteTrace, type StateSymmetry } from '../model/symmetry.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';

/** A shortest path to a violation: the states along it and the steps between them. */
export interface Trace {
  initial: SystemState;
  steps: { event: SystemEvent; state: SystemState }[];
}

export interface PropertyResult {
  property: Property;
  status: 'holds' | 'violated' | 'vacuous';
  /** States (invariant witnesses) or steps (step witnesses) where the premise was met. */
  witnesses: number;
  violation?: { message: string; trace: Trace };
}

export interface CheckResult {
  states: number;
  transitions: number;
  depth: number;
  durationMs: number;
  statesPerSecond: number;
  complete: boolean;
  stopReason?: StopReason;
  properties: PropertyResult[];
  coverage: { covered: string[]; uncovered: TransitionInfo[]; total: number };
  /** A bitstate search's filter and its estimated chance of having missed a state. */
  bitstate?: BitstateFigures;
  /** A hash-compacted search's fingerprint table and its estimated chance of having missed a state. */
  hashCompact?: HashCompactFigures;
  /** Under symmetry reduction: the group's order and the states and transitions the orbits stand for. */
  symmetry?: { order: number; represented: { states: number; transitions: number } };
}

export interface CheckOptions {
  maxStates?: number;
  /** The distinct states the search expects (a scope's golden count), to size the compiled search's visited set. */
  expectedStates?: number;
  maxHeapBytes?: number;
  maxSeconds?: number;
  /** Aborting it stops the search (`interrupted`); only `checkAsync` lets a signal handler run meanwhile. */
  signal?: AbortSignal;
  progress?: ProgressOption;
  /** Stop as soon as every property has been violated (saves time on mutants). */
  stopWhenAllViolated?: boolean;
  /** Keeps what liveness needs of this search (a graph, or a `LivenessCollector`'s words), so it is not repeated. */
  recorder?: SearchRecorder;
  /**
   * End the search once the breadth-first level of the first violation is done (`first-violation`):
   * every property broken at that length is reported with its first trace in discovery order.
   */
  stopOnFirst?: boolean;
  /** With `stopOnFirst`: go on this many more breadth-first levels, to see what else breaks (default 0). */
  horizonLevels?: number;
  /** Called at once when a property is first violated, while the search goes on. */
  onViolation?: (violation: FirstViolation) => void;
  /** Bitstate search with 2^log2Bits bits (checker/engine/explore-bitstate.ts); no recorder, so no liveness. */
  bitstate?: { log2Bits: number };
  /** Hash compaction: a 64-bit fingerprint per state instead of its lanes; no recorder, so no liveness. */
  hashCompact?: boolean;
  /** Keep one state per orbit of the scope's symmetry (checker/model/symmetry.ts); traces stay concrete. */
  symmetry?: StateSymmetry;
  /** Judge every step anew instead of once per step class (checker/model/step-memo.ts): for tests of the memo. */
  memo?: false;
}

/** The compiled search's hooks that the judge gives. */
type LaneHooks = 'onLaneEdge' | 'onEdge' | 'onSelfBundle' | 'onSelfBundlesDone';

/** What follows a search for liveness: each expansion, each edge, each new state, then the result. */
export interface SearchRecorder {
  wrap(model: ExplorableModel<SystemState, SystemEvent>): ExplorableModel<SystemState, SystemEvent>;
  expanding(): void;
  edge(event: SystemEvent, afterIndex: number): void;
  /**
   * An edge of the compiled search by its event's id in `events` (instead of `edge`, when given);
   * `selfLoop` when it leads back to the state expanded (its target's index is the source's).
   */
  eventEdge?(event: number, events: readonly SystemEvent[], selfLoop: boolean): void;
  /**
   * The first `count` of the `total` self-loops of a compiled table bundle (`bundle` names it; the k-th
   * one's event id is `eventOf(bundle, k)`): as `eventEdge` on each.
   */
  selfLoopBundle?(
    bundle: number,
    count: number,
    total: number,
    eventOf: (bundle: number, k: number) => number,
    events: readonly SystemEvent[],
  ): void;
  state?(state: SystemState, index: number): void;
  finish(search: ExploreResult<SystemState, SystemEvent>): unknown;
}

/** What the search knows when a property first breaks: enough for one line printed at once. */
export interface FirstViolation {
  propertyId: string;
  message: string;
  /** Steps of its (shortest) trace. */
  depth: number;
  /** Distinct states discovered so far. */
  states: number;
  /**
   * Which step broke it, as a sequence number of the edges judged (an invariant broken in a state counts
   * as broken by the step that discovered it; -1 for an initial state): violations with the same number
   * were broken by the same step.
   */
  step?: number;
}

/** Every transition of every machine the system steps, for coverage. */
export function systemTransitions(model: CheckedSystemModel): TransitionInfo[] {
  const machines = [
    model.machines.namespace,
    model.machines.pipeline,
    model.machines.admission,
    model.machines.configSync,
    model.machines.initializerController,
    model.machines.namespaceController,
    model.machines.finalizerOwner,
    model.machines.initializerTimeout,
    model.machines.timer,
    model.machines.failureInjector,
    model.authorizer.machine,
  ];
  return machines.flatMap((m) => listTransitions(m));
}

/**
 * Explores the model breadth-first and judges every property on every state and step. The first
 * violation found of each property is the shortest one, because states are visited in BFS order.
 */
export function check(
  model: CheckedSystemModel,
  properties: Property[],
  options: CheckOptions = {},
): CheckResult {
  const search = searchFor(model, properties, options);
  if ('done' in search) return search.done;
  const { judge, recorder } = search;
  const result = compiles(options)
    ? exploreCompiled(compiledFor(model), compiledOptions(model, judge, recorder, options))
    : explore(recorder ? recorder.wrap(model) : model, judge.options);
  recorder?.finish(result);
  return withFigures(judge.verdicts(result), result);
}

/** The compiled search's options: the judge's, with its edges judged from the lanes first. */
function compiledOptions(
  model: CheckedSystemModel,
  judge: ReturnType<typeof createJudge>,
  recorder: CheckOptions['recorder'],
  options: CheckOptions,
): CompiledOptions {
  // The compiled search picks representatives on lanes (`lanesSymmetry`), not on decoded states.
  const { canonical: _onStates, ...searchOptions } = judge.options;
  return {
    ...searchOptions,
    ...judge.lanes(compiledFor(model)),
    onExpand: () => recorder?.expanding(),
    ...(options.expectedStates !== undefined ? { expectedStates: options.expectedStates } : {}),
    hashCompact: options.hashCompact === true,
    ...(options.symmetry ? { lanesSymmetry: options.symmetry.onLanes() } : {}),
  };
}

/** The judge of a search, or the finished result of a bitstate one (which keeps no graph to record). */
function searchFor(
  model: CheckedSystemModel,
  properties: Property[],
  options: CheckOptions,
): { done: CheckResult } | { judge: ReturnType<typeof createJudge>; recorder: CheckOptions['recorder'] } {
  const judge = createJudge(model, properties, options);
  const { recorder } = options;
  if (options.hashCompact === true && recorder)
    throw new Error('check: a hash-compacted search keeps no states to walk again; drop the recorder');
  if (options.hashCompact === true && options.symmetry !== undefined)
    throw new Error(
      'check: hash compaction replays concrete states for its traces; it runs without symmetry',
    );
  if (!options.bitstate) return { judge, recorder };
  if (recorder) throw new Error('check: a bitstate search records no graph; drop the recorder');
  return { done: bitstateCheck(model, judge, options.bitstate.log2Bits) };
}

/** A check's result, with the fingerprint table's figures of a hash-compacted search. */
const withFigures = (
  verdicts: CheckResult,
  result: CompiledResult | ExploreResult<SystemState, SystemEvent>,
) =>
  'hashCompact' in result && result.hashCompact ? { ...verdicts, hashCompact: result.hashCompact } : verdicts;

/**
 * The compiled model (checker/model/compiled.ts) serves every search, symmetry's too (representatives
 * chosen on the lanes, and liveness's collector, which walks them again with their permutations), but a
 * graph recorder under symmetry: its edges would need the permutations.
 */
const compiles = (options: CheckOptions) =>
  options.symmetry === undefined ||
  options.recorder === undefined ||
  options.recorder.eventEdge !== undefined;

/** A bitstate search keeps no graph: it refuses a recorder rather than record a graph with holes. */
function bitstateCheck(
  model: CheckedSystemModel,
  judge: ReturnType<typeof createJudge>,
  log2Bits: number,
): CheckResult {
  if (judge.options.codec === undefined) throw new Error('check: a bitstate search needs packed states');
  const result = exploreBitstate(model, { ...judge.options, codec: judge.options.codec, log2Bits });
  return { ...judge.verdicts(result), bitstate: result.bitstate };
}

/** `check` on `exploreAsync`: SIGINT/SIGTERM handlers run during the search and can abort `options.signal`. */
export async function checkAsync(
  model: CheckedSystemModel,
  properties: Property[],
  options: CheckOptions = {},
): Promise<CheckResult> {
  const search = searchFor(model, properties, options);
  if ('done' in search) return search.done;
  const { judge, recorder } = search;
  const result = compiles(options)
    ? await exploreCompiledAsync(compiledFor(model), compiledOptions(model, judge, recorder, options))
    : await exploreAsync(recorder ? recorder.wrap(model) : model, judge.options);
  recorder?.finish(result);
  return withFigures(judge.verdicts(result), result);
}

/**
 * A property's violation with its trace. Under symmetry the representatives' path jumps between orbit
 * members, so it is rebuilt step by step from the initial state into a concrete one.
 */
export function violatedResult(
  model: CheckedSystemModel,
  property: Property,
  witnesses: number,
  message: string,
  trace: Trace,
  symmetry?: StateSymmetry,
): PropertyResult {
  if (symmetry === undefined || symmetry.order === 1)
    return { property, status: 'violated', witnesses, violation: { message, trace } };
  const judge = (before: SystemState, event: SystemEvent, after: SystemState) =>
    property.kind === 'step'
      ? property.predicate(model, before, event, after)
      : property.predicate(model, after);
  const concrete = concreteTrace(model, symmetry.canonical, trace, (b, e, a) => judge(b, e, a) !== true);
  const end = concrete.steps.at(-1);
  const before = concrete.steps.at(-2)?.state ?? concrete.initial;
  const again = end
    ? judge(before, end.event, end.state)
    : property.kind === 'invariant'
      ? property.predicate(model, concrete.initial)
      : true;
  return {
    property,
    status: 'violated',
    witnesses,
    violation: { message: again === true ? message : again, trace: concrete },
  };
}

/** Coverage of the machines' transitions from the ids the search saw taken. */
export function coverageOf(model: CheckedSystemModel, covered: ReadonlySet<string>): CheckResult['coverage'] {
  const all = systemTransitions(model);
  return {
    covered: all.filter((t) => covered.has(t.id)).map((t) => t.id),
    uncovered: all.filter((t) => !covered.has(t.id)),
    total: all.length,
  };
}

function createJudge(
  model: CheckedSystemModel,
  properties: Property[],
  options: CheckOptions,
): {
  options: ExploreOptions<SystemState, SystemEvent>;
  /** The compiled search's edge hooks: `onLaneEdge` judges what it can from the lanes, `onEdge` the rest. */
  lanes(compiled: CompiledSystem): Pick<CompiledOptions, LaneHooks>;
  verdicts(result: ExploreResult<SystemState, SystemEvent>): CheckResult;
} {
  const violations = new Map<
    string,
    { message: string; stateIndex: number; event?: SystemEvent; after?: SystemState }
  >();
  const covered = new Set<string>();
  const invariants = properties.filter((p): p is InvariantProperty => p.kind === 'invariant');
  const steps = properties.filter((p): p is StepProperty => p.kind === 'step');
  const stateWitnesses = properties.flatMap((p) =>
    p.witness.on === 'state' ? [{ id: p.id, test: p.witness.test }] : [],
  );
  const stepWitnesses = properties.flatMap((p) =>
    p.witness.on === 'step' ? [{ id: p.id, test: p.witness.test }] : [],
  );
  // Step judgements as booleans, remembered per step class (checker/model/step-memo.ts) unless turned off.
  const stepPredicates: StepJudgement<boolean>[] = steps.map(
    (p) => (m, b, e, a) => p.predicate(m, b, e, a) === true,
  );
  const stepWitnessTests: StepJudgement<boolean>[] = stepWitnesses.map((w) => w.test);
  const stepWitnessCounts = stepWitnesses.map(() => 0);
  const stateWitnessCounts = stateWitnesses.map(() => 0);
  // Once a property is violated its first trace is kept and it is judged no more.
  const stepViolated = steps.map(() => false);
  const invariantViolated = invariants.map(() => false);
  // Let, not const: the search's closures outlive it (liveness walks them), and the memos are dropped once judged.
  // With no step judgement there is no class to settle: a memo over none would decode every edge for nothing.
  let memo: StepMemo | undefined =
    options.memo === false || stepPredicates.length + stepWitnessTests.length === 0
      ? undefined
      : new StepMemo(model, stepPredicates.length + stepWitnessTests.length, stepPredicates.length);
  // A violated predicate is judged no more: a list's bundle need not know its answer.
  if (memo) memo.skipped = (j) => stepViolated[j];
  // Invariants and state witness tests as booleans, remembered per state's namespace slots unless turned off.
  let stateMemo: StateMemo | undefined =
    options.memo === false ? undefined : new StateMemo(model, invariants.length + stateWitnesses.length);
  const invariantHolds: StateJudgement[] = invariants.map((p) => (m, s) => p.predicate(m, s) === true);
  const seenEvents = new Set<SystemEvent>();
  // First index of each BFS level, from onState's depth: the depth of a step's before-state, on demand.
  const layerStarts: number[] = [];
  let statesSoFar = 0;
  /** Trace length of the first violation, once one is found (stop-on-first ends the search after it). */
  let firstLevel: number | undefined;
  let stoppedOnFirst = false;
  const allViolated = () => options.stopWhenAllViolated === true && violations.size === properties.length;
  /** Edges judged so far: the step a violation is tagged with. */
  let edgeSeq = -1;
  const found = (propertyId: string, message: string, depth: number) => {
    firstLevel ??= depth;
    options.onViolation?.({
      propertyId,
      message,
      depth,
      states: statesSoFar,
      step: depth === 0 ? -1 : edgeSeq,
    });
  };
  const horizon = options.horizonLevels ?? 0;
  /**
   * With stop-on-first, whether an edge out of `beforeIndex` lies past the first violation's level (plus the
   * horizon): it would make a longer trace, so that level is done and the search stops.
   */
  const pastFirstLevel = (beforeIndex: number): boolean => {
    if (
      !options.stopOnFirst ||
      firstLevel === undefined ||
      layerOf(layerStarts, beforeIndex) < firstLevel + horizon
    )
      return false;
    stoppedOnFirst = true;
    return true;
  };

  // What the orbits stand for: each representative counts its orbit, each of its steps once per member.
  const { symmetry } = options;
  const represented = { states: 0, transitions: 0 };
  let lastBefore: SystemState | undefined;
  let lastBeforeOrbit = 1;

  const judgements = stepPredicates.length + stepWitnessTests.length;
  /** Judgement j on a step (a predicate, then the witness tests): false when it found a new violation. */
  const judgeOne = (
    j: number,
    before: SystemState,
    event: SystemEvent,
    after: SystemState,
    beforeIndex: number,
  ): boolean => {
    if (j >= stepPredicates.length) {
      const w = j - stepPredicates.length;
      const fires = memo
        ? memo.judge(j, stepWitnessTests[w])
        : stepWitnessTests[w](model, before, event, after);
      if (fires) stepWitnessCounts[w]++;
      return true;
    }
    if (stepViolated[j]) return true;
    const holds = memo ? memo.judge(j, stepPredicates[j]) : stepPredicates[j](model, before, event, after);
    if (holds) return true;
    const p = steps[j];
    // Only the first violation of a property is kept: its message is worth one more run.
    const verdict = p.predicate(model, before, event, after);
    const message = verdict === true ? `${p.id} judged differently on a second run` : verdict;
    stepViolated[j] = true;
    violations.set(p.id, { message, stateIndex: beforeIndex, event, after });
    found(p.id, message, layerOf(layerStarts, beforeIndex) + 1);
    return false;
  };

  const exploreOptions: ExploreOptions<SystemState, SystemEvent> = {
    codec: systemCodec(model),
    ...(symmetry ? { canonical: symmetry.canonical } : {}),
    maxStates: options.maxStates,
    maxHeapBytes: options.maxHeapBytes,
    maxSeconds: options.maxSeconds,
    signal: options.signal,
    progress: options.progress,
    onState: (state, index, depth) => {
      options.recorder?.state?.(state, index);
      if (depth === layerStarts.length) layerStarts.push(index);
      statesSoFar = index + 1;
      if (symmetry) represented.states += symmetry.orbitSize(state);
      stateMemo?.enter(state);
      for (let j = 0; j < invariants.length; j++) {
        const p = invariants[j];
        if (invariantViolated[j]) continue;
        if (stateMemo ? stateMemo.judge(j, invariantHolds[j]) : invariantHolds[j](model, state)) continue;
        // Only the first violation of a property is kept: its message is worth one more run.
        const verdict = p.predicate(model, state);
        const message = verdict === true ? `${p.id} judged differently on a second run` : verdict;
        invariantViolated[j] = true;
        violations.set(p.id, { message, stateIndex: index });
        found(p.id, message, depth);
      }
      for (let w = 0; w < stateWitnesses.length; w++) {
        const test = stateWitnesses[w].test;
        if (stateMemo ? stateMemo.judge(invariants.length + w, test) : test(model, state))
          stateWitnessCounts[w]++;
      }
      return !allViolated();
    },
    onEdge: (before, event, after, beforeIndex, afterIndex) => {
      if (pastFirstLevel(beforeIndex)) return false;
      edgeSeq++;
      options.recorder?.edge(event, afterIndex);
      if (symmetry) {
        if (before !== lastBefore) {
          lastBefore = before;
          lastBeforeOrbit = symmetry.orbitSize(before);
        }
        represented.transitions += lastBeforeOrbit;
      }
      if (!seenEvents.has(event)) {
        seenEvents.add(event);
        for (const t of event.transitions) covered.add(t);
      }
      return judgeEdge(before, event, after, beforeIndex, memo?.settledStep(before, event, after));
    },
  };

  /** `list` cut to its first `count` entries (never 0, which would drop its storage). */
  const counted = (list: number[], count: number): number[] => {
    if (list.length !== count) list.length = count;
    return list;
  };

  /** The step judgements of an edge: only those `open` in its settled class, or all (then it may settle). */
  const judgeEdge = (
    before: SystemState,
    event: SystemEvent,
    after: SystemState,
    beforeIndex: number,
    open: readonly number[] | undefined,
  ): boolean => {
    if (open) {
      for (const j of open) judgeOne(j, before, event, after, beforeIndex);
      return !allViolated();
    }
    let violatedHere = false;
    for (let j = 0; j < judgements; j++)
      violatedHere = !judgeOne(j, before, event, after, beforeIndex) || violatedHere;
    if (memo && !violatedHere) memo.settle((j) => j < stepViolated.length && stepViolated[j]);
    return !allViolated();
  };

  const lanes = (compiled: CompiledSystem): Pick<CompiledOptions, LaneHooks> => {
    const { events } = compiled;
    const eventOf = (bundle: number, k: number) => compiled.selfLoopEvent(bundle, k);
    const { recorder } = options;
    // Per event id: seen (its transitions covered), and the namespace slot its request addresses + 2 (0: not yet known).
    let seen = new Uint8Array(0);
    let addressed = new Int32Array(0);
    const addressedOf = (id: number): number => {
      if (id >= addressed.length) addressed = grown(addressed, id);
      if (addressed[id] === 0) addressed[id] = (events[id].request?.namespace ?? -1) + 2;
      return addressed[id] - 2;
    };
    /** The current edge's open judgements in its settled class (undefined: not settled, judge all). */
    let open: readonly number[] | undefined;
    // Reused with a count each: an array's length set to 0 drops its storage, and the next push allocates.
    const rest: number[] = [];
    const fired: number[] = [];
    const slotsAsked: number[] = [];
    const none: readonly number[] = [];
    // The self-loops of a slot's bundle, or of a state's lists, that the memo answers by counts alone
    // are taken whole: no hook per edge. A recorder that takes edges one by one only (`edge`) sees each.
    const takesBundles =
      memo !== undefined && (recorder === undefined || recorder.selfLoopBundle !== undefined);
    const bundles: Pick<CompiledOptions, 'onSelfBundle' | 'onSelfBundlesDone'> = {
      onSelfBundle: (slot, bundle, count, from, fromIndex) =>
        memo !== undefined &&
        !pastFirstLevel(fromIndex) &&
        memo.takeBundle(slot, bundle, count, fromIndex, from),
      onSelfBundlesDone: (traversed, taken) => {
        if (memo === undefined) return;
        // Each was judged before (its bundle recorded one by one): its events' transitions are covered.
        edgeSeq += memo.countBundles(traversed);
        if (recorder?.selfLoopBundle !== undefined)
          for (let slot = 0; slot < traversed.length; slot++)
            if (traversed[slot] > 0)
              recorder.selfLoopBundle(
                taken[slot],
                traversed[slot],
                compiled.selfLoopCount(taken[slot]),
                eventOf,
                events,
              );
      },
    };
    return {
      ...(takesBundles ? bundles : {}),
      onLaneEdge: (id, from, to, beforeIndex, afterIndex, _isNew, slot) => {
        if (pastFirstLevel(beforeIndex)) return edgeStop;
        edgeSeq++;
        // Under symmetry a step to another state of the orbit has the same index: only the very lanes are a self-loop.
        if (recorder?.eventEdge) recorder.eventEdge(id, events, from === to);
        else recorder?.edge(events[id], afterIndex);
        if (id >= seen.length || seen[id] === 0) {
          seen = grown(seen, id);
          seen[id] = 1;
          for (const t of events[id].transitions) covered.add(t);
        }
        if (!memo) {
          open = undefined;
          return edgeDecoded;
        }
        // A self-loop's successor is the very lanes expanded: its class is found by a pair, and a step
        // like one the tables answered before is counted by the memo (empty: nothing left to judge).
        const self = from === to;
        const settled = self
          ? memo.selfLoop(id, addressedOf(id), beforeIndex, from, slot)
          : memo.settledLanes(id, addressedOf(id), from, to);
        open = settled;
        if (settled === undefined) return edgeDecoded;
        if (settled.length === 0) return edgeHandled;
        // A step like one the tables answered before: its filed witnesses counted by the memo, and only
        // the judgements the slots table answered then asked again (none: the step is done).
        const asked = self ? (memo.filed ? settled : undefined) : memo.handledLanes(beforeIndex, from, to);
        const filed = asked !== undefined;
        const judged = asked ?? settled;
        // The open judgements the tables answer need no decoded state either.
        let restCount = 0;
        let firedCount = 0;
        let askedCount = 0;
        for (let k = 0; k < judged.length; k++) {
          const j = judged[k];
          const predicate = j < stepPredicates.length;
          if (predicate && stepViolated[j]) continue;
          const known = memo.knownLanes(j, beforeIndex, from, to);
          // An answer of the slots table is counted here and never filed: it holds for these slots only.
          const again = filed || memo.answeredFromSlots;
          if (!filed && memo.answeredFromSlots) slotsAsked[askedCount++] = j;
          if (known < 0 || (predicate && known === 0)) rest[restCount++] = j;
          else if (!predicate && known === 1) {
            if (again) stepWitnessCounts[j - stepPredicates.length]++;
            else fired[firedCount++] = j - stepPredicates.length;
          }
        }
        for (let k = 0; k < firedCount; k++) stepWitnessCounts[fired[k]]++;
        if (restCount > 0) {
          open = counted(rest, restCount);
          return edgeDecoded;
        }
        open = none;
        if (!filed)
          memo.rememberHandled(
            firedCount > 0 ? counted(fired, firedCount) : none,
            askedCount > 0 ? counted(slotsAsked, askedCount) : none,
          );
        return edgeHandled;
      },
      onEdge: (before, event, after, beforeIndex) => {
        memo?.bind(before, event, after);
        return judgeEdge(before, event, after, beforeIndex, open);
      },
    };
  };

  let verdictsCounted = false;
  const verdicts = (result: CompiledResult | ExploreResult<SystemState, SystemEvent>): CheckResult => {
    // The memos are dropped below: a second count would miss what they settled.
    if (verdictsCounted) throw new Error('check: the verdicts of a search are counted once');
    verdictsCounted = true;
    // The compiled search counts what its orbits stand for itself (its edges are not all decoded).
    const standsFor = 'represented' in result && result.represented ? result.represented : represented;
    const counted = new Map<string, number>(properties.map((p) => [p.id, 0]));
    const settled = memo?.settledWitnessCounts();
    memo = undefined;
    stateMemo = undefined;
    const add = (id: string, n: number) => counted.set(id, (counted.get(id) ?? 0) + n);
    for (const [w, p] of stepWitnesses.entries()) add(p.id, stepWitnessCounts[w] + (settled?.[w] ?? 0));
    for (const [w, p] of stateWitnesses.entries()) add(p.id, stateWitnessCounts[w]);
    const propertyResults: PropertyResult[] = properties.map((property) => {
      const v = violations.get(property.id);
      const count = counted.get(property.id) ?? 0;
      if (v) {
        const path = result.traceTo(v.stateIndex);
        const trace: Trace = { initial: path.initial, steps: [...path.steps] };
        if (v.event && v.after) trace.steps.push({ event: v.event, state: v.after });
        return violatedResult(model, property, count, v.message, trace, symmetry);
      }
      return { property, status: count > 0 ? 'holds' : 'vacuous', witnesses: count };
    });

    return {
      states: result.states,
      transitions: result.transitions,
      depth: result.depth,
      durationMs: result.durationMs,
      statesPerSecond: result.statesPerSecond,
      complete: result.complete,
      ...(result.stopReason
        ? {
            stopReason:
              stoppedOnFirst && result.stopReason === 'stopped' ? 'first-violation' : result.stopReason,
          }
        : {}),
      properties: propertyResults,
      ...(symmetry ? { symmetry: { order: symmetry.order, represented: { ...standsFor } } } : {}),
      coverage: coverageOf(model, covered),
    };
  };
  return { options: exploreOptions, lanes, verdicts };
}
