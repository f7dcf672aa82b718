import type { SystemEvent, SystemState } from '../../machines/system.ts';
import type { Fairness, LivenessProperty } from '../../properties/types.ts';
import type { ExploreResult, Trace } from '../engine/explore.ts';
import { IntList } from '../engine/int-list.ts';
import { checkGoal, type FairnessCondition, type GoalVerdict } from '../engine/liveness.ts';
import type { StateGraph } from '../engine/state-graph.ts';
import { heedDeadline, TarjanScratch, tarjan } from '../engine/tarjan.ts';
import { type CompiledSystem, compiledFor, type LaneSink } from '../model/compiled.ts';
import type { CompiledResult } from '../model/compiled-explore.ts';
import {
  combineSlots,
  compileFairness,
  judgedUntil,
  type LivenessResult,
  type LivenessRun,
  searchFigures,
  untilStopped,
} from '../model/liveness-system.ts';
import { concreteTrace, type StateSymmetry } from '../model/symmetry.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';

/**
 * Liveness and deadlock on a search that kept one state per orbit of the scope's symmetry (the annotated
 * quotient of Emerson and Sistla). A per-namespace property follows one namespace slot j; along a path
 * through representatives the slots are exchanged, so the property is judged on pairs (orbit
 * representative r, slot i): a concrete state s following slot j stands for (canon(s), g(j)), g the group
 * element that takes s to its representative. An edge of r whose successor t is taken to its
 * representative by σ leads from (r, i) to (canon(t), σ(i)) (the compiled search's `successors` name σ).
 * The relation "g(s) = r and g(j) = i for some g" is a bisimulation between the concrete graph (following
 * slot j) and these pairs, since successors commute with every element and properties read a slot's
 * contents wherever it lies: `p`, `q` and the classes of steps are evaluated at the pair's slot i.
 *
 * Fairness per namespace (WF(A(k)) for every slot k) is where a plain quotient falls short: a cycle of
 * pairs returns to its pair with the other slots possibly exchanged. So each strongly connected set D of
 * pairs is read through its *threads*: (pair, x) for every slot x, an edge of D taking thread x to
 * σ(x). The threads of D fall into components, each strongly connected and spanning all of D; a concrete
 * run through D passes every pair with all n slots on its n threads, and the thread of slot k stays in one
 * component. So D holds a fair concrete cycle exactly when every global condition is shown in D (taken on
 * an edge inside, or disabled somewhere; strongly: taken, or disabled everywhere) and every
 * per-namespace condition A is shown in every thread component T (A at slot x taken on an edge of T
 * leaving (pair, x), or disabled at some (pair, x) of T). Conversely, such a D has a concrete cycle
 * through any concrete state over it: a closed walk of D that sends each slot's thread once around its
 * component, repeated until the exchanged slots come back (the order of the leftover permutation).
 * A strongly fair condition enabled but untaken in a component removes the pairs where it is enabled,
 * and the rest is searched again (the Streett check).
 *
 * A violation is shown concretely: the shortest path of pairs to the nearest fair set is replayed from
 * the concrete initial state with its group element tracked step by step, then the concrete states over
 * that set reachable from where the path ends are built (at most the group's order times its pairs) and
 * judged by `checkGoal` with the property's own conditions, which finds the fair cycle.
 *
 * Cost: the pairs are walked by recomputing the representatives' moves (successors other than
 * self-loops, whose fairness conditions the search recorded per representative), each representative
 * expanded once and its moves kept for the other pairs and searches that reach it; properties pending
 * on the same pairs share a search.
 */

/** What a `LivenessCollector` recorded, as this judge reads it. */
export interface CollectedLiveness {
  model: CheckedSystemModel;
  properties: readonly LivenessProperty[];
  search: ExploreResult<SystemState, SystemEvent>;
  expanded: number;
  horizonDeclared: boolean;
  goalOf(property: number, slot: number): number;
  pending(goal: number, s: number): boolean;
  triggered(goal: number, s: number): boolean;
  /** Whether global condition `c` is enabled in state `s`. */
  enabled(c: number, s: number): boolean;
  stuck(s: number): boolean;
  conditions: readonly FairnessCondition<SystemEvent>[];
  /** Property i's fairness entries: each its global condition bits (one per slot when per namespace). */
  fairnessOf(i: number): FairnessEntry[];
  /**
   * Whether state s's self-loops (successors with its very lanes) take condition c; absent when they were
   * not recorded, and then the walks send every edge instead of the moves.
   */
  selfTakes?(c: number, s: number): boolean;
}

interface FairnessEntry {
  kind: 'weak' | 'strong';
  perNamespace: boolean;
  bits: number[];
}

/** Why liveness cannot be judged under this symmetry, or undefined when it can. */
export function symmetricLivenessRefusal(
  symmetry: StateSymmetry,
  properties: readonly { id: string; fairness: readonly Fairness[] }[],
  horizonDeclared = false,
): string | undefined {
  const members = new Set([...symmetry.symmetry.users.flat(), ...symmetry.symmetry.namespaces.flat()]);
  for (const p of properties)
    for (const f of p.fairness)
      if (f.actor !== undefined && members.has(f.actor))
        return `${p.id} assumes fairness for ${f.actor} alone, a member of a symmetry set: the condition is not the same on every state of an orbit`;
  if (horizonDeclared)
    return 'the model declares a horizon, and a lasso through it is judged by where it stops, which the pairs do not keep';
  return undefined;
}

/** Deadlock and every property on the pairs (representative, followed slot); lassos concrete. */
export function judgeUnderSymmetry(
  c: CollectedLiveness,
  symmetry: StateSymmetry,
  onJudged?: (judged: number, total: number, propertyId: string) => void,
  deadline = Number.POSITIVE_INFINITY,
): LivenessRun {
  const started = performance.now();
  const refusal = symmetricLivenessRefusal(symmetry, c.properties, c.horizonDeclared);
  if (refusal !== undefined) throw new Error(`liveness under symmetry: ${refusal}`);
  const { model, search } = c;
  const result = search as CompiledResult;
  const { successors, moves, events, lanesOf, indexOfLanes } = result;
  if (!successors || !events || !lanesOf || !indexOfLanes)
    throw new Error(
      'liveness under symmetry: the search cannot recompute successors (use the compiled search)',
    );
  const q = new Quotient(c, symmetry, compiledFor(model), {
    successors,
    ...(c.selfTakes !== undefined && moves !== undefined ? { moves } : {}),
    events,
    lanesOf,
    indexOfLanes,
  });
  q.stopAt(deadline);
  const stuck: number[] = [];
  let stuckStates = 0;
  const lanes = new Uint32Array(q.width);
  for (let s = 0; s < c.expanded; s++)
    if (c.stuck(s)) {
      stuck.push(s);
      lanesOf(s, lanes);
      stuckStates += symmetry.orbitSizeOfLanes(lanes, 3, q.n);
    }
  const properties: LivenessResult[] = [];
  const stopped = judgedUntil(() => {
    heedDeadline(deadline);
    // Every class of slots judged once for all the properties that follow it (shared searches, below).
    const verdicts = new Map<string, ClassVerdict>();
    const classes = new Map<number, number[]>();
    for (let slot = -1; slot < q.n; slot++) {
      const members = q.classOf(slot);
      classes.set(members[0], members);
    }
    for (const members of classes.values()) {
      const following = c.properties.flatMap((p, i) => (members[0] >= 0 === p.perNamespace ? [i] : []));
      for (const [i, verdict] of q.judgeClasses(following, members))
        verdicts.set(`${i}@${members[0]}`, verdict);
    }
    for (const [i, property] of c.properties.entries()) {
      heedDeadline(deadline);
      properties.push(
        combineSlots(model, property, search.complete, (slot) => {
          const members = q.classOf(slot);
          const known = verdicts.get(`${i}@${members[0]}`);
          if (known === undefined)
            throw new Error('liveness under symmetry: a class left unjudged (internal error)');
          const triggers = q.concreteTriggers(i, slot, members);
          if (known.fair.length === 0) return { triggers, onlyAtHorizon: false };
          return { triggers, onlyAtHorizon: false, lasso: q.lasso(i, slot, members, known) };
        }),
      );
      onJudged?.(i + 1, c.properties.length, property.id);
    }
  });
  const deadlockTrace =
    stuck.length > 0
      ? concreteTrace(model, symmetry.canonical, search.traceTo(stuck[0]), () => true)
      : undefined;
  return {
    ...searchFigures(search, started),
    deadlock: { count: stuckStates, atHorizon: 0, ...(deadlockTrace ? { trace: deadlockTrace } : {}) },
    ...untilStopped(c.properties, properties, stopped),
    judgedOn: {
      kind: 'symmetry',
      order: symmetry.order,
      orbits: search.states,
      pairs: q.pairsWalked,
    },
  };
}

/** The fair sets of pairs of one class of slots (empty: the property holds on every slot of the class). */
interface ClassVerdict {
  fair: Int32Array[];
}

interface SearchAccess {
  successors: (index: number, emit: (event: number, target: number, element: number) => void) => void;
  /** As `successors` without the self-loops, whose conditions `selfTakes` gives. */
  moves?: (index: number, emit: (event: number, target: number, element: number) => void) => void;
  events: readonly SystemEvent[];
  lanesOf: (index: number, out: Uint32Array) => void;
  indexOfLanes: (lanes: Uint32Array) => number;
}

/** A bit of Tarjan's taken mask: the component has an edge inside it (the global entries use the low bits). */
const anyEdge = 1 << 30;

/** Steps kept past which representatives are expanded each time (64 MiB). */
const keptWordsMax = 16 * 2 ** 20;
/** Steps per chunk of the kept steps: chunks are added, never grown, so nothing is copied twice. */
const keptChunk = 1 << 16;

/** Namespace ids start at lane 3 of the packed state (checker/model/encoding.ts). */
const firstNamespaceLane = 3;

class Quotient {
  readonly n: number;
  readonly width: number;
  private readonly scratch: TarjanScratch;
  /** Pairs (representative, slot) the judgements walked, summed over the classes judged. */
  pairsWalked = 0;
  /** Stops the walks past `deadline`, a `performance.now()` time (`JudgementStopped`). */
  stopAt(deadline: number): void {
    this.scratch.deadline = deadline;
  }
  /** What the fair-set searches walk: the moves when the self-loops' conditions were recorded, else every edge. */
  private readonly steps: NonNullable<SearchAccess['moves']>;
  /**
   * The steps of each representative walked, kept as the first walk made them, one word each (target
   * times `stride`, plus event times the group's order, plus element): the classes' searches walk the same
   * representatives again, each once per pair, and read them here instead of expanding them again.
   */
  private readonly kept: Int32Array[] = [];
  private keptLength = 0;
  private readonly keeping = new IntList(1024);
  private readonly order: number;
  private readonly stride: number;
  private readonly keepable: boolean;
  private readonly keptFrom: Int32Array;
  private readonly keptTo: Int32Array;

  constructor(
    private readonly c: CollectedLiveness,
    private readonly symmetry: StateSymmetry,
    private readonly compiled: CompiledSystem,
    private readonly access: SearchAccess,
  ) {
    this.n = c.model.scope.namespaces.length;
    this.width = compiled.width;
    this.steps = access.moves ?? access.successors;
    this.order = symmetry.order;
    this.stride = access.events.length * symmetry.order;
    // Kept in one word each, or not at all (a scope too large for it walks as before).
    this.keepable = c.search.states * this.stride <= 2 ** 32;
    this.keptFrom = new Int32Array(this.keepable ? c.search.states : 0).fill(-1);
    this.keptTo = new Int32Array(this.keepable ? c.search.states : 0);
    this.scratch = new TarjanScratch(c.search.states * this.n);
  }

  /** The slots the group moves `slot` to, least first; [-1] for a system-wide property. */
  classOf(slot: number): number[] {
    if (slot < 0) return [-1];
    const members = new Set<number>();
    for (let g = 0; g < this.symmetry.order; g++) members.add(this.symmetry.slotImage(g, slot));
    return [...members].sort((a, b) => a - b);
  }

  /** The pair's index: representative r following slot i (0 for a system-wide property). */
  private node(r: number, i: number): number {
    return r * this.n + Math.max(i, 0);
  }

  /** Edges of pair u: event id, target pair, and the element that took the successor to its representative. */
  private edges(
    u: number,
    follow: boolean,
    emit: (event: number, v: number, element: number, ordinal: number) => void,
    walk = this.access.successors,
  ): void {
    const r = Math.floor(u / this.n);
    const i = u - r * this.n;
    if (r >= this.c.expanded) return;
    let ordinal = 0;
    walk(r, (event, target, element) => {
      const at = ordinal++;
      if (target < 0) return;
      emit(event, target * this.n + (follow ? this.symmetry.slotImage(element, i) : 0), element, at);
    });
  }

  private goalAt(property: number, u: number, follow: boolean): number {
    return this.c.goalOf(property, follow ? u % this.n : -1);
  }

  /** Whether pair u of the class (`inClass` by slot) is pending. */
  private pendingPair(property: number, follow: boolean, inClass: Uint8Array) {
    return (u: number) => {
      const r = Math.floor(u / this.n);
      if (r >= this.c.expanded) return false;
      if (follow && inClass[u % this.n] === 0) return false;
      if (!follow && u % this.n !== 0) return false;
      return this.c.pending(this.goalAt(property, u, follow), r);
    };
  }

  private triggerPairs(property: number, members: readonly number[]): number[] {
    const roots: number[] = [];
    for (let r = 0; r < this.c.expanded; r++)
      for (const i of members)
        if (this.c.triggered(this.c.goalOf(property, i), r)) roots.push(this.node(r, i));
    return roots;
  }

  /**
   * The fair sets of each property's pairs on one class of slots. Properties pending on exactly the same
   * pairs share one Tarjan search from all their triggers (its components are those of each one's own
   * search, and more): one none of whose components is fair for it has none reachable from its own
   * triggers and holds; any other is searched alone, as `checker/judging/liveness-fly.ts` shares goals.
   */
  judgeClasses(properties: readonly number[], members: readonly number[]): Map<number, ClassVerdict> {
    const result = new Map<number, ClassVerdict>();
    const follow = members[0] >= 0;
    const pairs = this.c.search.states * this.n;
    const pendingSets = properties.map((p) => {
      const set = new Uint8Array(pairs);
      for (const i of members) {
        const goal = this.c.goalOf(p, i);
        for (let r = 0; r < this.c.expanded; r++) if (this.c.pending(goal, r)) set[this.node(r, i)] = 1;
      }
      return set;
    });
    const same = (a: Uint8Array, b: Uint8Array) => {
      for (let u = 0; u < a.length; u++) if (a[u] !== b[u]) return false;
      return true;
    };
    const groups: number[][] = [];
    properties.forEach((_, k) => {
      const group = groups.find((g) => same(pendingSets[g[0]], pendingSets[k]));
      if (group) group.push(k);
      else groups.push([k]);
    });
    for (const group of groups) {
      const ids = group.map((k) => properties[k]);
      if (ids.length === 1) {
        result.set(ids[0], this.judgeClass(ids[0], members));
        continue;
      }
      const roots = [...new Set(ids.flatMap((p) => this.triggerPairs(p, members)))].sort((a, b) => a - b);
      if (roots.length === 0) {
        for (const p of ids) result.set(p, { fair: [] });
        continue;
      }
      // The global conditions of every property of the group, each one bit of Tarjan's taken mask.
      const globalBits = new Map<number, number>();
      const entriesOf = ids.map((p) => this.c.fairnessOf(p));
      for (const entries of entriesOf)
        for (const entry of entries)
          if (!entry.perNamespace && !globalBits.has(entry.bits[0]))
            globalBits.set(entry.bits[0], globalBits.size);
      if (globalBits.size > 29) {
        for (const p of ids) result.set(p, this.judgeClass(p, members));
        continue;
      }
      const inside = (u: number) => pendingSets[group[0]][u] === 1;
      const conditions = entriesOf.flatMap((entries) => entries.flatMap((entry) => entry.bits));
      const components = tarjan(
        this.walk(follow),
        { eventMask: this.maskOf([...globalBits.keys()]), ...this.selfClasses(globalBits, conditions) },
        roots,
        inside,
        this.scratch,
      );
      ids.forEach((p, k) => {
        const entries = entriesOf[k];
        const toOwn = (taken: number) => {
          let m = taken & anyEdge;
          entries.forEach((entry, bit) => {
            if (!entry.perNamespace && (taken >>> (globalBits.get(entry.bits[0]) as number)) & 1)
              m |= 1 << bit;
          });
          return m;
        };
        const open = components.some((component) => {
          const judged =
            this.decided(component.states, toOwn(component.taken), entries) ??
            this.threads(component.states, entries, follow);
          return judged.fair || (judged.rest !== undefined && judged.rest.length > 0);
        });
        this.pairsWalked += components.reduce((sum, component) => sum + component.states.length, 0);
        result.set(p, open ? this.judgeClass(p, members) : { fair: [] });
      });
    }
    return result;
  }

  /** Representative r's steps, expanded once and then read from where the first expansion kept them. */
  private readonly stepsOf = (
    r: number,
    emit: (event: number, target: number, element: number) => void,
  ): void => {
    const { order, stride } = this;
    const from = this.keptFrom[r];
    if (from >= 0) {
      const data = this.kept[Math.floor(from / keptChunk)];
      const end = (from % keptChunk) + this.keptTo[r] - from;
      for (let k = from % keptChunk; k < end; k++) {
        // One unsigned word: the target above the event's and element's place.
        const word = data[k] >>> 0;
        const low = word % stride;
        emit(Math.floor(low / order), (word - low) / stride, low % order);
      }
      return;
    }
    if (this.keptLength >= keptWordsMax || !this.keepable) {
      this.steps(r, emit);
      return;
    }
    const keeping = this.keeping;
    keeping.length = 0;
    this.steps(r, (event, target, element) => {
      if (target >= 0) keeping.push((target * stride + event * order + element) | 0);
      emit(event, target, element);
    });
    const size = keeping.length;
    if (size > keptChunk) return;
    // A representative's steps lie in one chunk: the rest of the last one is left when they do not fit.
    let at = this.keptLength - Math.max(0, this.kept.length - 1) * keptChunk;
    if (this.kept.length === 0 || at + size > keptChunk) {
      this.kept.push(new Int32Array(keptChunk));
      at = 0;
    }
    this.keptLength = (this.kept.length - 1) * keptChunk + at + size;
    this.kept[this.kept.length - 1].set(keeping.data.subarray(0, size), at);
    this.keptFrom[r] = this.keptLength - size;
    this.keptTo[r] = this.keptLength;
  };

  /** The pairs as Tarjan walks them. */
  private walk(follow: boolean) {
    return {
      size: this.c.search.states * this.n,
      expanded: this.c.search.states * this.n,
      successors: (u: number, emit: (event: number, target: number) => void) =>
        this.edges(u, follow, emit, this.stepsOf),
      events: this.access.events,
    };
  }

  /**
   * Tarjan's classes of a pair's self-loops when the walks send moves only: bit `globalBits.get(c)` for
   * each global condition c they take, and `anyEdge` when they take any of `conditions` (a pair whose
   * self-loops take none of them is judged the same with or without them: `decided` reads it as a stutter).
   */
  private selfClasses(
    globalBits: ReadonlyMap<number, number>,
    conditions: readonly number[],
  ): { selfMask?: (u: number) => number } {
    const takes = this.c.selfTakes;
    if (takes === undefined || this.steps === this.access.successors) return {};
    const taken = [...new Set(conditions)].map((c) => [c, globalBits.get(c)] as const);
    return {
      selfMask: (u) => {
        const r = Math.floor(u / this.n);
        let m = 0;
        for (const [c, bit] of taken)
          if (takes(c, r)) m |= bit === undefined ? anyEdge : anyEdge | (1 << bit);
        return m;
      },
    };
  }

  /** Tarjan's taken mask of an event: bit k for the k-th of `conditions` it matches, and `anyEdge`. */
  private maskOf(conditions: readonly number[]): (id: number) => number {
    return this.masksBy(conditions.map((condition) => (e) => this.c.conditions[condition].matches(e)));
  }

  /** An event id's mask, computed once: `anyEdge` and bit k for the k-th test the event passes. */
  private masksBy(tests: readonly ((e: SystemEvent) => boolean)[]): (id: number) => number {
    let masks = new Int32Array(0);
    return (id) => {
      if (id >= masks.length) {
        const grown = new Int32Array(Math.max(id + 1, masks.length * 2)).fill(-1);
        grown.set(masks);
        masks = grown;
      }
      if (masks[id] === -1) {
        let m = anyEdge;
        const e = this.access.events[id];
        tests.forEach((test, k) => {
          if (test(e)) m |= 1 << k;
        });
        masks[id] = m;
      }
      return masks[id];
    };
  }

  /** The fair sets of pairs reachable from the class's triggers through pending pairs. */
  private judgeClass(property: number, members: readonly number[]): ClassVerdict {
    const follow = members[0] >= 0;
    const inClass = new Uint8Array(this.n);
    for (const i of members) if (i >= 0) inClass[i] = 1;
    const roots = this.triggerPairs(property, members);
    if (roots.length === 0) return { fair: [] };
    const entries = this.c.fairnessOf(property);
    const walk = this.walk(follow);
    // Tarjan gathers the global conditions taken inside each component, and whether it has an edge at all.
    const globalBits = new Map<number, number>();
    entries.forEach((entry, k) => {
      if (!entry.perNamespace) globalBits.set(entry.bits[0], k);
    });
    const classes = {
      eventMask: this.masksBy(
        entries.map((entry) => (e) => !entry.perNamespace && this.c.conditions[entry.bits[0]].matches(e)),
      ),
      ...this.selfClasses(
        globalBits,
        entries.flatMap((entry) => entry.bits),
      ),
    };
    const fair: Int32Array[] = [];
    const work: { roots: ArrayLike<number>; inside: (u: number) => boolean }[] = [
      { roots, inside: this.pendingPair(property, follow, inClass) },
    ];
    while (work.length > 0) {
      const set = work.pop() as (typeof work)[number];
      for (const component of tarjan(walk, classes, set.roots, set.inside, this.scratch)) {
        this.pairsWalked += component.states.length;
        const judged =
          this.decided(component.states, component.taken, entries) ??
          this.threads(component.states, entries, follow);
        if (judged.rest !== undefined) {
          if (judged.rest.length === 0) continue;
          const stamp = ++this.scratch.stamp;
          for (const u of judged.rest) this.scratch.mark[u] = stamp;
          work.push({ roots: judged.rest, inside: (u) => this.scratch.mark[u] === stamp });
        } else if (judged.fair) fair.push(component.states);
      }
    }
    return { fair };
  }

  /**
   * A component judged without walking its edges again, when its global conditions (taken as Tarjan
   * gathered them) or its lack of any edge decide it; undefined when its threads must be read.
   */
  private decided(
    states: Int32Array,
    taken: number,
    entries: readonly FairnessEntry[],
  ): { fair: boolean; rest?: number[] } | undefined {
    const { n, c } = this;
    let some = 0;
    let all = -1;
    for (const u of states) {
      const r = Math.floor(u / n);
      entries.forEach((entry, k) => {
        if (entry.perNamespace) return;
        if (c.enabled(entry.bits[0], r)) some |= 1 << k;
        else all &= ~(1 << k);
      });
    }
    const strongUntaken =
      entries.reduce(
        (m, entry, k) => (!entry.perNamespace && entry.kind === 'strong' ? m | (1 << k) : m),
        0,
      ) &
      some &
      ~taken;
    if (strongUntaken !== 0) {
      const rest: number[] = [];
      for (const u of states) {
        const r = Math.floor(u / n);
        if (!entries.some((entry, k) => (strongUntaken >>> k) & 1 && c.enabled(entry.bits[0], r)))
          rest.push(u);
      }
      return { fair: false, rest };
    }
    const weakFails = entries.some(
      (entry, k) =>
        !entry.perNamespace && entry.kind === 'weak' && ((taken >>> k) & 1) === 0 && ((all >>> k) & 1) === 1,
    );
    if (weakFails) return { fair: false };
    if ((taken & anyEdge) !== 0) return undefined;
    // One pair and no edge: a stutter, whose threads are single: each slot's condition must be disabled.
    const r = Math.floor(states[0] / n);
    let fair = true;
    for (const entry of entries) {
      if (!entry.perNamespace) continue;
      const enabledAt = entry.bits.some((bit) => c.enabled(bit, r));
      if (enabledAt && entry.kind === 'strong') return { fair: false, rest: [] };
      if (enabledAt) fair = false;
    }
    return { fair };
  }

  /**
   * One strongly connected set of pairs judged through its threads (above): fair, unfair, or the pairs
   * left once those where an untaken strongly fair condition is enabled are removed (`rest`).
   */
  private threads(
    states: Int32Array,
    entries: readonly FairnessEntry[],
    follow: boolean,
  ): { fair: boolean; rest?: number[] } {
    const { n, c } = this;
    const size = states.length;
    const position = new Map<number, number>();
    for (let d = 0; d < size; d++) position.set(states[d], d);
    const parent = new Int32Array(size * n);
    for (let k = 0; k < parent.length; k++) parent[k] = k;
    const find = (k: number): number => {
      let root = k;
      while (parent[root] !== root) root = parent[root];
      while (parent[k] !== root) {
        const next = parent[k];
        parent[k] = root;
        k = next;
      }
      return root;
    };
    let takenGlobal = 0;
    const takenThread: number[] = [];
    for (let d = 0; d < size; d++) {
      this.edges(
        states[d],
        follow,
        (event, v, element) => {
          const dv = position.get(v);
          if (dv === undefined) return;
          for (let x = 0; x < n; x++) {
            const a = find(d * n + x);
            const b = find(dv * n + this.symmetry.slotImage(element, x));
            if (a !== b) parent[a] = b;
          }
          const e = this.access.events[event];
          entries.forEach((entry, k) => {
            if (!entry.perNamespace) {
              if (c.conditions[entry.bits[0]].matches(e)) takenGlobal |= 1 << k;
            } else if (e.namespace >= 0 && c.conditions[entry.bits[e.namespace]].matches(e))
              takenThread.push(d * n + e.namespace, k);
          });
        },
        this.stepsOf,
      );
      // The self-loops the moves leave out: a thread's own, each condition at its slot.
      if (this.steps !== this.access.successors && c.selfTakes !== undefined) {
        const r = Math.floor(states[d] / n);
        entries.forEach((entry, k) => {
          if (!entry.perNamespace) {
            if (c.selfTakes?.(entry.bits[0], r)) takenGlobal |= 1 << k;
          } else
            for (let x = 0; x < n; x++) if (c.selfTakes?.(entry.bits[x], r)) takenThread.push(d * n + x, k);
        });
      }
    }
    const taken = new Int32Array(size * n);
    for (let t = 0; t < takenThread.length; t += 2) taken[find(takenThread[t])] |= 1 << takenThread[t + 1];
    const some = new Int32Array(size * n);
    const all = new Int32Array(size * n).fill(-1);
    let someGlobal = 0;
    let allGlobal = -1;
    for (let d = 0; d < size; d++) {
      const r = Math.floor(states[d] / n);
      entries.forEach((entry, k) => {
        if (!entry.perNamespace) {
          if (c.enabled(entry.bits[0], r)) someGlobal |= 1 << k;
          else allGlobal &= ~(1 << k);
          return;
        }
        for (let x = 0; x < n; x++) {
          const root = find(d * n + x);
          if (c.enabled(entry.bits[x], r)) some[root] |= 1 << k;
          else all[root] &= ~(1 << k);
        }
      });
    }
    // Strong fairness: a condition enabled in a component but never taken there removes where it is enabled.
    const remove = new Uint8Array(size);
    let removing = false;
    entries.forEach((entry, k) => {
      if (entry.kind !== 'strong') return;
      const bit = 1 << k;
      for (let d = 0; d < size; d++) {
        const r = Math.floor(states[d] / n);
        if (!entry.perNamespace) {
          if ((takenGlobal & bit) === 0 && (someGlobal & bit) !== 0 && c.enabled(entry.bits[0], r)) {
            remove[d] = 1;
            removing = true;
          }
          continue;
        }
        for (let x = 0; x < n; x++) {
          const root = find(d * n + x);
          if ((taken[root] & bit) === 0 && (some[root] & bit) !== 0 && c.enabled(entry.bits[x], r)) {
            remove[d] = 1;
            removing = true;
          }
        }
      }
    });
    if (removing) {
      const rest: number[] = [];
      for (let d = 0; d < size; d++) if (remove[d] === 0) rest.push(states[d]);
      return { fair: false, rest };
    }
    let fair = true;
    entries.forEach((entry, k) => {
      if (entry.kind !== 'weak' || !fair) return;
      const bit = 1 << k;
      if (!entry.perNamespace) {
        fair = (takenGlobal & bit) !== 0 || (allGlobal & bit) === 0;
        return;
      }
      for (let t = 0; t < size * n && fair; t++)
        if (find(t) === t) fair = (taken[t] & bit) !== 0 || (all[t] & bit) === 0;
    });
    return { fair };
  }

  /**
   * The concrete states where the goal of slot `slot` is triggered: for each representative, its distinct
   * images h(r), each triggered when r is triggered at the slot h sends to `slot`. Counted for every slot
   * of the class in one pass over the representatives, kept for the class's other slots.
   */
  concreteTriggers(property: number, slot: number, members: readonly number[]): number {
    const key = `${property}@${members[0]}`;
    let counts = this.triggerCounts.get(key);
    if (counts === undefined) {
      counts = this.classTriggers(property, members);
      this.triggerCounts.set(key, counts);
    }
    return counts[Math.max(0, members.indexOf(slot))];
  }
  private readonly triggerCounts = new Map<string, number[]>();

  /** `concreteTriggers` of every slot of a class, by its place in `members`. */
  private classTriggers(property: number, members: readonly number[]): number[] {
    const { symmetry, n, width } = this;
    const order = symmetry.order;
    const lanes = new Uint32Array(width);
    const images = new Uint32Array(order * n);
    const image = new Uint32Array(width);
    const size = members.length;
    // Per member m and element h: the place in `members` of the slot h sends to members[m].
    const from = members.map((slot) =>
      Array.from({ length: order }, (_, h) =>
        slot < 0
          ? 0
          : Math.max(
              0,
              members.findIndex((x) => symmetry.slotImage(h, x) === slot),
            ),
      ),
    );
    const goals = members.map((i) => this.c.goalOf(property, i));
    const triggered = new Uint8Array(size);
    const distinctElements: number[] = [];
    const counts = new Array<number>(size).fill(0);
    for (let r = 0; r < this.c.expanded; r++) {
      let any = false;
      for (let m = 0; m < size; m++) {
        triggered[m] = this.c.triggered(goals[m], r) ? 1 : 0;
        any ||= triggered[m] === 1;
      }
      if (!any) continue;
      this.access.lanesOf(r, lanes);
      distinctElements.length = 0;
      for (let h = 0; h < order; h++) {
        symmetry.applyLanes(h, lanes, image, firstNamespaceLane, n);
        let seen = false;
        for (let d = 0; d < distinctElements.length && !seen; d++) {
          let same = true;
          for (let j = 0; j < n && same; j++) same = images[d * n + j] === image[firstNamespaceLane + j];
          seen = same;
        }
        if (seen) continue;
        for (let j = 0; j < n; j++) images[distinctElements.length * n + j] = image[firstNamespaceLane + j];
        distinctElements.push(h);
      }
      for (let m = 0; m < size; m++) for (const h of distinctElements) counts[m] += triggered[from[m][h]];
    }
    return counts;
  }

  /** Successor lanes of `lanes` in the order the compiled model sends them, with their event ids. */
  private expand(lanes: Uint32Array): { event: number; lanes: Uint32Array }[] {
    const out: { event: number; lanes: Uint32Array }[] = [];
    const sink: LaneSink = {
      eachSelfLoop: true,
      selfLoops() {},
      self: (event) => out.push({ event, lanes: Uint32Array.from(lanes) }),
      change: (event, lane, value) => {
        const next = Uint32Array.from(lanes);
        next[lane] = value;
        out.push({ event, lanes: next });
      },
      whole: (event, whole) => out.push({ event, lanes: Uint32Array.from(whole.subarray(0, this.width)) }),
    };
    this.compiled.expand(lanes, sink);
    return out;
  }

  private sameLanes(a: Uint32Array, b: Uint32Array): boolean {
    for (let k = 0; k < this.width; k++) if (a[k] !== b[k]) return false;
    return true;
  }

  /**
   * A concrete lasso for the goal of `slot`: the shortest path of pairs to the nearest fair set (BFS depth
   * to a trigger, then pending pairs), replayed concretely, then a fair concrete cycle over that set.
   */
  lasso(
    property: number,
    slot: number,
    members: readonly number[],
    verdict: ClassVerdict,
  ): GoalVerdict<SystemState, SystemEvent>['lasso'] {
    const follow = slot >= 0;
    const { n, c } = this;
    const size = c.search.states * n;
    const fairSet = new Int32Array(size).fill(-1);
    verdict.fair.forEach((states, k) => {
      for (const u of states) fairSet[u] = k;
    });
    // Shortest paths of pairs from the initial pairs (the initial state is fixed by the group).
    const depth = new Int32Array(size).fill(-1);
    const parent = new Int32Array(size).fill(-1);
    const ordinal = new Int32Array(size).fill(-1);
    const queue: number[] = [];
    for (let r = 0; r < c.search.states && c.search.depthOf(r) === 0; r++)
      for (const i of members) {
        const u = this.node(r, i);
        if (depth[u] === -1) {
          depth[u] = 0;
          queue.push(u);
        }
      }
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head];
      this.edges(u, follow, (_event, v, _element, at) => {
        if (depth[v] !== -1) return;
        depth[v] = depth[u] + 1;
        parent[v] = u;
        ordinal[v] = at;
        queue.push(v);
      });
    }
    // Then pending pairs from the triggers, merged by distance (triggers in depth order).
    const inClass = new Uint8Array(n);
    for (const i of members) if (i >= 0) inClass[i] = 1;
    const pending = this.pendingPair(property, follow, inClass);
    const triggers = this.triggerPairs(property, members)
      .filter((u) => depth[u] >= 0)
      .sort((a, b) => depth[a] - depth[b] || a - b);
    const dist = new Int32Array(size).fill(-1);
    const hotParent = new Int32Array(size).fill(-1);
    const hotOrdinal = new Int32Array(size).fill(-1);
    const hot: number[] = [];
    let head = 0;
    let next = 0;
    let entry = -1;
    while (entry < 0 && (head < hot.length || next < triggers.length)) {
      let from: number;
      if (next < triggers.length && (head === hot.length || depth[triggers[next]] <= dist[hot[head]])) {
        from = triggers[next++];
        if (dist[from] !== -1) continue;
        dist[from] = depth[from];
        if (fairSet[from] >= 0) {
          entry = from;
          break;
        }
      } else from = hot[head++];
      this.edges(from, follow, (_event, v, _element, at) => {
        if (entry >= 0 || !pending(v) || dist[v] !== -1) return;
        dist[v] = dist[from] + 1;
        hotParent[v] = from;
        hotOrdinal[v] = at;
        if (fairSet[v] >= 0) entry = v;
        hot.push(v);
      });
    }
    if (entry < 0) throw new Error('liveness under symmetry: a fair set no trigger reaches (internal error)');
    // The path of pairs: BFS edges to the trigger, then pending edges to the entry.
    const path: { from: number; ordinal: number; to: number }[] = [];
    let at = entry;
    while (hotParent[at] !== -1) {
      path.push({ from: hotParent[at], ordinal: hotOrdinal[at], to: at });
      at = hotParent[at];
    }
    while (parent[at] !== -1) {
      path.push({ from: parent[at], ordinal: ordinal[at], to: at });
      at = parent[at];
    }
    path.reverse();
    const prefix = this.replay(at, path, slot);
    return this.cycle(property, slot, prefix, entry, fairSet);
  }

  /** The element taking `lanes` to the lanes of representative r with `slot` sent to slot i, or -1. */
  private frameFor(lanes: Uint32Array, slot: number, r: number, i: number): number {
    const rep = new Uint32Array(this.width);
    const image = new Uint32Array(this.width);
    this.access.lanesOf(r, rep);
    for (let g = 0; g < this.symmetry.order; g++) {
      if (slot >= 0 && this.symmetry.slotImage(g, slot) !== i) continue;
      this.symmetry.applyLanes(g, lanes, image, firstNamespaceLane, this.n);
      if (this.sameLanes(image, rep)) return g;
    }
    return -1;
  }

  /** A path of pairs from an initial pair, replayed from the concrete initial state following `slot`. */
  private replay(
    start: number,
    path: readonly { from: number; ordinal: number; to: number }[],
    slot: number,
  ): { trace: Trace<SystemState, SystemEvent>; lanes: Uint32Array; frame: number } {
    const { codec } = this.compiled;
    const { n, symmetry } = this;
    const r0 = Math.floor(start / n);
    const initial = this.c.model.initialStates().find((s) => {
      const lanes = new Uint32Array(this.width);
      codec.encode(s, lanes, 0);
      return this.frameFor(lanes, slot, r0, start - r0 * n) >= 0;
    });
    if (initial === undefined)
      throw new Error(
        'liveness under symmetry: no initial state over the lasso’s first pair (internal error)',
      );
    let lanes: Uint32Array = new Uint32Array(this.width);
    codec.encode(initial, lanes, 0);
    let frame = this.frameFor(lanes, slot, r0, start - r0 * n);
    const steps: Trace<SystemState, SystemEvent>['steps'] = [];
    const image = new Uint32Array(this.width);
    const canon = new Uint32Array(this.width);
    const rep = new Uint32Array(this.width);
    for (const edge of path) {
      const r = Math.floor(edge.from / n);
      this.access.lanesOf(r, rep);
      const wanted = this.expand(rep)[edge.ordinal];
      const found = this.expand(lanes).find((t) => {
        symmetry.applyLanes(frame, t.lanes, image, firstNamespaceLane, n);
        return this.sameLanes(image, wanted.lanes);
      });
      if (found === undefined)
        throw new Error(
          'liveness under symmetry: a step of the lasso has no concrete counterpart (internal error)',
        );
      const sigma = symmetry.canonicalLanes(wanted.lanes, canon, firstNamespaceLane, n);
      frame = symmetry.compose(sigma, frame);
      lanes = found.lanes;
      steps.push({ event: this.access.events[found.event], state: codec.decode(lanes, 0) });
    }
    return { trace: { initial, steps }, lanes, frame };
  }

  /**
   * The concrete states over the fair set of `entry` reachable from the replayed prefix's end (each with
   * its pair), judged by `checkGoal` with the property's own conditions: its lasso is the answer.
   */
  private cycle(
    property: number,
    slot: number,
    prefix: { trace: Trace<SystemState, SystemEvent>; lanes: Uint32Array; frame: number },
    entry: number,
    fairSet: Int32Array,
  ): GoalVerdict<SystemState, SystemEvent>['lasso'] {
    const { n, symmetry, c } = this;
    const { codec } = this.compiled;
    const follow = slot >= 0;
    const set = fairSet[entry];
    const nodes: { lanes: Uint32Array; frame: number; pair: number }[] = [];
    const byKey = new Map<string, number>();
    const key = (lanes: Uint32Array, pair: number) => `${lanes.join(',')}|${pair}`;
    const add = (lanes: Uint32Array, frame: number, pair: number) => {
      const k = key(lanes, pair);
      let index = byKey.get(k);
      if (index === undefined) {
        index = nodes.length;
        nodes.push({ lanes, frame, pair });
        byKey.set(k, index);
      }
      return index;
    };
    add(prefix.lanes, prefix.frame, entry);
    const rows: { event: number; target: number }[][] = [];
    const image = new Uint32Array(this.width);
    const canon = new Uint32Array(this.width);
    const outside = -2;
    for (let k = 0; k < nodes.length; k++) {
      const { lanes, frame, pair } = nodes[k];
      const i = pair % n;
      const row: { event: number; target: number }[] = [];
      for (const t of this.expand(lanes)) {
        symmetry.applyLanes(frame, t.lanes, image, firstNamespaceLane, n);
        const sigma = symmetry.canonicalLanes(image, canon, firstNamespaceLane, n);
        const r = this.access.indexOfLanes(canon);
        const v = r < 0 ? -1 : this.node(r, follow ? symmetry.slotImage(sigma, i) : -1);
        const target =
          v >= 0 && fairSet[v] === set ? add(t.lanes, symmetry.compose(sigma, frame), v) : outside;
        row.push({ event: t.event, target });
      }
      rows.push(row);
    }
    // The concrete graph: the states over the fair set, and one state standing for everything outside it.
    const size = nodes.length + 1;
    const offsets = new Int32Array(size + 1);
    const targets: number[] = [];
    const eventIds: number[] = [];
    rows.forEach((row, k) => {
      offsets[k] = targets.length;
      for (const edge of row) {
        targets.push(edge.target === outside ? nodes.length : edge.target);
        eventIds.push(edge.event);
      }
    });
    offsets[nodes.length] = targets.length;
    offsets[size] = targets.length;
    const stateAt = (index: number): SystemState => codec.decode(nodes[index].lanes, 0);
    const traceTo = (index: number): Trace<SystemState, SystemEvent> => {
      if (index !== 0)
        throw new Error('liveness under symmetry: only the entry has a trace (internal error)');
      return prefix.trace;
    };
    const graph = {
      size,
      expanded: size,
      offsets,
      targets: Int32Array.from(targets),
      eventIds: Int32Array.from(eventIds),
      events: this.access.events as SystemEvent[],
      complete: true,
      transitions: targets.length,
      depth: 0,
      durationMs: 0,
      search: { traceTo, stateAt, depthOf: () => 0 } as unknown as ExploreResult<SystemState, SystemEvent>,
    } satisfies StateGraph<SystemState, SystemEvent>;
    const verdict = checkGoal(
      graph,
      { p: (s) => s === 0, q: (s) => s === nodes.length },
      compileFairness(c.model, c.properties[property].fairness),
    );
    if (verdict.lasso === undefined)
      throw new Error(
        `liveness under symmetry: ${c.properties[property].id}: a fair set of pairs without a fair concrete cycle (internal error)`,
      );
    return verdict.lasso;
  }
}
