/**
 * One guarded transition of a decision list with the requirements it implements, written as one
 * line so a machine's rules read as a table (guard, target, action, requirement IDs). The literal
 * types are kept, so XState still checks every name against the machine's `setup`.
 */
export const when = <const G extends string, const T extends string, const A extends string>(
  guard: G,
  target: T,
  actions: A,
  requirements: string[],
) => ({ guard, target, actions, meta: { requirements } });

/** A guarded transition that stays in its state and only acts (an effect the composition carries out). */
export const act = <const G extends string, const A extends string>(
  guard: G,
  actions: A,
  requirements: string[],
) => ({ guard, actions, meta: { requirements } });

/** A guarded move to another state that acts only there (a router's branch). */
export const route = <const G extends string, const T extends string>(
  guard: G,
  target: T,
  requirements: string[],
) => ({ guard, target, meta: { requirements } });

/** The unguarded last alternative of a chain, taken when every guard before it fails: acts, then moves. */
export const orElse = <const T extends string, const A extends string>(
  target: T,
  actions: A,
  requirements: string[],
) => ({ target, actions, meta: { requirements } });

/** The unguarded last alternative of a chain that only moves on to the next stage. */
export const otherwise = <const T extends string>(target: T, requirements: string[]) => ({
  target,
  meta: { requirements },
});
