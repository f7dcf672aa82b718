import { emit, setup } from 'xstate';

/**
 * The failure injector, as P models one: the faults a scope allows, as steps of their own. It holds
 * whether configuration reads fail (AC-2) and makes the apiserver restart, which loses its
 * initializer timers (FP-4). Initializer crashes are steps of the initializer controllers' own
 * machine (CRASH, RESTART), since they change only that controller.
 */
export type FailureInjectorEvent =
  | { type: 'START_OUTAGE' }
  | { type: 'END_OUTAGE' }
  | { type: 'RESTART_APISERVER' };

/** What a fault does to the world: the composition applies it. */
export type FailureEffect = { type: 'loseInitializerTimers' };

export type FailureInjectorStateValue = 'readsWorking' | 'readsFailing';

const restartApiserver = {
  actions: 'loseInitializerTimers',
  meta: { requirements: ['FP-4'] },
} as const;

export const failureInjectorMachine = setup({
  types: { events: {} as FailureInjectorEvent, emitted: {} as FailureEffect },
  actions: {
    loseInitializerTimers: emit({ type: 'loseInitializerTimers' }),
  },
}).createMachine({
  id: 'failureInjector',
  initial: 'readsWorking',
  states: {
    readsWorking: {
      description: 'Configuration reads succeed.',
      on: {
        START_OUTAGE: { target: 'readsFailing', meta: { requirements: ['AC-2'] } },
        RESTART_APISERVER: restartApiserver,
      },
    },
    readsFailing: {
      description: 'Every configuration read fails until the outage ends.',
      on: {
        END_OUTAGE: { target: 'readsWorking', meta: { requirements: ['AC-2'] } },
        RESTART_APISERVER: restartApiserver,
      },
    },
  },
});
