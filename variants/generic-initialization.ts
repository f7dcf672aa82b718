import { assign } from 'xstate';
import { genericInitializationMachine } from '../machines/generic-initialization.ts';

/**
 * Seeded faults of the generic-initialization machine (seed 002): each changes one guard or action
 * through `.provide()` and must be killed by the property of the requirement it breaks, and by no
 * other, so each of IN-9 and IN-10 is shown to be checked.
 */
export interface GenericInitializationFault {
  name: string;
  description: string;
  /** The requirement the fault breaks: only that requirement's property may kill it. */
  requirements: string[];
  machine: typeof genericInitializationMachine;
}

export const genericInitializationFaults: readonly GenericInitializationFault[] = [
  {
    name: 'generic-uninitialized-shown',
    description:
      'Every read is treated as asking for uninitialized objects: an uninitialized object is served to plain get and list.',
    requirements: ['IN-9'],
    machine: genericInitializationMachine.provide({ guards: { clientAsksForUninitialized: () => true } }),
  },
  {
    name: 'generic-scheduler-binds-uninitialized',
    description: 'The scheduler binds a pod to a node before it is initialized, instead of leaving it alone.',
    requirements: ['IN-10'],
    machine: genericInitializationMachine.provide({
      actions: {
        skipUninitialized: assign({
          scheduled: true,
          outcome: () => ({ kind: 'consumer' as const, action: 'scheduled' as const }),
        }),
      },
    }),
  },
];
