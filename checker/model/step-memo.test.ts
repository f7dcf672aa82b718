import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import { safetyProperties } from '../../properties/safety.ts';
import type { Property } from '../../properties/types.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { type CheckOptions, type CheckResult, check } from '../judging/check.ts';
import { firstNamespaceLane, systemCodec } from './encoding.ts';
import {
  Memo,
  MemoTable,
  PackedMemoTable,
  type StepJudgement,
  StepMemo,
  TripleIds,
  TupleIds,
} from './step-memo.ts';
import type { CheckedSystemModel } from './system-model.ts';

const scope = scopeByName('quick');

/** What a reader of the report sees of a run: every verdict, witness count, message and trace length. */
const verdicts = (r: CheckResult) => ({
  states: r.states,
  transitions: r.transitions,
  covered: r.coverage.covered.length,
  properties: r.properties.map((p) => ({
    id: p.property.id,
    status: p.status,
    witnesses: p.witnesses,
    message: p.violation?.message,
    trace: p.violation?.trace.steps.map((s) => s.event.label),
  })),
});

/** The same search judged once per step class and judged on every edge. */
function bothWays(model: CheckedSystemModel, properties: Property[], options: CheckOptions = {}) {
  return {
    remembered: verdicts(check(model, properties, options)),
    everyEdge: verdicts(check(model, properties, { ...options, memo: false })),
  };
}

describe('step judgements remembered per step class', () => {
  it('give the model the verdicts, witness counts and traces of judging every edge', () => {
    const { remembered, everyEdge } = bothWays(variantModel('model', scope), safetyProperties, {
      maxStates: 2_500,
    });
    expect(remembered.properties.some((p) => p.witnesses > 1_000)).toBe(true);
    expect(remembered).toEqual(everyEdge);
  });

  it.each(['initialize-check-skipped', 'configuration-copy-never-updated', 'timer-ignores-timeout'])(
    'find seeded fault %s with the same first violations and shortest traces',
    (variant) => {
      const { remembered, everyEdge } = bothWays(variantModel(variant, scope), safetyProperties, {
        stopOnFirst: true,
      });
      expect(remembered.properties.some((p) => p.status === 'violated')).toBe(true);
      expect(remembered).toEqual(everyEdge);
    },
  );

  it('judge anew, every time, a property that reads a namespace the step neither changed nor addressed', () => {
    const model = variantModel('model', scope);
    const teamB = scope.namespaces.findIndex((ns) => ns.name === 'team-b');
    // Holds or not depending on team-b whatever the step: a class keyed by the step alone cannot fix it.
    const readsTeamB: Property = {
      id: 'reads-team-b',
      statement: 'a step taken while team-b holds no content',
      requirements: [],
      kind: 'step',
      predicate: () => true,
      witness: {
        on: 'step',
        description: 'team-b holds content before the step',
        test: (m, before) => m.view(before, teamB).content !== 0,
      },
    };
    const readsEveryNamespace: Property = {
      ...readsTeamB,
      id: 'reads-every-namespace',
      witness: {
        on: 'step',
        description: 'some namespace is initializing before the step',
        test: (m, before) => m.views(before).some((v) => v.value === 'initializing'),
      },
    };
    const { remembered, everyEdge } = bothWays(model, [readsTeamB, readsEveryNamespace], {
      maxStates: 1_500,
    });
    const witnesses = remembered.properties.map((p) => p.witnesses);
    expect(witnesses.every((n) => n > 0 && n < remembered.transitions)).toBe(true);
    expect(remembered).toEqual(everyEdge);
  });

  it('key a judgement that reads other namespace slots by every slot before and after, and nothing coarser', () => {
    // The default scope: two namespaces initialize at once (in quick, team-b never moves).
    const wider = scopeByName('default');
    const model = variantModel('model', wider);
    const teamA = wider.namespaces.findIndex((ns) => ns.name === 'team-a');
    const step = (id: string, test: Extract<Property['witness'], { on: 'step' }>['test']): Property => ({
      id,
      statement: id,
      requirements: [],
      kind: 'step',
      predicate: () => true,
      witness: { on: 'step', description: id, test },
    });
    const initializing = (v: { value: string }) => v.value === 'initializing';
    const properties = [
      // Reads team-a before and after the step, also when the step neither moves nor addresses it.
      step('team-a-content-moves', (m, b, _e, a) => m.view(a, teamA).content !== m.view(b, teamA).content),
      // Reads every slot after the step: one that moves a namespace and one that does not are other classes.
      step('a-namespace-initializing-after', (m, _b, _e, a) => m.views(a).some(initializing)),
      // Reads the slots and the configuration copy: neither the slots nor the outside lanes alone fix it.
      step(
        'a-namespace-initializing-with-a-copy-read',
        (m, b) => m.views(b).some(initializing) && m.secondsSinceConfigRead(b) > 0,
      ),
      // Invariants and state witnesses: the slots of the state alone, then with the configuration copy.
      ...[
        (m: SystemModel, s: SystemState) => m.view(s, teamA).content !== 0 && m.views(s).some(initializing),
        (m: SystemModel, s: SystemState) => m.views(s).some(initializing) && m.secondsSinceConfigRead(s) > 0,
      ].map(
        (test, k): Property => ({
          id: `state-${k}`,
          statement: 'at most one namespace initializes at a time',
          requirements: [],
          kind: 'invariant',
          predicate: (m, s) => m.views(s).filter(initializing).length < 2 || 'two namespaces initialize',
          witness: { on: 'state', description: `state witness ${k}`, test },
        }),
      ),
    ];
    const { remembered, everyEdge } = bothWays(model, properties, { maxStates: 6_000 });
    const witnesses = remembered.properties.map((p) => p.witnesses);
    expect(witnesses.every((n) => n > 0 && n < remembered.transitions)).toBe(true);
    expect(remembered).toEqual(everyEdge);
  });

  it.each(['initialize-check-skipped', 'configuration-copy-never-updated'])(
    'judge the whole search of seeded fault %s as judging every edge does, witnesses of every property included',
    (variant) => {
      const { remembered, everyEdge } = bothWays(variantModel(variant, scope), safetyProperties);
      expect(remembered.properties.some((p) => p.status === 'violated')).toBe(true);
      expect(remembered).toEqual(everyEdge);
    },
  );
});

/** Lanes of `model`'s states with namespace slot 0 at `slot0` and the configuration copy (lane 0) at `config`. */
function lanesOf(model: CheckedSystemModel): (slot0: number, config?: number) => Uint32Array {
  const { width } = systemCodec(model);
  return (slot0, config = 0) => {
    const out = new Uint32Array(width);
    out[0] = config;
    out[firstNamespaceLane] = slot0;
    return out;
  };
}

describe('steps whose open judgements the tables answered', () => {
  const model = variantModel('model', scope);
  const lanes = lanesOf(model);

  it('count the witnesses filed for the same local class and lanes outside the slots, and no other', () => {
    const memo = new StepMemo(model, 3, 1);
    memo.enterLanes(7, -1, lanes(1), lanes(2));
    expect(memo.handledLanes(0, lanes(1), lanes(2))).toBeUndefined();
    memo.rememberHandled([1]);
    // Another state with the same outside lanes and the same step on slot 0: the same pair, nothing to ask.
    memo.enterLanes(7, -1, lanes(1), lanes(2));
    expect(memo.handledLanes(1, lanes(1), lanes(2))).toEqual([]);
    expect(memo.settledWitnessCounts()).toEqual([0, 1]);
    // Another local class (slot 0 moves elsewhere), another event, other outside lanes: nothing filed.
    memo.enterLanes(7, -1, lanes(1), lanes(3));
    expect(memo.handledLanes(2, lanes(1), lanes(3))).toBeUndefined();
    memo.enterLanes(8, -1, lanes(1), lanes(2));
    expect(memo.handledLanes(3, lanes(1), lanes(2))).toBeUndefined();
    memo.enterLanes(7, -1, lanes(1, 5), lanes(2, 5));
    expect(memo.handledLanes(4, lanes(1, 5), lanes(2, 5))).toBeUndefined();
    expect(memo.settledWitnessCounts()).toEqual([0, 1]);
  });

  it('ask again, on every step of the pair, the judgements the slots table answered', () => {
    const memo = new StepMemo(model, 3, 1);
    memo.enterLanes(7, -1, lanes(1), lanes(2));
    expect(memo.handledLanes(0, lanes(1), lanes(2))).toBeUndefined();
    // Witness 0 (judgement 1) fired by a class's answer; judgement 2 was answered for these slots only.
    memo.rememberHandled([0], [2]);
    for (const state of [1, 2]) {
      memo.enterLanes(7, -1, lanes(1), lanes(2));
      expect(memo.handledLanes(state, lanes(1), lanes(2))).toEqual([2]);
    }
    // Witness 1 (judgement 2) is the caller's to count, from the slots table, each time.
    expect(memo.settledWitnessCounts()).toEqual([2, 0]);
  });

  it('file a step that changes the lanes outside the slots by those lanes before and after, and no coarser', () => {
    const memo = new StepMemo(model, 3, 1);
    memo.enterLanes(7, -1, lanes(1), lanes(2, 1));
    expect(memo.handledLanes(0, lanes(1), lanes(2, 1))).toBeUndefined();
    memo.rememberHandled([0]);
    // The same local class, outside lanes before and after (a global action, the clock): counted as filed.
    memo.enterLanes(7, -1, lanes(1), lanes(2, 1));
    expect(memo.handledLanes(1, lanes(1), lanes(2, 1))).toEqual([]);
    expect(memo.settledWitnessCounts()).toEqual([1, 0]);
    // The same local class and lanes before, other lanes after: what a global or refined answer read
    // differs, so a key without them would count witness 0 here too. Filed apart, it fires witness 1.
    memo.enterLanes(7, -1, lanes(1), lanes(2, 2));
    expect(memo.handledLanes(2, lanes(1), lanes(2, 2))).toBeUndefined();
    memo.rememberHandled([1]);
    // Other lanes before with the same after: not filed either.
    memo.enterLanes(7, -1, lanes(1, 3), lanes(2, 1));
    expect(memo.handledLanes(3, lanes(1, 3), lanes(2, 1))).toBeUndefined();
    // Each pair keeps its first filing, and a step that keeps the lanes outside is filed apart from both.
    memo.enterLanes(7, -1, lanes(1), lanes(2, 1));
    expect(memo.handledLanes(4, lanes(1), lanes(2, 1))).toEqual([]);
    memo.enterLanes(7, -1, lanes(1), lanes(2));
    expect(memo.handledLanes(5, lanes(1), lanes(2))).toBeUndefined();
    expect(memo.settledWitnessCounts()).toEqual([2, 0]);
  });
});

describe('self-loops judged by their pair', () => {
  const model = variantModel('model', scope);
  const lanes = lanesOf(model);
  /** A memo of one predicate and one witness test, with event `event`'s self-loop on `from` settled: the test left open. */
  const settledOn = (event: number, addressed: number, from: Uint32Array) => {
    const memo = new StepMemo(model, 2, 1);
    expect(memo.selfLoop(event, addressed, 0, from)).toBeUndefined();
    memo.judge(0, () => true);
    // Asks the model for something no class fixes: judged on every step, so open in the settled class.
    memo.judge(1, (m) => typeof m.listing === 'function');
    memo.settle(() => false);
    return memo;
  };

  it('count a self-loop as handled only for the local class and outside lanes filed, and once', () => {
    const memo = settledOn(7, -1, lanes(1));
    expect(memo.selfLoop(7, -1, 1, lanes(1))).toEqual([1]);
    memo.rememberHandled([0]);
    // The same pair and outside lanes in another state: handled, counted toward witness 0.
    expect(memo.selfLoop(7, -1, 2, lanes(2))).toEqual([]);
    // Other outside lanes: the open judgement again, nothing counted.
    expect(memo.selfLoop(7, -1, 3, lanes(1, 5))).toEqual([1]);
    // Another event's self-loop: a class not yet settled.
    expect(memo.selfLoop(8, -1, 4, lanes(1))).toBeUndefined();
    expect(memo.settledWitnessCounts()).toEqual([1]);
  });

  it.each([
    ['by direct index', 1, 2],
    ['past the direct rows', 5_000, 5_001],
  ])('key a self-loop by the id of the slot it addresses (%s)', (_how, id, other) => {
    const memo = settledOn(7, 0, lanes(id));
    expect(memo.selfLoop(7, 0, 1, lanes(id, 3))).toEqual([1]);
    // The addressed slot elsewhere: another local class, not settled.
    expect(memo.selfLoop(7, 0, 2, lanes(other))).toBeUndefined();
    // Not addressed, the slot does not key the class: the pair (7, none) is its own class.
    expect(memo.selfLoop(7, -1, 3, lanes(id))).toBeUndefined();
    expect(memo.selfLoop(7, 0, 4, lanes(id))).toEqual([1]);
  });

  it('take a bundle of self-loops only once recorded with each answered by counts, and count each as selfLoop would', () => {
    const memo = settledOn(7, 0, lanes(1));
    // Not yet recorded; its one self-loop leaves the witness test open: not recorded either.
    expect(memo.takeBundle(0, 10, 1, 1, lanes(1))).toBe(false);
    expect(memo.selfLoop(7, 0, 1, lanes(1), 0)).toEqual([1]);
    memo.rememberHandled([0]);
    expect(memo.takeBundle(0, 10, 1, 2, lanes(1))).toBe(false);
    // Filed now, nothing to ask again: the bundle is recorded (and this self-loop counted, once).
    expect(memo.selfLoop(7, 0, 2, lanes(1), 0)).toEqual([]);
    expect(memo.settledWitnessCounts()).toEqual([1]);
    expect(memo.takeBundle(0, 10, 1, 3, lanes(1))).toBe(true);
    expect(memo.countBundles(Int32Array.of(1, 0))).toBe(1);
    expect(memo.settledWitnessCounts()).toEqual([2]);
    // A stop before the taken self-loop: none counted.
    expect(memo.takeBundle(0, 10, 1, 4, lanes(1))).toBe(true);
    expect(memo.countBundles(Int32Array.of(0, 0))).toBe(0);
    expect(memo.settledWitnessCounts()).toEqual([2]);
    // Other lanes outside the slots, or another count: not that record.
    expect(memo.takeBundle(0, 10, 1, 5, lanes(1, 5))).toBe(false);
    expect(memo.takeBundle(0, 10, 2, 6, lanes(1))).toBe(false);
    // A self-loop addressing another slot than the bundle's: its class is not fixed by the bundle, never recorded.
    expect(memo.takeBundle(1, 12, 1, 7, lanes(1))).toBe(false);
    expect(memo.selfLoop(7, 0, 7, lanes(1), 1)).toEqual([]);
    expect(memo.takeBundle(1, 12, 1, 8, lanes(1))).toBe(false);
    expect(memo.countBundles(Int32Array.of(0, 1))).toBe(0);
    expect(memo.settledWitnessCounts()).toEqual([3]);
  });
});

describe('slots classes keyed by the namespace slots before and after', () => {
  // Three slots, read only through `view`: a step moves slot 0 (or nothing, a self-loop), and the
  // judgement reads slot 0 after it and slots 1 and 2 before it, which the step neither moved nor addressed.
  const slots = 3;
  const model = {
    scope: { namespaces: Array.from({ length: slots }, () => ({})) },
    initializers: [],
    view: (s: SystemState, i: number) => s.namespaces[i],
  } as unknown as SystemModel;
  const events = [{ type: 'a' }, { type: 'b' }] as unknown as SystemEvent[];
  type Step = { event: number; before: number[]; after: number[] };
  // Slot 2's 65,541 is 5 in 16 bits: a key truncated to 16 bits would merge it with 5.
  const steps: Step[] = [];
  for (const event of [0, 1])
    for (const moved of [1, 2, 3])
      for (const other of [3, 4])
        for (const last of [5, 6, 65_541])
          steps.push({ event, before: [1, other, last], after: [moved, other, last] });
  let runs = 0;
  const run: StepJudgement<boolean> = (m, b, _e, a) => {
    runs++;
    // This model's views are the slots themselves: their ids.
    const id = (s: SystemState, i: number) => (m.view(s, i) as unknown as { id: number }).id;
    return (id(a, 0) + id(b, 1) + id(b, 2)) % 2 === 0;
  };
  const truth = ({ before, after }: Step) => (after[0] + before[1] + before[2]) % 2 === 0;
  /** States sharing the slot objects that a step leaves as they were (the decoded path compares them). */
  const states = ({ before, after }: Step) => {
    const b = before.map((id) => ({ id }));
    const a = after.map((id, i) => (id === before[i] ? b[i] : { id }));
    return [{ namespaces: b }, { namespaces: a }] as unknown as SystemState[];
  };
  const lanes = (ids: number[]) => {
    const out = new Uint32Array(firstNamespaceLane + slots + 4);
    out.set(ids, firstNamespaceLane);
    return out;
  };

  /** Each step's answer by a memo entered with decoded states, and how many times the judgement ran. */
  function decoded(memo: StepMemo): { answers: boolean[]; ran: number } {
    runs = 0;
    const answers = steps.map((step) => {
      const [before, after] = states(step);
      memo.enter(before, events[step.event], step.before[0] === step.after[0] ? before : after);
      return memo.judge(0, run);
    });
    return { answers, ran: runs };
  }

  /** The same from lanes, as the compiled search asks: the tables first, the judgement only when they do not know. */
  function fromLanes(memo: StepMemo): { answers: boolean[]; ran: number } {
    runs = 0;
    const fromIndex = new Map<string, number>();
    const answers = steps.map((step) => {
      const self = step.before[0] === step.after[0];
      const from = lanes(step.before);
      const to = self ? from : lanes(step.after);
      const key = step.before.join();
      const index = fromIndex.get(key) ?? fromIndex.size;
      fromIndex.set(key, index);
      memo.enterLanes(step.event, -1, from, to);
      const known = memo.knownLanes(0, index, from, to);
      if (known >= 0) return known === 1;
      const [before, after] = states(step);
      memo.bind(before, events[step.event], self ? before : after);
      return memo.judge(0, run);
    });
    return { answers, ran: runs };
  }

  it.each([
    ['decoded', decoded],
    ['from lanes', fromLanes],
  ])(
    'judge each distinct event and slots before and after once, and answer it from then on (%s)',
    (_how, ask) => {
      const memo = new StepMemo(model, 1);
      const expected = steps.map(truth);
      expect(new Set(expected).size).toBe(2);
      // Every step differs from the others in its event or some slot's id before or after: a key merging two
      // of them answers the second from the first's record instead of running it.
      expect(ask(memo)).toEqual({ answers: expected, ran: steps.length });
      expect(ask(memo)).toEqual({ answers: expected, ran: 0 });
    },
  );

  it('answer a step from lanes as filed from its decoded states, and the other way round', () => {
    for (const [first, second] of [
      [decoded, fromLanes],
      [fromLanes, decoded],
    ]) {
      const memo = new StepMemo(model, 1);
      first(memo);
      expect(second(memo)).toEqual({ answers: steps.map(truth), ran: 0 });
    }
  });
});

describe('judgements that read nothing of a step but its event', () => {
  // Two slots; each step moves slot 0 from 1 to one of four ids, so each (event, id after) is a local class of its own.
  const model = {
    scope: { namespaces: [{}, {}] },
    initializers: [],
    view: (s: SystemState, i: number) => s.namespaces[i],
  } as unknown as SystemModel;
  const events = [{ type: 'a' }, { type: 'b' }] as unknown as SystemEvent[];
  const steps = [0, 1].flatMap((event) => [2, 3, 4, 5].map((moved) => ({ event, moved })));
  const idAfter = (m: SystemModel, a: SystemState) => (m.view(a, 0) as unknown as { id: number }).id;
  let runs = 0;
  // Event a is answered from the event alone; event b reads the moved slot after the step.
  const run: StepJudgement<boolean> = (m, _b, e, a) => {
    runs++;
    return (e as unknown as { type: string }).type === 'a' || idAfter(m, a) % 2 === 0;
  };
  const truth = ({ event, moved }: { event: number; moved: number }) => event === 0 || moved % 2 === 0;

  it('run once per event when they read only the event, and once per local class when they read a slot', () => {
    const memo = new StepMemo(model, 1);
    runs = 0;
    const answers = steps.map(({ event, moved }) => {
      const before = { namespaces: [{ id: 1 }, { id: 7 }] } as unknown as SystemState;
      const after = { namespaces: [{ id: moved }, before.namespaces[1]] } as unknown as SystemState;
      memo.enter(before, events[event], after);
      return memo.judge(0, run);
    });
    // A key by event alone for event b would answer its later classes from the first (id 2, even): 5 would be true.
    expect(answers).toEqual(steps.map(truth));
    expect(new Set(answers.slice(4)).size).toBe(2);
    expect(runs).toBe(1 + 4);
  });
});

describe('judgements that read only which slots a step changed, on steps that change none', () => {
  const model = {
    scope: { namespaces: [{}, {}] },
    initializers: [],
    view: (s: SystemState, i: number) => s.namespaces[i],
    changedSlots: (b: SystemState, a: SystemState) =>
      b.namespaces.flatMap((ns, i) => (ns === a.namespaces[i] ? [] : [i])),
  } as unknown as SystemModel;
  // A request to slot 0: its self-loops out of slot 0's ids 1, 2 and 3 are three local classes.
  const event = { type: 'a', request: { namespace: 0 } } as unknown as SystemEvent;
  const state = (id: number) => ({ namespaces: [{ id }, { id: 9 }] }) as unknown as SystemState;
  let runs = 0;
  const run: StepJudgement<boolean> = (m, b, _e, a) => {
    runs++;
    return m.changedSlots(b, a).length === 0;
  };

  it("run once for all of the event's steps that change no slot, and again on one that changes a slot", () => {
    const memo = new StepMemo(model, 1);
    const answers = [1, 2, 3].map((id) => {
      const s = state(id);
      memo.enter(s, event, s);
      return memo.judge(0, run);
    });
    // The same event moving slot 0: the answer filed for steps that change nothing must not be taken.
    memo.enter(state(1), event, state(2));
    answers.push(memo.judge(0, run));
    expect(answers).toEqual([true, true, true, false]);
    expect(runs).toBe(2);
  });
});

describe("a list's self-loops taken as one bundle", () => {
  // Three slots read only through `views`; a list across namespaces (bundle position 3, past the slots)
  // whose table entry (bundle 20) has one self-loop, of event 0, addressing no slot. Its predicate reads
  // slot 2 (false when it holds 7), its witness test slot 1 (fires when its id is odd): both answered by
  // the slots table, for the vector of slot ids they read, and asked again on every filed self-loop.
  const slots = 3;
  const position = slots;
  const bundle = 20;
  const model = {
    scope: { namespaces: Array.from({ length: slots }, () => ({})) },
    initializers: [],
    views: (s: SystemState) => s.namespaces,
  } as unknown as SystemModel;
  const event = { type: 'list' } as unknown as SystemEvent;
  const idOf = (m: SystemModel, s: SystemState, i: number) => (m.views(s)[i] as unknown as { id: number }).id;
  const predicate: StepJudgement<boolean> = (m, b) => idOf(m, b, 2) !== 7;
  const witness: StepJudgement<boolean> = (m, b) => idOf(m, b, 1) % 2 === 1;
  const lanes = (ids: number[], config = 0) => {
    const out = new Uint32Array(firstNamespaceLane + slots + 4);
    out[0] = config;
    out.set(ids, firstNamespaceLane);
    return out;
  };
  const stateOf = (ids: number[]) => ({ namespaces: ids.map((id) => ({ id })) }) as unknown as SystemState;

  /**
   * The search of a run of states (slot ids, outside lane), each offering the bundle, as the judge asks:
   * taken whole (`countBundles`), or the self-loop judged from the lanes and, where the tables do not
   * know, decoded. Returns which states took it, the witness total and the violations seen.
   */
  function search(memo: StepMemo, states: (readonly [number[], number])[]) {
    let fired = 0;
    let violations = 0;
    const taken: number[] = [];
    states.forEach(([ids, config], index) => {
      const from = lanes(ids, config);
      const traversed = new Int32Array(slots + 1);
      if (memo.takeBundle(position, bundle, 1, index, from)) {
        taken.push(index);
        traversed[position] = 1;
        memo.countBundles(traversed);
        return;
      }
      const judge = (j: number) => {
        const known = memo.knownLanes(j, index, from, from);
        if (known >= 0) return known === 1;
        memo.bind(stateOf(ids), event, stateOf(ids));
        return memo.judge(j, j === 0 ? predicate : witness);
      };
      const open = memo.selfLoop(0, -1, index, from, position);
      if (open === undefined) {
        memo.bind(stateOf(ids), event, stateOf(ids));
        if (!memo.judge(0, predicate)) violations++;
        if (memo.judge(1, witness)) fired++;
        memo.settle(() => false);
        return;
      }
      const filed = memo.filed;
      const asked: number[] = [];
      for (const j of open) {
        const answer = judge(j);
        if (memo.answeredFromSlots) asked.push(j);
        if (j === 0 && !answer) violations++;
        if (j === 1 && answer) fired++;
      }
      if (!filed) memo.rememberHandled([], asked);
    });
    return { taken, fired: fired + memo.settledWitnessCounts()[0], violations };
  }

  const odd = [1, 3, 5];
  const even = [1, 4, 5];

  it("is taken once both records hold, and counts the witness as the slots table answers it for the state's slot ids", () => {
    const memo = new StepMemo(model, 2, 1);
    // Judged, filed, recorded; then taken. Then slot 1 even, same entry and outside lanes: a key without
    // the vector of slot ids would take the bundle recorded for odd and count the witness there.
    const run = search(memo, [
      [odd, 0],
      [odd, 0],
      [odd, 0],
      [odd, 0],
      [even, 0],
      [even, 0],
      [even, 0],
      [odd, 0],
    ]);
    expect(run.taken).toEqual([3, 6, 7]);
    expect(run.fired).toBe(5);
    expect(memo.listLoopsTaken).toBe(3);
  });

  it('is not taken under other lanes outside the slots until filed and recorded there too', () => {
    const memo = new StepMemo(model, 2, 1);
    const run = search(memo, [
      [odd, 0],
      [odd, 0],
      [odd, 0],
      [odd, 0],
      [odd, 5],
      [odd, 5],
      [odd, 5],
      [odd, 5],
    ]);
    // The vector's answers are on record already; the filed list under outside lanes 5 is not, at first.
    expect(run.taken).toEqual([3, 6, 7]);
    expect(run.fired).toBe(8);
  });

  it('is never taken where a predicate is false: each such self-loop is judged, and reported', () => {
    const memo = new StepMemo(model, 2, 1);
    const broken = [1, 3, 7];
    const run = search(memo, [
      [odd, 0],
      [odd, 0],
      [odd, 0],
      [broken, 0],
      [broken, 0],
      [broken, 0],
      [odd, 0],
    ]);
    expect(run.taken).toEqual([6]);
    expect(run.violations).toBe(3);
    expect(run.fired).toBe(7);
  });

  it('is taken where a predicate is false once that predicate is judged no more (violated)', () => {
    const memo = new StepMemo(model, 2, 1);
    memo.skipped = (j) => j === 0;
    const broken = [1, 4, 7];
    const run = search(memo, [
      [broken, 0],
      [broken, 0],
      [broken, 0],
      [broken, 0],
    ]);
    expect(run.taken).toEqual([3]);
    expect(run.fired).toBe(0);
  });
});

describe('properties read states only through the model', () => {
  // The memo tracks reads through the model's methods; a direct read of a state's lanes would escape it.
  const sources = readdirSync('properties')
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => ({ file: f, text: readFileSync(join('properties', f), 'utf8') }));

  it.each(sources)('$file reads no lane of a state directly', ({ text }) => {
    const direct = text.match(
      /\b(?:before|after|state|s)\.(?:namespaces|initializers|configSync|faults|registeredConfigs|clusterObjects)\b/g,
    );
    expect(direct ?? []).toEqual([]);
    // Whether a step moved at all depends on lanes no class may fix: ask the model which slots changed.
    expect(text.match(/\b(?:before|after)\s*[!=]==\s*(?:before|after)\b/g) ?? []).toEqual([]);
  });
});

describe('the memo tables stored compactly', () => {
  it('give each tuple one id, found again after the table rehashes, and widen past 16 bits', () => {
    const ids = new TupleIds();
    const tuple = new Uint32Array(5);
    const tuples: number[][] = [];
    // Tuples of 2 to 5 values below 65,536, the first two naming n; 60,000 of them rehash several times.
    for (let n = 0; n < 60_000; n++) {
      const length = 2 + (n % 4);
      const values = [n >> 8, n & 255, n % 11, 3, 65_535].slice(0, length);
      tuples.push(values);
      tuple.set(values);
      expect(ids.id(tuple, length)).toBe(n);
    }
    const small = ids.bytes;
    // The first value past 16 bits widens the storage, and every tuple stored before is found as it was.
    tuple.set([1, 2, 3, 4, 1 << 20]);
    expect(ids.id(tuple, 5)).toBe(60_000);
    expect(ids.bytes).toBeGreaterThan(small);
    tuples.push([1, 2, 3, 4, 1 << 20]);
    for (const [n, values] of tuples.entries()) {
      tuple.set(values);
      expect(ids.id(tuple, values.length)).toBe(n);
      expect(ids.tupleOf(n)).toEqual(values);
    }
    // A prefix of a known tuple is a tuple of its own.
    tuple.set([1, 2, 3, 4]);
    expect(ids.id(tuple, 4)).toBe(60_001);
    tuple.set([0]);
    expect(ids.id(tuple, 1)).toBe(60_002);
    // The same values read at an offset are the same tuple.
    expect(ids.id(Uint32Array.of(9, 9, 1, 2, 3, 4), 4, 2)).toBe(60_001);
    expect(ids.id(Uint32Array.of(9, 0, 7), 1, 1)).toBe(60_002);
  });

  it('give each triple one id, found again after the table rehashes, and widen past 16 bits', () => {
    const ids = new TripleIds();
    const triples: [number, number, number][] = [];
    // 60,000 triples that differ in one value only, in each position: a key that dropped one would merge them.
    for (let n = 0; n < 60_000; n++) {
      const triple: [number, number, number] = n % 3 === 0 ? [n, 7, 7] : n % 3 === 1 ? [7, n, 7] : [7, 7, n];
      triples.push(triple);
      expect(ids.id(...triple)).toBe(n);
    }
    const small = ids.bytes;
    expect(ids.id(1, 2, 1 << 20)).toBe(60_000);
    expect(ids.bytes).toBeGreaterThan(small);
    triples.push([1, 2, 1 << 20]);
    for (const [n, triple] of triples.entries()) expect(ids.id(...triple)).toBe(n);
    // 1 << 20 is 0 in 16 bits: the widened table still tells them apart.
    expect(ids.id(1, 2, 0)).toBe(60_001);
  });

  it('keep every code apart from its neighbours, a byte each and four to a byte', () => {
    for (const packed of [true, false]) {
      const count = 7;
      const table = packed ? new PackedMemoTable(count) : new MemoTable(count);
      const codes = packed ? [Memo.True, Memo.False, Memo.Always] : [Memo.Further, Memo.Slots, Memo.True];
      const expected = new Map<number, number>();
      const tuple = new Uint32Array(2);
      for (let c = 0; c < 500; c++) {
        tuple[0] = c;
        tuple[1] = c * 3;
        const at = table.classOf(tuple, 2);
        expect(at).toBe(c * count);
        for (let j = 0; j < count; j++) {
          if ((c + j) % 3 === 0) continue;
          const code = codes[(c * count + j) % codes.length];
          table.set(at + j, code);
          expected.set(at + j, code);
        }
      }
      // Overwriting a code leaves its byte's other codes as they were.
      table.set(5, Memo.Always);
      expected.set(5, Memo.Always);
      for (let at = 0; at < 500 * count; at++) expect(table.code(at)).toBe(expected.get(at) ?? Memo.Unknown);
    }
  });

  it('refuse a code wider than the table stores', () => {
    const table = new PackedMemoTable(3);
    const at = table.classOf(new Uint32Array([1]), 1);
    expect(() => table.set(at, Memo.Further)).toThrow(/Further does not fit 2 bits/);
  });
});
