import { type AnyStateMachine, StateMachine } from 'xstate';
import type { MachineSet } from '../machines/system.ts';

/**
 * A copy of a machine with part of its definition changed, keeping its guards and actions: for
 * variants `.provide()` cannot express (a target, a transition's params, a new transition). The copy
 * has the machine's own type because only the definition's shape changes, never its context or
 * events. A guard the edited definition introduces joins the machine's named ones.
 */
export function withDefinition<M extends AnyStateMachine>(
  machine: M,
  edit: (config: M['config']) => M['config'],
  newGuards: Record<string, unknown> = {},
): M {
  const implementations = {
    ...machine.implementations,
    guards: { ...machine.implementations.guards, ...newGuards },
  } as M['implementations'];
  return new StateMachine(edit(machine.config), implementations) as unknown as M;
}

/** Machines with one machine's guards or actions replaced through `.provide()`: a seeded fault's usual shape. */
export function providing<K extends Exclude<keyof MachineSet, 'storageChecks' | 'configurationMerge'>>(
  key: K,
  implementations: Parameters<MachineSet[K]['provide']>[0],
): (base: MachineSet) => MachineSet {
  return (base) => {
    const provide = base[key].provide.bind(base[key]) as (i: typeof implementations) => MachineSet[K];
    return { ...base, [key]: provide(implementations) };
  };
}

/** The machines as they are: a variant that changes only the scope. */
export const unchanged = (base: MachineSet): MachineSet => base;
