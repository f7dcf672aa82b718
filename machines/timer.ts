import { assign, setup } from 'xstate';
import { when } from './transition.ts';

/**
 * The apiserver's per-namespace initializer timer (FP-2, FP-4), as P models a Timer: the server that
 * handled the create arms it for the first pending initializer, re-arms it when that initializer
 * changes, and loses it when it restarts. Time is relative: the timer keeps its age in whole seconds,
 * never above the timeout it compares with, so the clock can tick forever on a finite state space.
 */
export interface TimerContext {
  /** The first pending initializer the timer runs for; null while disarmed. */
  initializer: string | null;
  /** That initializer's timeoutSeconds, as its configuration declares it. */
  timeoutSeconds: number;
  /** Whole seconds since the timer was (re-)armed, capped at timeoutSeconds. */
  ageSeconds: number;
}

export type TimerEvent =
  | { type: 'ARM'; initializer: string; timeoutSeconds: number }
  | { type: 'REARM'; initializer: string; timeoutSeconds: number }
  | { type: 'TICK' }
  | { type: 'DISARM' }
  | { type: 'LOSE' };

export type TimerStateValue = 'disarmed' | 'armed' | 'expired' | 'lost';

/** How a running timer (armed or expired) ends: re-armed, disarmed (for the given requirements) or lost. */
const runningTimerExits = (disarmRequirements: string[]) =>
  ({
    REARM: { target: 'armed', actions: 'startTimer', meta: { requirements: ['FP-2', 'IN-2'] } },
    DISARM: { target: 'disarmed', actions: 'forgetTimer', meta: { requirements: disarmRequirements } },
    LOSE: { target: 'lost', actions: 'forgetTimer', meta: { requirements: ['FP-4'] } },
  }) as const;

const idle: TimerContext = { initializer: null, timeoutSeconds: 0, ageSeconds: 0 };

export const timerMachine = setup({
  types: { context: {} as TimerContext, events: {} as TimerEvent },
  guards: {
    // The tick that brings the age to the timeout expires the timer: it may fire no later than then (FP-2).
    tickReachesTimeout: ({ context }) => context.ageSeconds + 1 >= context.timeoutSeconds,
  },
  actions: {
    startTimer: assign(({ event }) =>
      event.type === 'ARM' || event.type === 'REARM'
        ? { initializer: event.initializer, timeoutSeconds: event.timeoutSeconds, ageSeconds: 0 }
        : {},
    ),
    // Capped at the timeout: no guard compares a larger age, so larger ages are one state.
    ageOneSecond: assign({
      ageSeconds: ({ context }) => Math.min(context.ageSeconds + 1, context.timeoutSeconds),
    }),
    forgetTimer: assign(() => ({ ...idle })),
  },
}).createMachine({
  id: 'timer',
  context: idle,
  initial: 'disarmed',
  states: {
    disarmed: {
      description: 'No timer: nothing pending, or the namespace left Initializing.',
      on: {
        ARM: { target: 'armed', actions: 'startTimer', meta: { requirements: ['FP-2', 'FP-4'] } },
      },
    },
    armed: {
      description: 'Counting the first pending initializer’s timeout, in whole seconds.',
      on: {
        TICK: [
          when('tickReachesTimeout', 'expired', 'ageOneSecond', ['FP-1', 'FP-2']),
          { actions: 'ageOneSecond', meta: { requirements: ['FP-2'] } },
        ],
        ...runningTimerExits(['FP-2', 'IN-4']),
      },
    },
    expired: {
      description: 'The timeout has run: the apiserver applies the failure policy before time passes on.',
      on: {
        ...runningTimerExits(['FP-1', 'FP-2']),
      },
    },
    lost: {
      description: 'The apiserver that armed it restarted: only read-repair on a GET is left (FP-4).',
      on: {
        DISARM: { target: 'disarmed', meta: { requirements: ['FP-4'] } },
      },
    },
  },
});
