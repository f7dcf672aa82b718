import { type AnyStateMachine, StateMachine } from 'xstate';

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
