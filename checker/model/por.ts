import type { Enabled, SystemState } from '../../machines/system.ts';
import type { CheckedSystemModel } from './system-model.ts';

/**
 * What partial-order reduction would need to know of the system model, and what it finds: which
 * actions are independent. An ample set at a state may leave out an action only if that action and
 * everything that can run before an ample one commute with the ample actions (SPIN's and Peled's
 * condition C1). Two sources say which actions commute:
 *
 * - **by lanes** (`laneFootprints`): what the compiled tables (checker/model/compiled.ts) key each
 *   action's outcome on and what it may write. Two actions are independent when neither writes a lane
 *   the other reads or writes. This is the only source a reduction may rely on: it holds in every
 *   state, reached or not.
 * - **by trial** (`commutationCensus`): at reached states, whether running a then b ends where b then
 *   a does. It holds only where it was tried, so it never justifies a reduction; it shows how far the
 *   lanes over-approximate, and where actions truly interfere.
 *
 * docs/performance.md (*Partial-order reduction*) reads both on the built-in scopes.
 */

/** The lanes of `systemCodec` an action's outcome may depend on and the lanes it may change. */
export interface LaneFootprint {
  readonly reads: ReadonlySet<number>;
  readonly writes: ReadonlySet<number>;
}

/**
 * Each action's footprint over the state's lanes (0 configuration copy, 1 faults, 2 registered
 * configurations, 3 + i namespace slot i, 3 + n + k initializer controller k), as the compiled tables
 * key and check it: a local action is looked up by its slot, the global lanes, the RoleBindings of every
 * slot (the RBAC context is the tuple of each slot's part) and its controller, and may write only its
 * slot (a step that wrote elsewhere is run every time instead); a list reads every slot and writes
 * nothing; a global action reads and writes the global lanes and its controller, and the clock and the
 * apiserver restart every slot too.
 */
export function laneFootprints(model: CheckedSystemModel): LaneFootprint[] {
  const n = model.scope.namespaces.length;
  const globals = [0, 1, 2];
  const slots = Array.from({ length: n }, (_, i) => 3 + i);
  const controller = (k: number) => (k < 0 ? [] : [3 + n + k]);
  return model.actions.map((a) => {
    if (a.type === 'local')
      return {
        reads: new Set([...globals, ...slots, ...controller(a.controller)]),
        writes: new Set([3 + a.i]),
      };
    if (a.type === 'wide') return { reads: new Set([...globals, ...slots]), writes: new Set<number>() };
    const touched = [...globals, ...controller(a.controller), ...(a.footprint === 'none' ? [] : slots)];
    return { reads: new Set(touched), writes: new Set(touched) };
  });
}

const meets = (a: ReadonlySet<number>, b: ReadonlySet<number>) => [...a].some((lane) => b.has(lane));

/** Dependent by lanes: one writes a lane the other reads or writes. */
export function dependent(a: LaneFootprint, b: LaneFootprint): boolean {
  return meets(a.writes, b.reads) || meets(a.writes, b.writes) || meets(b.writes, a.reads);
}

/** A name for an action's kind, for the census: namespace actions by slot, global ones by what they do. */
export function actionKind(model: CheckedSystemModel, a: number): string {
  const action = model.actions[a];
  if (action.type === 'local') return 'namespace';
  if (action.type === 'wide') return 'list';
  if (action.footprint !== 'none') return action.footprint;
  // The global steps without a footprint: an initializer's crash (it has a controller), the cluster
  // admin's configuration requests, and the configuration read fault.
  if (action.controller >= 0) return 'initializer crash';
  return action.step.name === 'configReadFault' ? 'configuration read fault' : 'configuration change';
}

/** One kind of pair of actions at reached states where both move: how often they commuted. */
export interface Commutation {
  /** `namespace × namespace` (two different slots), or `namespace × KIND` for a global action. */
  pair: string;
  commute: number;
  differ: number;
}

/**
 * At each given state, every pair of an enabled namespace action and another enabled action that is
 * not of the same slot (a list changes nothing and is left out), both changing the state: do a then b
 * and b then a reach the same states? Counted by kind of pair, in order of first appearance.
 */
export function commutationCensus(
  model: CheckedSystemModel,
  states: Iterable<SystemState>,
  /** Only pairs of these kinds (`namespace × KIND`, `KIND` as actionKind names it) are tried; all when absent. */
  kinds?: ReadonlySet<string>,
): Commutation[] {
  const counts = new Map<string, Commutation>();
  const kindOf = model.actions.map((_, b) => actionKind(model, b));
  const tried = kindOf.map((kind) => kinds === undefined || kinds.has(kind));
  // Keys of the states one step from the current state, each computed once for all pairs it is in.
  const keys = new Map<SystemState, string>();
  const keyOf = (state: SystemState) => {
    let key = keys.get(state);
    if (key === undefined) {
      key = model.key(state);
      keys.set(state, key);
    }
    return key;
  };
  const run = (a: number, s: SystemState): Enabled[] => {
    const action = model.actions[a];
    const out: Enabled[] = [];
    if (action.type === 'global') action.step(model, s, out);
    else
      action.step(
        model,
        s,
        action.type === 'local' ? action.k : action.j,
        action.type === 'local' ? action.i : -1,
        out,
      );
    return out;
  };
  /** Where the moves of `second` lead from each of `firsts` (a step that changes nothing is no move). */
  const ends = (firsts: Enabled[], second: number) =>
    firsts
      .flatMap((first) => {
        const from = keyOf(first.next);
        return run(second, first.next)
          .map((e) => model.key(e.next))
          .filter((to) => to !== from);
      })
      .sort()
      .join('\n');
  for (const s of states) {
    keys.clear();
    const key = model.key(s);
    // Firsts are namespace actions; a global action is run only when its pairs are tried.
    const moving = model.actions.map((action, a) =>
      action.type === 'local' || tried[a] ? run(a, s).filter((e) => keyOf(e.next) !== key) : [],
    );
    for (let a = 0; a < moving.length; a++) {
      const first = model.actions[a];
      if (first.type !== 'local' || moving[a].length === 0) continue;
      for (let b = 0; b < moving.length; b++) {
        const second = model.actions[b];
        if (moving[b].length === 0 || second.type === 'wide' || !tried[b]) continue;
        if (second.type === 'local' && (second.i === first.i || b < a)) continue;
        const pair = `namespace × ${kindOf[b]}`;
        const count = counts.get(pair) ?? { pair, commute: 0, differ: 0 };
        if (ends(moving[a], b) === ends(moving[b], a)) count.commute++;
        else count.differ++;
        counts.set(pair, count);
      }
    }
  }
  return [...counts.values()];
}
