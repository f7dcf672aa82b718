/**
 * A state whose namespace-like slots are interned records (each with its own id), and whose other fields
 * are numbers or arrays of numbers: the global lanes. What the system state looks like, to the engine.
 */
export interface SlottedState<N extends { id: number }> {
  readonly namespaces: readonly N[];
}

/** One step: its event and the state it leads to. */
export interface Step<E, S> {
  event: E;
  next: S;
}

/** One remembered step of a local action: its event and the slot's state it leaves (null: unchanged). */
interface LocalStep<E, N> {
  event: E;
  namespace: N | null;
}

/** A local action's step code: what actor k does to slot i in state s, pushed onto out. */
export type LocalAction<M, S, E> = (m: M, s: S, k: number, i: number, out: Step<E, S>[]) => void;

/** What the tables need of the model they wrap. */
export interface TabledModel<S, N> {
  /** s with slot i replaced by ns (everything else as it was). */
  withNamespaceState(s: S, i: number, ns: N): S;
}

/** A slot whose step once wrote outside its namespace: it is always computed, never looked up. */
const computeAlways: readonly LocalStep<never, never>[] = Object.freeze([]);
/** Most local actions do nothing in most states: they share one empty list. */
const noSteps: readonly LocalStep<never, never>[] = Object.freeze([]);

/** One action of a model's `Next` as the tables run it: on one slot, across every slot (a list), or global. */
export type TabledAction<M, S, E> =
  | { type: 'local'; kind: number; k: number; i: number; controller: number; step: LocalAction<M, S, E> }
  | { type: 'wide'; j: number; step: LocalAction<M, S, E> }
  | { type: 'global'; step: (m: M, s: S, out: Step<E, S>[]) => void };

/**
 * Outcome tables for local actions, filled by running the machines' own step code the first time and
 * looked up after: per (action, actor, namespace slot), a map from (the namespace's interned state,
 * the interned global context) to the steps taken. The global context is every field of the state but
 * the namespaces and the controllers' snapshots (an initializer's own is added for its action), plus the
 * RBAC objects all namespaces hold (the one thing a request reads from other namespaces); a step that
 * writes anything besides its own namespace is never memoized.
 */
export class StepTables<M extends TabledModel<S, N>, S extends SlottedState<N>, N extends { id: number }, E> {
  /** Per slot, per namespace state id: the steps by context id (small integer keys, so lookups stay fast). */
  private readonly tables: Map<number, readonly LocalStep<E, N>[]>[][] = [];
  private readonly contextIds = new Map<string, number>();
  /** Per command that reads every namespace: its steps by wide context (see wideContext). */
  private readonly wideTables: Map<string, readonly LocalStep<E, N>[]>[] = [];
  private readonly bases: number[] = [];
  /** Off, every step is computed (tests compare both paths). */
  enabled = true;
  hits = 0;
  misses = 0;

  /** `actors[kind]`: how many actors of that kind there are; `namespaces`: slots per actor. */
  constructor(
    private readonly model: M,
    actors: readonly number[],
    private readonly namespaces: number,
    /** The cross-namespace part of what a local step reads (the RoleBindings mask). */
    private readonly crossNamespace: (s: S) => number,
    /**
     * The fields besides `namespaces` that are no part of the global context: the controllers' own
     * snapshots, each keyed by the action that reads it (`withController`).
     */
    private readonly ownFields: readonly string[],
    /** What a command across every slot reads of one slot (see wideContext). */
    private readonly listView: (ns: N) => string,
  ) {
    let base = 0;
    for (const count of actors) {
      this.bases.push(base);
      base += count * namespaces;
    }
    for (let slot = 0; slot < base; slot++) this.tables.push([]);
  }

  /** The interned id of everything a local step may read besides its own namespace and the controllers. */
  context(s: S): number {
    return this.intern(`${globalKey(s, this.ownFields)}|${this.crossNamespace(s)}`);
  }

  /** The context of a step that also reads its own controller's snapshot (an initializer's). */
  withController(context: number, controller: number): number {
    return this.intern(`${context}+${controller}`);
  }

  private intern(key: string): number {
    let id = this.contextIds.get(key);
    if (id === undefined) {
      id = this.contextIds.size;
      this.contextIds.set(key, id);
    }
    return id;
  }

  /**
   * The context of a request across every namespace (a list): the global context and what the model says
   * such a request reads of each namespace (`listView`), not its timers or external content.
   */
  wideContext(s: S, context: number): string {
    let key = `${context}`;
    for (const ns of s.namespaces) key += `|${this.listView(ns)}`;
    return key;
  }

  /** Runs command j, which reads every namespace, from its table when the wide context is known. */
  runWide(j: number, s: S, wide: string, action: LocalAction<M, S, E>, out: Step<E, S>[]): void {
    if (!this.enabled) {
      action(this.model, s, j, -1, out);
      return;
    }
    let table = this.wideTables[j];
    if (table === undefined) {
      table = new Map();
      this.wideTables[j] = table;
    }
    const known = table.get(wide);
    if (known !== undefined && known !== computeAlways) {
      this.hits++;
      for (const step of known) out.push({ event: step.event, next: s });
      return;
    }
    const from = out.length;
    action(this.model, s, j, -1, out);
    if (known === computeAlways) return;
    this.misses++;
    // Only steps that change nothing are remembered: the table keeps no state.
    let unchanged = true;
    for (let at = from; at < out.length; at++) unchanged &&= out[at].next === s;
    table.set(
      wide,
      unchanged ? out.slice(from).map(({ event }) => ({ event, namespace: null })) : computeAlways,
    );
  }

  /**
   * Every step of `actions` from s, in their order (determinism): global actions run as written, local
   * and list actions from the tables. `controllers` are the controllers' snapshots a local action may read.
   */
  enabledSteps(
    actions: readonly TabledAction<M, S, E>[],
    s: S,
    controllers: readonly number[],
    out: Step<E, S>[],
  ): void {
    const context = this.context(s);
    let wide: string | undefined;
    for (const a of actions) {
      if (a.type === 'global') a.step(this.model, s, out);
      else if (a.type === 'wide') {
        wide ??= this.wideContext(s, context);
        this.runWide(a.j, s, wide, a.step, out);
      } else {
        const own = a.controller < 0 ? context : this.withController(context, controllers[a.controller]);
        this.run(a.kind, a.k, a.i, s, own, a.step, out);
      }
    }
  }

  /** Runs actor k's local action on slot i in s (context id `context`), from the table when it is known. */
  run(
    kind: number,
    k: number,
    i: number,
    s: S,
    context: number,
    action: LocalAction<M, S, E>,
    out: Step<E, S>[],
  ): void {
    const ns = s.namespaces[i];
    if (!this.enabled) {
      action(this.model, s, k, i, out);
      return;
    }
    const byNamespace = this.tables[this.bases[kind] + k * this.namespaces + i];
    let table = byNamespace[ns.id];
    if (table === undefined) {
      table = new Map();
      byNamespace[ns.id] = table;
    }
    const known = table.get(context);
    if (known !== undefined && known !== computeAlways) {
      this.hits++;
      for (const step of known)
        out.push({
          event: step.event,
          next: step.namespace === null ? s : this.model.withNamespaceState(s, i, step.namespace),
        });
      return;
    }
    const from = out.length;
    action(this.model, s, k, i, out);
    if (known === computeAlways) return;
    this.misses++;
    table.set(context, this.remember(s, i, out, from));
  }

  /** The steps pushed since `from`, or computeAlways when one of them wrote outside namespace slot i. */
  private remember(s: S, i: number, out: readonly Step<E, S>[], from: number): readonly LocalStep<E, N>[] {
    const steps: LocalStep<E, N>[] = [];
    for (let j = from; j < out.length; j++) {
      const { event, next } = out[j];
      if (next === s) {
        steps.push({ event, namespace: null });
        continue;
      }
      const local =
        next.namespaces.length === s.namespaces.length &&
        next.namespaces.every((ns, at) => at === i || ns === s.namespaces[at]) &&
        sameGlobals(s, next);
      if (!local) return computeAlways;
      steps.push({ event, namespace: next.namespaces[i] });
    }
    return steps.length === 0 ? noSteps : steps;
  }
}

/**
 * Every field of the state but its namespaces and the initializer controllers' snapshots, whatever fields
 * the state has (so fields added later are keyed too). A controller's snapshot is read only by its own
 * actions: the initializer's are keyed with it (`withController`), the crash steps are not memoized.
 */
function globalKey(s: object, ownFields: readonly string[]): string {
  let key = '';
  for (const [name, value] of Object.entries(s)) {
    if (name === 'namespaces' || ownFields.includes(name)) continue;
    key += `${name}=${typeof value === 'number' ? value : JSON.stringify(value)};`;
  }
  return key;
}

/** The two states agree on every field but their namespaces (numbers, or arrays of numbers, compared by value). */
function sameGlobals(a: object, b: object): boolean {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  for (const name of names) {
    if (name === 'namespaces') continue;
    const x: unknown = (a as Record<string, unknown>)[name];
    const y: unknown = (b as Record<string, unknown>)[name];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, k) => v !== y[k]))
      return false;
  }
  return true;
}
