import { admissionMachine } from './admission.ts';
import { type AuthorizationMachine, authorizationMachine } from './authorization.ts';
import { configSyncMachine } from './config-sync.ts';
import { failureInjectorMachine } from './failure-injector.ts';
import { finalizerOwnerMachine } from './finalizer-owner.ts';
import type { EffectiveInitializer, MergeableConfiguration } from './initializer-config.ts';
import { initializerControllerMachine } from './initializer-controller.ts';
import { initializerTimeoutMachine } from './initializer-timeout.ts';
import { namespaceMachine } from './namespace.ts';
import { namespaceControllerMachine } from './namespace-controller.ts';
import { pipelineMachine } from './pipeline.ts';
import { timerMachine } from './timer.ts';

/** The whole cast of machines a system is built from; variants replace some of them. */
export interface MachineSet {
  namespace: typeof namespaceMachine;
  admission: typeof admissionMachine;
  pipeline: typeof pipelineMachine;
  configSync: typeof configSyncMachine;
  initializerController: typeof initializerControllerMachine;
  namespaceController: typeof namespaceControllerMachine;
  finalizerOwner: typeof finalizerOwnerMachine;
  initializerTimeout: typeof initializerTimeoutMachine;
  timer: typeof timerMachine;
  failureInjector: typeof failureInjectorMachine;
  authorization: AuthorizationMachine;
  /**
   * Storage's own checks (NS-1, LC-2, NS-3), on unless a seeded fault turns one off: `validNames` on a
   * create, `finalizeNames` (absent: on) the finalizer names a finalize sends.
   */
  storageChecks?: { uniqueNames: boolean; validNames: boolean; finalizeNames?: boolean };
  /** How admission merges the configurations it read into a pending list (IN-1, D-21); a seeded fault replaces it. */
  configurationMerge?: (configs: readonly MergeableConfiguration[]) => EffectiveInitializer[];
}

export const defaultMachines: MachineSet = {
  namespace: namespaceMachine,
  admission: admissionMachine,
  pipeline: pipelineMachine,
  configSync: configSyncMachine,
  initializerController: initializerControllerMachine,
  namespaceController: namespaceControllerMachine,
  finalizerOwner: finalizerOwnerMachine,
  initializerTimeout: initializerTimeoutMachine,
  timer: timerMachine,
  failureInjector: failureInjectorMachine,
  authorization: authorizationMachine,
};
