import type { Scope } from '../../machines/scope.ts';
import { defaultMachines, type MachineSet, SystemModel } from '../../machines/system.ts';

/** The composed system as the checker explores it, for a scope and (by default) the machines as written. */
export function systemModel(scope: Scope, machines: MachineSet = defaultMachines): SystemModel {
  return new SystemModel(scope, machines);
}
