import type { Scope } from '../../machines/scope.ts';
import type { MachineSet } from '../../machines/system.ts';
import { defaultMemoryLimitBytes } from '../engine/explore.ts';
import { compiledFor } from '../model/compiled.ts';
import { exploreCompiled } from '../model/compiled-explore.ts';
import { systemModel } from '../model/system-model.ts';

/**
 * How many states a scope's search will find, estimated before the search from its namespaces one at a
 * time. Namespaces that share nothing but RBAC and the configuration copy are independent components
 * (docs/performance.md, "Namespaces multiply"), so the state space is close to the product of what each
 * namespace adds: with G the states of the scope without any namespace (configurations, faults, clock)
 * and S_i those of the scope with namespace i alone, states ≈ G · Π (S_i / G). Each S_i is a complete
 * search of a one-namespace scope, capped at `projectionCap` states and all of them together at `projectionBudget`; a capped one makes the estimate a
 * lower bound, and says so.
 *
 * Calibrated against the golden counts: exact for admin-finalize (376), quick (9,744), large (298,944)
 * and xl (597,888); default is estimated at 349,160 of its 398,688 (its namespaces team-a and
 * team-b-dev share a tenant whose RoleBindings couple them).
 */

export interface NamespaceFactor {
  name: string;
  /** States of the scope with this namespace alone. */
  states: number;
  /** The one-namespace search stopped at the cap: `states` is a lower bound. */
  capped: boolean;
}

export interface StateEstimate {
  /** Estimated distinct states of the full search (before symmetry reduction). */
  states: number;
  /** True when a one-namespace search was capped: the true count is at least `states`. */
  lowerBound: boolean;
  /** States of the scope with no namespace. */
  global: number;
  namespaces: NamespaceFactor[];
  /** The order of the scope's declared symmetry group (1 without): the search keeps at least states / order orbits. */
  symmetryOrder: number;
}

/** States a one-namespace search explores before the estimate calls it a lower bound. */
export const projectionCap = 100_000;
/** States all the one-namespace searches of one estimate explore together. */
export const projectionBudget = 300_000;

/**
 * What `verify`'s memory guard counts (heap plus array buffers, garbage not yet collected included), as a fixed
 * part and a part per state, from its largest sample every 100 ms of each search (docs/performance.md, *The
 * memory guard's figures by scope*): 45 MB in all for quick (9,744 states), 75 MB for default (398,688), 102 MB
 * for large without symmetry (298,944), 117 MB for xl without (597,888), 332 MB for creators-delete
 * (4,553,728), about 12.3 GiB for wide at 232.7 million states, which then asked 2 GiB more for its table. The
 * fixed part covers the loaded model (21 MB) and the memos of each; 72 B/state covers the 53 to 57 B/state of
 * the larger ones and the table's growth.
 */
export const fixedGuardBytes = 80 * 1024 * 1024;
export const bytesPerState = 72;

function statesOf(
  scope: Scope,
  machines: MachineSet | undefined,
  cap: number,
): { states: number; capped: boolean } {
  const model = systemModel(scope, machines);
  const result = exploreCompiled(compiledFor(model), { maxStates: cap });
  return { states: result.states, capped: !result.complete };
}

/** The scope's estimated state count; throws when a one-namespace scope cannot be built (the caller says no estimate). */
export function estimateStates(
  scope: Scope,
  machines?: MachineSet,
  options: { cap?: number; budget?: number; symmetryOrder?: number } = {},
): StateEstimate {
  const cap = options.cap ?? projectionCap;
  const alone = (names: string[]): Scope => ({
    ...scope,
    namespaces: scope.namespaces.filter((n) => names.includes(n.name)),
    // A projection is searched concretely: the symmetry sets name namespaces it may not hold.
    symmetry: undefined,
  });
  // One budget for every projection, so a scope of many rich namespaces is estimated in seconds too.
  let left = options.budget ?? projectionBudget;
  const within = (names: string[]) => {
    if (left <= 0) return { states: 0, capped: true };
    const found = statesOf(alone(names), machines, Math.min(cap, left));
    left -= found.states;
    return found;
  };
  const global = within([]);
  const namespaces = scope.namespaces.map((n): NamespaceFactor => {
    const found = within([n.name]);
    // A namespace the budget did not reach counts as adding nothing: the estimate is then a lower bound.
    return { name: n.name, ...(found.states === 0 ? { states: global.states, capped: true } : found) };
  });
  const product = namespaces.reduce((acc, n) => acc * (n.states / global.states), global.states);
  return {
    states: Math.round(product),
    lowerBound: global.capped || namespaces.some((n) => n.capped),
    global: global.states,
    namespaces,
    symmetryOrder: options.symmetryOrder ?? 1,
  };
}

/** What the memory guard counts for a search of `states` states. */
const guardBytesFor = (states: number): number => fixedGuardBytes + states * bytesPerState;

/** The states this process can hold before the search's memory guard stops it (none below the fixed part). */
export function machineCapacity(memoryLimitBytes = defaultMemoryLimitBytes()): number {
  return Math.max(0, Math.floor((memoryLimitBytes - fixedGuardBytes) / bytesPerState));
}

/**
 * The `--max-old-space-size` (MiB, rounded up to a thousand) whose default memory guard holds `states`:
 * the guard is three quarters of that heap once it passes a few hundred MiB (`defaultMemoryLimitBytes`).
 */
export function neededHeapMb(states: number): number {
  return Math.ceil(guardBytesFor(states) / 0.75 / (1024 * 1024) / 1000) * 1000;
}

/**
 * What to give a run refused for `states`: a larger `--max-memory` when the guard was set by it (MiB, rounded
 * up to a hundred), else the `--max-old-space-size` whose default guard holds them.
 */
export function moreMemoryHint(states: number, maxMemoryMb?: number): string {
  if (maxMemoryMb === undefined) return `NODE_OPTIONS=--max-old-space-size=${neededHeapMb(states)}`;
  const guardMb = guardBytesFor(states) / (1024 * 1024);
  return `--max-memory ${Math.ceil(guardMb / 100) * 100}`;
}

/** How many times `states` is what the process holds, or that it holds none. */
export function timesCapacity(states: number, capacity: number): string {
  return capacity > 0
    ? `${(states / capacity).toFixed(1)} times what this process holds`
    : 'more than this process holds (its memory guard is below what the loaded model takes)';
}

const count = (n: number) => new Intl.NumberFormat('en-US').format(n);

/** One line: the estimate, what it rests on, and what the machine holds. */
export function estimateLine(estimate: StateEstimate, capacity: number): string {
  const factors = estimate.namespaces
    .filter((n) => n.states !== estimate.global)
    .map((n) => `${n.name} ×${(n.states / estimate.global).toFixed(1)}${n.capped ? '+' : ''}`);
  const orbits =
    estimate.symmetryOrder > 1
      ? `, at least ${count(Math.ceil(estimate.states / estimate.symmetryOrder))} orbits under its symmetry (order ${estimate.symmetryOrder})`
      : '';
  return `estimated ${estimate.lowerBound ? 'at least ' : '~'}${count(estimate.states)} states${orbits} (${count(estimate.global)} without namespaces${factors.length > 0 ? `, × each namespace alone: ${factors.join(', ')}` : ''}); this process holds about ${count(capacity)} (${bytesPerState} B/state past ${fixedGuardBytes / (1024 * 1024)} MiB)`;
}

/** The states the search must at least keep: the estimate, divided by the symmetry group's order. */
export function leastKept(estimate: StateEstimate): number {
  return Math.ceil(estimate.states / estimate.symmetryOrder);
}
