import { describe, expect, it } from 'vitest';
import { type RequestFootprint, RequestOutcomes } from './request-outcomes.ts';

// A toy model: two namespaces of one number each, and one global number every request reads.
interface Toy {
  namespaces: number[];
  global: number;
}
const footprint: RequestFootprint<Toy, number, number> = {
  namespacedBits: [8, 8],
  namespacedReads: (s, ns) => [s.namespaces[ns], s.global],
  namespaceOf: (s, ns) => s.namespaces[ns],
  withNamespace: (s, ns, state) => ({ ...s, namespaces: s.namespaces.map((v, i) => (i === ns ? state : v)) }),
  globalReads: (s) => [s.global],
  globalsOf: (s) => s.global,
  withGlobals: (s, global) => ({ ...s, global }),
  wroteOnlyGlobals: (before, after) => after.namespaces === before.namespaces,
};

describe('request outcomes remembered under what a request reads', () => {
  it('performs a namespaced request once per distinct reads, and replays the remembered write on another state', () => {
    const outcomes = new RequestOutcomes<Toy, string, number, number>(footprint);
    let performed = 0;
    const increment = (s: Toy) => () => {
      performed++;
      return { event: 'inc', next: footprint.withNamespace(s, 0, s.namespaces[0] + 1) };
    };
    const id = outcomes.id({ verb: 'inc' });
    const a: Toy = { namespaces: [1, 5], global: 0 };
    expect(outcomes.inNamespace(a, 0, id, increment(a)).next.namespaces).toEqual([2, 5]);
    // Same reads (namespace 0 is 1, global 0), another namespace 1: remembered, and namespace 1 kept.
    const b: Toy = { namespaces: [1, 9], global: 0 };
    expect(outcomes.inNamespace(b, 0, id, increment(b)).next.namespaces).toEqual([2, 9]);
    expect(performed).toBe(1);
    // A read differs (the global): performed again.
    const c: Toy = { namespaces: [1, 5], global: 3 };
    outcomes.inNamespace(c, 0, id, increment(c));
    expect(performed).toBe(2);
    // A read past its bound is never remembered.
    const d: Toy = { namespaces: [300, 5], global: 0 };
    outcomes.inNamespace(d, 0, id, increment(d));
    outcomes.inNamespace(d, 0, id, increment(d));
    expect(performed).toBe(4);
    expect(outcomes.id({ verb: 'inc' })).toBe(id);
    expect(outcomes.id({ verb: 'dec' })).not.toBe(id);
  });

  it('remembers a global request only when it wrote global fields alone', () => {
    const outcomes = new RequestOutcomes<Toy, string, number, number>(footprint);
    let performed = 0;
    const s: Toy = { namespaces: [1, 5], global: 0 };
    const writesNamespace = () => {
      performed++;
      return { event: 'w', next: { ...s, namespaces: [0, 0] } };
    };
    outcomes.onGlobals(s, 1, writesNamespace);
    outcomes.onGlobals(s, 1, writesNamespace);
    expect(performed).toBe(2);
    const writesGlobal = () => {
      performed++;
      return { event: 'g', next: { ...s, global: 7 } };
    };
    outcomes.onGlobals(s, 2, writesGlobal);
    expect(outcomes.onGlobals(s, 2, writesGlobal)).toEqual({ event: 'g', next: { ...s, global: 7 } });
    expect(performed).toBe(3);
  });
});
