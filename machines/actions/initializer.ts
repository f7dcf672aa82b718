import { RequestCommand } from '../commands.ts';
import type { Composition } from '../composition.ts';
import { initializerAccount } from '../scope.ts';
import type { Enabled, LocalAction, SystemState } from '../system-types.ts';

const account = {
  name: initializerAccount,
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
};

/** A crash fault stops initializer k's controller, or a crashed one restarts; reads and writes its snapshot only. */
export function initializerFault(m: Composition, s: SystemState, k: number, out: Enabled[]): void {
  const spec = m.initializers[k];
  const controller = s.initializers[k];
  const type = m.initializerStepper.value(controller) === 'running' ? 'CRASH' : 'RESTART';
  const step = m.initializerStepper.step(controller, { type }, type);
  if (step.transitions.length === 0) return;
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

/** Initializer k reconciles namespace slot i while its controller runs (IN-2, IN-3, IN-7). */
export const initializerReconciles: LocalAction<Composition> = (m, s, k, i, out) => {
  const spec = m.initializers[k];
  const controller = s.initializers[k];
  if (m.initializerStepper.value(controller) !== 'running') return;
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
};
