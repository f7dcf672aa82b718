import { restartGlobal, restartSlot } from '../../machines/actions/apiserver-timer.ts';
import { blocksTime, clockGlobal, clockSlot } from '../../machines/actions/clock.ts';
import type { Enabled, SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import type { Property } from '../../properties/types.ts';
import { systemCodec } from '../model/encoding.ts';

/**
 * The compiled outcome tables made complete without searching the product: a fixpoint on the
 * projections of the state (the global lanes, each namespace slot, each initializer controller) runs
 * every action of `SystemModel.actions` over every combination of the parts its footprint reads that
 * the projections reached, until no projection grows. The result over-approximates the reachable
 * pairs of local state and context, so a search on it never meets an entry that is missing.
 */

/** One outcome of a tabulated action: its event id and the value it writes (a namespace id, or a global row). */
export interface LocalOutcome {
  event: number;
  /** The new namespace id, or -1 when the step leaves the namespace as it was. */
  next: number;
  /** The step properties this outcome violates on the representative state: an id into `masks` (0: none). */
  bad: number;
}

export interface GlobalOutcome {
  event: number;
  /** Index into `globals` of the new global lanes. */
  global: number;
  /** The controller's new snapshot id (the action's controller, or 0 without one). */
  controller: number;
  /** As for a local outcome. */
  bad: number;
}

export interface CompleteTables {
  model: SystemModel;
  width: number;
  namespaces: number;
  initializers: number;
  /** The initial state's lanes. */
  initial: number[];
  /** Every reached triple of global lanes (configuration copy, faults, registered configurations). */
  globals: [number, number, number][];
  /** Per slot, every reached namespace id, in the order found. */
  slotIds: number[][];
  /** Per controller, every reached snapshot id, in the order found. */
  controllerIds: number[][];
  /** Per slot, per reached namespace id (by its index in `slotIds`), its RBAC part's index in `parts[slot]`. */
  partOf: number[][];
  /** Per slot, the distinct RBAC parts (the authorizer's answer for that slot alone). */
  parts: number[][];
  /** Number of RBAC tuples: the product of the slots' part counts (a context is global × tuple). */
  tuples: number;
  /** Each action, by its position in `model.actions`. */
  actions: TabledAction[];
  /** Per slot, per namespace index: the clock's next namespace index, or -1 when the namespace blocks time. */
  clockNext: number[][];
  /** Per global index: the global index after one second. */
  clockGlobal: number[];
  /** Per slot, per namespace index: whether a timer runs (a restart is enabled), and the index after a restart. */
  restartRunning: boolean[][];
  restartNext: number[][];
  /** Per global index: whether a restart loses the timers. */
  restartLoses: boolean[];
  /** Events by id (the model's interned events). */
  events: Enabled['event'][];
  /** Actions run on a representative state while filling: the size of the fixpoint's work. */
  runs: number;
  /** The properties judged (bit b of a mask is `properties[b]`). */
  properties: readonly Property[];
  /** Interned sets of violated properties, by id; id 0 is the empty set. Each a sorted list of property positions. */
  masks: number[][];
  /**
   * Judged per slot alone: for slot i, namespace index `at` and global row g, the state with slot i at
   * `at`, the global row g and every other slot and controller as in the initial state.
   * `invariants[i][at * globals + g]` is the mask of the invariants false there; `steps[x][i][at * globals + g]`
   * the mask of the step properties the step of `slotJudged[x]` (a list, the clock, the restart) violates from there.
   */
  invariants: number[][];
  slotJudged: number[];
  steps: number[][][];
  /**
   * Per action of `slotJudged`, one event for each distinct (actor kind, actor, namespace, request verb,
   * target, subresource) its steps from the per-slot states had: what a fairness condition matches on.
   */
  slotEvents: SystemEvent[][];
}

/** Where an action's entry lies: the stride of each coordinate it varies with (0 for one it does not read). */
export interface Layout {
  namespace: number;
  global: number;
  /** Per slot, its RBAC part's stride. */
  parts: number[];
  controller: number;
}

const noLayout = (n: number): Layout => ({
  namespace: 0,
  global: 0,
  parts: Array.from({ length: n }, () => 0),
  controller: 0,
});

export type TabledAction =
  | {
      type: 'local';
      slot: number;
      /** The initializer whose snapshot it reads, or -1. */
      controller: number;
      layout: Layout;
      /** By Σ coordinate × stride (namespace index, global row, each slot's RBAC part, controller index). */
      outcomes: LocalOutcome[][];
    }
  | { type: 'wide' }
  | {
      type: 'global';
      footprint: 'none' | 'clock' | 'restart';
      controller: number;
      layout: Layout;
      /** As for a local action, without the namespace (footprint `none` only). */
      outcomes: GlobalOutcome[][];
    };

/** Every point of a grid of these sizes, last coordinate fastest. */
function everyPoint(sizes: readonly number[]): number[][] {
  let points: number[][] = [[]];
  for (const size of sizes) points = points.flatMap((p) => Array.from({ length: size }, (_, v) => [...p, v]));
  return points;
}

/** Thrown when an action writes outside its footprint: such a step cannot be tabulated. */
export class FootprintError extends Error {}
/** The model holds something the tables do not encode yet: a refusal to export, not a fault of the model. */
export class ExportUnsupported extends Error {}

class Interned {
  readonly values: number[] = [];
  private readonly index = new Map<number, number>();
  add(value: number): number {
    const known = this.index.get(value);
    if (known !== undefined) return known;
    this.index.set(value, this.values.length);
    return this.values.push(value) - 1;
  }
  get(value: number): number | undefined {
    return this.index.get(value);
  }
}

/** Fills every table by the fixpoint on the projections; deterministic (every set in the order found). */
export function completeTables(model: SystemModel, properties: readonly Property[] = []): CompleteTables {
  // The lanes below are globals 0-2, namespaces, controllers; the cluster RBAC lane (D-23) has no table yet.
  if ((model.scope.clusterObjects?.length ?? 0) > 0)
    throw new ExportUnsupported(
      `scope ${model.scope.name} declares clusterObjects (D-23), which the Promela export does not tabulate yet; fix: export a scope without them (search this one with npm run verify)`,
    );
  const codec = systemCodec(model);
  const width = codec.width;
  const n = model.scope.namespaces.length;
  const inits = model.initializers.length;
  const [initialState, ...others] = model.initialStates();
  if (others.length > 0) throw new Error('the model has more than one initial state');
  const initialLanes = new Uint32Array(width);
  codec.encode(initialState, initialLanes, 0);
  const initial = [...initialLanes];

  const globalKeys = new Map<string, number>();
  const globals: [number, number, number][] = [];
  const addGlobal = (g: [number, number, number]): number => {
    const key = g.join(',');
    const known = globalKeys.get(key);
    if (known !== undefined) return known;
    globalKeys.set(key, globals.length);
    return globals.push(g) - 1;
  };
  addGlobal([initial[0], initial[1], initial[2]]);
  const slots = Array.from({ length: n }, (_, i) => {
    const ids = new Interned();
    ids.add(initial[3 + i]);
    return ids;
  });
  const controllers = Array.from({ length: inits }, (_, k) => {
    const ids = new Interned();
    ids.add(initial[3 + n + k]);
    return ids;
  });
  const parts = Array.from({ length: n }, () => new Interned());
  const partOf: number[][] = Array.from({ length: n }, () => []);
  /** Per slot, per part index: the first namespace id found with that part (a representative). */
  const partWitness: number[][] = Array.from({ length: n }, () => []);
  const partIndex = (i: number, at: number): number => {
    let p = partOf[i][at];
    if (p === undefined) {
      const alone = model.scope.namespaces.map(() => ({ content: 0 }));
      alone[i] = model.namespaceStateById(slots[i].values[at]);
      p = parts[i].add(model.authorizer.roleBindingMask({ namespaces: alone }));
      partOf[i][at] = p;
      partWitness[i][p] ??= slots[i].values[at];
    }
    return p;
  };

  const eventIds = new Map<Enabled['event'], number>();
  const events: Enabled['event'][] = [];
  const eventId = (e: Enabled['event']): number => {
    let id = eventIds.get(e);
    if (id === undefined) {
      id = events.push(e) - 1;
      eventIds.set(e, id);
    }
    return id;
  };

  // Sets of violated properties, interned: a table entry names one by its id.
  const masks: number[][] = [[]];
  const maskIds = new Map<string, number>([['', 0]]);
  const maskId = (positions: number[]): number => {
    const key = positions.join(',');
    let id = maskIds.get(key);
    if (id === undefined) {
      id = masks.push(positions) - 1;
      maskIds.set(key, id);
    }
    return id;
  };
  const stepBad = (
    before: SystemState,
    steps: readonly { event: SystemEvent; next: SystemState }[],
  ): number => {
    const bad: number[] = [];
    properties.forEach((p, b) => {
      if (p.kind !== 'step') return;
      if (steps.some(({ event, next }) => p.predicate(model, before, event, next) !== true)) bad.push(b);
    });
    return maskId(bad);
  };

  // Outcomes by a string key of what was read, so a pass never reruns a combination already run.
  const localDone = model.actions.map(() => new Map<string, LocalOutcome[]>());
  const globalDone = model.actions.map(() => new Map<string, GlobalOutcome[]>());
  const clockDone = new Map<number, number>();
  const lanes = new Uint32Array(width);
  const written = new Uint32Array(width);
  let runs = 0;

  /** The representative state: global g, each slot j a namespace of RBAC part tuple[j] (slot `own` holds `ownId`). */
  const stateFor = (g: number, tuple: number[], own: number, ownId: number, k: number, kId: number) => {
    lanes[0] = globals[g][0];
    lanes[1] = globals[g][1];
    lanes[2] = globals[g][2];
    for (let j = 0; j < n; j++) lanes[3 + j] = j === own ? ownId : partWitness[j][tuple[j]];
    for (let c = 0; c < inits; c++) lanes[3 + n + c] = c === k ? kId : initial[3 + n + c];
    return codec.decode(lanes, 0);
  };
  const outside = (first: number, last: number, extra: number): boolean => {
    for (let lane = 0; lane < width; lane++)
      if ((lane < first || lane > last) && lane !== extra && written[lane] !== lanes[lane]) return true;
    return false;
  };
  const run = (a: number, s: SystemState): Enabled[] => {
    const step = model.actions[a];
    const out: Enabled[] = [];
    runs++;
    if (step.type === 'global') step.step(model, s, out);
    else
      step.step(model, s, step.type === 'local' ? step.k : step.j, step.type === 'local' ? step.i : -1, out);
    return out;
  };

  /** Every RBAC tuple over the parts found so far, with slot `fixed` held at `part` (or all when fixed < 0). */
  const tuplesWith = (fixed: number, part: number): number[][] => {
    let out: number[][] = [[]];
    for (let j = 0; j < n; j++) {
      const choices = j === fixed ? [part] : parts[j].values.map((_, p) => p);
      out = out.flatMap((t) => choices.map((p) => [...t, p]));
    }
    return out;
  };

  let grew = true;
  while (grew) {
    grew = false;
    const sizeBefore = () =>
      globals.length +
      slots.reduce((sum, s) => sum + s.values.length, 0) +
      controllers.reduce((sum, c) => sum + c.values.length, 0);
    const before = sizeBefore();
    for (let i = 0; i < n; i++) for (let at = 0; at < slots[i].values.length; at++) partIndex(i, at);
    model.actions.forEach((action, a) => {
      if (action.type === 'wide') return;
      if (action.type === 'local') {
        const i = action.i;
        const k = action.controller;
        const ctlValues = k < 0 ? [0] : [...controllers[k].values];
        const nsCount = slots[i].values.length;
        for (let at = 0; at < nsCount; at++) {
          const id = slots[i].values[at];
          for (const tuple of tuplesWith(i, partIndex(i, at)))
            for (let g = 0; g < globals.length; g++)
              for (const ctl of ctlValues) {
                const key = `${at}|${tuple.join('.')}|${g}|${ctl}`;
                if (localDone[a].has(key)) continue;
                const s = stateFor(g, tuple, i, id, k, ctl);
                const outcomes: LocalOutcome[] = [];
                for (const { event, next } of run(a, s)) {
                  const bad = stepBad(s, [{ event, next }]);
                  codec.encode(next, written, 0);
                  if (outside(3 + i, 3 + i, -1))
                    throw new FootprintError(
                      `action ${a} (local, slot ${i}) wrote outside its namespace: it cannot be tabulated`,
                    );
                  const to = written[3 + i];
                  if (to !== id) slots[i].add(to);
                  outcomes.push({ event: eventId(event), next: to === id ? -1 : to, bad });
                }
                localDone[a].set(key, outcomes);
              }
        }
        return;
      }
      if (action.footprint !== 'none') return;
      const k = action.controller;
      const ctlValues = k < 0 ? [0] : [...controllers[k].values];
      const extra = k < 0 ? -1 : 3 + n + k;
      for (const tuple of tuplesWith(-1, 0))
        for (let g = 0; g < globals.length; g++)
          for (const ctl of ctlValues) {
            const key = `${tuple.join('.')}|${g}|${ctl}`;
            if (globalDone[a].has(key)) continue;
            const s = stateFor(g, tuple, -1, 0, k, ctl);
            const outcomes: GlobalOutcome[] = [];
            for (const { event, next } of run(a, s)) {
              const bad = stepBad(s, [{ event, next }]);
              codec.encode(next, written, 0);
              if (outside(0, 2, extra))
                throw new FootprintError(
                  `action ${a} (global) wrote outside the global lanes: it cannot be tabulated`,
                );
              const to = addGlobal([written[0], written[1], written[2]]);
              const c = k < 0 ? 0 : written[extra];
              if (k >= 0) controllers[k].add(c);
              outcomes.push({ event: eventId(event), global: to, controller: c, bad });
            }
            globalDone[a].set(key, outcomes);
          }
    });
    // The clock and the restart: per namespace state alone, and per global lanes alone.
    for (let i = 0; i < n; i++)
      for (let at = 0; at < slots[i].values.length; at++) {
        const ns = model.namespaceStateById(slots[i].values[at]);
        if (!blocksTime(model, ns)) slots[i].add(clockSlot(model, ns).next.id);
        const restart = restartSlot(model, ns);
        if (restart.running) slots[i].add(restart.lost.id);
      }
    for (let g = 0; g < globals.length; g++) {
      if (clockDone.has(g)) continue;
      const s = stateFor(
        g,
        initial.slice(3, 3 + n).map(() => 0),
        -1,
        0,
        -1,
        0,
      );
      const to = addGlobal([clockGlobal(model, s).configSync, globals[g][1], globals[g][2]]);
      clockDone.set(g, to);
    }
    grew = sizeBefore() > before;
  }
  for (let i = 0; i < n; i++) for (let at = 0; at < slots[i].values.length; at++) partIndex(i, at);

  // Dense tables over the final projections, over only the coordinates an action's outcomes vary with.
  const tupleCount = parts.reduce((product, p) => product * p.values.length, 1);
  const signature = (outcomes: readonly (LocalOutcome | GlobalOutcome)[] | undefined): string =>
    outcomes === undefined ? '?' : JSON.stringify(outcomes);
  const actions: TabledAction[] = model.actions.map((action, a): TabledAction => {
    if (action.type === 'wide') return { type: 'wide' };
    if (action.type === 'global' && action.footprint !== 'none')
      return {
        type: 'global',
        footprint: action.footprint,
        controller: -1,
        layout: noLayout(n),
        outcomes: [],
      };
    const local = action.type === 'local';
    const i = local ? action.i : -1;
    const k = action.controller;
    // Coordinates: 0 the namespace (local only), 1 the global row, 2 + j slot j's RBAC part, 2 + n the controller.
    const sizes = [
      local ? slots[i].values.length : 1,
      globals.length,
      ...parts.map((p, j) => (j === i ? 1 : p.values.length)),
      k < 0 ? 1 : controllers[k].values.length,
    ];
    const at = (point: readonly number[]) => {
      const tuple = point.slice(2, 2 + n);
      if (local) tuple[i] = partOf[i][point[0]];
      const ctl = k < 0 ? 0 : controllers[k].values[point[2 + n]];
      return local
        ? localDone[a].get(`${point[0]}|${tuple.join('.')}|${point[1]}|${ctl}`)
        : globalDone[a].get(`${tuple.join('.')}|${point[1]}|${ctl}`);
    };
    const points = everyPoint(sizes);
    const signatures = new Map(points.map((point) => [point.join(','), signature(at(point))]));
    const varies = sizes.map((size, d) =>
      d === 0
        ? size > 1
        : size > 1 &&
          points.some((point) => {
            if (point[d] === 0) return false;
            const base = point.slice();
            base[d] = 0;
            return signatures.get(point.join(',')) !== signatures.get(base.join(','));
          }),
    );
    const strides = sizes.map(() => 0);
    let stride = 1;
    for (let d = sizes.length - 1; d >= 0; d--)
      if (varies[d]) {
        strides[d] = stride;
        stride *= sizes[d];
      }
    const outcomes: (LocalOutcome | GlobalOutcome)[][] = new Array(stride);
    for (const point of points) {
      if (point.some((coordinate, d) => !varies[d] && coordinate !== 0)) continue;
      const value = at(point);
      if (value === undefined) throw new Error(`action ${a}: the fixpoint left an entry unfilled`);
      outcomes[point.reduce((index, coordinate, d) => index + coordinate * strides[d], 0)] = value;
    }
    const layout: Layout = {
      namespace: strides[0],
      global: strides[1],
      parts: strides.slice(2, 2 + n),
      controller: strides[2 + n],
    };
    return local
      ? { type: 'local', slot: i, controller: k, layout, outcomes: outcomes as LocalOutcome[][] }
      : {
          type: 'global',
          footprint: 'none',
          controller: k,
          layout,
          outcomes: outcomes as GlobalOutcome[][],
        };
  });

  const nsIndex = (i: number, id: number): number => slots[i].get(id) ?? -1;
  const clockNext = slots.map((ids, i) =>
    ids.values.map((id) => {
      const ns = model.namespaceStateById(id);
      return blocksTime(model, ns) ? -1 : nsIndex(i, clockSlot(model, ns).next.id);
    }),
  );
  const restartRunning = slots.map((ids) =>
    ids.values.map((id) => restartSlot(model, model.namespaceStateById(id)).running),
  );
  const restartNext = slots.map((ids, i) =>
    ids.values.map((id) => nsIndex(i, restartSlot(model, model.namespaceStateById(id)).lost.id)),
  );
  const zero = initial.slice(3, 3 + n).map(() => 0);
  const restartLoses = globals.map((_, g) => restartGlobal(model, stateFor(g, zero, -1, 0, -1, 0)).loses);
  const clockGlobalNext = globals.map((_, g) => clockDone.get(g) ?? -1);

  // The judgements per slot alone: every invariant on each state, each list, clock and restart step from it.
  const slotJudged = model.actions.flatMap((action, a) =>
    action.type === 'wide' || (action.type === 'global' && action.footprint !== 'none') ? [a] : [],
  );
  const alone = (g: number, i: number, id: number): SystemState => {
    for (let lane = 0; lane < width; lane++) lanes[lane] = initial[lane];
    lanes[0] = globals[g][0];
    lanes[1] = globals[g][1];
    lanes[2] = globals[g][2];
    lanes[3 + i] = id;
    return codec.decode(lanes, 0);
  };
  const invariants: number[][] = slots.map(() => []);
  const steps: number[][][] = slotJudged.map(() => slots.map(() => []));
  const slotEvents = slotJudged.map(() => new Map<string, SystemEvent>());
  const classKey = (e: SystemEvent) =>
    JSON.stringify([
      e.actorKind,
      e.actor,
      e.namespace,
      e.request?.verb,
      e.request?.target,
      e.request?.subresource,
    ]);
  for (let i = 0; i < n; i++)
    for (let at = 0; at < slots[i].values.length; at++)
      for (let g = 0; g < globals.length; g++) {
        const s = alone(g, i, slots[i].values[at]);
        const bad: number[] = [];
        properties.forEach((p, b) => {
          if (p.kind === 'invariant' && p.predicate(model, s) !== true) bad.push(b);
        });
        invariants[i][at * globals.length + g] = maskId(bad);
        slotJudged.forEach((a, x) => {
          const out = run(a, s);
          for (const { event } of out)
            if (!slotEvents[x].has(classKey(event))) slotEvents[x].set(classKey(event), event);
          steps[x][i][at * globals.length + g] = stepBad(s, out);
        });
      }

  return {
    model,
    width,
    namespaces: n,
    initializers: inits,
    initial,
    globals,
    slotIds: slots.map((s) => s.values),
    controllerIds: controllers.map((c) => c.values),
    partOf,
    parts: parts.map((p) => p.values),
    tuples: tupleCount,
    actions,
    clockNext,
    clockGlobal: clockGlobalNext,
    restartRunning,
    restartNext,
    restartLoses,
    events,
    runs,
    properties,
    masks,
    invariants,
    slotJudged,
    steps,
    slotEvents: slotEvents.map((events) => [...events.values()]),
  };
}

/**
 * The state judged for slot i alone: slot i holds namespace `id`, the global lanes are row g, every
 * other slot and controller is as in the initial state.
 */
export function aloneState(
  tables: CompleteTables,
  g: number,
  i: number,
  id: number,
  /** Each controller's snapshot id, when not the initial state's. */
  controllers?: readonly number[],
): SystemState {
  const codec = systemCodec(tables.model);
  const lanes = Uint32Array.from(tables.initial);
  lanes.set(tables.globals[g], 0);
  lanes[3 + i] = id;
  controllers?.forEach((c, k) => {
    lanes[3 + tables.namespaces + k] = c;
  });
  return codec.decode(lanes, 0);
}
