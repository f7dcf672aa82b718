import { apiserverRestarts, timerFires } from './actions/apiserver-timer.ts';
import { clockTicks, configReadFault } from './actions/clock.ts';
import { finalizerOwnerSyncs } from './actions/finalizer-owner.ts';
import { initializerFault, initializerReconciles } from './actions/initializer.ts';
import { namespaceControllerSyncs } from './actions/namespace-controller.ts';
import type { Composition } from './composition.ts';
import type { Enabled, SystemState } from './system-types.ts';
import { type LocalAction, LocalKind } from './system-types.ts';

/** A step of the whole system that reads the global lanes (and its controller's) and writes no namespace. */
export type GlobalStep = (m: Composition, s: SystemState, out: Enabled[]) => void;

/**
 * One action of `Next`, with its footprint: what it reads and may write. Both the model's `enabled`
 * and the compiled explorer (checker/compiled*.ts) iterate the same list, so successors come in one order.
 */
export type SystemAction =
  /** Reads namespace slot i, the global context (and initializer `controller`'s snapshot, or -1); writes slot i. */
  | {
      type: 'local';
      kind: LocalKind;
      k: number;
      i: number;
      controller: number;
      step: LocalAction<Composition>;
    }
  /** Principal command j across every namespace (a list): reads the context and each slot's listing (NamespaceListing); writes nothing. */
  | { type: 'wide'; j: number; step: LocalAction<Composition> }
  /**
   * Reads and writes the global lanes (and initializer `controller`'s snapshot, or -1). `footprint` says how
   * it touches namespaces: `none`, or per slot through a function of that slot alone (`clock`, `restart`).
   */
  | { type: 'global'; footprint: 'none' | 'clock' | 'restart'; controller: number; step: GlobalStep };

/** Every action of the scope, in the fixed order successors are emitted (determinism, golden traces). */
export function systemActions(m: Composition): SystemAction[] {
  const slots = [...m.scope.namespaces.keys()];
  const local = (kind: LocalKind, k: number, step: LocalAction<Composition>, controller = -1) =>
    slots.map((i): SystemAction => ({ type: 'local', kind, k, i, controller, step }));
  const global = (
    footprint: 'none' | 'clock' | 'restart',
    step: GlobalStep,
    controller = -1,
  ): SystemAction => ({
    type: 'global',
    footprint,
    controller,
    step,
  });
  const actions: SystemAction[] = m.principalCommands().map(({ command }, j): SystemAction => {
    const i = command.request.namespace;
    // A ClusterRole or ClusterRoleBinding request (D-23) writes the global `clusterObjects` lane.
    if (command.request.target === 'cluster-object')
      return global('none', (model, s, out) => sendsCommand(model, s, j, -1, out));
    return i >= 0
      ? { type: 'local', kind: LocalKind.Command, k: j, i, controller: -1, step: sendsCommand }
      : { type: 'wide', j, step: sendsCommand };
  });
  m.initializers.forEach((spec, k) => {
    actions.push(...local(LocalKind.Initializer, k, initializerReconciles, k));
    if (m.scope.faults.initializerCrash && spec.canCrash !== false)
      actions.push(global('none', (model, s, out) => initializerFault(model, s, k, out), k));
  });
  actions.push(...local(LocalKind.NamespaceController, 0, namespaceControllerSyncs));
  m.scope.finalizerOwners.forEach((_, k) => {
    actions.push(...local(LocalKind.FinalizerOwner, k, finalizerOwnerSyncs));
  });
  actions.push(...local(LocalKind.ApiserverTimer, 0, timerFires));
  if (m.scope.faults.apiserverRestart) actions.push(global('restart', apiserverRestarts));
  for (const k of m.managedConfigurations())
    actions.push(global('none', (model, s, out) => model.configurationRequests(s, k, out)));
  actions.push(global('clock', clockTicks));
  if (m.scope.faults.configReadFailure) actions.push(global('none', configReadFault));
  return actions;
}

/** Principal request j of the scope, sent in s. */
function sendsCommand(m: Composition, s: SystemState, j: number, _i: number, out: Enabled[]): void {
  out.push(m.perform(s, m.principalCommand(j).command));
}
