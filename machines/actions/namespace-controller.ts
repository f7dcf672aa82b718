import { RequestCommand } from '../commands.ts';
import type { Composition } from '../composition.ts';
import { namespaceControllerAccount } from '../scope.ts';
import type { Enabled, SystemState } from '../system-types.ts';

const sender = {
  actor: 'namespace-controller',
  actorKind: 'namespace-controller' as const,
  principal: {
    name: namespaceControllerAccount,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
  },
};

/** The namespace controller syncs namespace slot i: empties a terminating namespace and removes `kubernetes` (LC-5, LC-6). */
export function namespaceControllerSyncs(
  m: Composition,
  s: SystemState,
  _k: number,
  i: number,
  out: Enabled[],
): void {
  const ns = s.namespaces[i];
  const v = m.view(s, i);
  // No namespace object, nothing the controller's watch sees.
  if (v.value === 'absent' || v.value === 'removed') return;
  // Only where DELETE leaves the phase to the controller (a design alternative of D-11): it sets Terminating.
  if (v.deletedSecondsAgo !== null && (v.value === 'active' || v.value === 'initializing')) {
    out.push(new RequestCommand({ ...sender, kind: 'delete-namespace', namespace: i }).run(m, s));
    return;
  }
  // Which namespaces it acts on is the machine's rule (its guards), not decided here.
  const observed = {
    terminating: v.value === 'terminating',
    contentRemains: ns.content !== 0,
    finalizers: v.finalizers,
  };
  const step = m.namespaceControllerStepper.step(
    m.namespaceControllerStepper.initial,
    { type: 'SYNC', observed },
    `SYNC|${observed.terminating}|${observed.contentRemains}|${observed.finalizers.join(',')}`,
  );
  for (const effect of step.emitted) {
    const slot = m.objects.findIndex((_, k) => (ns.content & (1 << k)) !== 0);
    const base = { ...sender, namespace: i };
    const command: RequestCommand | null =
      effect.type === 'deleteOneContentObject'
        ? slot >= 0
          ? new RequestCommand({ ...base, kind: 'delete-content', object: slot })
          : null
        : effect.type === 'finalizeKubernetes'
          ? new RequestCommand({ ...base, kind: 'finalize-without-kubernetes' })
          : new RequestCommand({ ...base, kind: 'delete-namespace' });
    if (command) out.push(m.withExtraTransitions(command.run(m, s), step.transitions));
  }
}
