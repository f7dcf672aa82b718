import { canonicalJson } from '../../machines/stepper.ts';
import type { NamespaceState, SystemEvent, SystemState } from '../../machines/system.ts';
import { factorial, type ScopeSymmetry } from '../cli/scope-symmetry.ts';
import { grown } from '../engine/state-store.ts';
import type { LanesSymmetry } from './compiled-explore.ts';
import { firstNamespaceLane } from './encoding.ts';
import type { CheckedSystemModel } from './system-model.ts';

export { type ScopeSymmetry, scopeSymmetry, symmetryOf } from '../cli/scope-symmetry.ts';

/**
 * Symmetry reduction (TLC's SYMMETRY) for a scope that declares interchangeable namespaces and users.
 *
 * Why it is sound. A permutation of names is a symmetry of the scope when renaming every namespace and
 * user of the scope by it gives the same scope again (the same specs, requests, bindings, content and
 * intent, up to the order of lists that are sets). The system model is a function of the scope that
 * uses names only as identities: it compares them, never orders, parses or measures them, except the
 * few places checked below (name validity, service-account names, the immortal namespaces). So the
 * model of the renamed scope is the model of the scope with namespace slots permuted, and because the
 * renamed scope is the scope, the transition relation commutes with the slot permutation.
 *
 * A state is the configuration copy, the faults, the registered configurations, one entry per namespace
 * slot (lifecycle snapshot, content bits, external bits, timer), and one snapshot per initializer
 * controller. None of these holds a namespace name (pending lists hold initializer names, RoleBindings
 * are content bits), and one user name only: the creator each namespace records (D-34), whose
 * `$creator` bindings name it. A symmetry therefore acts on a state by permuting its namespace slots
 * (alice creates team-a, dave creates team-c: swapping the users swaps the slots) and renaming the
 * recorded creators by the same user permutation.
 *
 * Properties read the state through views and judge them against the scope's intent, which the
 * renaming also preserves, so each verdict is the same on every state of an orbit; the initial state
 * is fixed by the group (its namespaces start alike), so shortest paths to an orbit have one length.
 */

/**
 * The reduction the search applies: each state to the least state of its orbit. States are ordered by
 * their content (snapshot data), never by intern ids, so the representative is the same in every run
 * and every worker whatever order states were met in.
 */
export class StateSymmetry {
  /**
   * The group's elements, identity excluded: `image[j]` is `namespaces[inverse[j]]` with its recorded
   * creator renamed by `users`; `renamed` memoizes that renaming per namespace state id.
   */
  private readonly elements: {
    inverse: number[];
    users: ReadonlyMap<string, string>;
    renamed: Map<number, NamespaceState>;
  }[];
  private readonly rank: string[] = [];

  constructor(
    private readonly model: CheckedSystemModel,
    readonly symmetry: ScopeSymmetry,
  ) {
    this.elements = symmetry.slotPermutations
      .map((p, g) => ({ p, users: new Map(Object.entries(symmetry.userRenamings[g] ?? {})) }))
      .filter(({ p, users }) => users.size > 0 || p.some((to, from) => to !== from))
      .map(({ p, users }) => {
        const inverse = new Array<number>(p.length);
        p.forEach((to, from) => {
          inverse[to] = from;
        });
        return { inverse, users, renamed: new Map() };
      });
    this.imageIds = this.elements.map(() => new Int32Array(0));
    this.sortedSets = this.fullSymmetricSets();
  }

  private fullSymmetricSets(): number[][] | undefined {
    if (this.elements.length === 0 || this.elements.some((e) => e.users.size > 0)) return undefined;
    const slotOf = new Map(this.model.scope.namespaces.map((n, i) => [n.name, i]));
    const sets = this.symmetry.namespaces.map((set) =>
      set.map((name) => slotOf.get(name) ?? -1).sort((a, b) => a - b),
    );
    if (sets.some((set) => set.includes(-1))) return undefined;
    if (sets.reduce((n, set) => n * factorial(set.length), 1) !== this.order) return undefined;
    const count = this.model.scope.namespaces.length;
    this.elements.forEach((e, g) => {
      this.elementByInverse.set(this.inverseCode(e.inverse, count), g + 1);
    });
    return sets;
  }

  /** A slot mapping as one number (base `count` digits), to find the element it is. */
  private inverseCode(inverse: ArrayLike<number>, count: number): number {
    let code = 0;
    for (let j = 0; j < count; j++) code = code * count + inverse[j];
    return code;
  }

  /**
   * When the group is every permutation of each declared namespace set and renames no user, its slots
   * by set: a state's least image is then each set's namespace ids sorted (no element tried), and the
   * orbit's size a multinomial. Undefined for any other group (users renamed with their namespaces).
   */
  private readonly sortedSets: number[][] | undefined;
  /** Under `sortedSets`: each element's number by its slot mapping (`inverse` in base `count`). */
  private readonly elementByInverse = new Map<number, number>();

  /** Elements of the group acting on states (1: no reduction). */
  get order(): number {
    return this.elements.length + 1;
  }

  /** A namespace state with its recorded creator renamed by the element (itself when unmoved). */
  private image(ns: NamespaceState, element: StateSymmetry['elements'][number]): NamespaceState {
    if (element.users.size === 0) return ns;
    let found = element.renamed.get(ns.id);
    if (found) return found;
    const m = this.model;
    const lifecycle = m.namespaceStepper.snapshot(ns.lifecycle);
    const creator = lifecycle.context.creator;
    const to = creator === null ? undefined : element.users.get(creator);
    found =
      to === undefined
        ? ns
        : m.namespaceState(
            m.namespaceStepper.intern(
              m.machines.namespace.resolveState({
                value: lifecycle.value,
                context: { ...lifecycle.context, creator: to },
              }),
            ),
            ns.content,
            ns.external,
            ns.timer,
          );
    element.renamed.set(ns.id, found);
    return found;
  }

  /** A total order on namespace states by what they hold, computed once per interned state. */
  private rankOf(ns: NamespaceState): string {
    let rank = this.rank[ns.id];
    if (rank === undefined) {
      const m = this.model;
      const lifecycle = m.namespaceStepper.snapshot(ns.lifecycle) as { value: unknown; context: unknown };
      const timer = m.timerStepper.snapshot(ns.timer) as { value: unknown; context: unknown };
      rank = canonicalJson([
        lifecycle.value,
        lifecycle.context,
        ns.content,
        ns.external,
        timer.value,
        timer.context,
      ]);
      this.rank[ns.id] = rank;
    }
    return rank;
  }

  /** -1, 0 or 1 as the image under `element` is less than, equal to or greater than `best`. */
  private compareImage(
    namespaces: readonly NamespaceState[],
    element: StateSymmetry['elements'][number],
    best: readonly NamespaceState[],
  ): number {
    for (let j = 0; j < namespaces.length; j++) {
      const a = this.image(namespaces[element.inverse[j]], element);
      const b = best[j];
      if (a === b) continue;
      const x = this.rankOf(a);
      const y = this.rankOf(b);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  }

  /** The least state of the orbit of `s`; `s` itself (same object) when it is already least. */
  canonical = (s: SystemState): SystemState => {
    let best: readonly NamespaceState[] = s.namespaces;
    for (const element of this.elements) {
      if (this.compareImage(s.namespaces, element, best) < 0) best = this.imageOf(s, element);
    }
    return best === s.namespaces ? s : { ...s, namespaces: best as NamespaceState[] };
  };

  private imageOf(s: SystemState, element: StateSymmetry['elements'][number]): NamespaceState[] {
    return element.inverse.map((from) => this.image(s.namespaces[from], element));
  }

  /** The image's namespace id of namespace id `id` under element number g (the identity excluded, from 0), kept once asked. */
  private imageIdAt(id: number, g: number): number {
    const element = this.elements[g];
    if (element.users.size === 0) return id;
    let table = this.imageIds[g];
    if (id < table.length) {
      const known = table[id];
      if (known >= 0) return known;
    } else {
      table = grown(table, id, -1);
      this.imageIds[g] = table;
    }
    const image = this.image(this.model.namespaceStateById(id), element).id;
    table[id] = image;
    return image;
  }
  private readonly imageIds: Int32Array[];

  /** -1, 0 or 1 as namespace id `a` ranks below, with or above `b` (the order `canonical` uses). */
  private compareIds(a: number, b: number): number {
    if (a === b) return 0;
    // b's place may renumber a's when b's rank is new: a's is read after.
    this.placeOf(a);
    const y = this.placeOf(b);
    const x = this.rankPlace[a];
    return x === y ? 0 : x < y ? -1 : 1;
  }

  /**
   * Namespace id `id`'s place among the distinct ranks met so far (`rankOf`'s order, equal ranks one
   * place): comparing two places is comparing their ranks, with no string read per comparison. A new
   * rank is put in its place and those after it move up one, once per distinct namespace state.
   */
  private placeOf(id: number): number {
    if (id < this.rankPlace.length) {
      const known = this.rankPlace[id];
      if (known >= 0) return known;
    } else this.rankPlace = grown(this.rankPlace, id, -1);
    const rank = this.rankOf(this.model.namespaceStateById(id));
    const ranks = this.ranksInOrder;
    let low = 0;
    let high = ranks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (ranks[mid] < rank) low = mid + 1;
      else high = mid;
    }
    if (low < ranks.length && ranks[low] === rank) this.idsByPlace[low].push(id);
    else {
      ranks.splice(low, 0, rank);
      this.idsByPlace.splice(low, 0, [id]);
      for (let place = low + 1; place < this.idsByPlace.length; place++)
        for (const other of this.idsByPlace[place]) this.rankPlace[other] = place;
    }
    this.rankPlace[id] = low;
    return low;
  }
  private rankPlace = new Int32Array(0);
  private readonly ranksInOrder: string[] = [];
  private readonly idsByPlace: number[][] = [];

  /** The group acting on the compiled model's lanes (checker/model/encoding.ts: namespace ids from `firstNamespaceLane`). */
  onLanes(): LanesSymmetry {
    const count = this.model.scope.namespaces.length;
    return {
      canonical: (lanes, out) => this.canonicalLanes(lanes, out, firstNamespaceLane, count),
      orbitSize: (lanes) => this.orbitSizeOfLanes(lanes, firstNamespaceLane, count),
    };
  }

  /**
   * `canonical` on packed lanes (checker/model/encoding.ts: the namespace ids from lane `first`, `count`
   * of them): writes the least image of `lanes` into `out` (lanes outside the namespaces copied), with no
   * object per state, so the compiled search can keep one representative per orbit. The same
   * representative as `canonical` on the decoded state. Returns the element applied (`slotImage`'s numbering).
   */
  canonicalLanes(lanes: Uint32Array, out: Uint32Array, first: number, count: number): number {
    out.set(lanes);
    if (this.sortedSets !== undefined) return this.sortLanes(lanes, out, first, count, this.sortedSets);
    let chosen = 0;
    for (let g = 0; g < this.elements.length; g++) {
      const element = this.elements[g];
      let order = 0;
      for (let j = 0; j < count && order === 0; j++)
        order = this.compareIds(this.imageIdAt(lanes[first + element.inverse[j]], g), out[first + j]);
      if (order < 0) {
        chosen = g + 1;
        for (let j = 0; j < count; j++) out[first + j] = this.imageIdAt(lanes[first + element.inverse[j]], g);
      }
    }
    return chosen;
  }

  /**
   * `canonicalLanes` for a full symmetric group on each set: each set's ids sorted into its slots (insertion
   * sort, stable, so equal namespaces keep their order); returns the element that moves them so.
   */
  private sortLanes(
    lanes: Uint32Array,
    out: Uint32Array,
    first: number,
    count: number,
    sets: readonly number[][],
  ): number {
    const from = this.sortFrom.length >= count ? this.sortFrom : new Int32Array(count);
    this.sortFrom = from;
    for (let j = 0; j < count; j++) from[j] = j;
    let moved = false;
    for (const set of sets)
      for (let k = 1; k < set.length; k++) {
        const source = from[set[k]];
        const id = lanes[first + source];
        let at = k;
        while (at > 0 && this.compareIds(id, lanes[first + from[set[at - 1]]]) < 0) {
          from[set[at]] = from[set[at - 1]];
          at--;
        }
        if (at !== k) {
          from[set[at]] = source;
          moved = true;
        }
      }
    if (!moved) return 0;
    for (let j = 0; j < count; j++) out[first + j] = lanes[first + from[j]];
    const g = this.elementByInverse.get(this.inverseCode(from, count));
    if (g === undefined) throw new Error('symmetry: a sorted image outside the group (internal error)');
    return g;
  }
  private sortFrom = new Int32Array(0);

  /**
   * The group's elements by number, as `canonicalLanes` names the one it applied: 0 is the identity,
   * `g` (1 .. order - 1) the others. `slotImage(g, i)` is the slot where element g moves slot i.
   */
  slotImage(g: number, slot: number): number {
    if (g === 0 || slot < 0) return slot;
    return this.forward(g)[slot];
  }

  /** Element g's slot permutation as `from -> to`. */
  private forward(g: number): number[] {
    let p = this.forwards[g];
    if (p === undefined) {
      const { inverse } = this.elements[g - 1];
      p = new Array<number>(inverse.length);
      inverse.forEach((from, to) => {
        (p as number[])[from] = to;
      });
      this.forwards[g] = p;
    }
    return p;
  }
  private readonly forwards: number[][] = [];

  /** Writes the image of `lanes` under element g into `out` (lanes outside the namespaces copied). */
  applyLanes(g: number, lanes: Uint32Array, out: Uint32Array, first: number, count: number): void {
    out.set(lanes);
    if (g === 0) return;
    const { inverse } = this.elements[g - 1];
    for (let j = 0; j < count; j++) out[first + j] = this.imageIdAt(lanes[first + inverse[j]], g - 1);
  }

  /** The element that applies `b`, then `a` (so `slotImage(compose(a, b), i)` is `slotImage(a, slotImage(b, i))`). */
  compose(a: number, b: number): number {
    if (a === 0) return b;
    if (b === 0) return a;
    const key = a * this.order + b;
    const known = this.composed.get(key);
    if (known !== undefined) return known;
    const n = this.elements[0].inverse.length;
    const userOf = (g: number, u: string) => (g === 0 ? u : (this.elements[g - 1].users.get(u) ?? u));
    const users = new Set<string>();
    for (const e of this.elements) for (const [from, to] of e.users) users.add(from).add(to);
    for (let h = 0; h < this.order; h++) {
      let same = true;
      for (let i = 0; i < n && same; i++)
        same = this.slotImage(h, i) === this.slotImage(a, this.slotImage(b, i));
      for (const u of users) if (same) same = userOf(h, u) === userOf(a, userOf(b, u));
      if (same) {
        this.composed.set(key, h);
        return h;
      }
    }
    throw new Error('symmetry: the declared group is not closed under composition (internal error)');
  }
  private readonly composed = new Map<number, number>();

  /** `orbitSize` on packed lanes: the distinct images of the namespace ids among the group's elements. */
  orbitSizeOfLanes(lanes: Uint32Array, first: number, count: number): number {
    const n = this.elements.length;
    if (n === 0) return 1;
    if (this.sortedSets !== undefined) return this.arrangements(lanes, first, this.sortedSets);
    // Orbit times stabilizer is the group's order: count the elements that fix the lanes (the identity
    // among them), each left at its first slot that moves.
    let fixing = 1;
    for (let g = 0; g < n; g++) {
      const { inverse } = this.elements[g];
      let same = true;
      for (let j = 0; j < count && same; j++)
        same = this.imageIdAt(lanes[first + inverse[j]], g) === lanes[first + j];
      if (same) fixing++;
    }
    return this.order / fixing;
  }

  /** The orbit's size under full symmetric groups: per set, its distinct arrangements (a multinomial). */
  private arrangements(lanes: Uint32Array, first: number, sets: readonly number[][]): number {
    let size = 1;
    for (const set of sets) {
      // n! / (m1! m2! ...) built up one slot at a time: the k-th slot with r earlier equals multiplies by k / (r + 1).
      let ways = 1;
      for (let k = 0; k < set.length; k++) {
        let equal = 0;
        for (let e = 0; e < k; e++) if (lanes[first + set[e]] === lanes[first + set[k]]) equal++;
        ways = (ways * (k + 1)) / (equal + 1);
      }
      size *= Math.round(ways);
    }
    return size;
  }

  /** How many distinct states the orbit of `s` holds: what one canonical state stands for. */
  orbitSize(s: SystemState): number {
    if (this.elements.length === 0) return 1;
    const count = s.namespaces.length;
    if (this.ids.length < count) this.ids = new Uint32Array(count);
    for (let j = 0; j < count; j++) this.ids[j] = s.namespaces[j].id;
    return this.orbitSizeOfLanes(this.ids, 0, count);
  }
  private ids = new Uint32Array(0);
}

/** One line when a liveness property's fairness names an actor of a symmetric set: the reduction may hide its unfair runs. */
export function fairnessWarnings(
  symmetry: ScopeSymmetry,
  properties: readonly { id: string; fairness: readonly { actor?: string }[] }[],
): string[] {
  const members = new Set([...symmetry.users.flat(), ...symmetry.namespaces.flat()]);
  return properties.flatMap((p) =>
    p.fairness
      .filter((f) => f.actor !== undefined && members.has(f.actor))
      .map(
        (f) =>
          `verify: warning: ${p.id} assumes fairness for ${f.actor}, a member of a symmetry set: its verdict under symmetry reduction may not hold for the other members; run with --symmetry off to judge it`,
      ),
  );
}

/** A path: an initial state and each step's event and state (checker/judging/check.ts's Trace). */
interface Path {
  initial: SystemState;
  steps: { event: SystemEvent; state: SystemState }[];
}

/**
 * The concrete path a path through representatives stands for: from the concrete initial state, each
 * step is the first successor (in the model's order) in the orbit of the next representative; the last
 * step must also satisfy `last` (the property it breaks). Symmetry guarantees such a step exists; when
 * none does, the declared symmetry is not one, and the error says so.
 */
export function concreteTrace(
  model: CheckedSystemModel,
  canonical: (s: SystemState) => SystemState,
  path: Path,
  last: (before: SystemState, event: SystemEvent, after: SystemState) => boolean,
): Path {
  const orbitKey = (s: SystemState) => model.key(canonical(s));
  const start = orbitKey(path.initial);
  const initial = model.initialStates().find((s) => orbitKey(s) === start);
  if (initial === undefined)
    throw new Error('symmetry: no initial state in the orbit of the trace’s first state');
  const steps: Path['steps'] = [];
  let current = initial;
  path.steps.forEach((step, n) => {
    const target = orbitKey(step.state);
    const final = n === path.steps.length - 1;
    let found: Path['steps'][number] | undefined;
    model.successors(current, (event, next) => {
      if (found !== undefined || orbitKey(next) !== target) return;
      if (final && !last(current, event, next)) return;
      found = { event, state: next };
    });
    if (found === undefined)
      throw new Error(
        `symmetry: step ${n + 1} of a trace has no concrete counterpart; the scope's symmetry sets are not interchangeable (${model.scope.name})`,
      );
    steps.push(found);
    current = found.state;
  });
  return { initial, steps };
}
