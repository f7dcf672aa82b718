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
