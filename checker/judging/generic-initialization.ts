import { type AnyStateMachine, getInitialSnapshot, getNextSnapshot } from 'xstate';
import type { GenericObjectEvent } from '../../machines/generic-initialization.ts';
import type { ObjectProperty, ObjectSeen, ObjectStep } from '../../properties/generic-initialization.ts';

/**
 * Explores every state one content object under seed 002's generic initializers can reach, from
 * absent, under every request of a small alphabet (two initializers named by the rules and one that
 * is not, valid and invalid bodies, waiting and non-waiting creates, the clock, the consumers), and
 * judges each step with the IN-9 and IN-10 properties. The search is exhaustive: it ends when no
 * step reaches a state not seen before, and says how many states and steps it judged.
 */

const initializerLists = [[], ['a'], ['a', 'b']];
const bools = [false, true];

/** Every request the exploration sends, in a fixed order so the results are deterministic. */
export const genericAlphabet: readonly GenericObjectEvent[] = [
  ...initializerLists.flatMap((initializers) =>
    bools.flatMap((strictlyValid) =>
      bools.map((wait): GenericObjectEvent => ({ type: 'CREATE', initializers, strictlyValid, wait })),
    ),
  ),
  ...bools.map((includeUninitialized): GenericObjectEvent => ({ type: 'READ', includeUninitialized })),
  ...['a', 'b', 'c'].flatMap((initializer) =>
    bools.map((strictlyValid): GenericObjectEvent => ({ type: 'INITIALIZE', initializer, strictlyValid })),
  ),
  { type: 'COMPLETE' },
  { type: 'TICK' },
  { type: 'REPLICATION_COUNTS' },
  { type: 'SCHEDULE' },
  { type: 'QUOTA_COUNTS' },
];

export interface GenericJudgement {
  states: number;
  steps: number;
  /** Per property: the first step it rejects (with the path of requests to it), or null. */
  violations: Record<string, { message: string; path: GenericObjectEvent[] } | null>;
  /** Per property: the steps its premise constrained (0 means vacuous). */
  witnesses: Record<string, number>;
}

type Snapshot = ReturnType<typeof getInitialSnapshot<AnyStateMachine>>;
const seen = (s: Snapshot): ObjectSeen => ({
  // The phase by its innermost name: `uninitialized`, not the `initializing` state that holds it.
  value: typeof s.value === 'string' ? s.value : String(Object.values(s.value)[0]),
  context: s.context as ObjectSeen['context'],
});
const keyOf = (s: Snapshot) => JSON.stringify([s.value, s.context]);

export function judgeGenericInitialization(
  machine: AnyStateMachine,
  properties: readonly ObjectProperty[],
  maxStates = 100_000,
): GenericJudgement {
  const initial = getInitialSnapshot(machine);
  const paths = new Map<string, GenericObjectEvent[]>([[keyOf(initial), []]]);
  const queue: Snapshot[] = [initial];
  const violations: GenericJudgement['violations'] = Object.fromEntries(properties.map((p) => [p.id, null]));
  const witnesses: Record<string, number> = Object.fromEntries(properties.map((p) => [p.id, 0]));
  let steps = 0;
  for (let head = 0; head < queue.length; head++) {
    const before = queue[head];
    const path = paths.get(keyOf(before)) ?? [];
    for (const event of genericAlphabet) {
      const after = getNextSnapshot(machine, before, event);
      steps++;
      const step: ObjectStep = { before: seen(before), event, after: seen(after) };
      for (const p of properties) {
        if (p.witness(step)) witnesses[p.id]++;
        if (violations[p.id]) continue;
        const verdict = p.predicate(step);
        if (verdict !== true) violations[p.id] = { message: verdict, path: [...path, event] };
      }
      const key = keyOf(after);
      if (paths.has(key)) continue;
      if (paths.size >= maxStates)
        throw new Error(`generic initialization: more than ${maxStates} states; the search is incomplete`);
      paths.set(key, [...path, event]);
      queue.push(after);
    }
  }
  return { states: queue.length, steps, violations, witnesses };
}
