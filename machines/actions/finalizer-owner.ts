import { RequestCommand } from '../commands.ts';
import type { Composition } from '../composition.ts';
import { finalizerOwnerAccount } from '../scope.ts';
import type { LocalAction } from '../system-types.ts';

/** Finalizer owner k syncs namespace slot i: provisions or purges its external content, removes only its own finalizer (LC-8). */
export const finalizerOwnerSyncs: LocalAction<Composition> = (m, s, k, i, out) => {
  const owner = m.scope.finalizerOwners[k];
  const account = { name: finalizerOwnerAccount(owner), groups: ['system:serviceaccounts'] };
  const ns = s.namespaces[i];
  const v = m.view(s, i);
  if (v.value === 'absent' || v.value === 'removed') return;
  const observed = {
    owner,
    namespaceActive: v.value === 'active',
    namespaceTerminating: v.value === 'terminating',
    finalizers: v.finalizers,
    externalContentExists: (ns.external & (1 << k)) !== 0,
  };
  const step = m.finalizerOwnerStepper.step(
    m.finalizerOwnerStepper.initial,
    { type: 'SYNC', observed },
    `SYNC|${owner}|${v.value}|${v.finalizers.join(',')}|${observed.externalContentExists}`,
  );
  for (const effect of step.emitted) {
    if (effect.type !== 'removeOwnFinalizer') {
      const provision = effect.type === 'provisionExternalContent';
      out.push({
        event: m.internEvent({
          actor: owner,
          actorKind: 'finalizer-owner',
          label: provision
            ? `provisions its external content for ${v.name}`
            : `purges its external content for ${v.name}`,
          namespace: i,
          transitions: step.transitions,
        }),
        next: m.withNamespace(s, i, {
          external: provision ? ns.external | (1 << k) : ns.external & ~(1 << k),
        }),
      });
    } else {
      const command = new RequestCommand({
        actor: owner,
        actorKind: 'finalizer-owner',
        principal: account,
        kind: 'finalize',
        namespace: i,
        finalizers: effect.finalizers,
      });
      out.push(m.withExtraTransitions(command.run(m, s), step.transitions));
    }
  }
};
