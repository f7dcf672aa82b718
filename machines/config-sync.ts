import { assign, setup } from 'xstate';
import { when } from './transition.ts';

/** Seconds without a successful read after which admission refuses every request (AC-2). */
export const configurationStaleAfterSeconds = 5;

/**
 * The admission plugins' copy of the initializer configurations (AC-1..AC-3): a consistent LIST every
 * second; with no successful read in the last 5 s the copy is stale and admission refuses everything.
 */
export interface ConfigSyncContext {
  /** Whole seconds since the last successful read, capped at the staleness bound (relative time). */
  secondsSinceRead: number;
  /** Names of the configurations that read returned: what a new namespace gets (AC-3). */
  configurations: string[];
  /** FP-3: the version read of each configuration an update changed (absent: as created). */
  versions: Record<string, number>;
}

export type ConfigSyncEvent =
  | { type: 'READ_SUCCEEDED'; configurations: string[]; versions?: Record<string, number> }
  | { type: 'READ_FAILED' };

export const configSyncMachine = setup({
  types: {
    context: {} as ConfigSyncContext,
    events: {} as ConfigSyncEvent,
    input: {} as { configurations: string[]; versions?: Record<string, number> },
  },
  guards: {
    // This failed read is one second after the last one: the copy is stale once the gap reaches the bound.
    noSuccessfulReadWithinStaleWindow: ({ context }) =>
      context.secondsSinceRead + 1 >= configurationStaleAfterSeconds,
  },
  actions: {
    rememberConfigurationsRead: assign(({ event }) =>
      event.type === 'READ_SUCCEEDED'
        ? {
            secondsSinceRead: 0,
            configurations: [...event.configurations].sort(),
            versions: { ...(event.versions ?? {}) },
          }
        : {},
    ),
    // Capped at the bound: no guard compares a larger gap, so larger gaps are one state.
    oneSecondWithoutRead: assign({
      secondsSinceRead: ({ context }) =>
        Math.min(context.secondsSinceRead + 1, configurationStaleAfterSeconds),
    }),
  },
}).createMachine({
  id: 'configSync',
  context: ({ input }) => ({
    secondsSinceRead: 0,
    configurations: [...input.configurations].sort(),
    versions: { ...(input.versions ?? {}) },
  }),
  initial: 'fresh',
  states: {
    fresh: {
      description: 'Read within the last 5 s: admission applies the configurations it read.',
      on: {
        READ_SUCCEEDED: { actions: 'rememberConfigurationsRead', meta: { requirements: ['AC-1', 'AC-3'] } },
        READ_FAILED: [
          when('noSuccessfulReadWithinStaleWindow', 'stale', 'oneSecondWithoutRead', ['AC-2']),
          { actions: 'oneSecondWithoutRead', meta: { requirements: ['AC-3'] } },
        ],
      },
    },
    stale: {
      description: 'No successful read for 5 s: every incoming request is refused.',
      on: {
        READ_SUCCEEDED: {
          target: 'fresh',
          actions: 'rememberConfigurationsRead',
          meta: { requirements: ['AC-1', 'AC-2'] },
        },
        READ_FAILED: { actions: 'oneSecondWithoutRead', meta: { requirements: ['AC-2'] } },
      },
    },
  },
});
