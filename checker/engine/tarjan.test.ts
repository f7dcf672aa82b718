import { describe, expect, it } from 'vitest';
import type { SuccessorWalk } from './liveness.ts';
import { TarjanScratch, tarjan, tarjanComponents } from './tarjan.ts';

/**
 * A small graph written out by hand: [event, target] per edge, by source. Events 0 to 2 are fairness
 * classes 1, 2 and 4; event 3 belongs to none.
 *   0 -> 1 (event 3), 0 -> 0 (event 0: a self-loop of class 1)
 *   1 -> 0 (event 3), 1 -> 2 (event 3)
 *   2 -> 2 (event 1: a self-loop of class 2), 2 -> 3 (event 2)
 *   3 -> 3 (event 3: a self-loop of no class)
 * Components: {0, 1} taking class 1 (only on 0's self-loop), {2} taking class 2 (only on its self-loop),
 * {3} taking nothing.
 */
const edges: [number, number][][] = [
  [
    [3, 1],
    [0, 0],
  ],
  [
    [3, 0],
    [3, 2],
  ],
  [
    [1, 2],
    [2, 3],
  ],
  [[3, 3]],
];
const eventMask = (event: number) => (event < 3 ? 1 << event : 0);

const walkOf = (keepSelfLoops: boolean): SuccessorWalk<number> => ({
  size: edges.length,
  expanded: edges.length,
  successors: (s, visit) => {
    for (const [event, target] of edges[s]) if (keepSelfLoops || target !== s) visit(event, target);
  },
  events: [0, 1, 2, 3],
});

/** Each state's self-loop classes, as the liveness collector records them during the search. */
const selfMask = (s: number) =>
  edges[s].reduce((m, [event, target]) => (target === s ? m | eventMask(event) : m), 0);

const components = (walk: SuccessorWalk<number>, classes: Parameters<typeof tarjan>[1]) =>
  tarjan(walk, classes, [0], () => true, new TarjanScratch(edges.length))
    .map((c) => ({ states: [...c.states].sort(), taken: c.taken }))
    .sort((a, b) => a.states[0] - b.states[0]);

describe("Tarjan's components and the classes taken inside them", () => {
  it('on every edge: self-loops count as taken inside their state`s component', () => {
    expect(components(walkOf(true), { eventMask })).toEqual([
      { states: [0, 1], taken: 1 },
      { states: [2], taken: 2 },
      { states: [3], taken: 0 },
    ]);
  });

  it('on a walk without self-loops, with their classes given per state: the same components and classes', () => {
    expect(components(walkOf(false), { eventMask, selfMask })).toEqual(
      components(walkOf(true), { eventMask }),
    );
  });

  it('a walk without self-loops and without their classes loses them (what selfMask is for)', () => {
    expect(components(walkOf(false), { eventMask })).toEqual([
      { states: [0, 1], taken: 0 },
      { states: [2], taken: 0 },
      { states: [3], taken: 0 },
    ]);
  });

  it('a self-loop the walk still sends is counted once more, to no effect', () => {
    expect(components(walkOf(true), { eventMask, selfMask })).toEqual(
      components(walkOf(true), { eventMask }),
    );
  });
});

describe("Tarjan's components packed end to end", () => {
  it('give each component its own states and classes, in the order they close (sinks first)', () => {
    const packed = tarjanComponents(
      walkOf(true),
      { eventMask },
      [0],
      () => true,
      new TarjanScratch(edges.length),
    );
    expect(packed.length).toBe(3);
    // A component closes once every component it reaches has: {3}, then {2}, then {0, 1}.
    expect([...packed.statesOf(0)]).toEqual([3]);
    expect([...packed.statesOf(1)]).toEqual([2]);
    expect([...packed.statesOf(2)].sort()).toEqual([0, 1]);
    expect([...packed].map((c) => ({ states: [...c.states].sort(), taken: c.taken }))).toEqual([
      { states: [3], taken: 0 },
      { states: [2], taken: 2 },
      { states: [0, 1], taken: 1 },
    ]);
  });

  it('hold thousands of components past the lists` first capacity, each apart from its neighbours', () => {
    // A chain 0 -> 1 -> ... -> n-1 of single states, every tenth with a self-loop of class 1.
    const n = 5000;
    const chain: SuccessorWalk<number> = {
      size: n,
      expanded: n,
      successors: (s, visit) => {
        if (s % 10 === 0) visit(0, s);
        if (s + 1 < n) visit(3, s + 1);
      },
      events: [0, 1, 2, 3],
    };
    const packed = tarjanComponents(chain, { eventMask }, [0], () => true, new TarjanScratch(n));
    expect(packed.length).toBe(n);
    const seen = [...packed].map((c) => [...c.states, c.taken]);
    // The last state closes first.
    expect(seen).toEqual(Array.from({ length: n }, (_, k) => [n - 1 - k, (n - 1 - k) % 10 === 0 ? 1 : 0]));
  });
});

describe("Tarjan's components on moves kept in lists", () => {
  /** A pseudo-random graph of n states (a fixed seed), up to 5 moves a state by events 0 to 3, no self-loops. */
  const randomGraph = (n: number, seed: number): [number, number][][] => {
    let x = seed;
    const next = (below: number) => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return (x >>> 8) % below;
    };
    return Array.from({ length: n }, (_, s) =>
      Array.from({ length: next(6) }, (): [number, number] => [next(4), (s + 1 + next(n - 1)) % n]),
    );
  };
  /**
   * The graph's moves as lists for the states `listed` accepts (the walk expands the others): per state its
   * first word, each word its target above 2 bits of its event.
   */
  /** The walk that expands every state of `graph` by its moves. */
  const walkOf = (graph: [number, number][][]): SuccessorWalk<number> => ({
    size: graph.length,
    expanded: graph.length,
    successors: (s, visit) => {
      for (const [event, target] of graph[s]) visit(event, target);
    },
    events: [0, 1, 2, 3],
  });

  const listsOf = (graph: [number, number][][], listed: (s: number) => boolean) => {
    const first = [0];
    const words: number[] = [];
    for (const [s, moves] of graph.entries()) {
      if (listed(s)) for (const [event, target] of moves) words.push(target * 4 + event);
      first.push(words.length);
    }
    return { eventBits: 2, listed, first: (s: number) => first[s], word: (k: number) => words[k] };
  };

  it('finds the same components, in the same order, with the same classes as the walk it stands for', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const graph = randomGraph(300, seed);
      const walk = walkOf(graph);
      // Every state but those a multiple of 7 (the seed's offset), from three roots.
      const inside = (s: number) => (s + seed) % 7 !== 0;
      const roots = [0, 150, 299];
      const classes = { eventMask, selfMask: (s: number) => (s % 5 === 0 ? 4 : 0) };
      const scratch = new TarjanScratch(graph.length);
      const packed = (w: Parameters<typeof tarjanComponents>[0]) =>
        [...tarjanComponents(w, classes, roots, inside, scratch)].map((c) => [...c.states, c.taken]);
      const walked = packed(walk);
      expect(walked.some((c) => c.length > 3)).toBe(true);
      // Every state listed, none, or every third (a walk that both reads lists and expands).
      for (const listed of [() => true, () => false, (s: number) => s % 3 === 0])
        expect(packed({ ...walk, lists: listsOf(graph, listed) })).toEqual(walked);
    }
  });

  it('follows a move it expands to a state past what a word holds beside its event', () => {
    // Lists of 30 event bits leave 2 bits to a target: a packed move to state 4 would name state 0. The
    // walk expands every state (none listed), as it does past the states a search cut short expanded.
    const graph: [number, number][][] = [[[0, 1]], [[0, 4]], [], [], [[0, 0]]];
    const lists = { eventBits: 30, listed: () => false, first: () => 0, word: () => 0 };
    const components = (walk: Parameters<typeof tarjanComponents>[0]) =>
      [...tarjanComponents(walk, { eventMask }, [0], () => true, new TarjanScratch(5))].map((c) => [
        ...c.states,
      ]);
    expect(components({ ...walkOf(graph), lists })).toEqual(components(walkOf(graph)));
    expect(components({ ...walkOf(graph), lists })).toEqual([[0, 1, 4]]);
  });

  it('stays inside the same states when they are given as bits instead of a test', () => {
    for (const seed of [6, 7, 8]) {
      const graph = randomGraph(300, seed);
      const walk = walkOf(graph);
      const inside = (s: number) => (s * seed) % 5 !== 0;
      const roots = [0, 7, 150, 299];
      const classes = { eventMask };
      const scratch = new TarjanScratch(graph.length);
      const bits = scratch.emptySet();
      for (let s = 0; s < graph.length; s++) if (inside(s)) bits[s >>> 5] |= 1 << (s & 31);
      const packed = (w: Parameters<typeof tarjanComponents>[0], within: typeof inside | Uint32Array) =>
        [...tarjanComponents(w, classes, roots, within, scratch)].map((c) => [...c.states, c.taken]);
      const tested = packed(walk, inside);
      // Every fifth state lies outside (root 0 among them): none of them is in a component.
      const statesIn = [...tarjanComponents(walk, classes, roots, inside, scratch)].flatMap((c) => [
        ...c.states,
      ]);
      expect(statesIn.length).toBeGreaterThan(100);
      expect(statesIn.some((s) => !inside(s))).toBe(false);
      expect(packed(walk, bits)).toEqual(tested);
      for (const listed of [() => true, (s: number) => s % 3 === 0])
        expect(packed({ ...walk, lists: listsOf(graph, listed) }, bits)).toEqual(tested);
    }
  });
});
