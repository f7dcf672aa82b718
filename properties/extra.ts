import { onStep, stepProperty } from './declare.ts';
import { intentOf } from './intent.ts';
import { eachChanged, exists, pairs, someChanged } from './steps.ts';
import type { Property } from './types.ts';

/**
 * Safety properties for LC-2, LC-5 and LC-8, which no-orphans would otherwise catch only through their
 * consequence, several steps later. Stated directly, they name the broken rule at the step that
 * breaks it.
 */

/** LC-2: the finalizer every namespace is created with, as the documents name it. */
const kubernetesFinalizer = 'kubernetes';

export const kubernetesFinalizerOnCreate = stepProperty('kubernetes-finalizer-on-create', ['LC-2'], {
  statement: 'Every namespace is created with `kubernetes` in spec.finalizers.',
  predicate: eachChanged(({ b, a }) => {
    if (!exists(b) && exists(a) && !a.finalizers.includes(kubernetesFinalizer)) {
      return `${a.name} was created with finalizers ${JSON.stringify(a.finalizers)}, without ${kubernetesFinalizer}`;
    }
    return true;
  }),
  witness: onStep(
    'a namespace is created',
    someChanged(({ b, a }) => !exists(b) && exists(a)),
  ),
});

export const contentGoneBeforeFinalize = stepProperty('content-gone-before-finalize', ['LC-5', 'LC-9'], {
  statement: '`kubernetes` leaves the finalizers of a namespace only once none of its content is left.',
  predicate: eachChanged(({ b, a, event }) => {
    if (
      !exists(a) ||
      !b.finalizers.includes(kubernetesFinalizer) ||
      a.finalizers.includes(kubernetesFinalizer)
    )
      return true;
    if (b.content !== 0)
      return `${event.actor} removed ${kubernetesFinalizer} from ${b.name} while it still held content`;
    return true;
  }),
  witness: onStep(
    '`kubernetes` is removed from the finalizers of a namespace',
    someChanged(
      ({ b, a }) =>
        exists(a) &&
        b.finalizers.includes(kubernetesFinalizer) &&
        !a.finalizers.includes(kubernetesFinalizer),
    ),
  ),
});

export const ownersRemoveOnlyTheirOwn = stepProperty('owners-remove-only-their-own', ['LC-8'], {
  statement:
    "A finalizer's owner (the namespace controller for `kubernetes`, each external system for its own) removes only finalizers it owns, never another owner's.",
  predicate: (model, before, event, after) => {
    const who = event.request?.principal.name;
    const owners = intentOf(model.scope).finalizerOwners;
    if (who === undefined || !Object.values(owners).includes(who)) return true;
    for (const { b, a } of pairs(model, before, after)) {
      if (!exists(a)) continue;
      const foreign = b.finalizers.filter((f) => owners[f] !== who && !a.finalizers.includes(f));
      if (foreign.length > 0) return `${event.actor} removed ${JSON.stringify(foreign)} from ${b.name}`;
    }
    return true;
  },
  witness: onStep("a finalizer owner changes a namespace's finalizers", (model, before, event, after) => {
    const who = event.request?.principal.name;
    return (
      who !== undefined &&
      Object.values(intentOf(model.scope).finalizerOwners).includes(who) &&
      pairs(model, before, after).some(({ b, a }) => exists(a) && b.finalizers.length !== a.finalizers.length)
    );
  }),
});

export const extraProperties: Property[] = [
  kubernetesFinalizerOnCreate,
  contentGoneBeforeFinalize,
  ownersRemoveOnlyTheirOwn,
];
