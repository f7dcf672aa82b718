import { ListedOutcomeMemo, PackedOutcomeMemo, ValueInterner } from './outcome-memo.ts';

/** One request performed: its event and the state after it. */
export interface Performed<S, E> {
  event: E;
  next: S;
}

/**
 * What a model's requests read and write, as the model states it: a request into one namespace reads
 * that namespace and a few global numbers and writes only that namespace; a request on the global part
 * reads and writes global fields only. The memo below is keyed by exactly these reads.
 */
export interface RequestFootprint<S, N, G> {
  /** The bound in bits of each number `namespacedReads` gives; a read past its bound is not remembered. */
  namespacedBits: readonly number[];
  /** The numbers a request into namespace `ns` reads: the namespace's interned state, then global numbers. */
  namespacedReads(s: S, ns: number): readonly number[];
  namespaceOf(s: S, ns: number): N;
  withNamespace(s: S, ns: number, state: N): S;
  /** The numbers a request on the global part reads. */
  globalReads(s: S): readonly number[];
  globalsOf(s: S): G;
  withGlobals(s: S, globals: G): S;
  /** The request wrote global fields only (so its outcome may be remembered as globals). */
  wroteOnlyGlobals(before: S, after: S): boolean;
}

/**
 * The outcomes of a model's requests, remembered under what each reads (its footprint): a request is
 * interned by all it holds, and performed again only when something it reads differs.
 */
export class RequestOutcomes<S, E, N, G> {
  private readonly ids = new ValueInterner();
  private readonly namespaced: PackedOutcomeMemo<{ event: E; namespace: N | null }>;
  private readonly global = new ListedOutcomeMemo<{ event: E; globals: G | null }>();

  constructor(private readonly footprint: RequestFootprint<S, N, G>) {
    this.namespaced = new PackedOutcomeMemo(footprint.namespacedBits);
  }

  /** The id a request's outcomes are remembered under: equal requests (canonical JSON) share it. */
  id(request: unknown): number {
    return this.ids.id(request);
  }

  /** Request `id` into namespace `ns`: remembered by the namespace's state and the globals it reads. */
  inNamespace(s: S, ns: number, id: number, perform: () => Performed<S, E>): Performed<S, E> {
    const f = this.footprint;
    const key = this.namespaced.key(f.namespacedReads(s, ns));
    const known = this.namespaced.get(id, key);
    if (known)
      return { event: known.event, next: known.namespace ? f.withNamespace(s, ns, known.namespace) : s };
    const performed = perform();
    const changed = performed.next !== s;
    this.namespaced.set(id, key, {
      event: performed.event,
      namespace: changed ? f.namespaceOf(performed.next, ns) : null,
    });
    return performed;
  }

  /** Request `id` on the global part; one that wrote anything else is not remembered. */
  onGlobals(s: S, id: number, perform: () => Performed<S, E>): Performed<S, E> {
    const f = this.footprint;
    const key = this.global.key(id, f.globalReads(s));
    const known = this.global.get(key);
    if (known) return { event: known.event, next: known.globals ? f.withGlobals(s, known.globals) : s };
    const performed = perform();
    const { next } = performed;
    if (f.wroteOnlyGlobals(s, next))
      this.global.set(key, { event: performed.event, globals: next === s ? null : f.globalsOf(next) });
    return performed;
  }
}
