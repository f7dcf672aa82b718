import type { SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import { hashLanes } from '../engine/codec.ts';
import { PairValues } from '../engine/pair-ids.ts';
import { grown, grownLength } from '../engine/state-store.ts';
import { firstNamespaceLane } from './encoding.ts';

/**
 * Step judgements remembered per *step class*, so a property runs once per class instead of once per
 * edge. A judgement runs on a tracking copy of the model that notes what it reads of the step:
 * - only the event and the namespace slots the step changed or addressed (their views, which slots
 *   changed): its answer holds for every step with that event and those slots (the *local* class);
 * - only the event and the lanes outside the namespace slots (configuration copy, faults, stored
 *   configurations, initializer controllers), before and after: it holds for every step with that event
 *   and those lanes (the *global* class);
 * - both: it holds for the local class refined by those lanes;
 * - the event and namespace slots the step neither changed nor addressed (`view` of such a slot, or
 *   `views`), and nothing outside the slots: it holds for every step with that event and the same
 *   namespace slots before and after (the *slots* class);
 * - other slots and the lanes outside them, or a model method not known to read only these: not
 *   remembered.
 * A run that read nothing of the step but its event answers every local class of that event, and one
 * that read only which slots changed, on a step that changed none, every such step of its event.
 * A deterministic judgement gives the same answer wherever what it read is the same, so remembering is
 * exact: same verdicts, same witness counts, same first violations (tests compare with `memo: false`).
 * Properties read states only through the model's methods (a test holds them to it), or tracking would
 * miss a read.
 */

/** Per judgement and class: not yet judged, judged true, judged false, judge every time, or look further. */
export enum Memo {
  Unknown = 0,
  True = 1,
  False = 2,
  Always = 3,
  /** In the local table: the judgement read the lanes outside the slots; see the global, then the refined table. */
  Further = 4,
  /** In the local table: the judgement read namespace slots the step did not fix; see the slots table. */
  Slots = 5,
}

/** Self-loop pairs whose addressed slot's id + 1 is below this are found by direct index (a row per event). */
const selfDirect = 4096;

/** Whether `list` holds exactly the first `count` numbers of `scratch`. */
function sameCounted(list: readonly number[], scratch: readonly number[], count: number): boolean {
  if (list.length !== count) return false;
  for (let k = 0; k < count; k++) if (list[k] !== scratch[k]) return false;
  return true;
}

/** Whether two lists hold the same numbers in the same order (a loop: no closure per call, once per filed step). */
function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** A settled code as `knownLanes` answers it: 1 true, 0 false, -1 unknown (run the judgement). */
const answered = (code: Memo): number => (code === Memo.True ? 1 : code === Memo.False ? 0 : -1);

/**
 * `grown` for the memo's 16-bit arrays (or their 32-bit widening), the same growth: kept apart so that
 * `grown`, called on every table's growth, keeps seeing few array types.
 */
function grownValues<T extends Uint16Array | Uint32Array | Int32Array>(array: T, at: number): T {
  if (at < array.length) return array;
  const bigger = new (array.constructor as new (length: number) => T)(grownLength(array.length, at));
  bigger.set(array);
  return bigger;
}

/** A model method, as the tracking proxies hand it out. */
type AnyMethod = (...args: never[]) => unknown;

/**
 * `method` bound to `target`, made once per method (a judgement asks for the same few methods on every
 * run): the bound copy is kept while the target's field still holds that method.
 */
function boundOnce(
  bound: Map<PropertyKey, [AnyMethod, AnyMethod]>,
  target: object,
  key: PropertyKey,
  method: AnyMethod,
): AnyMethod {
  const kept = bound.get(key);
  if (kept !== undefined && kept[0] === method) return kept[1];
  const made = method.bind(target);
  bound.set(key, [method, made]);
  return made;
}

/** Model fields and methods that are the scope's data, the same in every state. */
const scopeData = new Set<PropertyKey>(['scope', 'objects', 'initializers', 'objectName', 'initializerSpec']);

/** Model methods that read only the lanes outside the namespace slots, or nothing of a state. */
const globalReads = new Set<PropertyKey>([
  'systemView',
  'configurationFresh',
  'secondsSinceConfigRead',
  'configReadsFailing',
  'configurationsRead',
  'configurationVersionsRead',
  'storedVersion',
  'storedConfigurations',
  'sameConfigurationCopy',
  'storedClusterObjects',
]);

/**
 * Small integer ids for short tuples of integers: open addressing on typed arrays, no string keys.
 * The tuples are kept end to end in a pool of 16-bit values, widened to 32 bits the first time a value
 * does not fit (the ids and slot ids in every scope so far fit), and a tuple's length is where the next
 * one starts: the default scope's local classes hold about 23,000 tuples of 1 + 3 values per slot a step fixes.
 */
export class TupleIds {
  private pool: Uint16Array | Uint32Array = new Uint16Array(1 << 16);
  private used = 0;
  /** Per id: where its tuple starts in the pool (its end is where the next one starts, or `used`). */
  private starts = new Int32Array(1 << 12);
  /** id + 1 per slot; 0 marks an empty slot. */
  private slots = new Int32Array(1 << 13);
  size = 0;

  /** The id of `tuple[offset .. offset + length)`, new or not. */
  id(tuple: Uint32Array, length: number, offset = 0): number {
    const mask = this.slots.length - 1;
    for (let slot = hashLanes(tuple, offset, length) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === 0) return this.add(slot, tuple.subarray(offset, offset + length), length);
      if (this.equals(entry - 1, tuple, length, offset)) return entry - 1;
    }
  }

  /** Whether `id` is the id of `tuple[0 .. length)` (no hash, no new id). */
  matches(id: number, tuple: Uint32Array, length: number): boolean {
    return this.equals(id, tuple, length, 0);
  }

  /** The tuple of `id`, as a copy (for tests and checks). */
  tupleOf(id: number): number[] {
    return Array.from(this.pool.subarray(this.starts[id], this.end(id)));
  }

  /** The typed arrays' bytes. */
  get bytes(): number {
    return this.pool.byteLength + this.starts.byteLength + this.slots.byteLength;
  }

  private end(id: number): number {
    return id + 1 < this.size ? this.starts[id + 1] : this.used;
  }

  private equals(id: number, tuple: Uint32Array, length: number, offset: number): boolean {
    const start = this.starts[id];
    if (this.end(id) - start !== length) return false;
    const { pool } = this;
    for (let k = 0; k < length; k++) if (pool[start + k] !== tuple[offset + k]) return false;
    return true;
  }

  private add(slot: number, tuple: Uint32Array, length: number): number {
    const id = this.size++;
    if (this.pool instanceof Uint16Array && tuple.subarray(0, length).some((value) => value > 0xffff))
      this.pool = Uint32Array.from(this.pool);
    if (this.used + length >= this.pool.length) this.pool = grownValues(this.pool, this.used + length);
    if (id >= this.starts.length) this.starts = grown(this.starts, id);
    this.pool.set(tuple.subarray(0, length), this.used);
    this.starts[id] = this.used;
    this.used += length;
    this.slots[slot] = id + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    this.slots = doubledSlots(this.slots, this.size, (id) => {
      const start = this.starts[id];
      return hashLanes(this.pool, start, this.end(id) - start);
    });
  }
}

/** An open-addressing table of ids + 1, twice as large, each of the `size` ids placed again by its hash. */
function doubledSlots(
  slots: Int32Array,
  size: number,
  hashOf: (id: number) => number,
): Int32Array<ArrayBuffer> {
  const doubled = new Int32Array(slots.length * 2);
  const mask = doubled.length - 1;
  for (let id = 0; id < size; id++) {
    let slot = hashOf(id) & mask;
    while (doubled[slot] !== 0) slot = (slot + 1) & mask;
    doubled[slot] = id + 1;
  }
  return doubled;
}

/** A triple's slot hash, mixed over all 32 bits: triples of small ids would otherwise cluster. */
const tripleHash = (a: number, b: number, c: number): number => {
  let hash = Math.imul(a, 0x9e3779b1) ^ b;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b) ^ c;
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  hash = Math.imul(hash ^ (hash >>> 16), 0x27d4eb2d);
  return hash ^ (hash >>> 15);
};

/**
 * `TupleIds` for triples (the global, refined and slots classes' keys): an id's three values stored at
 * three times the id, so a probe reads the slot and the values, with no start and no length to compare.
 * 16 bits a value, widened to 32 the first time one does not fit.
 */
export class TripleIds {
  private keys: Uint16Array | Uint32Array = new Uint16Array(3 << 10);
  /** id + 1 per slot; 0 marks an empty slot. */
  private slots = new Int32Array(1 << 11);
  size = 0;

  /** The id of the triple (a, b, c) of non-negative integers, new or not. */
  id(a: number, b: number, c: number): number {
    const { keys, slots } = this;
    const mask = slots.length - 1;
    for (let slot = tripleHash(a, b, c) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot];
      if (entry === 0) return this.add(slot, a, b, c);
      const at = (entry - 1) * 3;
      if (keys[at] === a && keys[at + 1] === b && keys[at + 2] === c) return entry - 1;
    }
  }

  /** The typed arrays' bytes. */
  get bytes(): number {
    return this.keys.byteLength + this.slots.byteLength;
  }

  private add(slot: number, a: number, b: number, c: number): number {
    const id = this.size++;
    if (this.keys instanceof Uint16Array && (a > 0xffff || b > 0xffff || c > 0xffff))
      this.keys = Uint32Array.from(this.keys);
    const at = id * 3;
    this.keys = grownValues(this.keys, at + 2);
    this.keys[at] = a;
    this.keys[at + 1] = b;
    this.keys[at + 2] = c;
    this.slots[slot] = id + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const { keys } = this;
    this.slots = doubledSlots(this.slots, this.size, (id) =>
      tripleHash(keys[id * 3], keys[id * 3 + 1], keys[id * 3 + 2]),
    );
  }
}

/** A step judgement: a property's predicate or witness test, true when it holds (or fires). */
export type StepJudgement<V> = (
  model: SystemModel,
  before: SystemState,
  event: SystemEvent,
  after: SystemState,
) => V;

/** Per class and judgement, a `Memo` code (a byte each), growing with the classes. */
export class MemoTable {
  protected codes: Uint8Array;
  /** The keys, made when first asked for: a table is keyed by tuples (`classOf`) or by triples (`classOfTriple`). */
  private ids: TupleIds | undefined;
  private triples: TripleIds | undefined;
  /** `perByteLog`: log2 of the codes a byte holds. */
  constructor(
    private readonly count: number,
    private readonly perByteLog = 0,
  ) {
    this.codes = new Uint8Array(Math.max(1, count) * 256);
  }
  /** The class of `tuple[0 .. length)`, as the offset of its first code. */
  classOf(tuple: Uint32Array, length: number): number {
    this.ids ??= new TupleIds();
    return this.classAt(this.ids.id(tuple, length));
  }
  /** The class of the triple (a, b, c), for a table keyed by triples alone (not mixed with `classOf`). */
  classOfTriple(a: number, b: number, c: number): number {
    this.triples ??= new TripleIds();
    return this.classAt(this.triples.id(a, b, c));
  }
  private classAt(id: number): number {
    const last = ((id + 1) * this.count) >>> this.perByteLog;
    if (last >= this.codes.length) this.codes = grown(this.codes, last);
    return id * this.count;
  }
  code(at: number): Memo {
    return this.codes[at] as Memo;
  }
  set(at: number, code: Memo): void {
    this.codes[at] = code;
  }
  /** The typed arrays' bytes. */
  get bytes(): number {
    return this.codes.byteLength + (this.ids?.bytes ?? 0) + (this.triples?.bytes ?? 0);
  }
}

/**
 * A `MemoTable` of settled codes only (Unknown, True, False, Always: 2 bits, four to a byte), for the
 * tables that never hold Further or Slots: the refined and slots tables, the largest on every scope.
 */
export class PackedMemoTable extends MemoTable {
  constructor(count: number) {
    super(count, 2);
  }
  override code(at: number): Memo {
    return ((this.codes[at >>> 2] >>> ((at & 3) << 1)) & 3) as Memo;
  }
  override set(at: number, code: Memo): void {
    if (code > 3) throw new Error(`PackedMemoTable: code ${Memo[code]} does not fit 2 bits`);
    const shift = (at & 3) << 1;
    const byte = at >>> 2;
    this.codes[byte] = (this.codes[byte] & ~(3 << shift)) | (code << shift);
  }
}

/**
 * A `MemoTable`'s classes of the tuples (key, outside, outside), remembered: most steps leave the lanes
 * outside the namespace slots as they were, and their class is then found without a hashed tuple. The
 * key is an event id (global table: few keys, each met under most outside ids, so a row per outside id
 * read by direct index) or a local class id (refined table: tens of thousands of keys, each met under a
 * few outside ids, so the pairs met are kept in a hash table instead of rows that would be mostly empty).
 */
class SameOutsideClasses {
  /** Per outside id: class offset + 1 by key (0: not yet looked up); dense keys only. */
  private byOutside: Int32Array[] = [];
  /** Class offset by (outside, key); sparse keys only. */
  private readonly pairs: PairValues | undefined;

  constructor(sparse: boolean) {
    this.pairs = sparse ? new PairValues() : undefined;
  }

  /** The class of (`head`, outside, outside) in `table`, remembered under `key` (a small number naming `head`). */
  classOf(key: number, head: number, outside: number, table: MemoTable): number {
    const { pairs } = this;
    if (pairs !== undefined) {
      const known = pairs.get(outside, key);
      if (known >= 0) return known;
      const at = SameOutsideClasses.lookUp(head, outside, table);
      pairs.set(outside, key, at);
      return at;
    }
    let row = this.byOutside[outside];
    if (row === undefined || key >= row.length) {
      row = grown(row ?? new Int32Array(64), key);
      this.byOutside[outside] = row;
    }
    const known = row[key];
    if (known !== 0) return known - 1;
    const at = SameOutsideClasses.lookUp(head, outside, table);
    row[key] = at + 1;
    return at;
  }

  private static lookUp(head: number, outside: number, table: MemoTable): number {
    return table.classOfTriple(head, outside, outside);
  }
}

/** Settled classes: per class, the index of its lists (or -1), and its steps since it settled. */
class Settlements {
  private lists = new Int32Array(1024).fill(-1);
  private counts = new Float64Array(1024);
  private readonly settled: number[] = [];

  listOf(id: number): number {
    return id < this.lists.length ? this.lists[id] : -1;
  }
  count(id: number, times = 1): void {
    this.counts[id] += times;
  }
  settle(id: number, list: number): void {
    this.lists = grown(this.lists, id, -1);
    this.counts = grown(this.counts, id);
    this.lists[id] = list;
    this.settled.push(id);
  }
  /** Adds each settled class's edges to the witnesses its list names. */
  addTo(totals: number[], fired: readonly number[][]): void {
    for (const id of this.settled) {
      // A class settled before any list was filed for it (a search judging nothing) fires nothing.
      const list = this.lists[id];
      if (list >= 0) for (const w of fired[list]) totals[w] += this.counts[id];
    }
  }
}

/**
 * Remembers, per step class, the boolean outcome of each of `count` judgements. `judge(j, …)` returns
 * the remembered outcome, or runs `run` on a tracking model and remembers it as far as its reads allow.
 */
export class StepMemo {
  private readonly eventIds = new Map<SystemEvent, number>();
  /**
   * Self-loops' local classes (offsets) by (event id, the id of the slot its request addresses + 1, or 0):
   * a self-loop's pair fixes its local class. Pairs whose second number is below `selfDirect` are read
   * from `selfRows` (per event id, offset + 1 by that number, 0 while unknown), the rest from `selfLoops`.
   */
  private readonly selfLoops = new PairValues();
  private readonly selfRows: Int32Array[] = [];
  /** Per handled list (`rememberHandled`): the self-loops counted toward its witnesses by `selfLoop`. */
  private handledHits = new Float64Array(16);
  private readonly local: MemoTable;
  private readonly global: MemoTable;
  private readonly refined: MemoTable;
  private readonly tuple: Uint32Array;
  /** The namespace slots the current step fixes (changed or addressed). */
  private readonly fixed: Uint8Array;
  /** Whether `fixed` is still to be written for the step entered (by `selfLoop`, until `bind`). */
  private fixedStale = false;
  private readonly slotsTable: MemoTable;
  /**
   * Per event id and judgement, a code true or false (0 while unknown) of a run that read nothing of the
   * step but its event (no model method, no view): it holds for every step of that event, so a new local
   * class of the event takes it without a run.
   */
  private eventCodes = new Uint8Array(0);
  /**
   * The same for a run that read nothing but which slots the step changed (`changedSlots`) on a step that
   * changed none: it holds for every step of that event that changes no slot (self-loops, global actions).
   */
  private unmovedCodes = new Uint8Array(0);
  /** Whether the step entered changed a namespace slot. */
  private moved = false;
  private readLocal = false;
  /** A fixed slot's view was read (`view` of it, or `views`), not only which slots changed. */
  private readViews = false;
  private readGlobal = false;
  /** A namespace slot the step did not fix was read (`view` of it, or `views`). */
  private readOther = false;
  private readOutside = false;
  private readonly tracking: SystemModel;
  private before!: SystemState;
  private event!: SystemEvent;
  private after!: SystemState;
  private eventId = 0;
  private readonly outsideIds = new TupleIds();
  private readonly outsideTuple: Uint32Array;
  private lastBefore: SystemState | undefined;
  private lastBeforeOutside = -1;
  /** The lane path's cache: the state last expanded (by index) and its outside id. */
  private laneFrom = -1;
  private laneFromOutside = -1;
  /** Whether the last `outsideOfLanes` found the lanes outside the slots unchanged by the step. */
  private outsideKept = false;
  /** The global and refined classes of steps that leave the lanes outside the slots as they were, by direct index. */
  private readonly globalSame = new SameOutsideClasses(false);
  private readonly refinedSame = new SameOutsideClasses(true);
  /**
   * Per outside id, by local class id: the handled list + 1 (`handledLanes`), 0 while unknown. A few
   * lists in every scope so far: 16 bits, a row widened to 32 the first time a list does not fit.
   */
  private readonly handledRows: (Uint16Array | Int32Array)[] = [];
  private readonly handledLists: number[][] = [];
  /** Per handled list: the judgements the slots table answered, asked again on every step of the pair. */
  private readonly handledAsk: number[][] = [];
  private readonly handledIds = new Map<string, number>();
  private handledOutside = -1;
  /**
   * Steps that change the lanes outside the slots (global actions, the clock, the apiserver's restart),
   * filed as `handledRows` files those that keep them: by (outside id before, local class id), where the
   * filing starts in `movedRecords` (-1 while none): the outside id after, then the handled list. The
   * local class fixes the event and the slots the step fixed, the two outside ids what the global and
   * refined tables read; a step of the pair with other lanes outside after is not answered there.
   */
  private readonly movedAt = new PairValues();
  private movedRecords = new Int32Array(1 << 10);
  private movedRecordsLength = 0;
  /** The step last passed to `handledLanes` when it changes the outside lanes: its outside id before (-1: none) and its successor. */
  private movedOutside = -1;
  private movedTo: Uint32Array | undefined;
  /** Steps answered by a filing of `movedAt` (for the figures). */
  movedHits = 0;
  /** The list `rememberHandled` filed last. */
  private lastHandled = 0;
  private handledLocal = 0;
  /** The first initializer controller's lane. */
  private readonly outsideFirst: number;
  private localAt = 0;
  /** Per event id: the local class (offset + 1, 0 while unknown) of its steps that fix no slot. */
  private unfixedLocal = new Int32Array(256);
  private readonly settledLocal = new Settlements();
  /** Per settled class's list: the witnesses (numbered from `witnessesFrom`) known to fire, and the judgements open. */
  private readonly firedLists: number[][] = [];
  private readonly openLists: number[][] = [];
  private readonly listIds = new Map<string, number>();
  /** The current step's global and refined classes, computed when first needed (-1: not yet). */
  private globalAt = -1;
  private refinedAt = -1;
  /**
   * The current step's slots class (-1: not yet), and its key: the event id, then the ids (`slotIds`) of
   * the namespace slots' ids before and after the step.
   */
  private slotsAt = -1;
  /** An id per distinct vector of the namespace slots' ids (a state's), and that id of the state expanded last. */
  private readonly slotIds = new TupleIds();
  private readonly slotVector: Uint32Array;
  private slotsFrom = -1;
  private slotsFromId = 0;
  /**
   * Whether the last `knownLanes` answered from the slots table: that answer holds for these slots only,
   * not for the step's local class, so it is never filed as handled (`rememberHandled` asks it again).
   */
  answeredFromSlots = false;
  /** Whether the last `selfLoop` found its step filed (`rememberHandled`): it answered the judgements to ask again. */
  filed = false;
  /**
   * The self-loops of a bundle (`takeBundle`) by (the bundle, the outside id of the state expanded):
   * where its record starts in `bundleRecords`, -1 while unknown.
   */
  private readonly bundleAt = new PairValues();
  /**
   * Records of bundles all of whose self-loops `selfLoop` answered by counts alone, each addressing no
   * slot or the bundle's own (whose id the bundle fixes, so that with its event it fixes its local class):
   * the count, whether a self-loop's filed list asks the slots table again (a list's only: 1, else 0),
   * the record's number, then per self-loop (in order) its local class and its handled list or -1.
   */
  private bundleRecords = new Int32Array(1 << 12);
  private bundleRecordsLength = 0;
  /**
   * Per record number: the times it was taken whole, its self-loops counted toward their classes and
   * lists once after the search (`settledWitnessCounts`) instead of one by one in each state.
   */
  private bundleTaken = new Float64Array(64);
  private bundleRecordCount = 0;
  /**
   * A list's bundle whose filed lists ask the slots table again: by (the bundle, the id of the state's
   * vector of slot ids, `slotIds`), where its answers start in `answerRecords`, -1 while unknown. The
   * bundle fixes the events (so their local classes, with no slot addressed) and the vector every slot's
   * id, so the pair fixes each self-loop's slots class (event, vector, vector): all its answers read.
   */
  private readonly answersAt = new PairValues();
  /**
   * Records of those answers: the count, the record's number, then per self-loop the witnesses the slots
   * table answered as firing (an index into `answerLists`), -1 for none. Recorded only when every judgement the slots
   * table answered for the self-loop was known there and no predicate was false (a false one is decoded
   * and judged edge by edge).
   */
  private answerRecords = new Int32Array(1 << 12);
  private answerRecordsLength = 0;
  /** Per answer record number: the times it was taken whole (as `bundleTaken`). */
  private answersTaken = new Float64Array(64);
  private answerRecordCount = 0;
  private readonly answerLists: number[][] = [];
  private readonly answerListIds = new Map<string, number>();
  /** `slotsAnswers`' scratch list, and the answer list it returned last (-1: none yet). */
  private readonly answerScratch: number[] = [];
  private lastAnswerList = -1;
  /** Per answer list: the taken self-loops counted toward its witnesses. */
  private answerHits = new Float64Array(16);
  /** The namespace slots: a bundle position from here on is the lists across namespaces (wide actions). */
  private readonly slots: number;
  /** Per bundle position: the record taken in the state expanded, or -1, and its answers (a list's), or -1. */
  private takenRecord = new Int32Array(0);
  private takenAnswers = new Int32Array(0);
  /** Per bundle position: the bundle `selfLoop` is recording (its key, the state, the self-loops left, what it wrote). */
  private recordBundle = new Int32Array(0);
  private recordOutside = new Int32Array(0);
  private recordSlots = new Int32Array(0);
  private recordFrom = new Int32Array(0);
  private recordLeft = new Int32Array(0);
  private readonly recorded: number[][] = [];
  private readonly recordedAnswers: number[][] = [];
  /** Per bundle position: the self-loops written to `recorded` (kept with a count: a length set to 0 drops the storage). */
  private recordedCount = new Int32Array(0);
  /** Self-loops of lists across namespaces counted in taken bundles (for the figures). */
  listLoopsTaken = 0;

  /**
   * `count` judgements per step: the predicates first, the witness tests from `witnessesFrom` on (a
   * settled class counts its steps toward the witnesses that fire there).
   */
  constructor(
    private readonly model: SystemModel,
    private readonly count: number,
    private readonly witnessesFrom: number = count,
  ) {
    // Classes are offsets divided by `count`: over no judgement none would settle and every edge be decoded.
    if (count < 1) throw new RangeError('a step memo needs at least one judgement; keep none instead');
    const slots = model.scope.namespaces.length;
    this.tuple = new Uint32Array(1 + 3 * slots);
    this.outsideTuple = new Uint32Array(4 + model.initializers.length);
    this.fixed = new Uint8Array(slots);
    this.slots = slots;
    this.positions(slots - 1);
    this.outsideFirst = firstNamespaceLane + slots;
    // The local table holds Further and Slots, the global table Further; the others only settled codes.
    this.local = new MemoTable(count);
    this.global = new MemoTable(count);
    this.refined = new PackedMemoTable(count);
    this.slotsTable = new PackedMemoTable(count);
    this.slotVector = new Uint32Array(slots);
    this.tracking = this.trackingModel();
  }

  /** Enters the class of this step; every `judge` call until the next `enter` is about it. */
  enter(before: SystemState, event: SystemEvent, after: SystemState): void {
    this.before = before;
    this.event = event;
    this.after = after;
    let eventId = this.eventIds.get(event);
    if (eventId === undefined) {
      eventId = this.eventIds.size;
      this.eventIds.set(event, eventId);
    }
    this.enterLocal(eventId, this.slotLanes(1));
  }

  /** Enters the local class of event `eventId` with the fixed slots written into the tuple (length `n`). */
  private enterLocal(eventId: number, n: number): void {
    this.tuple[0] = eventId;
    if (n > 1) {
      this.enteredClass(eventId, this.local.classOf(this.tuple, n));
      return;
    }
    // A step that fixes no slot (most global actions): its tuple is the event alone, its class read by index.
    let at = eventId < this.unfixedLocal.length ? this.unfixedLocal[eventId] - 1 : -1;
    if (at < 0) {
      at = this.local.classOf(this.tuple, 1);
      this.unfixedLocal = grown(this.unfixedLocal, eventId);
      this.unfixedLocal[eventId] = at + 1;
    }
    this.enteredClass(eventId, at);
  }

  /** The step entered is of event `eventId` and local class `localAt`: the classes found later start unknown. */
  private enteredClass(eventId: number, localAt: number): void {
    this.eventId = eventId;
    this.localAt = localAt;
    this.globalAt = -1;
    this.refinedAt = -1;
    this.slotsAt = -1;
    this.fixedStale = false;
  }

  /**
   * Enters the class of a step of the compiled search from its lanes alone, so a settled step is never
   * decoded: `eventId` numbers the compiled search's events (one numbering per memo: use this or `enter`,
   * not both), `addressed` is the namespace slot its request addresses (or -1). Before any `judge`,
   * `bind` gives the decoded step.
   */
  enterLanes(eventId: number, addressed: number, from: Uint32Array, to: Uint32Array): void {
    const { tuple, fixed } = this;
    let n = 1;
    let moved = false;
    for (let i = 0; i < fixed.length; i++) {
      const b = from[firstNamespaceLane + i];
      const a = to[firstNamespaceLane + i];
      if (b !== a) moved = true;
      const isFixed = b !== a || i === addressed;
      fixed[i] = isFixed ? 1 : 0;
      if (!isFixed) continue;
      tuple[n++] = i;
      tuple[n++] = b;
      tuple[n++] = a;
    }
    this.moved = moved;
    this.enterLocal(eventId, n);
  }

  /**
   * Judgement `j` of the step entered by `enterLanes`, as far as the tables know it without running it
   * (the global and refined classes read from the lanes too): 1 true, 0 false, -1 unknown (run it).
   * `fromIndex` names the state expanded, whose lanes outside the slots are looked up once.
   */
  knownLanes(j: number, fromIndex: number, from: Uint32Array, to: Uint32Array): number {
    const local = this.local.code(this.localAt + j);
    this.answeredFromSlots = local === Memo.Slots;
    if (local === Memo.Slots) {
      if (this.slotsAt < 0) this.slotsAt = this.slotsClassOfLanes(fromIndex, from, to);
      return answered(this.slotsTable.code(this.slotsAt + j));
    }
    if (local !== Memo.Further) return answered(local);
    if (this.globalAt < 0) {
      this.outsideOfLanes(fromIndex, from, to);
      this.globalAt = this.outsideKept
        ? this.globalSame.classOf(this.eventId, this.eventId, this.tuple[1], this.global)
        : this.global.classOfTriple(this.tuple[0], this.tuple[1], this.tuple[2]);
    }
    const global = this.global.code(this.globalAt + j);
    if (global !== Memo.Further) return answered(global);
    if (this.refinedAt < 0) {
      this.outsideOfLanes(fromIndex, from, to);
      this.refinedAt = this.outsideKept
        ? this.refinedSame.classOf(
            this.localAt / this.count,
            this.localAt / this.count,
            this.tuple[1],
            this.refined,
          )
        : this.refined.classOfTriple(this.localAt / this.count, this.tuple[1], this.tuple[2]);
    }
    return answered(this.refined.code(this.refinedAt + j));
  }

  /** The slots class from lanes; the expanded state's slot vector (`fromIndex`, unless -1) is looked up once. */
  private slotsClassOfLanes(fromIndex: number, from: Uint32Array, to: Uint32Array): number {
    const slots = this.fixed.length;
    let before: number;
    if (fromIndex < 0) before = this.slotIds.id(from, slots, firstNamespaceLane);
    else {
      if (fromIndex !== this.slotsFrom) {
        this.slotsFrom = fromIndex;
        this.slotsFromId = this.slotIds.id(from, slots, firstNamespaceLane);
      }
      before = this.slotsFromId;
    }
    let after = before;
    if (from !== to)
      for (let i = firstNamespaceLane; i < firstNamespaceLane + slots; i++)
        if (from[i] !== to[i]) {
          after = this.slotIds.id(to, slots, firstNamespaceLane);
          break;
        }
    return this.slotsClassOf(before, after);
  }

  /** The slots class of the decoded step. */
  private slotsClass(): number {
    if (this.slotsAt < 0) {
      const v = this.slotVector;
      for (let i = 0; i < v.length; i++) v[i] = this.before.namespaces[i].id;
      const before = this.slotIds.id(v, v.length);
      for (let i = 0; i < v.length; i++) v[i] = this.after.namespaces[i].id;
      this.slotsAt = this.slotsClassOf(before, this.slotIds.id(v, v.length));
    }
    return this.slotsAt;
  }

  /** The slots class of (event entered, slot vector `before`, slot vector `after`). */
  private slotsClassOf(before: number, after: number): number {
    return this.slotsTable.classOfTriple(this.eventId, before, after);
  }

  /** Writes (event id, outside id before, outside id after) into the tuple, from lanes: as `outsideLanes`. */
  private outsideOfLanes(fromIndex: number, from: Uint32Array, to: Uint32Array): void {
    if (fromIndex !== this.laneFrom || fromIndex < 0) {
      this.laneFrom = fromIndex;
      this.laneFromOutside = this.outsideOfLaneArray(from);
    }
    const { outsideFirst, outsideTuple } = this;
    let same = from === to || (from[0] === to[0] && from[1] === to[1] && from[2] === to[2]);
    if (from !== to)
      for (let k = outsideFirst; same && k < outsideFirst + outsideTuple.length - 3; k++)
        same = from[k] === to[k];
    this.tuple[0] = this.eventId;
    this.tuple[1] = this.laneFromOutside;
    this.tuple[2] = same ? this.laneFromOutside : this.outsideOfLaneArray(to);
    this.outsideKept = same;
  }

  /** `outsideOf` on lanes: configuration copy, faults, registered configurations, initializer controllers. */
  private outsideOfLaneArray(lanes: Uint32Array): number {
    const t = this.outsideTuple;
    t[0] = lanes[0];
    t[1] = lanes[1];
    t[2] = lanes[2];
    for (let k = 3; k < t.length; k++) t[k] = lanes[this.outsideFirst + k - 3];
    return this.outsideIds.id(t, t.length);
  }

  /**
   * A step entered by `enterLanes` like one whose open judgements the tables all answered before: undefined
   * until `rememberHandled` filed that step for its local class and the lanes outside the slots (only
   * steps that leave those as they were). Once filed, the step counts toward the witnesses filed there,
   * and the answer is the judgements answered then from the slots table, to be asked again (they hold for
   * those slots only); empty, nothing is left to judge. Answers of the other tables once given never
   * change (each is filed under a key that fixes all its run read), and a predicate skipped because it is
   * violated stays so, so the filing stays right for every later step of the pair.
   */
  handledLanes(fromIndex: number, from: Uint32Array, to: Uint32Array): readonly number[] | undefined {
    if (fromIndex !== this.laneFrom || fromIndex < 0) {
      this.laneFrom = fromIndex;
      this.laneFromOutside = this.outsideOfLaneArray(from);
    }
    const outside = this.laneFromOutside;
    const local = this.localAt / this.count;
    this.movedOutside = -1;
    if (!this.keepsOutside(from, to)) {
      this.handledOutside = -1;
      return this.movedLanes(outside, local, to);
    }
    this.handledOutside = outside;
    this.handledLocal = local;
    const row = this.handledRows[outside];
    if (row === undefined || local >= row.length || row[local] === 0) return undefined;
    this.handledHits[row[local] - 1]++;
    return this.handledAsk[row[local] - 1];
  }

  /** Whether `to` has `from`'s lanes outside the slots (those `outsideOfLaneArray` reads). */
  private keepsOutside(from: Uint32Array, to: Uint32Array): boolean {
    if (from === to) return true;
    if (from[0] !== to[0] || from[1] !== to[1] || from[2] !== to[2]) return false;
    const end = this.outsideFirst + this.outsideTuple.length - 3;
    for (let k = this.outsideFirst; k < end; k++) if (from[k] !== to[k]) return false;
    return true;
  }

  /**
   * `handledLanes` for a step that changes the lanes outside the slots: the filing of (outside id before,
   * local class) when the lanes outside after are those filed (compared with the filed id's tuple, not
   * hashed), else undefined with `rememberHandled` ready to file the step.
   */
  private movedLanes(outside: number, local: number, to: Uint32Array): readonly number[] | undefined {
    this.movedOutside = outside;
    this.handledLocal = local;
    this.movedTo = to;
    const at = this.movedAt.get(outside, local);
    if (at < 0) return undefined;
    const t = this.outsideTuple;
    t[0] = to[0];
    t[1] = to[1];
    t[2] = to[2];
    for (let k = 3; k < t.length; k++) t[k] = to[this.outsideFirst + k - 3];
    if (!this.outsideIds.matches(this.movedRecords[at], t, t.length)) return undefined;
    const list = this.movedRecords[at + 1];
    this.handledHits[list]++;
    this.movedHits++;
    return this.handledAsk[list];
  }

  /**
   * Files the step last passed to `handledLanes` (or `selfLoop`), all of whose open judgements the tables
   * answered: the witnesses that fired by the answers of the local, global and refined tables, and the
   * judgements the slots table answered (`asked`), which later steps of the pair ask again (and a
   * slots class with the lanes outside the slots is about one state: not worth filing).
   */
  rememberHandled(fired: readonly number[], asked: readonly number[] = []): void {
    const outside = this.handledOutside;
    if (outside < 0 && this.movedOutside < 0) return;
    let list = this.lastHandled;
    const last = this.handledLists[list];
    const lastAsked = this.handledAsk[list];
    // Most steps filed in a row fire the same witnesses: compared before a key is built.
    if (last === undefined || !sameList(last, fired) || !sameList(lastAsked, asked)) {
      const key = `${fired.join(',')}|${asked.join(',')}`;
      list = this.handledIds.get(key) ?? this.handledLists.length;
      if (list === this.handledLists.length) {
        this.handledLists.push([...fired]);
        this.handledAsk.push([...asked]);
        this.handledIds.set(key, list);
        this.handledHits = grown(this.handledHits, list);
      }
      this.lastHandled = list;
    }
    if (outside < 0) {
      this.fileMoved(list);
      return;
    }
    let row = grownValues(this.handledRows[outside] ?? new Uint16Array(64), this.handledLocal);
    if (list + 1 > 0xffff && row instanceof Uint16Array) row = Int32Array.from(row);
    this.handledRows[outside] = row;
    row[this.handledLocal] = list + 1;
  }

  /** Files the step last passed to `movedLanes` under its pair (the first filing of a pair stays). */
  private fileMoved(list: number): void {
    const outside = this.movedOutside;
    const to = this.movedTo;
    this.movedOutside = -1;
    if (to === undefined || this.movedAt.get(outside, this.handledLocal) >= 0) return;
    const at = this.movedRecordsLength;
    this.movedRecords = grown(this.movedRecords, at + 1);
    this.movedRecords[at] = this.outsideOfLaneArray(to);
    this.movedRecords[at + 1] = list;
    this.movedRecordsLength = at + 2;
    this.movedAt.set(outside, this.handledLocal, at);
  }

  /** The decoded step entered by `enterLanes`, for the judgements that run. */
  bind(before: SystemState, event: SystemEvent, after: SystemState): void {
    this.before = before;
    this.event = event;
    this.after = after;
    if (this.fixedStale) {
      // Entered by `selfLoop`'s pair: a self-loop fixes the addressed slot alone.
      const addressed = event.request?.namespace ?? -1;
      for (let i = 0; i < this.fixed.length; i++) this.fixed[i] = i === addressed ? 1 : 0;
      this.fixedStale = false;
    }
  }

  /**
   * A self-loop of the compiled search (the successor is `from` itself), judged by table reads alone where
   * the tables allow. Its local class is fixed by the event and the addressed slot's id, so it is found by
   * that pair instead of a hashed tuple. Undefined while the class is not settled; once it is, when a step
   * of its local class with these lanes outside the slots was filed (`handledLanes`; `filed` is then
   * true), the step counts toward the witnesses filed there and the answer is the judgements to ask again
   * (empty: nothing left to judge); otherwise the judgements open in the class, with `rememberHandled`
   * ready to file the step. `fromIndex` names the state expanded (its lanes outside the slots are looked
   * up once).
   */
  selfLoop(
    eventId: number,
    addressed: number,
    fromIndex: number,
    from: Uint32Array,
    slot = -1,
  ): readonly number[] | undefined {
    this.enterSelfLoop(eventId, addressed, from);
    const open = this.settledHere();
    this.filed = false;
    const recording = slot >= 0 && this.recordLeft[slot] > 0;
    if (open === undefined || open.length === 0) {
      if (recording) this.recordSelf(slot, fromIndex, open === undefined ? -2 : -1, addressed);
      return open;
    }
    if (fromIndex !== this.laneFrom || fromIndex < 0) {
      this.laneFrom = fromIndex;
      this.laneFromOutside = this.outsideOfLaneArray(from);
    }
    const outside = this.laneFromOutside;
    const local = this.localAt / this.count;
    this.handledOutside = outside;
    this.handledLocal = local;
    const row = this.handledRows[outside];
    if (row === undefined || local >= row.length || row[local] === 0) {
      if (recording) this.recordSelf(slot, fromIndex, -2, addressed);
      return open;
    }
    const list = row[local] - 1;
    this.handledHits[list]++;
    this.filed = true;
    const asked = this.handledAsk[list];
    if (recording) {
      // A slot's bundle is taken only with nothing to ask again; a list's with the slots table's answers.
      const answers =
        asked.length === 0 ? -1 : slot < this.slots ? -2 : this.slotsAnswers(asked, fromIndex, from);
      this.recordSelf(slot, fromIndex, answers === -2 ? -2 : list, addressed, answers);
    }
    return asked;
  }

  /** A predicate that the judge no longer asks (violated already: it stays so). */
  skipped: (j: number) => boolean = () => false;

  /**
   * The judgements `asked` of the self-loop entered (a list's, filed), as the slots table answers them in
   * state `from`: the id of the list of witnesses it answers as firing, or -2 when one is not known there
   * (or not the slots table's) or a predicate not yet violated is false (the judge decodes that edge).
   */
  private slotsAnswers(asked: readonly number[], fromIndex: number, from: Uint32Array): number {
    if (this.slotsAt < 0) this.slotsAt = this.slotsClassOfLanes(fromIndex, from, from);
    // Gathered in a scratch list and compared with the list answered last before a key is built: most
    // self-loops recorded in a row answer the same.
    const fired = this.answerScratch;
    let count = 0;
    for (let k = 0; k < asked.length; k++) {
      const j = asked[k];
      if (this.local.code(this.localAt + j) !== Memo.Slots) return -2;
      const code = this.slotsTable.code(this.slotsAt + j);
      if (j < this.witnessesFrom) {
        if (code !== Memo.True && !this.skipped(j)) return -2;
      } else if (code === Memo.True) fired[count++] = j - this.witnessesFrom;
      else if (code !== Memo.False) return -2;
    }
    const last = this.lastAnswerList;
    if (last >= 0 && sameCounted(this.answerLists[last], fired, count)) return last;
    const list = fired.slice(0, count);
    const key = list.join(',');
    let id = this.answerListIds.get(key);
    if (id === undefined) {
      id = this.answerLists.push(list) - 1;
      this.answerListIds.set(key, id);
      this.answerHits = grown(this.answerHits, id);
    }
    this.lastAnswerList = id;
    return id;
  }

  /** The id of the vector of slot ids of the state expanded (`fromIndex`), looked up once per state. */
  private slotVectorOf(fromIndex: number, from: Uint32Array): number {
    if (fromIndex !== this.slotsFrom) {
      this.slotsFrom = fromIndex;
      this.slotsFromId = this.slotIds.id(from, this.slots, firstNamespaceLane);
    }
    return this.slotsFromId;
  }

  /** Makes room for bundle position `p` in the per-position arrays. */
  private positions(p: number): void {
    if (p < this.takenRecord.length) return;
    this.takenRecord = grown(this.takenRecord, p, -1);
    this.takenAnswers = grown(this.takenAnswers, p, -1);
    this.recordBundle = grown(this.recordBundle, p);
    this.recordOutside = grown(this.recordOutside, p);
    this.recordSlots = grown(this.recordSlots, p);
    this.recordFrom = grown(this.recordFrom, p, -1);
    this.recordLeft = grown(this.recordLeft, p);
    this.recordedCount = grown(this.recordedCount, p);
    while (this.recorded.length < this.takenRecord.length) {
      this.recorded.push([]);
      this.recordedAnswers.push([]);
    }
  }

  /**
   * Offered the `count` self-loops of slot `slot`'s local actions in state `fromIndex` (one compiled table
   * bundle, named by `bundle`): true takes them, when a bundle so named out of a state with these lanes
   * outside the slots was recorded before with each of its self-loops answered by counts alone (its
   * class settled with nothing open, or its step filed with nothing to ask again: both stay so) and each
   * addresses a slot with the id it had then; `countBundles` then counts them as `selfLoop` would.
   * Otherwise false, and the `selfLoop` calls of this slot's self-loops in this state record the bundle
   * if each is so answered.
   *
   * A position `slot` past the namespace slots is the lists across namespaces (the compiled model's bundle
   * positions), whose bundle is the self-loops of their table entries in the state, each addressing no
   * slot (one that addresses a slot is never recorded). Their filed lists may ask
   * the slots table again: then it is taken only when, besides, the slots table's answers were recorded
   * for this bundle and this state's vector of slot ids (what those judgements read), each known and no
   * predicate false (predicates violated before excepted: never asked again).
   */
  takeBundle(slot: number, bundle: number, count: number, fromIndex: number, from: Uint32Array): boolean {
    this.positions(slot);
    this.takenRecord[slot] = -1;
    this.takenAnswers[slot] = -1;
    this.recordLeft[slot] = 0;
    if (count === 0 || fromIndex < 0) return false;
    if (fromIndex !== this.laneFrom) {
      this.laneFrom = fromIndex;
      this.laneFromOutside = this.outsideOfLaneArray(from);
    }
    const outside = this.laneFromOutside;
    const record = this.bundleAt.get(bundle, outside);
    let vector = -1;
    if (record >= 0 && this.bundleRecords[record] === count) {
      if (this.bundleRecords[record + 1] === 0) {
        this.takenRecord[slot] = record;
        return true;
      }
      vector = this.slotVectorOf(fromIndex, from);
      const answers = this.answersAt.get(bundle, vector);
      if (answers >= 0 && this.answerRecords[answers] === count) {
        this.takenRecord[slot] = record;
        this.takenAnswers[slot] = answers;
        return true;
      }
    }
    if (slot >= this.slots && vector < 0) vector = this.slotVectorOf(fromIndex, from);
    this.recordBundle[slot] = bundle;
    this.recordOutside[slot] = outside;
    this.recordSlots[slot] = vector;
    this.recordFrom[slot] = fromIndex;
    this.recordLeft[slot] = count;
    this.recordedCount[slot] = 0;
    return false;
  }

  /**
   * Counts the self-loops of the bundles taken in the state expanded: per slot the first `traversed[slot]`
   * of them (all, unless the search stopped inside the state), each toward its class and filed list.
   * Returns how many were counted.
   */
  countBundles(traversed: Int32Array): number {
    const records = this.bundleRecords;
    const answers = this.answerRecords;
    let total = 0;
    const positions = Math.min(traversed.length, this.takenRecord.length);
    for (let slot = 0; slot < positions; slot++) {
      const record = this.takenRecord[slot];
      const n = traversed[slot];
      if (record < 0 || n === 0) continue;
      total += n;
      // Taken whole (the search did not stop inside it): counted once, spread over its self-loops later.
      if (n === records[record]) this.bundleTaken[records[record + 2]]++;
      else this.countRecord(record, n, 1);
      const answered = this.takenAnswers[slot];
      if (answered >= 0) {
        if (n === answers[answered]) this.answersTaken[answers[answered + 1]]++;
        else this.countAnswers(answered, n, 1);
      }
      if (slot >= this.slots) this.listLoopsTaken += n;
    }
    return total;
  }

  /** Counts the first `n` self-loops of the bundle record at `record` `times` over, toward their classes and lists. */
  private countRecord(record: number, n: number, times: number): void {
    const records = this.bundleRecords;
    const end = record + 3 + 2 * n;
    for (let p = record + 3; p < end; p += 2) {
      this.settledLocal.count(records[p], times);
      if (records[p + 1] >= 0) this.handledHits[records[p + 1]] += times;
    }
  }

  /** Counts the first `n` self-loops of the answer record at `at` `times` over, toward their answer lists. */
  private countAnswers(at: number, n: number, times: number): void {
    const answers = this.answerRecords;
    for (let p = at + 2; p < at + 2 + n; p++) if (answers[p] >= 0) this.answerHits[answers[p]] += times;
  }

  /** Spreads the bundles taken whole over their self-loops (once: the counts are then cleared). */
  private countTakenWhole(): void {
    for (let at = 0; at < this.bundleRecordsLength; at += 3 + 2 * this.bundleRecords[at]) {
      const number = this.bundleRecords[at + 2];
      const times = this.bundleTaken[number];
      if (times > 0) this.countRecord(at, this.bundleRecords[at], times);
      this.bundleTaken[number] = 0;
    }
    for (let at = 0; at < this.answerRecordsLength; at += 2 + this.answerRecords[at]) {
      const number = this.answerRecords[at + 1];
      const times = this.answersTaken[number];
      if (times > 0) this.countAnswers(at, this.answerRecords[at], times);
      this.answersTaken[number] = 0;
    }
  }

  /**
   * One self-loop of the bundle being recorded for `slot`: its handled list, -1 for none, -2 when not
   * answered by counts alone; and (a list's) the slots table's answers to its filed list's asked
   * judgements (`slotsAnswers`), -1 when it asks none.
   */
  private recordSelf(slot: number, fromIndex: number, list: number, addressed: number, answers = -1): void {
    // A self-loop addressing another slot: its class depends on that slot's id, which the bundle does not
    // fix (a list's bundle fixes no slot's).
    const isList = slot >= this.slots;
    if (
      list === -2 ||
      fromIndex !== this.recordFrom[slot] ||
      (addressed >= 0 && (isList || addressed !== slot))
    ) {
      this.recordLeft[slot] = 0;
      return;
    }
    const recorded = this.recorded[slot];
    const recordedAnswers = this.recordedAnswers[slot];
    const written = this.recordedCount[slot]++;
    recorded[2 * written] = this.localAt / this.count;
    recorded[2 * written + 1] = list;
    recordedAnswers[written] = answers;
    if (--this.recordLeft[slot] > 0) return;
    const bundle = this.recordBundle[slot];
    const n = written + 1;
    let asks = false;
    for (let k = 0; k < n && !asks; k++) asks = recordedAnswers[k] >= 0;
    if (this.bundleAt.get(bundle, this.recordOutside[slot]) < 0) {
      const at = this.bundleRecordsLength;
      this.bundleRecords = grown(this.bundleRecords, at + 2 + 2 * n);
      this.bundleRecords[at] = n;
      this.bundleRecords[at + 1] = asks ? 1 : 0;
      this.bundleRecords[at + 2] = this.bundleRecordCount;
      this.bundleTaken = grown(this.bundleTaken, this.bundleRecordCount++);
      for (let k = 0; k < 2 * n; k++) this.bundleRecords[at + 3 + k] = recorded[k];
      this.bundleRecordsLength = at + 3 + 2 * n;
      this.bundleAt.set(bundle, this.recordOutside[slot], at);
    }
    if (!asks || this.answersAt.get(bundle, this.recordSlots[slot]) >= 0) return;
    const at = this.answerRecordsLength;
    this.answerRecords = grown(this.answerRecords, at + 1 + n);
    this.answerRecords[at] = n;
    this.answerRecords[at + 1] = this.answerRecordCount;
    this.answersTaken = grown(this.answersTaken, this.answerRecordCount++);
    for (let k = 0; k < n; k++) this.answerRecords[at + 2 + k] = recordedAnswers[k];
    this.answerRecordsLength = at + 2 + n;
    this.answersAt.set(bundle, this.recordSlots[slot], at);
  }

  /** Enters a self-loop's local class by its pair (event id, addressed slot's id + 1, or 0). */
  private enterSelfLoop(eventId: number, addressed: number, from: Uint32Array): void {
    const value = addressed < 0 ? 0 : from[firstNamespaceLane + addressed] + 1;
    const direct = value < selfDirect;
    const row = direct ? this.selfRows[eventId] : undefined;
    const at = direct
      ? row !== undefined && value < row.length
        ? row[value] - 1
        : -1
      : this.selfLoops.get(eventId, value);
    if (at >= 0) {
      this.enteredClass(eventId, at);
      this.fixedStale = true;
      this.moved = false;
      return;
    }
    this.enterLanes(eventId, addressed, from, from);
    if (!direct) {
      this.selfLoops.set(eventId, value, this.localAt);
      return;
    }
    while (this.selfRows.length <= eventId) this.selfRows.push(new Int32Array(0));
    const grownRow = grown(this.selfRows[eventId], value);
    grownRow[value] = this.localAt + 1;
    this.selfRows[eventId] = grownRow;
  }

  /** `settledStep` on lanes (`enterLanes`): the judgements open in the step's settled class, or undefined. */
  settledLanes(
    eventId: number,
    addressed: number,
    from: Uint32Array,
    to: Uint32Array,
  ): readonly number[] | undefined {
    this.enterLanes(eventId, addressed, from, to);
    return this.settledHere();
  }

  /** Writes the fixed slots (index, before, after) into the tuple from `n`; returns the new length. */
  private slotLanes(from: number): number {
    const { tuple, fixed, before, after } = this;
    const addressed = this.event.request?.namespace ?? -1;
    let n = from;
    this.moved = false;
    for (let i = 0; i < fixed.length; i++) {
      const b = before.namespaces[i];
      const a = after.namespaces[i];
      if (b !== a) this.moved = true;
      const isFixed = b !== a || i === addressed;
      fixed[i] = isFixed ? 1 : 0;
      if (!isFixed) continue;
      tuple[n++] = i;
      tuple[n++] = b.id;
      tuple[n++] = a.id;
    }
    return n;
  }

  /** The id of a state's lanes outside the namespace slots (a state's are shared by all its steps). */
  private outsideOf(s: SystemState): number {
    const lanes = this.outsideTuple;
    let n = 0;
    lanes[n++] = s.configSync;
    lanes[n++] = s.faults;
    lanes[n++] = s.registeredConfigs;
    for (let k = 0; k < s.initializers.length; k++) lanes[n++] = s.initializers[k];
    // The stored cluster RBAC objects (D-23), in a scope that requests any.
    if (s.clusterObjects !== undefined) lanes[n++] = s.clusterObjects;
    return this.outsideIds.id(lanes, n);
  }

  private sameOutside(a: SystemState, b: SystemState): boolean {
    if (
      a.configSync !== b.configSync ||
      a.faults !== b.faults ||
      a.registeredConfigs !== b.registeredConfigs ||
      a.clusterObjects !== b.clusterObjects
    )
      return false;
    for (let k = 0; k < a.initializers.length; k++) if (a.initializers[k] !== b.initializers[k]) return false;
    return true;
  }

  /** Writes the ids of the lanes outside the slots, before and after, into the tuple at `n`; returns the new length. */
  private outsideLanes(from: number): number {
    const { before, after } = this;
    if (before !== this.lastBefore) {
      this.lastBefore = before;
      this.lastBeforeOutside = this.outsideOf(before);
    }
    const afterOutside =
      after === before || this.sameOutside(before, after) ? this.lastBeforeOutside : this.outsideOf(after);
    this.tuple[from] = this.lastBeforeOutside;
    this.tuple[from + 1] = afterOutside;
    return from + 2;
  }

  private globalClass(): number {
    if (this.globalAt < 0) {
      this.outsideLanes(1);
      this.globalAt = this.global.classOfTriple(this.eventId, this.tuple[1], this.tuple[2]);
    }
    return this.globalAt;
  }

  private refinedClass(): number {
    if (this.refinedAt < 0) {
      this.outsideLanes(1);
      this.refinedAt = this.refined.classOfTriple(this.localAt / this.count, this.tuple[1], this.tuple[2]);
    }
    return this.refinedAt;
  }

  /**
   * Enters the step's class. Once its class is settled, returns the judgements still open there (those
   * that look further than the local table), and counts the step toward the witnesses known to fire
   * there; undefined while the class is not settled (judge every judgement, then `settle`).
   */
  settledStep(before: SystemState, event: SystemEvent, after: SystemState): readonly number[] | undefined {
    this.enter(before, event, after);
    return this.settledHere();
  }

  /** The open judgements of the entered step's class once it is settled (counting the step), else undefined. */
  private settledHere(): readonly number[] | undefined {
    const local = this.localAt / this.count;
    const list = this.settledLocal.listOf(local);
    if (list < 0) return undefined;
    this.settledLocal.count(local);
    return this.openLists[list];
  }

  /**
   * After judging the first step of a class: settles it when every predicate but the `skipped` ones that
   * the local table knows holds. Its later steps then judge only the judgements open there.
   */
  settle(skipped: (j: number) => boolean): void {
    const fired: number[] = [];
    const open: number[] = [];
    for (let j = 0; j < this.count; j++) {
      if (skipped(j)) continue;
      const code = this.local.code(this.localAt + j);
      if (code === Memo.True || code === Memo.False) {
        if (j < this.witnessesFrom && code === Memo.False) return;
        if (j >= this.witnessesFrom && code === Memo.True) fired.push(j - this.witnessesFrom);
      } else open.push(j);
    }
    const key = `${fired.join(',')}|${open.join(',')}`;
    let list = this.listIds.get(key);
    if (list === undefined) {
      list = this.firedLists.length;
      this.firedLists.push(fired);
      this.openLists.push(open);
      this.listIds.set(key, list);
    }
    this.settledLocal.settle(this.localAt / this.count, list);
  }

  /** Per witness: the steps of settled classes where the local table knows it fires (the rest the caller counted). */
  settledWitnessCounts(): number[] {
    const totals = new Array<number>(this.count - this.witnessesFrom).fill(0);
    this.countTakenWhole();
    this.settledLocal.addTo(totals, this.firedLists);
    for (let list = 0; list < this.handledLists.length; list++)
      for (const w of this.handledLists[list]) totals[w] += this.handledHits[list];
    for (let list = 0; list < this.answerLists.length; list++)
      for (const w of this.answerLists[list]) totals[w] += this.answerHits[list];
    return totals;
  }

  /** Judgement `j` of the current step: remembered, or run (and remembered as far as its reads allow). */
  judge(j: number, run: StepJudgement<boolean>): boolean {
    const known = this.local.code(this.localAt + j);
    if (known === Memo.True) return true;
    if (known === Memo.False) return false;
    if (known === Memo.Always) return run(this.model, this.before, this.event, this.after);
    if (known === Memo.Slots) {
      const slots = this.slotsTable.code(this.slotsClass() + j);
      if (slots === Memo.True) return true;
      if (slots === Memo.False) return false;
      if (slots === Memo.Always) return run(this.model, this.before, this.event, this.after);
    } else if (known === Memo.Further) {
      const global = this.global.code(this.globalClass() + j);
      if (global === Memo.True) return true;
      if (global === Memo.False) return false;
      if (global === Memo.Further) {
        const refined = this.refined.code(this.refinedClass() + j);
        if (refined === Memo.True) return true;
        if (refined === Memo.False) return false;
        if (refined === Memo.Always) return run(this.model, this.before, this.event, this.after);
      }
    }
    if (known === Memo.Unknown) {
      const at = this.eventId * this.count + j;
      let byEvent = at < this.eventCodes.length ? (this.eventCodes[at] as Memo) : Memo.Unknown;
      if (byEvent === Memo.Unknown && !this.moved && at < this.unmovedCodes.length)
        byEvent = this.unmovedCodes[at] as Memo;
      if (byEvent !== Memo.Unknown) {
        this.local.set(this.localAt + j, byEvent);
        return byEvent === Memo.True;
      }
    }
    return this.remember(j, this.tracked(run));
  }

  /**
   * Files a tracked run's outcome in the finest table whose key covers everything it read, and points
   * the local (and global) table there. A true or false code is only ever filed under a key that fixes
   * all the run read, so it holds for every step that looks it up, whichever way it came.
   */
  private remember(j: number, outcome: boolean): boolean {
    const code = outcome ? Memo.True : Memo.False;
    const { readLocal, readGlobal, readOther, readOutside } = this;
    if (readOutside || (readOther && readGlobal)) {
      // Not remembered: where this step looked, it is judged every time.
      if (this.local.code(this.localAt + j) === Memo.Slots)
        this.slotsTable.set(this.slotsClass() + j, Memo.Always);
      else if (readGlobal) {
        this.local.set(this.localAt + j, Memo.Further);
        this.global.set(this.globalClass() + j, Memo.Further);
        this.refined.set(this.refinedClass() + j, Memo.Always);
      } else this.local.set(this.localAt + j, Memo.Always);
      return outcome;
    }
    if (readOther) {
      this.local.set(this.localAt + j, Memo.Slots);
      this.slotsTable.set(this.slotsClass() + j, code);
      return outcome;
    }
    if (!readGlobal) {
      this.local.set(this.localAt + j, code);
      // Nothing of the step read but its event: the answer holds for each of the event's local classes.
      const at = this.eventId * this.count + j;
      if (!readLocal) {
        this.eventCodes = grown(this.eventCodes, at);
        this.eventCodes[at] = code;
      } else if (!this.readViews && !this.moved) {
        this.unmovedCodes = grown(this.unmovedCodes, at);
        this.unmovedCodes[at] = code;
      }
      return outcome;
    }
    this.local.set(this.localAt + j, Memo.Further);
    if (!readLocal) {
      this.global.set(this.globalClass() + j, code);
      return outcome;
    }
    this.global.set(this.globalClass() + j, Memo.Further);
    this.refined.set(this.refinedClass() + j, code);
    return outcome;
  }

  private tracked(run: StepJudgement<boolean>): boolean {
    this.readLocal = false;
    this.readViews = false;
    this.readGlobal = false;
    this.readOther = false;
    this.readOutside = false;
    const outcome = run(this.tracking, this.before, this.event, this.after);
    return outcome;
  }

  /**
   * The model as a judgement sees it, noting what it reads: `view` of a fixed slot and `changedSlots` are
   * local; `view` of another slot and `views` read other slots; the methods of `globalReads` read the
   * lanes outside the slots; any other method or object is a read beyond every class.
   */
  private trackingModel(): SystemModel {
    const { model } = this;
    const view: SystemModel['view'] = (s, i) => {
      if (this.fixed[i] === 1) {
        this.readLocal = true;
        this.readViews = true;
      } else this.readOther = true;
      return model.view(s, i);
    };
    const views: SystemModel['views'] = (s) => {
      this.readLocal = true;
      this.readViews = true;
      // A loop, not some(): a typed array's some() is not inlined, so its closure was allocated per call.
      for (let i = 0; i < this.fixed.length; i++)
        if (this.fixed[i] !== 1) {
          this.readOther = true;
          break;
        }
      return model.views(s);
    };
    const changedSlots: SystemModel['changedSlots'] = (b, a) => {
      this.readLocal = true;
      return model.changedSlots(b, a);
    };
    const bound = new Map<PropertyKey, [AnyMethod, AnyMethod]>();
    return new Proxy(model, {
      get: (target, key) => {
        if (key === 'view') return view;
        if (key === 'views') return views;
        if (key === 'changedSlots') return changedSlots;
        const value = Reflect.get(target, key, target);
        if (typeof value === 'function') {
          if (scopeData.has(key)) return boundOnce(bound, target, key, value);
          if (globalReads.has(key)) this.readGlobal = true;
          else this.readOutside = true;
          return boundOnce(bound, target, key, value);
        }
        if (typeof value === 'object' && value !== null && !scopeData.has(key)) this.readOutside = true;
        return value;
      },
    });
  }
}

/** A state judgement: an invariant's predicate or a state witness test, true when it holds (or fires). */
export type StateJudgement = (model: SystemModel, state: SystemState) => boolean;

/**
 * State judgements (invariants, state witness tests) remembered per *slots class* of a state: the ids of
 * its namespace slots. A judgement runs on a tracking copy of the model that notes what it reads; when
 * it read nothing but namespace slots (`view`, `views`) and the scope's data, its answer holds for every
 * state with the same slots, and is remembered; any other read (the lanes outside the slots, or a model
 * method not known to read only slots) and that judgement runs on every state of the class. Exact for a
 * deterministic judgement, as the step memo is (tests compare with `memo: false`).
 */
export class StateMemo {
  private readonly table: MemoTable;
  private readonly tuple: Uint32Array;
  private readonly tracking: SystemModel;
  private readBeyond = false;
  private at = 0;
  private state!: SystemState;

  constructor(
    private readonly model: SystemModel,
    count: number,
  ) {
    this.table = new MemoTable(count);
    this.tuple = new Uint32Array(model.scope.namespaces.length);
    const scopeOnly = (key: PropertyKey) => key === 'view' || key === 'views' || scopeData.has(key);
    const bound = new Map<PropertyKey, [AnyMethod, AnyMethod]>();
    this.tracking = new Proxy(model, {
      get: (target, key) => {
        const value = Reflect.get(target, key, target);
        if (!scopeOnly(key) && (typeof value === 'function' || (typeof value === 'object' && value !== null)))
          this.readBeyond = true;
        return typeof value === 'function' ? boundOnce(bound, target, key, value) : value;
      },
    });
  }

  /** Enters the slots class of `state`; every `judge` until the next `enter` is about it. */
  enter(state: SystemState): void {
    this.state = state;
    const { tuple } = this;
    for (let i = 0; i < tuple.length; i++) tuple[i] = state.namespaces[i].id;
    this.at = this.table.classOf(tuple, tuple.length);
  }

  /** Judgement `j` of the state entered: remembered, or run (and remembered when it read only slots). */
  judge(j: number, run: StateJudgement): boolean {
    const known = this.table.code(this.at + j);
    if (known === Memo.True) return true;
    if (known === Memo.False) return false;
    if (known === Memo.Always) return run(this.model, this.state);
    this.readBeyond = false;
    const outcome = run(this.tracking, this.state);
    this.table.set(this.at + j, this.readBeyond ? Memo.Always : outcome ? Memo.True : Memo.False);
    return outcome;
  }
}
