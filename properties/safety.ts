import { configurationStaleAfterSeconds } from '../machines/config-sync.ts';
import { validateFinalizerName, validateNamespaceName } from '../machines/names.ts';
import { immortalNamespaces } from '../machines/scope.ts';
import type { NamespaceView, SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { timingProperties } from './timing.ts';
import type { Property } from './types.ts';

/**
 * The safety properties of the namespace lifecycle and initializers, stated up front in words next to
 * their predicates. Each cites the requirement IDs it checks and has a witness showing its premise is
 * reachable, so a property that never had anything to check is reported vacuous, not holding.
 */

const exists = (v: NamespaceView) => v.value !== 'absent' && v.value !== 'removed';
const succeeded = (e: SystemEvent) =>
  e.response !== undefined && e.response.code >= 200 && e.response.code < 300;
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
/** The namespace a step addressed, before and after. */
const addressed = (model: SystemModel, before: SystemState, event: SystemEvent, after: SystemState) =>
  event.namespace >= 0
    ? { b: model.view(before, event.namespace), a: model.view(after, event.namespace) }
    : null;
/**
 * The namespaces a step changed, before and after. Namespace states are interned, so an unchanged
 * namespace is the same object and is skipped: properties about change have nothing to judge there.
 */
const pairs = (model: SystemModel, before: SystemState, after: SystemState) => {
  const out: { b: NamespaceView; a: NamespaceView }[] = [];
  if (before === after) return out;
  for (let i = 0; i < before.namespaces.length; i++) {
    if (before.namespaces[i] !== after.namespaces[i])
      out.push({ b: model.view(before, i), a: model.view(after, i) });
  }
  return out;
};

export const noAccessBeforeReady: Property = {
  id: 'no-access-before-ready',
  statement:
    'While a namespace is initializing, every request on resources inside it from a principal without the initialize verb is refused.',
  requirements: ['IN-6'],
  kind: 'step',
  predicate: (model, before, event) => {
    const r = event.request;
    if (!r || r.target !== 'content' || r.namespace < 0 || r.callerMayInitialize) return true;
    if (model.view(before, r.namespace).value !== 'initializing') return true;
    return succeeded(event)
      ? `${event.actor} got ${event.response?.code} for "${event.label}" while ${model.view(before, r.namespace).name} is initializing`
      : true;
  },
  witness: {
    on: 'step',
    description: 'a principal without initialize sends a request into an initializing namespace',
    test: (model, before, event) => {
      const r = event.request;
      return (
        !!r &&
        r.target === 'content' &&
        r.namespace >= 0 &&
        !r.callerMayInitialize &&
        model.view(before, r.namespace).value === 'initializing'
      );
    },
  },
};

export const noRemovalWithFinalizers: Property = {
  id: 'no-removal-with-finalizers',
  statement:
    'A namespace is removed from storage only when it has a deletion timestamp and no finalizers left.',
  requirements: ['LC-7'],
  kind: 'step',
  predicate: (model, before, _event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (exists(b) && a.value === 'removed') {
        if (b.finalizers.length > 0)
          return `${b.name} was removed with finalizers ${JSON.stringify(b.finalizers)}`;
        if (b.deletedSecondsAgo === null) return `${b.name} was removed without a deletion timestamp`;
      }
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'a namespace is removed from storage',
    test: (model, before, _event, after) =>
      pairs(model, before, after).some(({ b, a }) => exists(b) && a.value === 'removed'),
  },
};

export const noCreateInTerminating: Property = {
  id: 'no-create-in-terminating',
  statement: 'No new content appears in a terminating namespace.',
  requirements: ['LC-4'],
  kind: 'step',
  predicate: (model, before, _event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (b.value === 'terminating' && (a.content & ~b.content) !== 0) {
        return `new content ${describeContent(model, a.content & ~b.content)} appeared in terminating namespace ${b.name}`;
      }
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'a create request addresses content in a terminating namespace',
    test: (model, before, event) => {
      const r = event.request;
      return (
        !!r &&
        r.target === 'content' &&
        r.verb === 'create' &&
        r.namespace >= 0 &&
        model.view(before, r.namespace).value === 'terminating'
      );
    },
  },
};

export const noOrphans: Property = {
  id: 'no-orphans',
  statement:
    'No content, inside the cluster or in an external system, belongs to a namespace that does not exist.',
  requirements: ['NS-2', 'LC-9'],
  kind: 'invariant',
  predicate: (model, state) => {
    for (const v of model.views(state)) {
      if (exists(v)) continue;
      if (v.content !== 0) return `${v.name} does not exist but holds ${describeContent(model, v.content)}`;
      if (v.external !== 0)
        return `${v.name} does not exist but external content of ${describeOwners(model, v.external)} remains`;
    }
    return true;
  },
  witness: {
    on: 'state',
    description: 'a namespace that held content has been removed',
    test: (model, state) => model.views(state).some((v) => v.value === 'removed'),
  },
};

export const initializedIsForever: Property = {
  id: 'initialized-is-forever',
  statement:
    'Once a namespace is initialized its pending list never grows again and it never returns to Initializing.',
  requirements: ['IN-4'],
  kind: 'step',
  predicate: (model, before, _event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (b.value !== 'active' && b.value !== 'terminating') continue;
      if (!exists(a)) continue;
      if (a.value === 'initializing') return `${b.name} went from ${b.value} back to initializing`;
      if (a.pending.length > 0) return `${b.name} regained pending initializers ${JSON.stringify(a.pending)}`;
    }
    return true;
  },
  witness: {
    on: 'state',
    description: 'an initialized namespace exists',
    test: (model, state) => model.views(state).some((v) => v.value === 'active' && !v.system),
  },
};

export const initializersInOrder: Property = {
  id: 'initializers-in-order',
  statement: 'Pending initializers complete in order: only the first pending one may be removed.',
  requirements: ['IN-2'],
  kind: 'step',
  predicate: (model, before, _event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (b.value !== 'initializing' || !exists(a) || a.value === 'terminating') continue;
      if (sameList(a.pending, b.pending)) continue;
      if (!sameList(a.pending, b.pending.slice(1))) {
        return `${b.name}: pending ${JSON.stringify(b.pending)} became ${JSON.stringify(a.pending)}, not by removing the first`;
      }
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'an initializer is removed while another is still pending behind it',
    test: (model, before, _event, after) =>
      pairs(model, before, after).some(
        ({ b, a }) =>
          b.value === 'initializing' && b.pending.length >= 2 && a.pending.length === b.pending.length - 1,
      ),
  },
};

export const pendingOnlyByInitializers: Property = {
  id: 'pending-only-by-initializers',
  statement:
    'The pending list and result change only through admission at creation, a principal holding initialize, or the failure-policy timers and read-repair.',
  requirements: ['IN-3', 'IN-1', 'FP-2', 'FP-4'],
  kind: 'step',
  predicate: (model, before, event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (!exists(b) && exists(a)) {
        const injected = model.pendingToInject(before);
        const chosenByInitializeHolder =
          event.request?.callerMayInitialize === true && event.request.body?.initializers !== undefined;
        if (!chosenByInitializeHolder && !sameList(a.pending, injected)) {
          return `${a.name} was created with pending ${JSON.stringify(a.pending)}; admission injects ${JSON.stringify(injected)}`;
        }
        continue;
      }
      if (!exists(b) || !exists(a)) continue;
      const changed =
        !sameList(a.pending, b.pending) || (a.failure?.reason ?? null) !== (b.failure?.reason ?? null);
      if (!changed) continue;
      const byDeletion = a.value === 'terminating' && b.value !== 'terminating' && a.pending.length === 0;
      const byTimerOrRepair =
        event.actorKind === 'apiserver' ||
        (event.request?.verb === 'get' && event.request.target === 'namespace');
      const byInitializer = event.request?.callerMayInitialize === true;
      if (!byDeletion && !byTimerOrRepair && !byInitializer) {
        return `${event.actor} changed ${b.name}'s initializers without the initialize verb ("${event.label}")`;
      }
    }
    return true;
  },
  witness: {
    on: 'step',
    description: "a namespace's pending list or result changes",
    test: (model, before, _event, after) =>
      pairs(model, before, after).some(
        ({ b, a }) => exists(b) && exists(a) && (!sameList(a.pending, b.pending) || a.failure !== b.failure),
      ),
  },
};

export const finalizersOnlyByFinalize: Property = {
  id: 'finalizers-only-by-finalize',
  statement:
    'After creation, spec.finalizers changes only through the finalize sub-resource, and only shrinks once terminating.',
  requirements: ['LC-6', 'LC-8'],
  kind: 'step',
  predicate: (model, before, event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (!exists(b) || !exists(a) || sameList(a.finalizers, b.finalizers)) continue;
      if (event.request?.verb !== 'finalize')
        return `${b.name}'s finalizers changed by "${event.label}", not by finalize`;
      if (b.value === 'terminating' && a.finalizers.some((f) => !b.finalizers.includes(f))) {
        return `${b.name}'s finalizers grew while terminating: ${JSON.stringify(b.finalizers)} → ${JSON.stringify(a.finalizers)}`;
      }
    }
    return true;
  },
  witness: {
    on: 'step',
    description: "a namespace's finalizers change",
    test: (model, before, _event, after) =>
      pairs(model, before, after).some(
        ({ b, a }) => exists(b) && exists(a) && !sameList(a.finalizers, b.finalizers),
      ),
  },
};

export const failedNeverActive: Property = {
  id: 'failed-never-active',
  statement: 'A namespace with a failure result is being deleted and never becomes Active.',
  requirements: ['IN-7'],
  kind: 'invariant',
  predicate: (model, state) => {
    for (const v of model.views(state)) {
      if (v.failure === null) continue;
      if (v.value === 'active') return `${v.name} is Active with failure result ${v.failure.reason}`;
      if (v.deletedSecondsAgo === null)
        return `${v.name} has failure result ${v.failure.reason} but no deletion timestamp`;
    }
    return true;
  },
  witness: {
    on: 'state',
    description: 'a namespace carries a failure result',
    test: (model, state) => model.views(state).some((v) => v.failure !== null),
  },
};

export const phaseConsistency: Property = {
  id: 'phase-consistency',
  statement:
    'A namespace is Terminating exactly when it has a deletion timestamp, Initializing exactly when initializers are pending, and its deletion timestamp never changes once set.',
  requirements: ['LC-3', 'IN-5', 'LC-1'],
  kind: 'step',
  predicate: (model, before, _event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      if (!exists(a)) continue;
      if ((a.value === 'terminating') !== (a.deletedSecondsAgo !== null)) {
        return `${a.name} is ${a.value} with ${a.deletedSecondsAgo === null ? 'no deletion timestamp' : 'a deletion timestamp'}`;
      }
      if (a.value !== 'terminating' && (a.value === 'initializing') !== a.pending.length > 0) {
        return `${a.name} is ${a.value} with pending ${JSON.stringify(a.pending)}`;
      }
      // Time is relative: a timestamp whose age drops back was stamped anew (docs/time.md).
      if (
        exists(b) &&
        b.deletedSecondsAgo !== null &&
        a.deletedSecondsAgo !== null &&
        a.deletedSecondsAgo < b.deletedSecondsAgo
      ) {
        return `${a.name}'s deletion timestamp changed: it was ${b.deletedSecondsAgo}s old, now ${a.deletedSecondsAgo}s`;
      }
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'a namespace is deleted while it exists',
    test: (model, before, _event, after) =>
      pairs(model, before, after).some(
        ({ b, a }) => exists(b) && b.value !== 'terminating' && a.value === 'terminating',
      ),
  },
};

export const tenantIsolation: Property = {
  id: 'tenant-isolation',
  statement:
    "A tenant never reads or changes anything inside another tenant's namespace, nor sees it in a list.",
  requirements: ['RB-4', 'RB-5', 'RB-6', 'NS-7'],
  kind: 'step',
  predicate: (model, _before, event) => {
    const r = event.request;
    if (!r || !isTenant(model, r.principal.name)) return true;
    // A list is judged by the items it returned: a 200 with no foreign item shows nothing (D-15).
    if (
      r.target === 'content' &&
      r.verb !== 'list' &&
      r.namespace >= 0 &&
      foreign(model, r.principal.name, r.namespace) &&
      succeeded(event)
    ) {
      return `tenant ${r.principal.name} got ${event.response?.code} for "${event.label}"`;
    }
    const leaked = (event.items ?? []).filter((item) => {
      const ns = model.scope.namespaces.findIndex((n) => n.name === item.split('/')[0]);
      return ns >= 0 && foreign(model, r.principal.name, ns);
    });
    return leaked.length > 0 ? `tenant ${r.principal.name} listed ${leaked.join(', ')}` : true;
  },
  witness: {
    on: 'step',
    description: "a tenant sends a request into another tenant's namespace, or a list answered with items",
    test: (model, _before, event) => {
      const r = event.request;
      if (!r || !isTenant(model, r.principal.name)) return false;
      if (r.verb === 'list') return (event.items ?? []).length > 0;
      return r.namespace >= 0 && foreign(model, r.principal.name, r.namespace);
    },
  },
};

export const configFreshness: Property = {
  id: 'config-freshness',
  statement: 'No write is admitted when the admission configuration has not been read successfully for 5 s.',
  requirements: ['AC-2', 'AC-3', 'AC-1'],
  kind: 'step',
  predicate: (model, before, event) => {
    const age = model.systemView(before).secondsSinceConfigRead;
    const write =
      event.request !== undefined && event.request.verb !== 'get' && event.request.verb !== 'list';
    if (write && age >= configurationStaleAfterSeconds && succeeded(event)) {
      return `"${event.label}" admitted ${age}s after the last successful configuration read`;
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'a write arrives 5 s or more after the last successful configuration read',
    test: (model, before, event) =>
      !!event.request &&
      event.request.verb !== 'get' &&
      event.request.verb !== 'list' &&
      model.systemView(before).secondsSinceConfigRead >= configurationStaleAfterSeconds,
  },
};

export const uniqueNames: Property = {
  id: 'unique-names',
  statement:
    'A create never succeeds for a name that already exists: names are unique per kind per namespace.',
  requirements: ['NS-3'],
  kind: 'step',
  predicate: (model, before, event) => {
    const r = event.request;
    if (!r || r.verb !== 'create' || !succeeded(event) || r.namespace < 0) return true;
    const v = model.view(before, r.namespace);
    if (r.target === 'namespace' && exists(v))
      return `namespace ${v.name} was created while it already existed`;
    if (r.target === 'content' && r.object >= 0 && (v.content & (1 << r.object)) !== 0) {
      return `${model.objectName(r.object)} was created twice in ${v.name}`;
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'a create names an object or namespace that already exists',
    test: (model, before, event) => {
      const r = event.request;
      if (!r || r.verb !== 'create' || r.namespace < 0) return false;
      const v = model.view(before, r.namespace);
      return r.target === 'namespace' ? exists(v) : r.object >= 0 && (v.content & (1 << r.object)) !== 0;
    },
  },
};

export const validNames: Property = {
  id: 'valid-names',
  statement:
    'Every stored namespace name is a DNS label and every finalizer name is `kubernetes` or a qualified name.',
  requirements: ['NS-1', 'LC-2'],
  kind: 'invariant',
  predicate: (model, state) => {
    for (const v of model.views(state)) {
      if (!exists(v)) continue;
      const nameErrors = validateNamespaceName(v.name);
      if (nameErrors.length > 0) return `namespace "${v.name}" is stored: ${nameErrors[0]}`;
      for (const f of v.finalizers) {
        const errors = validateFinalizerName(f);
        if (errors.length > 0) return `${v.name} stores finalizer "${f}": ${errors[0]}`;
      }
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'a create or finalize carries an invalid namespace or finalizer name',
    test: (model, before, event) => {
      const r = event.request;
      if (!r || r.target !== 'namespace' || r.namespace < 0) return false;
      const name = model.scope.namespaces[r.namespace].name;
      if (r.verb === 'create') {
        return (
          validateNamespaceName(name).length > 0 ||
          (r.body?.extraFinalizers ?? []).some((f) => validateFinalizerName(f).length > 0)
        );
      }
      return (
        r.verb === 'finalize' &&
        (r.body?.finalizers ?? []).some((f) => validateFinalizerName(f).length > 0) &&
        exists(model.view(before, r.namespace))
      );
    },
  },
};

export const systemNamespacesImmortal: Property = {
  id: 'system-namespaces-immortal',
  statement: '`default`, `kube-system` and `kube-public` always exist and never start terminating.',
  requirements: ['LC-10'],
  kind: 'invariant',
  predicate: (model, state) => {
    for (const v of model.views(state)) {
      if (!immortalNamespaces.includes(v.name)) continue;
      if (v.value !== 'active') return `system namespace ${v.name} is ${v.value}`;
    }
    return true;
  },
  witness: {
    on: 'step',
    description: 'someone asks to delete a system namespace',
    test: (model, _before, event) => {
      const r = event.request;
      return (
        !!r &&
        r.target === 'namespace' &&
        r.verb === 'delete' &&
        r.namespace >= 0 &&
        immortalNamespaces.includes(model.scope.namespaces[r.namespace].name)
      );
    },
  },
};

export const safetyProperties: Property[] = [
  noAccessBeforeReady,
  noRemovalWithFinalizers,
  noCreateInTerminating,
  noOrphans,
  initializedIsForever,
  initializersInOrder,
  pendingOnlyByInitializers,
  finalizersOnlyByFinalize,
  failedNeverActive,
  phaseConsistency,
  tenantIsolation,
  configFreshness,
  uniqueNames,
  validNames,
  systemNamespacesImmortal,
  // Timing safety (FP-1, FP-2, FP-4, AC-1..AC-3), judged from ages and the scope's declared bounds.
  ...timingProperties,
];

function isTenant(model: SystemModel, principal: string): boolean {
  return model.scope.principals.some((p) => p.name === principal && p.tenant === true);
}

/** A namespace created by someone other than this tenant. */
function foreign(model: SystemModel, principal: string, namespace: number): boolean {
  const creator = model.scope.namespaces[namespace].creator;
  return creator !== undefined && creator !== principal;
}

function describeContent(model: SystemModel, mask: number): string {
  return model.objects
    .map((_, k) => k)
    .filter((k) => mask & (1 << k))
    .map((k) => model.objectName(k))
    .join(', ');
}

function describeOwners(model: SystemModel, mask: number): string {
  return model.scope.finalizerOwners.filter((_, k) => mask & (1 << k)).join(', ');
}
