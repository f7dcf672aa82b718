import { kubernetesFinalizer } from '../machines/namespace-controller.ts';
import type { NamespaceView, SystemModel, SystemState } from '../machines/system.ts';
import type { Property } from './types.ts';

/**
 * Safety properties for LC-2, LC-5 and LC-8, which `safetyProperties` checks only through their
 * consequence (no-orphans, several steps later). Stated directly, they name the broken rule at the
 * step that breaks it; candidates to merge into `safetyProperties`.
 */

const exists = (v: NamespaceView) => v.value !== 'absent' && v.value !== 'removed';
const pairs = (model: SystemModel, before: SystemState, after: SystemState) =>
  before.namespaces.map((_, i) => ({ b: model.view(before, i), a: model.view(after, i) }));

export const kubernetesFinalizerOnCreate: Property = {
  id: 'kubernetes-finalizer-on-create',
  statement: 'Every namespace is created with `kubernetes` in spec.finalizers.',
  requirements: ['LC-2'],
  kind: 'step',
  predicate: (model, before, _event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (!exists(b) && exists(a) && !a.finalizers.includes(kubernetesFinalizer)) {
        return `${a.name} was created with finalizers ${JSON.stringify(a.finalizers)}, without ${kubernetesFinalizer}`;
      }
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'a namespace is created',
    test: (model, before, _event, after) =>
      pairs(model, before, after).some(({ b, a }) => !exists(b) && exists(a)),
  },
};

export const contentGoneBeforeFinalize: Property = {
  id: 'content-gone-before-finalize',
  statement: '`kubernetes` leaves the finalizers of a namespace only once none of its content is left.',
  requirements: ['LC-5', 'LC-9'],
  kind: 'step',
  predicate: (model, before, event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (
        !exists(a) ||
        !b.finalizers.includes(kubernetesFinalizer) ||
        a.finalizers.includes(kubernetesFinalizer)
      )
        continue;
      if (b.content !== 0)
        return `${event.actor} removed ${kubernetesFinalizer} from ${b.name} while it still held content`;
    }
    return true;
  },
  witness: {
    on: 'step',
    description: '`kubernetes` is removed from the finalizers of a namespace',
    test: (model, before, _event, after) =>
      pairs(model, before, after).some(
        ({ b, a }) =>
          exists(a) &&
          b.finalizers.includes(kubernetesFinalizer) &&
          !a.finalizers.includes(kubernetesFinalizer),
      ),
  },
};

export const ownersRemoveOnlyTheirOwn: Property = {
  id: 'owners-remove-only-their-own',
  statement: "An external finalizer owner removes only its own finalizer, never another owner's.",
  requirements: ['LC-8'],
  kind: 'step',
  predicate: (model, before, event, after) => {
    if (event.actorKind !== 'finalizer-owner') return true;
    for (const { b, a } of pairs(model, before, after)) {
      if (!exists(a)) continue;
      const foreign = b.finalizers.filter((f) => f !== event.actor && !a.finalizers.includes(f));
      if (foreign.length > 0) return `${event.actor} removed ${JSON.stringify(foreign)} from ${b.name}`;
    }
    return true;
  },
  witness: {
    on: 'step',
    description: "a finalizer owner changes a namespace's finalizers",
    test: (model, before, event, after) =>
      event.actorKind === 'finalizer-owner' &&
      pairs(model, before, after).some(
        ({ b, a }) => exists(a) && b.finalizers.length !== a.finalizers.length,
      ),
  },
};

export const extraProperties: Property[] = [
  kubernetesFinalizerOnCreate,
  contentGoneBeforeFinalize,
  ownersRemoveOnlyTheirOwn,
];
