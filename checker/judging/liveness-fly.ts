import type { SystemEvent, SystemState } from '../../machines/system.ts';
import type { LivenessProperty } from '../../properties/types.ts';
import { hashLanes } from '../engine/codec.ts';
import type { ExploreResult } from '../engine/explore.ts';
import { IntList } from '../engine/int-list.ts';
import {
  type FairComponent as Component,
  type FairMasks,
  type FairnessCondition,
  type GoalVerdict,
  lassoVerdict,
  type SuccessorWalk,
} from '../engine/liveness.ts';
import { announcingExpansions, type ExplorableModel } from '../engine/model.ts';
import { grown } from '../engine/state-store.ts';
import {
  heedDeadline,
  type Inside,
  type MoveLists,
  type TarjanClasses,
  TarjanScratch,
  tarjanComponents,
} from '../engine/tarjan.ts';
import { bitsFor, chunkSize } from '../engine/visited.ts';
import type { CompiledResult } from '../model/compiled-explore.ts';
import {
  combineSlots,
  compileFairness,
  judgedUntil,
  type LivenessResult,
  type LivenessRun,
  searchFigures,
  systemHorizonDeclared,
  systemTerminalDeclared,
  untilStopped,
} from '../model/liveness-system.ts';
import type { StateSymmetry } from '../model/symmetry.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import { type CheckOptions, check } from './check.ts';
import { type GoalAnswer, GoalMemo, goalAnswer } from './liveness-goals.ts';
import { type CollectedLiveness, judgeUnderSymmetry } from './liveness-symmetric.ts';

/**
 * Liveness and deadlock without a stored edge list. During the search a `LivenessCollector` keeps a few
 * words per state: whether it has a successor, each goal's `p` and `not q`, and which fairness classes it
 * enables. Afterwards each goal is judged by a Tarjan search from its triggers over the states where
 * the goal is pending, over successors recomputed from the visited set (the compiled search's `moves`, each
 * pending state's expanded once and kept in lists, `KeptMoves`, when they fit);
 * a component's taken classes are gathered as its edges are walked (an edge whose target is still on
 * Tarjan's stack lies inside the target's component). Only a violated goal walks the graph again, with
 * the algorithm of `checkGoal`, so verdicts and lassos are those of the graph-based judge.
 */

/**
 * A small integer per state (a vector's id, or a state's self-loop classes) in chunks of `chunkSize`
 * states, made as states reach them (0 until set): 16 bits each while every value fits (on default about a
 * hundred distinct vectors), every chunk widened to 32 bits the first time one does not.
 */
export class StateIds {
  private chunks: (Uint16Array | Uint32Array)[] = [];
  private wide = false;

  get(state: number): number {
    const c = this.chunks[state >>> 14];
    return c === undefined ? 0 : c[state & (chunkSize - 1)];
  }

  set(state: number, id: number): void {
    if (id > 0xffff && !this.wide) {
      this.chunks = this.chunks.map((chunk) => Uint32Array.from(chunk));
      this.wide = true;
    }
    const c = state >>> 14;
    while (this.chunks.length <= c)
      this.chunks.push(this.wide ? new Uint32Array(chunkSize) : new Uint16Array(chunkSize));
    this.chunks[c][state & (chunkSize - 1)] = id;
  }

  get bytes(): number {
    return this.chunks.reduce((sum, c) => sum + c.byteLength, 0);
  }
}

/**
 * Distinct bit vectors of `width` words, each stored once under an id (0: all zero). States share a
 * handful of vectors (a goal's bits follow its namespace slot's class, a condition's the slot's enabled
 * steps), so a state keeps an id instead of its words.
 */
export class VectorTable {
  private vectors: Uint32Array;
  private index = new Int32Array(64).fill(-1);
  size = 1;

  constructor(readonly width: number) {
    this.vectors = new Uint32Array(Math.max(1, width) * 16);
  }

  /** The id of `vector` (its first `width` words), stored at first sight. */
  intern(vector: Uint32Array): number {
    const width = this.width;
    let zero = true;
    for (let w = 0; w < width && zero; w++) zero = vector[w] === 0;
    if (zero) return 0;
    const mask = this.index.length - 1;
    for (let at = hashLanes(vector, 0, width) & mask; ; at = (at + 1) & mask) {
      const id = this.index[at];
      if (id === -1) {
        const added = this.size++;
        this.vectors = grown(this.vectors, (added + 1) * width - 1);
        this.vectors.set(vector.subarray(0, width), added * width);
        this.index[at] = added;
        if (this.size * 2 > this.index.length) this.rehash();
        return added;
      }
      let same = true;
      for (let w = 0; w < width && same; w++) same = this.vectors[id * width + w] === vector[w];
      if (same) return id;
    }
  }

  /** Word `word` of vector `id`. */
  word(id: number, word: number): number {
    return this.vectors[id * this.width + word];
  }

  /** Bit `bit` of vector `id`, counted across its words. */
  bit(id: number, bit: number): boolean {
    return ((this.vectors[id * this.width + (bit >>> 5)] >>> (bit & 31)) & 1) === 1;
  }

  /** Vector `id`'s words copied into `into` (word by word: a view per call costs more than the copy, once per state). */
  copy(id: number, into: Uint32Array): void {
    const width = this.width;
    const vectors = this.vectors;
    const at = id * width;
    for (let w = 0; w < width; w++) into[w] = vectors[at + w];
  }

  get bytes(): number {
    return this.vectors.byteLength + this.index.byteLength;
  }

  private rehash(): void {
    const index = new Int32Array(this.index.length * 2).fill(-1);
    const mask = index.length - 1;
    const width = this.width;
    for (let id = 1; id < this.size; id++) {
      let at = hashLanes(this.vectors, id * width, width) & mask;
      while (index[at] !== -1) at = (at + 1) & mask;
      index[at] = id;
    }
    this.index = index;
  }
}

/** Words per chunk of `KeptMoves`: the lists grow a chunk at a time, never copied. */
const keptChunkBits = 18;
const keptChunkMoves = 1 << keptChunkBits;

/**
 * The moves of the states that two or more searches of the judgement start from, expanded once in index
 * order before the searches and read by each in the same order (`MoveLists`): on default the searches
 * open 749,944 states, 378,144 distinct, and each opening recomputed costs a context lookup, the tables'
 * walk and a visited-set probe per move. A state that is a root of one search only is not added: that
 * search expands it (once, on default, where every state a search opens is one of its roots). Only moves
 * to a state where a search pending at the source is pending too are kept (a search stays inside its
 * goal's pending states, so it drops the others unread), one word each: the target above `eventBits` bits
 * of the event. An added state's moves are words `first(s)` to `first(s + 1) - 1`, in chunks of
 * `keptChunkMoves`. A model whose targets and events do not fit in 32 bits together keeps none
 * (`KeptMoves.fits`): its searches expand every state they open.
 */
export class KeptMoves implements MoveLists {
  private readonly starts: Int32Array;
  /** One bit per state: whether its moves are kept (a state not added has none, or is expanded). */
  private readonly added: Uint32Array;
  private readonly chunks: Uint32Array[] = [];
  /** Moves kept so far, and the states whose start is written (`starts[0 .. filled]`). */
  private used = 0;
  private filled = 0;
  readonly eventBits: number;
  private readonly eventScale: number;
  private readonly eventMask: number;

  /** Whether moves to `states` states by `events` event ids fit in one 32-bit word each. */
  static fits(states: number, events: number): boolean {
    return KeptMoves.bitsBelow(states) + KeptMoves.bitsBelow(events) <= 32;
  }

  /** Bits that hold every number below `count`. */
  private static bitsBelow(count: number): number {
    return count <= 1 ? 1 : bitsFor(count - 1);
  }

  /** Lists for states below `states`, moves by event ids below `events` (65,536 unless told). */
  constructor(
    private readonly states: number,
    events = 0x10000,
  ) {
    if (!KeptMoves.fits(states, events))
      throw new Error(`KeptMoves: ${states} states and ${events} events do not fit in 32 bits a move`);
    this.starts = new Int32Array(states + 1);
    this.added = new Uint32Array(Math.ceil(states / 32));
    this.eventBits = KeptMoves.bitsBelow(events);
    // At most 31 bits: a target takes one at least.
    this.eventScale = 2 ** this.eventBits;
    this.eventMask = this.eventScale - 1;
  }

  /** Keeps the moves of state `s` that `followed` accepts, in their order; states come in increasing order. */
  add(
    s: number,
    moves: (s: number, emit: (event: number, target: number) => void) => void,
    followed: (target: number) => boolean,
  ): void {
    if (s < this.filled) throw new Error(`KeptMoves: state ${s} comes after state ${this.filled - 1}`);
    while (this.filled < s) this.starts[++this.filled] = this.used;
    this.followed = followed;
    moves(s, this.record);
    this.starts[++this.filled] = this.used;
    this.added[s >>> 5] |= 1 << (s & 31);
  }

  /** No more states: the rest have no moves, and the last chunk is cut to what it holds. */
  finish(): void {
    while (this.filled < this.states) this.starts[++this.filled] = this.used;
    const at = this.used & (keptChunkMoves - 1);
    if (at !== 0) this.chunks[this.chunks.length - 1] = this.chunks[this.chunks.length - 1].slice(0, at);
  }

  listed(s: number): boolean {
    return ((this.added[s >>> 5] >>> (s & 31)) & 1) === 1;
  }

  first(s: number): number {
    return this.starts[s];
  }

  word(k: number): number {
    return this.chunks[k >>> keptChunkBits][k & (keptChunkMoves - 1)];
  }

  /** State `s`'s moves in their order: kept ones if it was added, else all of them, expanded by `moves`. */
  successors(
    s: number,
    emit: (event: number, target: number) => void,
    moves: (s: number, emit: (event: number, target: number) => void) => void,
  ): void {
    if (!this.listed(s)) {
      moves(s, emit);
      return;
    }
    const bits = this.eventBits;
    const mask = this.eventMask;
    for (let k = this.starts[s]; k < this.starts[s + 1]; k++) {
      const word = this.word(k);
      emit(word & mask, word >>> bits);
    }
  }

  /** `add`'s test of a move, and its emitter (one for every state: no closure per state). */
  private followed: (target: number) => boolean = () => false;
  private readonly record = (event: number, target: number): void => {
    if (!this.followed(target)) return;
    const at = this.used & (keptChunkMoves - 1);
    if (at === 0) {
      // `first` answers in a 32-bit int.
      if (this.used === 2 ** 31 - keptChunkMoves) throw new RangeError('KeptMoves: 2^31 moves kept');
      this.chunks.push(new Uint32Array(keptChunkMoves));
    }
    // The target above the event's bits: unsigned, as the words are.
    this.chunks[this.chunks.length - 1][at] = target * this.eventScale + event;
    this.used++;
  };

  /** Moves kept. */
  get size(): number {
    return this.used;
  }

  /** Bytes held by the lists and their starts. */
  get bytes(): number {
    return (
      this.starts.byteLength + this.added.byteLength + this.chunks.reduce((sum, c) => sum + c.byteLength, 0)
    );
  }
}

/** Fairness conditions a state's self-loop word can name: past them the judge walks every edge. */
const selfSlotsMax = 16;

/** One goal judged: a property on one namespace slot (-1 for the system). */
interface Goal {
  property: LivenessProperty;
  slot: number;
}

/**
 * A state's bits, in two vectors each kept once per distinct value (`VectorTable`), the state holding
 * their ids. Its goals' vector, known when it is found: bits 1 and 2 the flags below, then two per goal
 * (goal g: bit `pendingBit(g)` its goal pending, the next its premise with it); on default 3 + 2 × 57 bits.
 * Its steps' vector, known once it is expanded: bit 0 `hasSuccessor`, then one per fairness condition
 * (condition c at bit `conditionBase + c`).
 */
const hasSuccessor = 1;
const terminalBit = 2;
const horizonBit = 4;
const flagBits = 3;
const conditionBase = 1;
const pendingBit = (goal: number) => flagBits + 2 * goal;
const triggerBit = (goal: number) => flagBits + 2 * goal + 1;

/** Sets goal j's bits in a goals' vector for its answer: pending unless met, and its premise when triggered. */
function setGoalBits(vector: Uint32Array, j: number, answer: GoalAnswer): void {
  if (answer === goalAnswer.met) return;
  vector[pendingBit(j) >>> 5] |= 1 << (pendingBit(j) & 31);
  if (answer === goalAnswer.triggered) vector[triggerBit(j) >>> 5] |= 1 << (triggerBit(j) & 31);
}

/**
 * What liveness needs of a search, recorded as it runs: pass it to `check` as its `recorder`, then call
 * `judge` once the search has returned.
 */
export class LivenessCollector {
  readonly goals: Goal[];
  /** Every fairness condition of every property, once each: bit `c` of the enabled words. */
  private readonly conditions: FairnessCondition<SystemEvent>[] = [];
  /** Per property: the global index of each of its compiled conditions, in its own order. */
  private readonly propertyConditions: { conditions: FairnessCondition<SystemEvent>[]; global: number[] }[];
  private readonly eventBits = new Map<SystemEvent, Uint32Array>();
  /** Per state, the id of its goals' vector in `goalVectors`, and of its steps' vector in `stepVectors`. */
  private readonly goalIds = new StateIds();
  private readonly stepIds = new StateIds();
  private readonly goalVectors: VectorTable;
  private readonly stepVectors: VectorTable;
  /** The goals' vector of the state `state` is recording. */
  private readonly goalScratch: Uint32Array;
  /**
   * Per state, 16 bits of the fairness conditions its self-loops take (under symmetry, concrete ones): the judge's
   * Tarjan searches then walk `moves`, which leaves out the self-loops, and take a state's self-loop
   * classes from these bits (a self-loop lies in its state's component, whatever else the walk finds).
   * A condition gets its bit (`selfSlot`) at its first self-loop: on default 7 of the 41 conditions ever
   * have one. Past 16 such conditions (`selfOverflow`) the judge walks every edge, as before.
   */
  /** Per state, the fairness classes its self-loops take (at most `selfSlotsMax` bits: 16 bits a state). */
  private readonly selfWords = new StateIds();
  private readonly selfSlot: Int32Array;
  private selfSlots = 0;
  private selfOverflow = false;
  /** Per compiled event id: its self-loop word (bit `selfSlot[c]` for each condition c it takes), -1 until known. */
  private idSelf = new Int32Array(0);
  private gatheredSelf = 0;
  private readonly terminal: ((state: SystemState) => boolean) | undefined;
  private readonly horizon: ((state: SystemState) => boolean) | undefined;
  private expansions = 0;
  /** Per compiled event id: whether its classes are known, and its condition words. */
  private idKnown = new Uint8Array(0);
  private idBits = new Uint32Array(0);
  /** The steps' vector of the edges seen so far out of state `gatheredFor` (-1: none yet). */
  private gathered: Uint32Array;
  private gatheredFor = -1;
  /**
   * Per compiled table bundle taken whole (`selfLoopBundle`): `bundleRow[bundle]` its row + 1 (0 until
   * known), and row r's `width + 1` words from `r * (width + 1)` in `bundleWords`, its self-loops'
   * conditions' words, then their self-loop word. Typed arrays rather than a map, since they are asked once
   * per bundle of every state expanded; rows, since bundles are named by sparse offsets (on default 5,882
   * bundles below 147,456).
   */
  private bundleRow = new Int32Array(0);
  private bundleWords = new Uint32Array(0);
  private bundleRows = 0;
  private search: ExploreResult<SystemState, SystemEvent> | undefined;
  /** The goals' `p` and `q`, asked once per goal, own slot and the lanes outside the slots. */
  private readonly goalMemo: GoalMemo;

  /**
   * Under symmetry (`symmetry`: the search keeps one state per orbit) `judge` judges on the orbits times
   * the slot a property follows (checker/judging/liveness-symmetric.ts).
   */
  constructor(
    readonly model: CheckedSystemModel,
    readonly properties: readonly LivenessProperty[],
    readonly symmetry?: StateSymmetry,
  ) {
    const keys = new Map<string, number>();
    this.propertyConditions = properties.map((property) => {
      const conditions = compileFairness(model, property.fairness);
      const keyed = property.fairness.flatMap((f) =>
        f.perNamespace
          ? model.scope.namespaces.map((_, i) => `${JSON.stringify(f)}@${i}`)
          : [JSON.stringify(f)],
      );
      const global = conditions.map((condition, i) => {
        let bit = keys.get(keyed[i]);
        if (bit === undefined) {
          bit = this.conditions.length;
          keys.set(keyed[i], bit);
          this.conditions.push(condition);
        }
        return bit;
      });
      return { conditions, global };
    });
    this.goals = properties.flatMap((property) =>
      property.perNamespace
        ? model.scope.namespaces.map((_, slot) => ({ property, slot }))
        : [{ property, slot: -1 }],
    );
    this.goalVectors = new VectorTable(Math.ceil(pendingBit(this.goals.length) / 32));
    this.stepVectors = new VectorTable(Math.ceil((conditionBase + this.conditions.length) / 32));
    this.goalScratch = new Uint32Array(this.goalVectors.width);
    this.maskScratch = new Uint32Array(this.goalVectors.width);
    this.goalsAt = Array.from({ length: model.scope.namespaces.length + 1 }, (_, k) =>
      this.goals.flatMap((g, j) => (g.slot === k - 1 ? [j] : [])),
    );
    this.selfSlot = new Int32Array(this.conditions.length).fill(-1);
    this.gathered = new Uint32Array(this.stepVectors.width);
    this.goalMemo = new GoalMemo(model, this.goals);
    this.terminal = systemTerminalDeclared(model);
    this.horizon = systemHorizonDeclared(model);
  }

  /** Bytes of the per-state ids and words, and of the vectors they name. */
  get bytes(): number {
    return (
      this.goalIds.bytes +
      this.stepIds.bytes +
      this.goalVectors.bytes +
      this.stepVectors.bytes +
      this.selfWords.bytes
    );
  }

  /** Distinct goals' and steps' vectors stored so far. */
  get vectors(): { goals: number; steps: number } {
    return { goals: this.goalVectors.size, steps: this.stepVectors.size };
  }

  /** Bit `bit` of state `s`'s goals' vector. */
  private goalBit(s: number, bit: number): boolean {
    return this.goalVectors.bit(this.goalIds.get(s), bit);
  }

  /** Bit `bit` of state `s`'s steps' vector. */
  private stepBit(s: number, bit: number): boolean {
    return this.stepVectors.bit(this.stepIds.get(s), bit);
  }

  /** The model as a generic explorer must see it: expansions counted. */
  wrap(model: ExplorableModel<SystemState, SystemEvent>): ExplorableModel<SystemState, SystemEvent> {
    return announcingExpansions(model, () => this.expanding());
  }

  /** The explorer starts expanding its next state (states are expanded in index order). */
  expanding(): void {
    this.flushGathered();
    this.expansions++;
  }

  /** An edge out of the state being expanded. */
  edge(event: SystemEvent, _afterIndex: number): void {
    this.gatheredFor = this.expansions - 1;
    const bits = this.bitsOf(event);
    for (let w = 0; w < bits.length; w++) this.gathered[w] |= bits[w];
  }

  /** An edge of the compiled search by its event's id: as `edge`, with the event's classes kept by id. */
  eventEdge(event: number, events: readonly SystemEvent[], selfLoop: boolean): void {
    const s = this.expansions - 1;
    const words = this.gathered.length;
    // An event seen before has its bits in `idBits` (sized then): one test per edge instead of two grows.
    if (event >= this.idKnown.length || this.idKnown[event] === 0) {
      // Each array grows on its own: idKnown doubles past the event, so a later event below its length
      // may still lie past idBits' last word.
      this.idKnown = grown(this.idKnown, event);
      this.idBits = grown(this.idBits, (event + 1) * words - 1);
      this.idBits.set(this.bitsOf(events[event]), event * words);
      this.idKnown[event] = 1;
    }
    // Gathered per expansion, written when the next one starts (or the search ends).
    this.gatheredFor = s;
    if (selfLoop) this.gatheredSelf |= this.selfWordOf(event, events);
    const bits = this.idBits;
    const gathered = this.gathered;
    for (let w = 0; w < words; w++) gathered[w] |= bits[event * words + w];
  }

  /**
   * The first `count` of the `total` self-loops of a compiled table bundle, as `eventEdge` on each: what a
   * whole bundle takes is kept per bundle (its conditions' words, then its self-loop word).
   */
  selfLoopBundle(
    bundle: number,
    count: number,
    total: number,
    eventOf: (bundle: number, k: number) => number,
    events: readonly SystemEvent[],
  ): void {
    if (count < total) {
      for (let k = 0; k < count; k++) this.eventEdge(eventOf(bundle, k), events, true);
      return;
    }
    const gathered = this.gathered;
    const width = gathered.length;
    const row = bundle < this.bundleRow.length ? this.bundleRow[bundle] - 1 : -1;
    if (row === -1) {
      const at = this.bundleRows * (width + 1);
      this.bundleRow = grown(this.bundleRow, bundle);
      this.bundleRow[bundle] = ++this.bundleRows;
      this.bundleWords = grown(this.bundleWords, at + width);
      const words = this.bundleWords;
      // Its events were each seen before (the bundle was recorded one by one): their bits are known.
      for (let k = 0; k < total; k++) {
        const event = eventOf(bundle, k);
        this.eventEdge(event, events, true);
        for (let w = 0; w < width; w++) words[at + w] |= this.idBits[event * width + w];
        words[at + width] |= this.selfWordOf(event, events);
      }
      return;
    }
    this.gatheredFor = this.expansions - 1;
    const words = this.bundleWords;
    const at = row * (width + 1);
    for (let w = 0; w < width; w++) gathered[w] |= words[at + w];
    this.gatheredSelf |= words[at + width];
  }

  /** Writes the classes gathered over the last expansion's edges, and that it had one. */
  private flushGathered(): void {
    const s = this.gatheredFor;
    if (s < 0) return;
    const gathered = this.gathered;
    const had = this.stepIds.get(s);
    for (let w = 0; w < gathered.length; w++) gathered[w] |= this.stepVectors.word(had, w);
    gathered[0] |= hasSuccessor;
    this.stepIds.set(s, this.stepVectors.intern(gathered));
    gathered.fill(0);
    if (this.gatheredSelf !== 0) this.selfWords.set(s, this.selfWords.get(s) | this.gatheredSelf);
    this.gatheredSelf = 0;
    this.gatheredFor = -1;
  }

  /** The self-loop word of event `event`: a bit per condition it takes, each condition's bit given at first need. */
  private selfWordOf(event: number, events: readonly SystemEvent[]): number {
    if (event >= this.idSelf.length) this.idSelf = grown(this.idSelf, event, -1);
    let word = this.idSelf[event];
    if (word !== -1) return word;
    word = 0;
    for (let c = 0; c < this.conditions.length; c++) {
      if (!this.conditions[c].matches(events[event])) continue;
      if (this.selfSlot[c] === -1) {
        if (this.selfSlots === selfSlotsMax) {
          this.selfOverflow = true;
          continue;
        }
        this.selfSlot[c] = this.selfSlots++;
      }
      word |= 1 << this.selfSlot[c];
    }
    this.idSelf[event] = word;
    return word;
  }

  /** Whether state s's self-loops take condition c, read from the words recorded (none past the 16 slots). */
  private selfTakes(words: StateIds): (c: number, s: number) => boolean {
    return (c, s) => this.selfSlot[c] >= 0 && ((words.get(s) >>> this.selfSlot[c]) & 1) === 1;
  }

  /** Own bits of `conditions` (condition `conditions[b]` is bit b) per self-loop slot. */
  private selfToBits(conditions: readonly number[]): Int32Array {
    const bits = new Int32Array(selfSlotsMax);
    conditions.forEach((c, bit) => {
      if (this.selfSlot[c] >= 0) bits[this.selfSlot[c]] |= 1 << bit;
    });
    return bits;
  }

  /** The classes of state `s`'s self-loops, in the numbering `selfToBits` gave. */
  private selfMaskOf(s: number, toBits: Int32Array): number {
    let word = this.selfWords.get(s);
    let m = 0;
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      m |= toBits[31 - Math.clz32(low)];
    }
    return m;
  }

  /** A state discovered: its goals' premises and pending goals, and whether it is terminal or at the horizon. */
  state(state: SystemState, index: number): void {
    const vector = this.goalScratch;
    this.goalVectors.copy(this.goalIds.get(index), vector);
    if (this.terminal?.(state)) vector[0] |= terminalBit;
    if (this.horizon?.(state)) vector[0] |= horizonBit;
    const classes = this.goalMemo.classesOf(state);
    const width = vector.length;
    for (let k = 0; k < classes.length; k++) {
      const c = classes[k];
      const row = c < this.classRow.length ? this.classRow[c] : 0;
      if (row > 0) {
        // The class's goals' bits, made once: one mask per slot instead of one answer per goal.
        const at = (row - 1) * width;
        for (let w = 0; w < width; w++) vector[w] |= this.classMasks[at + w];
        continue;
      }
      const goals = this.goalsAt[k];
      if (row < 0) {
        for (const j of goals) this.onAnswer(j, this.goalMemo.answer(j, state));
        continue;
      }
      const mask = this.maskScratch.fill(0);
      let kept = true;
      for (const j of goals) {
        setGoalBits(mask, j, this.goalMemo.answer(j, state));
        kept &&= this.goalMemo.kept(j);
      }
      for (let w = 0; w < width; w++) vector[w] |= mask[w];
      this.classRow = grown(this.classRow, c);
      if (!kept) {
        this.classRow[c] = -1;
        continue;
      }
      this.classMasks = grown(this.classMasks, (this.classRows + 1) * width - 1);
      this.classMasks.set(mask, this.classRows * width);
      this.classRow[c] = ++this.classRows;
    }
    this.goalIds.set(index, this.goalVectors.intern(vector));
  }

  /**
   * Per goal class (`GoalMemo.classesOf`): its row in `classMasks` + 1, -1 when a goal of it reads beyond
   * it (asked in every state), 0 until met. A row holds the pending and premise bits of the class's goals.
   */
  private classRow = new Int32Array(0);
  private classMasks = new Uint32Array(0);
  private classRows = 0;
  private readonly maskScratch: Uint32Array;
  /** The goals of each slot position as `classesOf` numbers them (0: the system's, i + 1: slot i's). */
  private readonly goalsAt: number[][];

  /** Goal j's answer in the state `state` is recording. */
  private readonly onAnswer = (j: number, answer: GoalAnswer): void =>
    setGoalBits(this.goalScratch, j, answer);

  /** Called by `check` once the search has returned. */
  finish(search: ExploreResult<SystemState, SystemEvent>): void {
    this.flushGathered();
    this.search = search;
  }

  /** Runs of the goals' `p` and `q` during the search (each goal asked once per key, most states none). */
  get goalRuns(): number {
    return this.goalMemo.runs;
  }

  private bitsOf(event: SystemEvent): Uint32Array {
    let bits = this.eventBits.get(event);
    if (bits === undefined) {
      // The event's conditions where they lie in a state's steps' vector.
      bits = new Uint32Array(this.stepVectors.width);
      for (let c = 0; c < this.conditions.length; c++) {
        const at = conditionBase + c;
        if (this.conditions[c].matches(event)) bits[at >>> 5] |= 1 << (at & 31);
      }
      this.eventBits.set(event, bits);
    }
    return bits;
  }

  /** Deadlock and every property, judged on the recorded words and recomputed successors. */
  /**
   * `onJudged` is told after each property's verdict (a long judgement of a large graph can report it).
   * Past `deadline` (a `performance.now()` time) the judgement stops: the properties judged keep their
   * verdicts, the others are `incomplete`, and the run says where it stopped (`stoppedAt`).
   */
  judge(
    onJudged?: (judged: number, total: number, propertyId: string) => void,
    deadline = Number.POSITIVE_INFINITY,
  ): LivenessRun {
    const search = this.search;
    if (search === undefined) throw new Error('LivenessCollector: the search has not finished');
    if (this.symmetry !== undefined && this.symmetry.order > 1)
      return judgeUnderSymmetry(this.collected(search), this.symmetry, onJudged, deadline);
    const { successors, events } = search;
    if (successors === undefined || events === undefined)
      throw new Error('LivenessCollector: the search cannot recompute successors (use the compiled search)');
    const started = performance.now();
    // The state being expanded when a limit struck has only some of its edges: treat it as unexpanded.
    const expanded = search.complete ? this.expansions : Math.max(0, this.expansions - 1);
    const walk: Walk = {
      size: search.states,
      expanded,
      successors: (s, emit) => {
        if (s < expanded) successors(s, emit);
      },
      events,
    };
    const stuck: number[] = [];
    let horizonStops = 0;
    for (let s = 0; s < expanded; s++) {
      const flags = this.goalVectors.word(this.goalIds.get(s), 0);
      if (this.stepBit(s, 0) || (flags & terminalBit) !== 0) continue;
      if ((flags & horizonBit) !== 0) horizonStops++;
      else stuck.push(s);
    }
    const results: LivenessResult[] = [];
    const stopped = judgedUntil(() => {
      heedDeadline(deadline);
      // Tarjan's searches walk the moves and take each state's self-loop classes from its words.
      const { moves } = search as Partial<Pick<CompiledResult, 'moves'>>;
      // Per goals' vector id, the expanded states that hold it (103 ids for 398,688 states on default):
      // the counts and comparisons below read the ids, not every state's bits.
      const statesOf = this.statesPerGoalVector(expanded);
      const triggerCounts = this.triggerCounts(statesOf);
      const batches = this.horizon === undefined ? this.sharedBatches(statesOf, triggerCounts) : [];
      const kept =
        moves === undefined || this.selfOverflow
          ? undefined
          : this.keptMoves(batches, triggerCounts, expanded, events.length, moves, deadline);
      const sccWalk: Walk =
        kept === undefined || moves === undefined
          ? walk
          : {
              ...walk,
              successors: (s, emit) => {
                if (s < expanded) kept.successors(s, emit, moves);
              },
              lists: kept,
            };
      const judging: Walks = { all: walk, scc: sccWalk };
      const scratch = new TarjanScratch(search.states);
      scratch.deadline = deadline;
      const fairs = this.properties.map((_, i) => this.fairnessOf(i, events));
      const cleared = this.sharedSearches(sccWalk, batches, fairs, events, scratch);
      let goalAt = 0;
      for (const [i, property] of this.properties.entries()) {
        heedDeadline(deadline);
        const fair = fairs[i];
        const first = goalAt;
        goalAt += property.perNamespace ? this.model.scope.namespaces.length : 1;
        results.push(
          combineSlots(this.model, property, search.complete, (slot) =>
            this.goalVerdict(
              judging,
              search,
              fair,
              first + (property.perNamespace ? slot : 0),
              scratch,
              cleared,
              triggerCounts,
            ),
          ),
        );
        onJudged?.(i + 1, this.properties.length, property.id);
      }
    });
    return {
      ...searchFigures(search, started),
      deadlock: {
        count: stuck.length,
        atHorizon: horizonStops,
        ...(stuck.length > 0 ? { trace: search.traceTo(stuck[0]) } : {}),
      },
      ...untilStopped(this.properties, results, stopped),
    };
  }

  /** Per goals' vector id, how many of the states before `expanded` hold it. */
  private statesPerGoalVector(expanded: number): Int32Array {
    const counts = new Int32Array(this.goalVectors.size);
    for (let s = 0; s < expanded; s++) counts[this.goalIds.get(s)]++;
    return counts;
  }

  /** Per goals' vector id, 1 where bit `bit` is set: a state's bit is `table[goalIds.get(s)]`. */
  private goalBitTable(bit: number): Uint8Array {
    const table = new Uint8Array(this.goalVectors.size);
    for (let v = 1; v < table.length; v++) if (this.goalVectors.bit(v, bit)) table[v] = 1;
    return table;
  }

  /** Per goal, the states counted in `statesOf` where it was triggered (its premise bit set). */
  private triggerCounts(statesOf: Int32Array): Int32Array {
    const counts = new Int32Array(this.goals.length);
    for (let g = 0; g < counts.length; g++) {
      const bit = triggerBit(g);
      for (let v = 1; v < statesOf.length; v++)
        if (statesOf[v] > 0 && this.goalVectors.bit(v, bit)) counts[g] += statesOf[v];
    }
    return counts;
  }

  /** The recorded words as the judge under symmetry reads them. */
  private collected(search: ExploreResult<SystemState, SystemEvent>): CollectedLiveness {
    const expanded = search.complete ? this.expansions : Math.max(0, this.expansions - 1);
    const n = this.model.scope.namespaces.length;
    const goalStart = this.properties.map((_, i) =>
      this.properties.slice(0, i).reduce((sum, p) => sum + (p.perNamespace ? n : 1), 0),
    );
    return {
      model: this.model,
      properties: this.properties,
      search,
      expanded,
      horizonDeclared: this.horizon !== undefined,
      goalOf: (property, slot) => goalStart[property] + Math.max(slot, 0),
      pending: (g, s) => s < expanded && this.goalBit(s, pendingBit(g)),
      triggered: (g, s) => s < expanded && this.goalBit(s, triggerBit(g)),
      enabled: (c, s) => this.stepBit(s, conditionBase + c),
      stuck: (s) => !this.stepBit(s, 0) && !this.goalBit(s, 1),
      conditions: this.conditions,
      ...(this.selfOverflow ? {} : { selfTakes: this.selfTakes(this.selfWords) }),
      fairnessOf: (i) => {
        const { global } = this.propertyConditions[i];
        let at = 0;
        return this.properties[i].fairness.map((f) => {
          const width = f.perNamespace ? n : 1;
          const bits = global.slice(at, at + width);
          at += width;
          return { kind: f.kind, perNamespace: f.perNamespace === true, bits };
        });
      },
    };
  }

  /**
   * Goals pending in exactly the same states share one Tarjan search from all their triggers (their
   * components are the same; each goal's fairness is applied to them afterwards). A goal none of whose
   * shared components is fair has none reachable from its own triggers either: it is marked (1) and holds
   * without a search of its own; any other goal is judged alone as before, so verdicts and lassos are
   * unchanged. The classes a shared search records are those of its goals' properties, at most 32: the
   * batches of goals searched together, each with those classes.
   */
  private sharedBatches(statesOf: Int32Array, triggerCounts: Int32Array): SharedBatch[] {
    const propertyOf = this.goals.map((g) => this.properties.indexOf(g.property));
    // Goals by their pending states: a state is pending for a goal exactly when its goals' vector has the
    // goal's pending bit, so two goals are pending in the same states when the bits agree on every vector
    // some expanded state holds (the vector ids' column of the goal is its key).
    const held: number[] = [];
    for (let v = 1; v < statesOf.length; v++) if (statesOf[v] > 0) held.push(v);
    const byColumn = new Map<string, number[]>();
    for (let g = 0; g < this.goals.length; g++) {
      if (triggerCounts[g] === 0) continue;
      const bit = pendingBit(g);
      const key = held.map((v) => (this.goalVectors.bit(v, bit) ? '1' : '0')).join('');
      const group = byColumn.get(key);
      if (group) group.push(g);
      else byColumn.set(key, [g]);
    }
    const batches: SharedBatch[] = [];
    for (const group of byColumn.values()) {
      // Batches whose properties' classes fit in one 32-bit word.
      let batch: number[] = [];
      let classes = new Set<number>();
      const flush = () => {
        if (batch.length > 1) batches.push({ goals: batch, classes: [...classes] });
        batch = [];
        classes = new Set<number>();
      };
      for (const g of group) {
        const own = this.propertyConditions[propertyOf[g]].global;
        const union = new Set([...classes, ...own]);
        if (union.size > 32) flush();
        batch.push(g);
        for (const c of own) classes.add(c);
      }
      flush();
    }
    return batches;
  }

  /** The shared searches of `batches`: the goals none of whose components is fair, marked 1. */
  private sharedSearches(
    walk: Walk,
    batches: readonly SharedBatch[],
    fairs: readonly Fair[],
    events: readonly SystemEvent[],
    scratch: TarjanScratch,
  ): Uint8Array {
    const cleared = new Uint8Array(this.goals.length);
    const propertyOf = this.goals.map((g) => this.properties.indexOf(g.property));
    for (const { goals, classes } of batches) {
      this.sharedSearch(walk, goals, classes, propertyOf, fairs, events, scratch, cleared);
    }
    return cleared;
  }

  /**
   * The moves of every state that is a root of two planned searches (the shared batches, then each
   * triggered goal outside them), to states where a search pending at the source is pending too: a goal
   * of a batch searched again alone is pending in its batch's states, and every search, its work sets
   * included, stays inside its goal's pending states, so no search follows a move left out.
   */
  private keptMoves(
    batches: readonly SharedBatch[],
    triggerCounts: Int32Array,
    expanded: number,
    events: number,
    moves: (s: number, emit: (event: number, target: number) => void) => void,
    deadline: number,
  ): KeptMoves | undefined {
    // Each planned search: the goals whose triggers are its roots (the first one's pending bit is theirs).
    const planned: number[][] = batches.map(({ goals }) => goals);
    const inBatch = new Uint8Array(this.goals.length);
    for (const { goals } of batches) for (const g of goals) inBatch[g] = 1;
    for (let g = 0; g < this.goals.length; g++)
      if (triggerCounts[g] > 0 && inBatch[g] === 0) planned.push([g]);
    // Per goals' vector (103 on default): the planned searches pending there, and those triggered there,
    // one bit each (past 32, any).
    const searchesAt = new Int32Array(this.goalVectors.size);
    const rootsAt = new Int32Array(this.goalVectors.size);
    for (let v = 1; v < searchesAt.length; v++)
      for (let k = 0; k < planned.length; k++) {
        const bit = planned.length > 32 ? -1 : 1 << k;
        if (this.goalVectors.bit(v, pendingBit(planned[k][0]))) searchesAt[v] |= bit;
        if (planned[k].some((g) => this.goalVectors.bit(v, triggerBit(g)))) rootsAt[v] |= bit;
      }
    // A move is kept in one word: its target (below `expanded`) and its event (284 ids on default).
    if (!KeptMoves.fits(expanded, events)) return undefined;
    const kept = new KeptMoves(expanded, events);
    const goalIds = this.goalIds;
    let from = 0;
    const followed = (t: number) => t < expanded && (searchesAt[goalIds.get(t)] & from) !== 0;
    for (let s = 0; s < expanded; s++) {
      if ((s & 0xffff) === 0) heedDeadline(deadline);
      const id = goalIds.get(s);
      from = searchesAt[id];
      // A root of two searches or more (a batch's goal searched again alone is its batch's search): on
      // default every state a search opens is one of its roots.
      const roots = rootsAt[id];
      if ((roots & (roots - 1)) !== 0) kept.add(s, moves, followed);
    }
    kept.finish();
    return kept;
  }

  /** One Tarjan search for the goals of `batch` (pending in the same states), from all their triggers. */
  private sharedSearch(
    walk: Walk,
    batch: readonly number[],
    classes: readonly number[],
    propertyOf: readonly number[],
    fairs: readonly Fair[],
    events: readonly SystemEvent[],
    scratch: TarjanScratch,
    cleared: Uint8Array,
  ): void {
    const localOf = new Map(classes.map((c, bit) => [c, bit]));
    let masks = new Int32Array(0);
    const eventMask = (id: number): number => {
      if (id >= masks.length) masks = grown(masks, id, -1);
      if (masks[id] === -1) {
        let m = 0;
        classes.forEach((c, bit) => {
          if (this.conditions[c].matches(events[id])) m |= 1 << bit;
        });
        masks[id] = m;
      }
      return masks[id];
    };
    const selfBits = this.selfToBits(classes);
    const selfMask = (s: number): number => this.selfMaskOf(s, selfBits);
    const goalIds = this.goalIds;
    const expanded = walk.expanded;
    const pending = this.goalBitTable(pendingBit(batch[0]));
    // Per goals' vector id: whether any goal of the batch is triggered there.
    const anyTriggered = new Uint8Array(this.goalVectors.size);
    for (let v = 1; v < anyTriggered.length; v++)
      if (batch.some((g) => this.goalVectors.bit(v, triggerBit(g)))) anyTriggered[v] = 1;
    const roots = new IntList(1024);
    const inside = scratch.emptySet();
    for (let s = 0; s < expanded; s++) {
      const id = goalIds.get(s);
      if (pending[id] === 1) inside[s >>> 5] |= 1 << (s & 31);
      if (anyTriggered[id] === 1) roots.push(s);
    }
    const components = tarjanComponents(
      walk,
      { eventMask, selfMask },
      roots.data.subarray(0, roots.length),
      inside,
      scratch,
    );
    for (const g of batch) {
      const own = this.propertyConditions[propertyOf[g]].global.map((c) => localOf.get(c) as number);
      const toOwn = (taken: number) => {
        let m = 0;
        for (let b = 0; b < own.length; b++) if ((taken >>> own[b]) & 1) m |= 1 << b;
        return m;
      };
      if (!anyFair(walk, fairs[propertyOf[g]], components, toOwn, scratch)) cleared[g] = 1;
    }
  }

  /** Property `i`'s conditions as compact bit masks (bit = its own condition order, as `checkGoal` has them). */
  private fairnessOf(i: number, events: readonly SystemEvent[]): Fair {
    const { conditions, global } = this.propertyConditions[i];
    let weak = 0;
    let strong = 0;
    conditions.forEach((c, bit) => {
      if (c.kind === 'weak') weak |= 1 << bit;
      else strong |= 1 << bit;
    });
    let masks = new Int32Array(0);
    const selfBits = this.selfToBits(global);
    // The enabled classes per steps' vector id (36 on default), read once per id rather than per state.
    const enabledOf = new Int32Array(this.stepVectors.size);
    for (let v = 1; v < enabledOf.length; v++)
      for (let bit = 0; bit < global.length; bit++)
        if (this.stepVectors.bit(v, conditionBase + global[bit])) enabledOf[v] |= 1 << bit;
    return {
      weak,
      strong,
      eventMask: (id) => {
        if (id >= masks.length) {
          const grownMasks = new Int32Array(Math.max(id + 1, masks.length * 2)).fill(-1);
          grownMasks.set(masks);
          masks = grownMasks;
        }
        if (masks[id] === -1) {
          let m = 0;
          conditions.forEach((c, bit) => {
            if (c.matches(events[id])) m |= 1 << bit;
          });
          masks[id] = m;
        }
        return masks[id];
      },
      enabledMask: (s) => enabledOf[this.stepIds.get(s)],
      selfMask: (s) => this.selfMaskOf(s, selfBits),
    };
  }

  private goalVerdict(
    walks: Walks,
    search: ExploreResult<SystemState, SystemEvent>,
    fair: Fair,
    goal: number,
    scratch: TarjanScratch,
    cleared: Uint8Array,
    triggerCounts: Int32Array,
  ): GoalVerdict<SystemState, SystemEvent> {
    const walk = walks.all;
    const expanded = walk.expanded;
    const goalIds = this.goalIds;
    // The goal's bits per goals' vector id, read once per id rather than per state.
    const pending = this.goalBitTable(pendingBit(goal));
    const notQ = (s: number) => s < expanded && pending[goalIds.get(s)] === 1;
    // Most goals are never triggered (on default 43 of 57): counted for all goals in one pass, not a scan each.
    const triggers = triggerCounts[goal];
    if (triggers === 0) return { triggers: 0, onlyAtHorizon: false };
    // A search shared with goals pending in the same states found no fair component: none is reachable from these triggers.
    if (this.horizon === undefined && cleared[goal] === 1) return { triggers, onlyAtHorizon: false };
    const premise = this.goalBitTable(triggerBit(goal));
    const triggerList: number[] = [];
    // The pending states as bits for Tarjan's walk (a load per move, not a call), with the triggers in one pass.
    const pendingSet = scratch.emptySet();
    for (let s = 0; s < expanded; s++) {
      const id = goalIds.get(s);
      if (pending[id] === 1) pendingSet[s >>> 5] |= 1 << (s & 31);
      if (premise[id] === 1) triggerList.push(s);
    }
    // Without a horizon the hot region is what the triggers reach through pending states: one walk decides.
    if (
      this.horizon === undefined &&
      fairComponents(walks.scc, fair, triggerList, pendingSet, scratch).length === 0
    )
      return { triggers: triggerList.length, onlyAtHorizon: false };
    const atHorizon = (s: number) => (this.goalVectors.word(this.goalIds.get(s), 0) & horizonBit) !== 0;
    return exactVerdict(walks, search, fair, notQ, triggerList, atHorizon, scratch);
  }
}

/** Goals pending in the same states, searched together, and the classes their properties name. */
interface SharedBatch {
  goals: number[];
  classes: number[];
}

/** A property's fairness masks, with the classes of a state's self-loops (which `moves` leaves out). */
type Fair = FairMasks & TarjanClasses;

/**
 * The graph as recomputed successors: edges of state `s` (only when `s < expanded`) in the search's order;
 * Tarjan's walk may read them from kept lists instead.
 */
type Walk = SuccessorWalk<SystemEvent> & { lists?: MoveLists };

/**
 * The graph walked two ways: `all` every edge (the lasso's distances and cycle), `scc` for Tarjan's
 * searches, which may leave out self-loops whose classes the fairness masks' `selfMask` gives.
 */
interface Walks {
  all: Walk;
  scc: Walk;
}

/** Fair components reachable from `roots` inside `inside`, as `checkGoal`'s `fairComponents` finds them. */
function fairComponents(
  walk: Walk,
  fair: Fair,
  roots: ArrayLike<number>,
  inside: Inside,
  scratch: TarjanScratch,
): Component[] {
  const found: Component[] = [];
  const work: WorkSet[] = [{ roots, inside }];
  while (work.length > 0) {
    const set = work.pop() as WorkSet;
    for (const component of tarjanComponents(walk, fair, set.roots, set.inside, scratch))
      classify(component.states, component.taken, fair, scratch, work, found);
  }
  return found;
}

/** A set of states searched again for fair components: its roots, and membership. */
interface WorkSet {
  roots: ArrayLike<number>;
  inside: Inside;
}

/**
 * One component, with the classes taken on its edges: fair (added to `found`), unfair, or holding
 * states where an untaken strongly fair step is enabled (the rest is added to `work`, to search again).
 */
function classify(
  states: Int32Array,
  taken: number,
  fair: Fair,
  scratch: TarjanScratch,
  work: WorkSet[],
  found: Component[],
): void {
  let enabledSomewhere = 0;
  let enabledEverywhere = -1;
  for (const s of states) {
    const m = fair.enabledMask(s);
    enabledSomewhere |= m;
    enabledEverywhere &= m;
  }
  const unfairStrong = fair.strong & enabledSomewhere & ~taken;
  if (unfairStrong !== 0) {
    // No fair cycle may pass where such a step is enabled: search what is left.
    const rest = states.filter((s) => (fair.enabledMask(s) & unfairStrong) === 0);
    if (rest.length > 0) {
      const stamp = ++scratch.stamp;
      for (const s of rest) scratch.mark[s] = stamp;
      work.push({ roots: rest, inside: (s) => scratch.mark[s] === stamp });
    }
    return;
  }
  const weakTaken = fair.weak & taken;
  const weakDisabled = fair.weak & ~taken & ~enabledEverywhere;
  if ((weakTaken | weakDisabled) !== fair.weak) return;
  found.push({ states, weakTaken, weakDisabled, strongTaken: fair.strong & enabledSomewhere });
}

/**
 * Whether any fair component lies among `components` (found by one Tarjan search shared by several
 * goals, with `taken` in the shared numbering of classes) for a goal with fairness `fair`; `toOwn`
 * turns a shared `taken` into the goal's own classes. Stops at the first fair component found.
 */
function anyFair(
  walk: Walk,
  fair: Fair,
  components: Iterable<{ states: Int32Array; taken: number }>,
  toOwn: (taken: number) => number,
  scratch: TarjanScratch,
): boolean {
  const found: Component[] = [];
  const work: WorkSet[] = [];
  for (const component of components) {
    classify(component.states, toOwn(component.taken), fair, scratch, work, found);
    while (found.length === 0 && work.length > 0) {
      const set = work.pop() as WorkSet;
      for (const c of tarjanComponents(walk, fair, set.roots, set.inside, scratch))
        classify(c.states, c.taken, fair, scratch, work, found);
    }
    if (found.length > 0) return true;
  }
  return false;
}

/** `checkGoal` on recomputed successors: the same shortest prefix, fair component and cycle. */
function exactVerdict(
  walks: Walks,
  search: ExploreResult<SystemState, SystemEvent>,
  fair: Fair,
  notQ: (s: number) => boolean,
  triggerList: number[],
  horizon: (s: number) => boolean,
  scratch: TarjanScratch,
): GoalVerdict<SystemState, SystemEvent> {
  const within = (members: ArrayLike<number>) => {
    const stamp = ++scratch.stamp;
    for (let i = 0; i < members.length; i++) scratch.mark[members[i]] = stamp;
    return (s: number) => scratch.mark[s] === stamp;
  };
  return lassoVerdict(
    walks.all,
    search,
    { notQ, triggers: triggerList, horizon },
    fair,
    (members) => fairComponents(walks.scc, fair, members, within(members), scratch),
    within,
  );
}

/** Explores the model once (compiled, no safety property) and judges deadlock and `properties` on the fly. */
export function checkLivenessOnTheFly(
  model: CheckedSystemModel,
  properties: readonly LivenessProperty[],
  limits: Pick<CheckOptions, 'maxStates' | 'maxSeconds' | 'maxHeapBytes'> = {},
): LivenessRun {
  const collector = new LivenessCollector(model, properties);
  check(model, [], { ...limits, recorder: collector, memo: false });
  return collector.judge();
}
