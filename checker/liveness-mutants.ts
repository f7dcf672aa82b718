import type { Variant } from '../machines/variants.ts';

/**
 * Seeded faults that no safety property can see: each lets a namespace stay Terminating forever, and
 * `terminating-namespace-is-removed` must kill it with a lasso. Written as variants so the registry in
 * machines/variants.ts (and `npm run mutants`) can take them as they are.
 */
export const livenessMutants: (Variant & { killedBy: string })[] = [
  {
    name: 'controller-never-finalizes',
    kind: 'mutant',
    description:
      'The namespace controller deletes the content but never removes the `kubernetes` finalizer, so the namespace is never purged.',
    requirements: ['LC-5', 'LC-7'],
    killedBy: 'terminating-namespace-is-removed',
    machines: (base) => ({
      ...base,
      namespaceController: base.namespaceController.provide({
        guards: { kubernetesFinalizerPresent: () => false },
      }),
    }),
  },
  {
    name: 'owner-keeps-its-finalizer',
    kind: 'mutant',
    description: 'A finalizer owner purges its external content but never removes its own finalizer (LC-8).',
    requirements: ['LC-8', 'LC-7'],
    killedBy: 'terminating-namespace-is-removed',
    machines: (base) => ({
      ...base,
      finalizerOwner: base.finalizerOwner.provide({ guards: { terminatingWithOwnFinalizer: () => false } }),
    }),
  },
  {
    name: 'owner-reprovisions-while-terminating',
    kind: 'mutant',
    description:
      'A finalizer owner provisions its external content again whenever it finds none, even in a terminating namespace: it purges and re-provisions forever and never gets to remove its finalizer (a livelock, not a stop).',
    requirements: ['LC-8', 'LC-9'],
    killedBy: 'terminating-namespace-is-removed',
    machines: (base) => ({
      ...base,
      finalizerOwner: base.finalizerOwner.provide({
        guards: {
          activeWithOwnFinalizerAndNothingProvisioned: ({ event }) =>
            (event.observed.namespaceActive || event.observed.namespaceTerminating) &&
            event.observed.finalizers.includes(event.observed.owner) &&
            !event.observed.externalContentExists,
        },
      }),
    }),
  },
];
