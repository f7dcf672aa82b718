import type { RequestCommand } from './commands.ts';
import type { Enabled, SystemState } from './system-types.ts';
import type { SystemViews } from './system-views.ts';

/**
 * What the actors' steps (machines/actions/*) and the API server see of the composed system: its
 * state space and views, and the few routes of the composition they call back. `SystemModel`
 * (system.ts) is the one implementation; naming it here instead keeps the actions below it, not in a
 * loop with it.
 */
export interface Composition extends SystemViews {
  /** Serves a principal's command in s, packaged as an event with the state after it. */
  perform(s: SystemState, command: RequestCommand): Enabled;
  /** The scope's j-th principal request. */
  principalCommand(j: number): { command: RequestCommand };
  /** Every principal request of the scope, in order. */
  principalCommands(): readonly { command: RequestCommand }[];
  /** Configuration slots the cluster admin manages. */
  managedConfigurations(): number[];
  /** The cluster admin's requests on configuration k, pushed onto out. */
  configurationRequests(s: SystemState, k: number, out: Enabled[]): void;
  /** The state once the store changed (a design may read it at once). */
  registered(before: SystemState, s: SystemState): SystemState;
}
