import {
  restartEvent,
  restartGlobal,
  restartHappens,
  restartSlot,
} from '../../machines/actions/apiserver-timer.ts';
import {
  blocksTime,
  clockEvent,
  clockGlobal,
  clockSlot,
  secondPasses,
} from '../../machines/actions/clock.ts';
import {
  type Enabled,
  LocalKind,
  type SystemEvent,
  type SystemModel,
  type SystemState,
} from '../../machines/system.ts';
import type { StateCodec } from '../engine/codec.ts';
import { PairIds } from '../engine/pair-ids.ts';
import { grown } from '../engine/state-store.ts';
import { systemCodec } from './encoding.ts';
import { CheckedSystemModel, CopyReads, requestsReadOwnRoleBindings } from './system-model.ts';

/** Where the compiled model sends each successor: the explorer's handlers, called in emission order. */
export interface LaneSink {
  /** False when nothing watches single edges: self-loops may then be counted in bulk (`selfLoops`). */
  readonly eachSelfLoop: boolean;
  /**
   * `count` self-loops (when `eachSelfLoop` is false, or the self-loops of a bundle `selfBundle` took):
   * under `expandInOrder` each before the next successor sent; under `expand` perhaps after it.
   */
  selfLoops(count: number): void;
  /**
   * Before a state's successors are sent, when `eachSelfLoop` is true: the `count` self-loops of slot
   * `slot`'s local actions in this state, one table bundle (`bundle` names it: the same bundle has the same
   * self-loops in the same order in every state whose bundle it is; `at(bundle, k)` is the k-th one's event).
   * True takes them: they are sent as counts only (`selfLoops`), and `CompiledSystem.takenLoops[slot]`
   * counts those sent so far (under `expand`, a slot's self-loops-only entries all at once at the start);
   * false sends each to `self` with its slot.
   * The lists across namespaces (the wide actions) are offered the same way when the first one's turn
   * comes: the self-loops of all their table entries in this state as one bundle, at position `slot` =
   * namespaces (`bundlePositions`).
   */
  selfBundle?(slot: number, bundle: number, count: number): boolean;
  /**
   * A self-loop: the successor is the state being expanded; `slot` the namespace slot of the local action,
   * the lists' bundle position for a wide action's (namespaces), else -1.
   */
  self(event: number, slot?: number): void;
  /** The state being expanded with lane `lane` set to `value`. */
  change(event: number, lane: number, value: number): void;
  /** The state whose lanes are `lanes[0 .. width)`. */
  whole(event: number, lanes: Uint32Array): void;
}

/** A table entry: 0 not yet computed, 1 "compute always" (a step wrote outside its footprint), else pool offset + 2. */
const unknown = 0;
const always = 1;
const action = { local: 0, wide: 1, global: 2, clock: 3, restart: 4 } as const;

/** The event of a per-slot action (clock, restart) by its chain id: the global part and each slot's transitions. */
class ChainEvents {
  private events: Int32Array = new Int32Array(0);
  constructor(private readonly owner: { eventId(e: SystemEvent): number; misses: number }) {}

  /** The event id for this chain, or -1 when not yet made. */
  known(chain: number): number {
    return chain < this.events.length ? this.events[chain] : -1;
  }

  add(chain: number, event: SystemEvent): number {
    this.events = grown(this.events, chain, -1);
    this.owner.misses++;
    this.events[chain] = this.owner.eventId(event);
    return this.events[chain];
  }

  get bytes(): number {
    return this.events.byteLength;
  }
}

/**
 * The system model compiled into outcome tables, as SPIN compiles a model into pan.c: every action of
 * `SystemModel.actions` (its footprint says what it reads and writes) gets a typed-array table from what
 * it reads — namespace slot i's interned id and a numeric context id (the global lanes and the
 * RoleBindings as a tuple of each slot's part), an initializer's controller, each slot's list view — to a run of (event id, lanes
 * written) in one `Int32Array` pool. A miss runs the machines' own step code on the decoded state and
 * records it; a step that wrote outside its footprint is marked "compute always" and is run each time.
 * So the first search of a (machines, scope) pair fills the tables (cold) and every later one only
 * looks them up (warm); correctness never depends on the tables being full.
 */
/**
 * A chain over the namespace slots (the clock's event, the restart's, the lists' wide key), folded from
 * the last slot to the first with the chain's start (the global id, the list context) paired last, in a
 * table of its own: each suffix from slot i on stays valid while those slots keep their lanes, and a
 * change of the start keeps them all, so a sibling state looks up only the slots up to its last change
 * (the later slots change least: 5.9 of 8 are kept on `default`).
 */
class SlotChain {
  private readonly links = new PairIds();
  private readonly keys = new PairIds();
  private readonly suffix: Int32Array;
  /** The suffixes from this slot on are those of the current lanes. */
  private valid: number;

  constructor(private readonly slots: number) {
    this.suffix = new Int32Array(slots);
    this.valid = slots;
  }

  /** The slots from `unchanged` on kept their lanes since the state before. */
  keep(unchanged: number): void {
    this.valid = Math.max(this.valid, unchanged);
  }

  /** The chain's id for `start` and each slot's `slotValue(i)` (read only where the suffix is stale). */
  key(start: number, slotValue: (i: number) => number): number {
    const { suffix, slots } = this;
    for (let i = this.valid - 1; i >= 0; i--)
      suffix[i] = this.links.id(i === slots - 1 ? -1 : suffix[i + 1], slotValue(i));
    this.valid = 0;
    return this.keys.id(slots === 0 ? -1 : suffix[0], start);
  }

  /** Bytes of its id tables. */
  get bytes(): number {
    return this.links.bytes + this.keys.bytes;
  }
}

export class CompiledSystem {
  readonly codec: StateCodec<SystemState>;
  readonly width: number;
  /** Every event the tables name, by id. */
  readonly events: SystemEvent[] = [];
  misses = 0;
  /** Milliseconds spent running the model's step code on misses (filling the tables). */
  fillMs = 0;

  private readonly eventIds = new Map<SystemEvent, number>();
  private readonly namespaces: number;
  /** The lane of the stored cluster RBAC objects, or -1 when the scope requests none. */
  private readonly clusterLane: number;
  private readonly kinds: Int8Array;
  private readonly lanes: Int32Array;
  private readonly controllerLanes: Int32Array;
  /** Per action: 1 for a principal's request into one namespace, keyed by what a request reads (`requestContext`). */
  private readonly requestKeyed: Uint8Array;
  /** Per local action, per namespace id: the entry by context id (what fills the bundles). */
  private readonly localRows: (Int32Array | undefined)[][];
  /** Per local action: its namespace slot, and its position among that slot's local actions. */
  private readonly slotOf: Int32Array;
  private readonly positionOf: Int32Array;
  /** Per slot: its local actions in order. */
  private readonly slotActions: number[][];
  /**
   * Per slot: its local actions' indexes in order, flattened (slot i's from `slotFirst[i]`), and the 32-bit
   * words of a mask over them (`fillBundle`'s summary).
   */
  private readonly slotIndexes: Int32Array;
  private readonly slotFirst: Int32Array;
  private readonly maskWords: Int32Array;
  /** A mask over every action (32 a word): the actions that are not local, and the expansion's own (`expand`). */
  private readonly othersMask: Int32Array;
  private readonly actionMask: Int32Array;
  /** The same over the wide actions (the lists across namespaces). */
  private readonly wideMask: Int32Array;
  /**
   * Per slot, per namespace id: by full context id (local context and every controller), the pool offset of a
   * bundle: one entry per local action of the slot, so a state reads one short run of the pool per slot.
   */
  private readonly bundleRows: (Int32Array | undefined)[][];
  private readonly bundles: Int32Array;
  /**
   * Bundle positions: each namespace slot's local actions, then (when the scope has any) the wide actions,
   * lists across namespaces, whose table entries in a state are all keyed by the same wide key (the list
   * context and every namespace's listing): their self-loops make one bundle per wide key.
   */
  readonly bundlePositions: number;
  /** The wide actions, in the order of `model.actions`. */
  private readonly wideActions: number[];
  /**
   * Per wide key: where the self-loops of every wide action's entry are listed in `selfEvents` + 2, 1 when
   * an entry is computed always or none has a self-loop, 0 until first needed.
   */
  private listBundles: Int32Array = new Int32Array(0);
  /** Whether the lists' bundle was offered in the state being expanded. */
  private listsOffered = false;
  /** Per bundle position: whether the sink took the self-loops of its bundle in the state being expanded (`selfBundle`). */
  private readonly taken: Uint8Array;
  /**
   * Per bundle position: the self-loops of a taken bundle sent (as counts) so far in the state being
   * expanded (under `expand`, a slot's self-loops-only entries counted at the start).
   */
  readonly takenLoops: Int32Array;
  /** Per bundle position: the bundle offered to the sink in the state being expanded (`selfBundle`'s `bundle`). */
  readonly takenBundles: Int32Array;
  /**
   * Per bundle, the pool word after its entries: where the events of its self-loops start in `selfEvents`
   * (their count first) + 2, 1 for a bundle with an entry computed always, 0 until first needed.
   */
  private selfEvents: Int32Array = new Int32Array(1 << 10);
  private selfEventsLength = 0;
  private readonly fullContexts = new PairIds();
  private fullContext = 0;
  /** Per wide or global action: the entry by its key (wide context id, or context id). */
  private readonly keyed: Int32Array[];
  private pool: Int32Array = new Int32Array(1 << 12);
  /** Offset 0 holds the shared empty run. */
  private poolLength = 1;

  private readonly globals = new PairIds();
  private readonly contexts = new PairIds();
  /** The RBAC context as the tuple of each slot's part: exact even when the authorizer interns contexts it cannot split by bits ($creator). */
  private readonly roleBindingTuples = new PairIds();
  private readonly controllerContexts = new PairIds();
  /** Per slot, per namespace id: the authorizer's context of that namespace alone, or -1 when not yet computed. */
  private readonly roleBindingParts: Int32Array[];
  private listViews: Int32Array = new Int32Array(0);
  private readonly listViewIds = new Map<number, number>();
  /** Per namespace id: the clock's next id (-1 unknown), its transitions' id, and whether time is blocked. */
  private clockNext: Int32Array = new Int32Array(0);
  private clockTransitions: Int32Array = new Int32Array(0);
  private clockBlocks: Int32Array = new Int32Array(0);
  private readonly clockSlots: ReturnType<typeof clockSlot>[] = [];
  private readonly clockGlobals: ReturnType<typeof clockGlobal>[] = [];
  private readonly clockEvents = new ChainEvents(this);
  private restartNext: Int32Array = new Int32Array(0);
  private restartTransitions: Int32Array = new Int32Array(0);
  private readonly restartSlots: ReturnType<typeof restartSlot>[] = [];
  private readonly restartGlobals: ReturnType<typeof restartGlobal>[] = [];
  private readonly restartEvents = new ChainEvents(this);
  private readonly transitionIds = new Map<string, number>();

  // Per state being expanded: its lanes, decoded state (lazily), global id, context ids.
  private current: Uint32Array = new Uint32Array(0);
  private decoded: SystemState | undefined;
  private readonly scratch: Uint32Array;
  private readonly written: Uint32Array;
  private global = 0;
  private context = 0;
  /**
   * What a request into one namespace reads besides it: what requests read of the configuration copy
   * (`CopyReads`: not its age) and the cluster's objects, with the RBAC context unless the request reads
   * only its own namespace's RBAC objects (`requestsReadOwnRoleBindings`: its namespace id holds them).
   */
  private requestContext = 0;
  /**
   * What a request across namespaces (a list or watch) reads besides each namespace's listing: what
   * requests read of the copy, the cluster's objects and the whole RBAC context; not the faults or
   * the stored configurations, which the global context adds.
   */
  private listContext = 0;
  /**
   * What a local action reads besides its slot and its controller: the global context with the
   * configuration copy as `CopyReads` sees it (no step of a namespace reads the copy's age; only the
   * clock does), so copies that differ only in age share each local action's entries.
   */
  private localContext = 0;
  private readonly localContexts = new PairIds();
  private readonly localControllerContexts = new PairIds();
  private readonly copyReads: CopyReads;
  private readonly ownRoleBindings: boolean;
  private readonly requestContexts = new PairIds();
  private wide = -1;
  /** The lanes `begin` last saw, each slot's RBAC part then, and what came of them (kept while they repeat). */
  private readonly last: Uint32Array;
  private lastValid = false;
  private readonly lastParts: Int32Array;
  private rbac = 0;
  /** The per-slot chains (`SlotChain`): the clock's, the restart's and the lists' wide key. */
  private readonly clockChain: SlotChain;
  private readonly restartChain: SlotChain;
  private readonly wideChain: SlotChain;
  /** Each slot's value in its chain, read only for the slots whose suffix is stale. */
  private readonly clockValue = (i: number): number => this.clockTransitions[this.current[3 + i]];
  private readonly restartValue = (i: number): number => this.restartTransitions[this.current[3 + i]];
  private readonly wideValue = (i: number): number => this.listView(this.current[3 + i]);
  /** What requests read of the configuration copy and the cluster's objects (`requestContexts`). */
  private reads = 0;

  constructor(readonly model: SystemModel) {
    this.codec = systemCodec(model);
    this.copyReads = model instanceof CheckedSystemModel ? model.copyReads : new CopyReads(model);
    this.ownRoleBindings = requestsReadOwnRoleBindings(model);
    this.width = this.codec.width;
    this.clusterLane = (model.scope.clusterObjects?.length ?? 0) > 0 ? this.width - 1 : -1;
    this.namespaces = model.scope.namespaces.length;
    const actions = model.actions;
    this.kinds = Int8Array.from(actions, (a) =>
      a.type === 'local'
        ? action.local
        : a.type === 'wide'
          ? action.wide
          : a.footprint === 'clock'
            ? action.clock
            : a.footprint === 'restart'
              ? action.restart
              : action.global,
    );
    this.lanes = Int32Array.from(actions, (a) => (a.type === 'local' ? 3 + a.i : -1));
    this.controllerLanes = Int32Array.from(actions, (a) =>
      a.type === 'wide' || a.controller < 0 ? -1 : 3 + this.namespaces + a.controller,
    );
    this.requestKeyed = Uint8Array.from(actions, (a) =>
      a.type === 'local' && a.kind === LocalKind.Command ? 1 : 0,
    );
    this.localRows = actions.map(() => []);
    this.slotActions = model.scope.namespaces.map(() => []);
    this.slotOf = Int32Array.from(actions, (a) => (a.type === 'local' ? a.i : -1));
    this.positionOf = Int32Array.from(actions, (a, at) =>
      a.type === 'local' ? this.slotActions[a.i].push(at) - 1 : -1,
    );
    this.slotIndexes = Int32Array.from(this.slotActions.flat());
    this.slotFirst = new Int32Array(this.namespaces);
    for (let i = 1; i < this.namespaces; i++)
      this.slotFirst[i] = this.slotFirst[i - 1] + this.slotActions[i - 1].length;
    this.maskWords = Int32Array.from(this.slotActions, (list) => (list.length + 31) >>> 5);
    this.othersMask = new Int32Array((actions.length + 31) >>> 5);
    this.actionMask = new Int32Array(this.othersMask.length);
    this.wideMask = new Int32Array(this.othersMask.length);
    for (let a = 0; a < actions.length; a++) {
      if (actions[a].type !== 'local') this.othersMask[a >>> 5] |= 1 << (a & 31);
      if (actions[a].type === 'wide') this.wideMask[a >>> 5] |= 1 << (a & 31);
    }
    this.bundleRows = model.scope.namespaces.map(() => []);
    this.bundles = new Int32Array(this.namespaces);
    this.wideActions = actions.flatMap((a, at) => (a.type === 'wide' ? [at] : []));
    this.bundlePositions = this.namespaces + (this.wideActions.length > 0 ? 1 : 0);
    this.taken = new Uint8Array(this.bundlePositions);
    this.takenLoops = new Int32Array(this.bundlePositions);
    this.takenBundles = new Int32Array(this.bundlePositions);
    this.keyed = actions.map(() => new Int32Array(0));
    this.roleBindingParts = model.scope.namespaces.map(() => new Int32Array(0));
    this.scratch = new Uint32Array(this.width);
    this.written = new Uint32Array(this.width);
    this.last = new Uint32Array(this.width);
    this.lastParts = new Int32Array(this.namespaces);
    this.clockChain = new SlotChain(this.namespaces);
    this.restartChain = new SlotChain(this.namespaces);
    this.wideChain = new SlotChain(this.namespaces);
  }

  /** Bytes of the tables' typed arrays (a fixed cost of the compiled model, not of a search). */
  get tableBytes(): number {
    let bytes = this.pool.byteLength + this.listViews.byteLength + this.selfEvents.byteLength;
    bytes += this.listBundles.byteLength;
    for (const rows of [...this.localRows, ...this.bundleRows])
      for (const row of rows) bytes += row?.byteLength ?? 0;
    for (const ids of [
      this.globals,
      this.contexts,
      this.roleBindingTuples,
      this.controllerContexts,
      this.localContexts,
      this.localControllerContexts,
      this.fullContexts,
      this.requestContexts,
    ])
      bytes += ids.bytes;
    for (const chain of [this.wideChain, this.clockChain, this.restartChain]) bytes += chain.bytes;
    for (const table of this.keyed) bytes += table.byteLength;
    for (const bits of this.roleBindingParts) bytes += bits.byteLength;
    for (const a of [this.clockNext, this.clockTransitions, this.clockBlocks, this.restartNext])
      bytes += a.byteLength;
    bytes += this.restartTransitions.byteLength + this.clockEvents.bytes + this.restartEvents.bytes;
    return bytes;
  }

  /** The id of an interned event. */
  eventId(event: SystemEvent): number {
    const known = this.eventIds.get(event);
    if (known !== undefined) return known;
    this.eventIds.set(event, this.events.length);
    return this.events.push(event) - 1;
  }

  /**
   * Sends every successor of the state with lanes `current` to `sink`, in `SystemModel.enabled`'s order,
   * but for the self-loops counted in bulk (`selfLoops`): they may come after successors sent after them
   * (all of a slot's counted at once), so a search that stops inside a state counts them again by
   * `expandInOrder`. Only the actions with something to send are visited: the bundles' masks name them.
   */
  expand(current: Uint32Array, sink: LaneSink): void {
    this.begin(current);
    this.offer(sink);
    const { pool, bundles, taken, takenLoops, slotIndexes, slotFirst, maskWords, actionMask, wideMask } =
      this;
    const each = sink.eachSelfLoop;
    actionMask.set(this.othersMask);
    let loops = 0;
    let listsDone = false;
    for (let i = 0; i < this.namespaces; i++) {
      const words = maskWords[i];
      const head = bundles[i] + this.slotActions[i].length + 1;
      // Self-loops only: counted here when counted at all, else each is sent and its action visited.
      const counted = !each || taken[i] === 1;
      if (counted) {
        loops += pool[head];
        if (each) takenLoops[i] += pool[head];
      }
      for (let w = 0; w < words; w++) {
        let bits = pool[head + 1 + w];
        if (!counted) bits |= pool[head + 1 + words + w];
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          const a = slotIndexes[slotFirst[i] + (w << 5) + 31 - Math.clz32(low)];
          actionMask[a >>> 5] |= 1 << (a & 31);
        }
      }
    }
    for (let w = 0; w < actionMask.length; w++) {
      let bits = actionMask[w];
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const a = (w << 5) + 31 - Math.clz32(low);
        if (this.kinds[a] === action.wide && !listsDone) {
          listsDone = true;
          // Lists change nothing: when every one's self-loops are counted, they are counted here at once.
          const lists = this.listsCounted(sink);
          if (lists >= 0) {
            loops += lists;
            bits &= ~wideMask[w];
            for (let v = w + 1; v < actionMask.length; v++) actionMask[v] &= ~wideMask[v];
            continue;
          }
        }
        if (this.kinds[a] !== action.local) {
          this.other(a, sink);
          continue;
        }
        const slot = this.slotOf[a];
        const entry = this.pool[bundles[slot] + this.positionOf[a]];
        if (entry === always) {
          this.computeAlways(a, sink);
          continue;
        }
        const lane = this.lanes[a];
        const run = this.pool;
        const end = entry - 1 + 2 * run[entry - 2];
        for (let at = entry - 1; at < end; at += 2) {
          if (run[at + 1] >= 0) sink.change(run[at], lane, run[at + 1]);
          else if (!each) loops++;
          else if (taken[slot] === 1) {
            loops++;
            takenLoops[slot]++;
          } else sink.self(run[at], slot);
        }
      }
    }
    if (loops > 0) sink.selfLoops(loops);
    this.decoded = undefined;
  }

  /**
   * As `expand`, with each count of self-loops sent before the next successor, as `SystemModel.enabled`
   * orders them: for a sink that numbers every successor, or counts those before a stop inside the state.
   */
  expandInOrder(current: Uint32Array, sink: LaneSink): void {
    this.begin(current);
    this.offer(sink);
    const { kinds, lanes, slotOf, positionOf, bundles, taken, takenLoops } = this;
    const each = sink.eachSelfLoop;
    // Self-loops not yet reported: counted, and handed over before the next other successor.
    let loops = 0;
    for (let a = 0; a < kinds.length; a++) {
      const kind = kinds[a];
      if (kind === action.local) {
        const pool = this.pool;
        const slot = slotOf[a];
        const bundle = bundles[slot];
        const position = positionOf[a];
        const entry = pool[bundle + position];
        const head = bundle + this.slotActions[slot].length + 1;
        const moves = (pool[head + 1 + (position >>> 5)] >>> (position & 31)) & 1;
        // An entry of self-loops only, counted rather than sent.
        if (moves === 0 && (!each || taken[slot] === 1)) {
          loops += pool[entry - 2];
          if (each) takenLoops[slot] += pool[entry - 2];
          continue;
        }
        if (entry !== always) {
          const lane = lanes[a];
          const end = entry - 1 + 2 * pool[entry - 2];
          for (let at = entry - 1; at < end; at += 2) {
            if (pool[at + 1] >= 0) {
              if (loops > 0) {
                sink.selfLoops(loops);
                loops = 0;
              }
              sink.change(pool[at], lane, pool[at + 1]);
            } else if (!each) loops++;
            else if (taken[slot] === 1) {
              loops++;
              takenLoops[slot]++;
            } else sink.self(pool[at], slot);
          }
          continue;
        }
      }
      if (loops > 0) {
        sink.selfLoops(loops);
        loops = 0;
      }
      if (kind === action.local) this.computeAlways(a, sink);
      else this.other(a, sink);
    }
    if (loops > 0) sink.selfLoops(loops);
    this.decoded = undefined;
  }

  /** Before a state's successors: each slot's self-loops offered as its bundle (`LaneSink.selfBundle`). */
  private offer(sink: LaneSink): void {
    const { taken, takenLoops } = this;
    const bundled = sink.eachSelfLoop && sink.selfBundle !== undefined;
    for (let i = 0; i < this.namespaces; i++) {
      takenLoops[i] = 0;
      taken[i] = 0;
      if (!bundled) continue;
      const self = this.bundleSelfLoops(i);
      this.takenBundles[i] = self;
      if (self >= 0 && sink.selfBundle?.(i, self, this.selfEvents[self]) === true) taken[i] = 1;
    }
    for (let p = this.namespaces; p < this.bundlePositions; p++) {
      takenLoops[p] = 0;
      taken[p] = 0;
    }
    this.listsOffered = false;
  }

  /** An action that is not local: a list, a global action, the clock or the restart. */
  private other(a: number, sink: LaneSink): void {
    const kind = this.kinds[a];
    if (kind === action.wide) this.wideStep(a, sink);
    else if (kind === action.global) this.globalStep(a, sink);
    else if (kind === action.clock) this.clock(sink);
    else this.restart(sink);
  }

  /**
   * The self-loops of slot i's bundle in this state: where their events start in `selfEvents` (the
   * count first), or -1 when one of its entries is computed always.
   */
  private bundleSelfLoops(i: number): number {
    const bundle = this.bundles[i];
    const actions = this.slotActions[i];
    const known = this.pool[bundle + actions.length];
    if (known !== 0) return known - 2;
    const pool = this.pool;
    const events: number[] = [];
    let self = 0;
    for (const a of actions) {
      const entry = pool[bundle + this.positionOf[a]];
      if (entry === always) {
        self = -1;
        break;
      }
      const end = entry - 1 + 2 * pool[entry - 2];
      for (let at = entry - 1; at < end; at += 2) if (pool[at + 1] < 0) events.push(pool[at]);
    }
    if (self === 0) self = this.appendSelfEvents(events);
    this.pool[bundle + actions.length] = self + 2;
    return self;
  }

  /** Appends a bundle's self-loop events (their count, then the ids) to `selfEvents`; returns where they start. */
  private appendSelfEvents(events: readonly number[]): number {
    const at = this.selfEventsLength;
    this.selfEvents = grown(this.selfEvents, at + 1 + events.length);
    this.selfEvents[at] = events.length;
    this.selfEvents.set(events, at + 1);
    this.selfEventsLength = at + 1 + events.length;
    return at;
  }

  /** The number of self-loops of the bundle `bundleSelfLoops` named `self`. */
  selfLoopCount(self: number): number {
    return this.selfEvents[self];
  }

  /** The event of the k-th self-loop of the bundle `bundleSelfLoops` named `self`. */
  selfLoopEvent(self: number, k: number): number {
    return this.selfEvents[self + 1 + k];
  }

  /**
   * The context of the state: its global lanes, the RoleBindings (each slot's part), each controller's own
   * context, and each slot's bundle. States expanded one after another are mostly siblings, which differ
   * in one slot or in the global lanes: what depends only on lanes equal to the last state's is kept.
   */
  private begin(current: Uint32Array): void {
    this.current = current;
    this.wide = -1;
    const last = this.last;
    const valid = this.lastValid;
    const clusterLane = this.clusterLane;
    const sameGlobal =
      valid &&
      current[0] === last[0] &&
      current[1] === last[1] &&
      current[2] === last[2] &&
      (clusterLane < 0 || current[clusterLane] === last[clusterLane]);
    if (!sameGlobal) {
      const lanes = this.globals.id(this.globals.id(current[0], current[1]), current[2]);
      // The stored cluster RBAC objects (D-23) are part of the global context: RBAC reads them.
      this.global = clusterLane < 0 ? lanes : this.globals.id(lanes, current[clusterLane]);
      const cluster = clusterLane < 0 ? 0 : current[clusterLane];
      let copy = this.copyReads.known(current[0]);
      if (copy < 0) copy = this.copyReads.id(this.state());
      this.reads = this.requestContexts.id(copy, cluster);
    }
    const lastParts = this.lastParts;
    let sameParts = valid;
    for (let i = 0; i < this.namespaces; i++) {
      const parts = this.roleBindingParts[i];
      const id = current[3 + i];
      const part = id < parts.length && parts[id] !== -1 ? parts[id] : this.roleBindings(i, id);
      if (part !== lastParts[i]) {
        sameParts = false;
        lastParts[i] = part;
      }
    }
    if (!sameParts) {
      let rbac = 0;
      for (let i = 0; i < this.namespaces; i++) rbac = this.roleBindingTuples.id(rbac, lastParts[i]);
      this.rbac = rbac;
    }
    if (!sameGlobal || !sameParts) {
      this.context = this.contexts.id(this.global, this.rbac);
      this.listContext = this.requestContexts.id(this.reads, this.rbac);
      this.requestContext = this.ownRoleBindings ? this.reads : this.listContext;
      this.localContext = this.localContexts.id(
        this.localContexts.id(this.listContext, current[1]),
        current[2],
      );
    }
    // The chains' suffixes stay valid after the last slot that changed.
    let unchanged = this.namespaces;
    if (valid) while (unchanged > 0 && current[2 + unchanged] === last[2 + unchanged]) unchanged--;
    this.clockChain.keep(unchanged);
    this.restartChain.keep(unchanged);
    this.wideChain.keep(unchanged);
    const first = 3 + this.namespaces;
    const initializers = this.model.initializers.length;
    let sameFull = sameGlobal && sameParts;
    for (let k = 0; k < initializers && sameFull; k++) sameFull = current[first + k] === last[first + k];
    if (!sameFull) {
      let full = this.localContext;
      for (let k = 0; k < initializers; k++) full = this.fullContexts.id(full, current[first + k]);
      this.fullContext = full;
    }
    const full = this.fullContext;
    for (let i = 0; i < this.namespaces; i++) {
      // The same namespace in the same full context: the same bundle.
      if (sameFull && current[3 + i] === last[3 + i]) continue;
      const row = this.bundleRows[i][current[3 + i]];
      const bundle = row !== undefined && full < row.length ? row[full] : unknown;
      if (bundle === unknown) this.bundles[i] = this.fillBundle(i, current[3 + i]);
      else this.bundles[i] = bundle - 1;
    }
    for (let k = 0; k < this.width; k++) last[k] = current[k];
    this.lastValid = true;
  }

  /**
   * Slot i's bundle for namespace id `id` in the full context: each local action's entry, from its own
   * table, then its summary, so that a state visits only the actions with something to send (`expand`).
   */
  private fillBundle(i: number, id: number): number {
    const entries = this.slotActions[i].map((a) => this.localEntry(a, 3 + i, id));
    const offset = this.poolLength;
    const n = entries.length;
    const words = this.maskWords[i];
    // After the entries: where the bundle's self-loops are listed (`bundleSelfLoops`), 0 until needed; the
    // self-loops of the entries that hold nothing else; the mask of the entries that move a lane or are
    // computed always; the mask of those that hold self-loops and nothing else.
    this.pool = grown(this.pool, offset + n + 2 + 2 * words, 0);
    const pool = this.pool;
    pool.set(entries, offset);
    const head = offset + n + 1;
    pool.fill(0, offset + n, head + 1 + 2 * words);
    for (let p = 0; p < n; p++) {
      const entry = entries[p];
      let selfs = -1;
      if (entry !== always) {
        selfs = pool[entry - 2];
        const end = entry - 1 + 2 * selfs;
        for (let at = entry - 1; at < end && selfs >= 0; at += 2) if (pool[at + 1] >= 0) selfs = -1;
      }
      if (selfs < 0) pool[head + 1 + (p >>> 5)] |= 1 << (p & 31);
      else if (selfs > 0) {
        pool[head] += selfs;
        pool[head + 1 + words + (p >>> 5)] |= 1 << (p & 31);
      }
    }
    this.poolLength = head + 1 + 2 * words;
    const rows = this.bundleRows[i];
    const row = grown(rows[id] ?? new Int32Array(0), this.fullContext, unknown);
    rows[id] = row;
    row[this.fullContext] = offset + 1;
    return offset;
  }

  private state(): SystemState {
    this.decoded ??= this.codec.decode(this.current, 0);
    return this.decoded;
  }

  /** Slot i's part of the RBAC context: the authorizer's answer for namespace id `id` alone in that slot. */
  private roleBindings(i: number, id: number): number {
    let parts = this.roleBindingParts[i];
    if (id >= parts.length) {
      parts = grown(parts, id, -1);
      this.roleBindingParts[i] = parts;
    }
    if (parts[id] === -1) {
      const alone = this.model.scope.namespaces.map(() => ({ content: 0 }));
      alone[i] = this.model.namespaceStateById(id);
      parts[id] = this.model.authorizer.roleBindingMask({ namespaces: alone });
    }
    return parts[id];
  }

  /** What a global action reads: the context, and the controller's snapshot when it has one (lane). */
  private keyOf(controller: number): number {
    return controller < 0 ? this.context : this.controllerContexts.id(this.context, this.current[controller]);
  }

  /** What a local action reads besides its slot: the local context, and its controller's snapshot when it has one (lane). */
  private localKeyOf(controller: number): number {
    return controller < 0
      ? this.localContext
      : this.localControllerContexts.id(this.localContext, this.current[controller]);
  }

  /** Local action a's entry for namespace id `id` in this state's context, run and recorded on a miss. */
  private localEntry(a: number, lane: number, id: number): number {
    const controller = this.controllerLanes[a];
    // A request reads less than the action footprint's whole context (CheckedSystemModel's request memo, `namespacedReads`).
    const key = this.requestKeyed[a] === 1 ? this.requestContext : this.localKeyOf(controller);
    const row = this.localRows[a][id];
    const entry = row !== undefined && key < row.length ? row[key] : unknown;
    if (entry !== unknown) return entry;
    return this.fillLocal(a, lane, id, key);
  }

  private fillLocal(a: number, lane: number, id: number, key: number): number {
    const out = this.run(a);
    const values: number[] = [];
    for (const { event, next } of out) {
      if (!this.writesOnly(next, lane, lane)) return this.store(this.localRow(a, id, key), key, always);
      // -1: the step left its namespace as it was (a self-loop, no lookup needed).
      values.push(this.eventId(event), this.written[lane] === this.current[lane] ? -1 : this.written[lane]);
    }
    return this.store(this.localRow(a, id, key), key, this.append(values, out.length));
  }

  private localRow(a: number, id: number, key: number): Int32Array {
    const rows = this.localRows[a];
    const row = grown(rows[id] ?? new Int32Array(0), key, unknown);
    rows[id] = row;
    return row;
  }

  /** The wide key of this state: what every list reads (the list context, each namespace's listing). */
  private wideKey(): number {
    if (this.wide < 0) this.wide = this.wideChain.key(this.listContext, this.wideValue);
    return this.wide;
  }

  /** Wide action a's entry for this state's wide key, run and recorded on a miss. */
  private wideEntry(a: number): number {
    const wide = this.wideKey();
    const table = this.keyed[a];
    const entry = wide < table.length ? table[wide] : unknown;
    if (entry !== unknown) return entry;
    const out = this.run(a);
    const events = out.map((e) => this.eventId(e.event));
    // A list changes nothing; one that did is run every time.
    const stays = out.every((e) => this.writesOnly(e.next, -1, -1));
    return this.storeKeyed(a, wide, stays ? this.append(events, out.length) : always);
  }

  private wideStep(a: number, sink: LaneSink): void {
    const entry = this.wideEntry(a);
    if (entry === always) {
      this.computeAlways(a, sink);
      return;
    }
    const pool = this.pool;
    const count = pool[entry - 2];
    // A list changes nothing: a sink that counts self-loops gets them as a count.
    if (!sink.eachSelfLoop) {
      if (count > 0) sink.selfLoops(count);
      return;
    }
    const position = this.namespaces;
    if (sink.selfBundle !== undefined) {
      this.offerLists(sink);
      if (this.taken[position] === 1) {
        if (count > 0) {
          this.takenLoops[position] += count;
          sink.selfLoops(count);
        }
        return;
      }
    }
    for (let at = entry - 1; at < entry - 1 + count; at++) sink.self(pool[at], position);
  }

  /** Offered when the first list's turn comes: every list's self-loops in this state, in their order. */
  private offerLists(sink: LaneSink): void {
    if (this.listsOffered) return;
    this.listsOffered = true;
    const position = this.namespaces;
    const self = this.listSelfLoops();
    this.takenBundles[position] = self;
    if (self >= 0 && sink.selfBundle?.(position, self, this.selfEvents[self]) === true)
      this.taken[position] = 1;
  }

  /**
   * At the first list's turn in `expand`: the self-loops of every list in this state when they are all
   * counted (their bundle taken, or a sink that counts self-loops), else -1 (each list goes by `wideStep`).
   */
  private listsCounted(sink: LaneSink): number {
    const position = this.namespaces;
    if (sink.eachSelfLoop) {
      if (sink.selfBundle === undefined) return -1;
      this.offerLists(sink);
      if (this.taken[position] !== 1) return -1;
      const count = this.selfEvents[this.takenBundles[position]];
      this.takenLoops[position] += count;
      return count;
    }
    const self = this.listSelfLoops();
    return self < 0 ? -1 : this.selfEvents[self];
  }

  /**
   * The self-loops of every wide action's entry in this state, one bundle named by the wide key (which keys
   * each of those entries, so the same events in the same order wherever it is): where their events start in
   * `selfEvents` (the count first), or -1 when an entry is computed always or none has a self-loop.
   */
  private listSelfLoops(): number {
    const wide = this.wideKey();
    const known = wide < this.listBundles.length ? this.listBundles[wide] : 0;
    if (known !== 0) return known - 2;
    const events: number[] = [];
    let self = 0;
    for (const a of this.wideActions) {
      const entry = this.wideEntry(a);
      if (entry === always) {
        self = -1;
        break;
      }
      const pool = this.pool;
      for (let at = entry - 1; at < entry - 1 + pool[entry - 2]; at++) events.push(pool[at]);
    }
    if (events.length === 0) self = -1;
    if (self === 0) self = this.appendSelfEvents(events);
    this.listBundles = grown(this.listBundles, wide);
    this.listBundles[wide] = self + 2;
    return self;
  }

  /** What a list reads of a namespace: its listing (machines/system-types.ts `NamespaceListing`), no more. */
  private listView(id: number): number {
    if (id >= this.listViews.length) this.listViews = grown(this.listViews, id, -1);
    if (this.listViews[id] < 0) {
      const { exists, initialized, content } = this.model.listing(this.model.namespaceStateById(id));
      const packed = ((exists ? 2 : 0) + (initialized ? 1 : 0)) * 4294967296 + (content >>> 0);
      if (!this.listViewIds.has(packed)) this.listViewIds.set(packed, this.listViewIds.size);
      this.listViews[id] = this.listViewIds.get(packed) ?? -1;
    }
    return this.listViews[id];
  }

  private globalStep(a: number, sink: LaneSink): void {
    const controller = this.controllerLanes[a];
    const key = this.keyOf(controller);
    const table = this.keyed[a];
    let entry = key < table.length ? table[key] : unknown;
    if (entry === unknown) {
      const out = this.run(a);
      const values: number[] = [];
      let stays = true;
      for (const { event, next } of out) {
        stays &&= this.writesOnly(next, 0, 2, controller);
        const w = this.written;
        values.push(this.eventId(event), w[0], w[1], w[2], controller < 0 ? 0 : w[controller]);
      }
      entry = this.storeKeyed(a, key, stays ? this.append(values, out.length) : always);
    }
    if (entry === always) {
      this.computeAlways(a, sink);
      return;
    }
    const pool = this.pool;
    const current = this.current;
    const scratch = this.scratch;
    const end = entry - 1 + 5 * pool[entry - 2];
    // Every successor that moves writes the same lanes: the rest of `scratch` is copied once.
    let copied = false;
    for (let at = entry - 1; at < end; at += 5) {
      const same =
        pool[at + 1] === current[0] &&
        pool[at + 2] === current[1] &&
        pool[at + 3] === current[2] &&
        (controller < 0 || pool[at + 4] === current[controller]);
      if (same) {
        sink.self(pool[at]);
        continue;
      }
      if (!copied) {
        scratch.set(current);
        copied = true;
      }
      scratch[0] = pool[at + 1];
      scratch[1] = pool[at + 2];
      scratch[2] = pool[at + 3];
      if (controller >= 0) scratch[controller] = pool[at + 4];
      sink.whole(pool[at], scratch);
    }
  }

  /** One second passes: per namespace id its aged id, per global id the configuration read (machines/actions/clock.ts). */
  private clock(sink: LaneSink): void {
    const current = this.current;
    const scratch = this.scratch;
    scratch.set(current);
    const passes = secondPasses(this.namespaces, this.clockBlocksAt, this.clockAgesAt);
    if (!passes) return;
    const chain = this.clockChain.key(this.global, this.clockValue);
    const global = this.clockGlobal();
    scratch[0] = global.configSync;
    let event = this.clockEvents.known(chain);
    if (event < 0)
      event = this.clockEvents.add(chain, clockEvent(this.model, global, this.perSlot(this.clockSlots)));
    sink.whole(event, scratch);
  }

  /** Whether slot i's namespace blocks time (its tables filled on first sight). */
  private readonly clockBlocksAt = (i: number): boolean => {
    const id = this.current[3 + i];
    if (id >= this.clockBlocks.length || this.clockBlocks[id] < 0) this.fillClockBlocks(id);
    return this.clockBlocks[id] === 1;
  };

  /** Slot i after one second, into the scratch lanes. */
  private readonly clockAgesAt = (i: number): void => {
    const id = this.current[3 + i];
    if (id >= this.clockNext.length || this.clockNext[id] < 0) this.fillClockNext(id);
    this.scratch[3 + i] = this.clockNext[id];
  };

  private clockGlobal(): ReturnType<typeof clockGlobal> {
    return this.perGlobal(this.clockGlobals, () => clockGlobal(this.model, this.state()));
  }

  /** A global action's part, computed once per global id. */
  private perGlobal<T>(cache: T[], compute: () => T): T {
    let part = cache[this.global];
    if (part === undefined) {
      part = compute();
      cache[this.global] = part;
    }
    return part;
  }

  /** Whether a namespace blocks time (FP-2), by its id. */
  private fillClockBlocks(id: number): void {
    this.clockBlocks = grown(this.clockBlocks, id, -1);
    this.clockBlocks[id] = blocksTime(this.model, this.model.namespaceStateById(id)) ? 1 : 0;
  }

  /** A namespace's state one second on, made only when a second passes over it. */
  private fillClockNext(id: number): void {
    this.clockNext = grown(this.clockNext, id, -1);
    this.clockTransitions = grown(this.clockTransitions, id, -1);
    const slot = clockSlot(this.model, this.model.namespaceStateById(id));
    this.clockSlots[id] = slot;
    this.clockNext[id] = slot.next.id;
    this.clockTransitions[id] = this.transitionsId(slot.transitions);
  }

  /** The apiserver restarts and loses the timers that run (machines/actions/apiserver-timer.ts). */
  private restart(sink: LaneSink): void {
    this.scratch.set(this.current);
    const happens = restartHappens(
      this.namespaces,
      this.restartRunningAt,
      this.restartLoses,
      this.restartLoseAt,
    );
    if (!happens) return;
    const chain = this.restartChain.key(this.global, this.restartValue);
    const global = this.restartGlobal();
    const scratch = this.scratch;
    let event = this.restartEvents.known(chain);
    if (event < 0)
      event = this.restartEvents.add(
        chain,
        restartEvent(this.model, global, this.perSlot(this.restartSlots)),
      );
    sink.whole(event, scratch);
  }

  /** Whether slot i's namespace has a running timer (its tables filled on first sight). */
  private readonly restartRunningAt = (i: number): boolean => {
    const id = this.current[3 + i];
    if (id >= this.restartNext.length || this.restartNext[id] < 0) this.fillRestartSlot(id);
    return this.restartTransitions[id] > 0;
  };

  private readonly restartLoses = (): boolean => this.restartGlobal().loses;

  /** Slot i with its timer lost, into the scratch lanes. */
  private readonly restartLoseAt = (i: number): void => {
    this.scratch[3 + i] = this.restartNext[this.current[3 + i]];
  };

  private restartGlobal(): ReturnType<typeof restartGlobal> {
    return this.perGlobal(this.restartGlobals, () => restartGlobal(this.model, this.state()));
  }

  private fillRestartSlot(id: number): void {
    this.restartNext = grown(this.restartNext, id, -1);
    this.restartTransitions = grown(this.restartTransitions, id, -1);
    const slot = restartSlot(this.model, this.model.namespaceStateById(id));
    this.restartSlots[id] = slot;
    this.restartNext[id] = slot.lost.id;
    // 0 marks a namespace whose timer does not run; a running one adds its transitions.
    this.restartTransitions[id] = slot.running ? 1 + this.transitionsId(slot.transitions) : 0;
  }

  /** Each slot's part of a per-slot action in this state (by its namespace id). */
  private perSlot<T>(parts: readonly T[]): T[] {
    return Array.from({ length: this.namespaces }, (_, i) => parts[this.current[3 + i]]);
  }

  private transitionsId(transitions: readonly string[]): number {
    const key = transitions.join(',');
    const known = this.transitionIds.get(key);
    if (known !== undefined) return known;
    this.transitionIds.set(key, this.transitionIds.size);
    return this.transitionIds.size - 1;
  }

  /** Runs action a's own step code on the decoded state (a miss, or a step marked "compute always"). */
  private run(a: number): Enabled[] {
    const started = performance.now();
    const m = this.model;
    const step = m.actions[a];
    const out: Enabled[] = [];
    const s = this.state();
    if (step.type === 'global') step.step(m, s, out);
    else step.step(m, s, step.type === 'local' ? step.k : step.j, step.type === 'local' ? step.i : -1, out);
    this.fillMs += performance.now() - started;
    this.misses++;
    return out;
  }

  private computeAlways(a: number, sink: LaneSink): void {
    for (const { event, next } of this.run(a)) {
      this.codec.encode(next, this.scratch, 0);
      sink.whole(this.eventId(event), this.scratch);
    }
  }

  /** Encodes `next` into `written`; true when it differs from the current state only in lanes first..last and `extra`. */
  private writesOnly(next: SystemState, first: number, last: number, extra = -1): boolean {
    this.codec.encode(next, this.written, 0);
    for (let lane = 0; lane < this.width; lane++)
      if ((lane < first || lane > last) && lane !== extra && this.written[lane] !== this.current[lane])
        return false;
    return true;
  }

  /** Appends a run (count, then `values`) to the pool; the entry that names it. */
  private append(values: readonly number[], count: number): number {
    if (count === 0) return 2;
    const offset = this.poolLength;
    this.pool = grown(this.pool, offset + values.length, 0);
    this.pool[offset] = count;
    this.pool.set(values, offset + 1);
    this.poolLength = offset + 1 + values.length;
    return offset + 2;
  }

  private store(row: Int32Array, key: number, entry: number): number {
    row[key] = entry;
    return entry;
  }

  private storeKeyed(a: number, key: number, entry: number): number {
    const table = grown(this.keyed[a], key, unknown);
    this.keyed[a] = table;
    table[key] = entry;
    return entry;
  }
}

const compiledModels = new WeakMap<SystemModel, CompiledSystem>();

/** The one compiled form of a model instance: every search of it after the first runs warm. */
export function compiledFor(model: SystemModel): CompiledSystem {
  let compiled = compiledModels.get(model);
  if (compiled === undefined) {
    compiled = new CompiledSystem(model);
    compiledModels.set(model, compiled);
  }
  return compiled;
}

/**
 * Lets go of a model's compiled form (its tables: 13.5 MB on the default scope), so a command that has
 * finished searching the model frees them before its next phase; a later `compiledFor` builds them again.
 */
export function releaseCompiled(model: SystemModel): void {
  compiledModels.delete(model);
}
