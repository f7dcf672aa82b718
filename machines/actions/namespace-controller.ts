import { namespaceControllerAccount } from '../scope.ts';
import type { SystemModel } from '../system.ts';
import type { ApiRequest, Enabled, SystemState } from '../system-types.ts';

/** The namespace controller empties a terminating namespace and removes `kubernetes` (LC-5, LC-6). */
export function namespaceControllerSteps(m: SystemModel, s: SystemState, out: Enabled[]): void {
  const account = {
    name: namespaceControllerAccount,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
  };
  s.namespaces.forEach((ns, i) => {
    const v = m.view(s, i);
    if (v.value !== 'terminating') {
      // Only where DELETE leaves the phase to the controller (a design alternative of D-11): it sets Terminating.
      if (v.deletedSecondsAgo !== null && (v.value === 'active' || v.value === 'initializing'))
        out.push(
          m.perform(
            s,
            { principal: account, verb: 'delete', target: 'namespace', namespace: i, object: -1 },
            'namespace-controller',
            'namespace-controller',
          ),
        );
      return;
    }
    const observed = { contentRemains: ns.content !== 0, finalizers: v.finalizers };
    const step = m.namespaceControllerStepper.step(
      m.namespaceControllerStepper.initial,
      { type: 'SYNC', observed },
      `SYNC|${observed.contentRemains}|${observed.finalizers.join(',')}`,
    );
    for (const effect of step.emitted) {
      const slot = m.objects.findIndex((_, k) => (ns.content & (1 << k)) !== 0);
      const base = { principal: account, namespace: i };
      const request: ApiRequest | null =
        effect.type === 'deleteOneContentObject'
          ? slot >= 0
            ? { ...base, verb: 'delete', target: 'content', object: slot }
            : null
          : effect.type === 'finalizeKubernetes'
            ? {
                ...base,
                verb: 'finalize',
                target: 'namespace',
                object: -1,
                body: { finalizeWithoutKubernetes: true },
              }
            : { ...base, verb: 'delete', target: 'namespace', object: -1 };
      if (request)
        out.push(
          m.withExtraTransitions(
            m.perform(s, request, 'namespace-controller', 'namespace-controller'),
            step.transitions,
          ),
        );
    }
  });
}
