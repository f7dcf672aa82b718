import { RequestCommand } from '../commands.ts';
import { initializerAccount } from '../scope.ts';
import { LocalKind } from '../step-tables.ts';
import type { SystemModel } from '../system.ts';
import type { Enabled, SystemState } from '../system-types.ts';

const account = {
  name: initializerAccount,
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
};

/** Each running initializer controller reconciles the namespaces it initializes (IN-2, IN-3, IN-7); a crash fault stops it. */
export function initializerSteps(m: SystemModel, s: SystemState, out: Enabled[], context: number): void {
  m.initializers.forEach((spec, k) => {
    const controller = s.initializers[k];
    if (m.initializerStepper.value(controller) === 'running') {
      const own = m.stepTables.withController(context, controller);
      for (let i = 0; i < s.namespaces.length; i++)
        m.stepTables.run(LocalKind.Initializer, k, i, s, own, initializerReconciles, out);
    }
    if (m.scope.faults.initializerCrash && spec.canCrash !== false) {
      const type = m.initializerStepper.value(controller) === 'running' ? 'CRASH' : 'RESTART';
      const step = m.initializerStepper.step(controller, { type }, type);
      if (step.transitions.length > 0) {
        const initializers = s.initializers.slice();
        initializers[k] = step.next;
        out.push({
          event: m.internEvent({
            actor: spec.name,
            actorKind: 'fault',
            label: type === 'CRASH' ? `${spec.name} crashes` : `${spec.name} restarts`,
            fault: type === 'CRASH' ? 'initializer-crash' : 'initializer-restart',
            namespace: -1,
            transitions: step.transitions,
          }),
          next: { ...s, initializers },
        });
      }
    }
  });
}

/** Initializer k, running, reconciles namespace slot i. */
function initializerReconciles(m: SystemModel, s: SystemState, k: number, i: number, out: Enabled[]): void {
  const spec = m.initializers[k];
  const controller = s.initializers[k];
  const v = m.view(s, i);
  if (v.value !== 'initializing') return;
  const slot = m.objects.findIndex(
    (o) => o.resource === spec.populates.resource && o.name === spec.populates.name,
  );
  const observed = {
    firstPendingIsMe: v.pending[0] === spec.name,
    populated: (v.content & (1 << slot)) !== 0,
  };
  const kinds: ('RECONCILE' | 'PROVISIONING_FAILED')[] = spec.canFail
    ? ['RECONCILE', 'PROVISIONING_FAILED']
    : ['RECONCILE'];
  for (const type of kinds) {
    const step = m.initializerStepper.step(
      controller,
      { type, observed },
      `${type}|${observed.firstPendingIsMe}|${observed.populated}`,
    );
    for (const effect of step.emitted) {
      const sender = {
        actor: spec.name,
        actorKind: 'initializer' as const,
        principal: account,
        namespace: i,
      };
      const command = new RequestCommand(
        effect.type === 'populateNamespace'
          ? { ...sender, kind: 'create-content', object: slot }
          : effect.type === 'removeSelfFromPending'
            ? { ...sender, kind: 'remove-pending', name: spec.name }
            : { ...sender, kind: 'record-failure', reason: effect.reason },
      );
      const performed = command.run(m, s);
      out.push(m.withExtraTransitions(performed, step.transitions));
    }
  }
}
