import { describe, expect, it } from 'vitest';
import { growthScope, growthShapes, measureGrowth } from './growth.ts';

describe('growth scopes (docs/performance.md)', () => {
  it('covers each axis from 1 to 4 with the other two at their base', () => {
    const shapes = growthShapes(4);
    expect(shapes).toHaveLength(12);
    expect(shapes.filter((s) => s.axis === 'principals').map((s) => s.shape)).toEqual(
      [1, 2, 3, 4].map((principals) => ({ namespaces: 2, principals, initializers: 1 })),
    );
    const scope = growthScope({ namespaces: 3, principals: 2, initializers: 2 });
    expect(scope.namespaces.map((n) => n.name)).toEqual(['ns-1', 'ns-2', 'ns-3']);
    expect(scope.principals.map((p) => p.name)).toEqual(['alice', 'user-2']);
    expect(scope.configurations[0].initializers.map((i) => i.name)).toEqual([
      'init-1.example.com',
      'init-2.example.com',
    ]);
  });

  it('independent namespaces multiply: each added one multiplies the states by the one-namespace count', () => {
    const one = measureGrowth('namespaces', { namespaces: 1, principals: 1, initializers: 1 }, limits);
    const two = measureGrowth('namespaces', { namespaces: 2, principals: 1, initializers: 1 }, limits);
    expect(one.complete && two.complete).toBe(true);
    expect(one.states).toBeGreaterThan(1);
    expect(two.states).toBe(one.states ** 2);
  });

  it("under the tenants' symmetry, n interchangeable namespaces of L local states give the multisets: C(L + n - 1, n) orbits", () => {
    const one = measureGrowth('namespaces', { namespaces: 1, principals: 1, initializers: 1 }, limits);
    const local = one.states;
    const three = measureGrowth('namespaces', { namespaces: 3, principals: 1, initializers: 1 }, limits);
    expect(three.reduced).toMatchObject({
      order: 6,
      complete: true,
      // Each orbit is a multiset of three local states; together they stand for every state.
      orbits: ((local + 2) * (local + 1) * local) / 6,
      represents: local ** 3,
    });
    expect(three.states).toBe(local ** 3);
  });
});

const limits = { maxSeconds: 60, maxStates: 100_000 };
