import { immortalNamespaces } from '../machines/scope.ts';
import type { NamespaceView, SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { clusterWideAsDeclared } from './cluster-wide.ts';
import { deletecollectionWhileTerminating } from './collection.ts';
import { contentChangesOnlyByRequests } from './content-frame.ts';
import { invariant, onState, onStep, stepProperty } from './declare.ts';
import { noEscalationThroughBindings } from './escalation.ts';
import { extraProperties } from './extra.ts';
import {
  documentedPendingList,
  type Intent,
  intentOf,
  isDnsLabelName,
  isFinalizerName,
  meantToInitialize,
} from './intent.ts';
import {
  addressedBy,
  describeContent,
  eachChanged,
  exists,
  foreignIn,
  itemNamespace,
  namespaceName,
  ownersOf,
  pairs,
  sameList,
  someChanged,
  staleAfterSeconds,
  succeeded,
} from './steps.ts';
import { timingProperties } from './timing.ts';
import type { Property } from './types.ts';
import { watchBeforeReady } from './watch.ts';

/**
 * The safety properties of the namespace lifecycle and initializers, stated up front in words next to
 * their predicates. Each cites the requirement IDs it checks and has a witness showing its premise is
 * reachable, so a property that never had anything to check is reported vacuous, not holding. They
 * judge from the scope's declared intent (intent.ts) and what a step did, never by calling the
 * authorization, admission, timer or configuration code they judge.
 */

export const noAccessBeforeReady = stepProperty('no-access-before-ready', ['IN-6'], {
  statement:
    'While a namespace is initializing, every request on resources inside it from a principal not meant to hold initialize is refused, and lists leave its content out.',
  predicate: (model, before, event) => {
    const r = event.request;
    if (r?.target !== 'content' || meantToInitialize(intentOf(model.scope), r.principal.name)) return true;
    if (r.verb === 'list') {
      const shown = (event.items ?? []).filter((item) =>
        initializingByName(model, before, itemNamespace(item)),
      );
      return shown.length > 0 ? `${r.principal.name} listed ${shown.join(', ')} while initializing` : true;
    }
    if (r.namespace < 0 || model.view(before, r.namespace).value !== 'initializing') return true;
    return succeeded(event)
      ? `${r.principal.name} got ${event.response?.code} for "${event.label}" while ${model.view(before, r.namespace).name} is initializing`
      : true;
  },
  witness: onStep(
    'a principal not meant to hold initialize sends a request into an initializing namespace',
    (model, before, event) => {
      const r = event.request;
      return (
        !!r &&
        r.target === 'content' &&
        r.namespace >= 0 &&
        !meantToInitialize(intentOf(model.scope), r.principal.name) &&
        model.view(before, r.namespace).value === 'initializing'
      );
    },
  ),
});

export const neverInitializedStaysClosed = stepProperty('never-initialized-stays-closed', ['IN-6', 'IN-4'], {
  statement:
    'A namespace is initialized only when its pending list empties without a failure result, and stays so; one deleted or failed before that stays closed while it terminates: requests on its content from a principal not meant to hold initialize are refused (a delete, which only purges, excepted), and lists leave its content out.',
  predicate: (model, before, event, after) => {
    for (const { b, a } of pairs(model, before, after)) {
      const marked = initializedMarkChange(b, a);
      if (marked !== true) return marked;
    }
    const r = event.request;
    if (r?.target !== 'content' || meantToInitialize(intentOf(model.scope), r.principal.name)) return true;
    if (r.verb === 'list') {
      const shown = (event.items ?? []).filter((item) => closedByName(model, before, itemNamespace(item)));
      return shown.length > 0
        ? `${r.principal.name} listed ${shown.join(', ')}, of a namespace never initialized`
        : true;
    }
    // D-33: a delete of content in a terminating namespace only purges it and reveals nothing.
    if (
      r.namespace < 0 ||
      r.verb === 'delete' ||
      !neverInitializedTerminating(model.view(before, r.namespace))
    )
      return true;
    return succeeded(event)
      ? `${r.principal.name} got ${event.response?.code} for "${event.label}" in ${model.view(before, r.namespace).name}, deleted before it was initialized`
      : true;
  },
  witness: onStep(
    'a principal not meant to hold initialize reads or lists content of a terminating namespace that was never initialized, while it holds content',
    (model, before, event) => {
      const r = event.request;
      if (r?.target !== 'content' || r.verb === 'delete') return false;
      if (meantToInitialize(intentOf(model.scope), r.principal.name)) return false;
      const closed = (v: NamespaceView) => neverInitializedTerminating(v) && v.content !== 0;
      return r.namespace >= 0 ? closed(model.view(before, r.namespace)) : model.views(before).some(closed);
    },
  ),
});

export const noRemovalWithFinalizers = stepProperty('no-removal-with-finalizers', ['LC-7'], {
  statement:
    'A namespace is removed from storage only when it has a deletion timestamp and no finalizers left, in spec.finalizers or metadata.finalizers (D-46).',
  predicate: eachChanged(({ b, a }) => {
    if (exists(b) && a.value === 'removed') {
      if (b.finalizers.length > 0)
        return `${b.name} was removed with finalizers ${JSON.stringify(b.finalizers)}`;
      if (b.metadataFinalizers.length > 0)
        return `${b.name} was removed with metadata finalizers ${JSON.stringify(b.metadataFinalizers)}`;
      if (b.deletedSecondsAgo === null) return `${b.name} was removed without a deletion timestamp`;
    }
    return true;
  }),
  witness: onStep(
    'a namespace is removed from storage',
    someChanged(({ b, a }) => exists(b) && a.value === 'removed'),
  ),
});

export const noCreateInTerminating = stepProperty('no-create-in-terminating', ['LC-4'], {
  statement: 'No new content appears in a terminating namespace.',
  predicate: eachChanged(({ b, a, model }) => {
    if (b.value === 'terminating' && (a.content & ~b.content) !== 0) {
      return `new content ${describeContent(model, a.content & ~b.content)} appeared in terminating namespace ${b.name}`;
    }
    return true;
  }),
  witness: onStep(
    'a create request addresses content in a terminating namespace',
    (model, before, event) => addressedBy(model, before, event, 'content', 'create')?.value === 'terminating',
  ),
});

export const noOrphans = invariant('no-orphans', ['NS-2', 'LC-9'], {
  statement:
    'No content, inside the cluster or in an external system, belongs to a namespace that does not exist.',
  predicate: (model, state) => {
    for (const v of model.views(state)) {
      if (exists(v)) continue;
      if (v.content !== 0) return `${v.name} does not exist but holds ${describeContent(model, v.content)}`;
      if (v.external !== 0)
        return `${v.name} does not exist but external content of ${describeOwners(model, v.external)} remains`;
    }
    return true;
  },
  witness: onState('a namespace that held content has been removed', (model, state) =>
    model.views(state).some((v) => v.value === 'removed'),
  ),
});

export const initializedIsForever = stepProperty('initialized-is-forever', ['IN-4', 'IN-7'], {
  statement:
    'Once a namespace is initialized its pending list never grows again, it never returns to Initializing, and it never gains a failure result (IN-7: a result fails an initialization, which is over).',
  predicate: eachChanged(({ b, a }) => {
    if (!exists(a)) return true;
    // IN-4: an empty list without a result is initialized for good; IN-7's result belongs to an initialization under way.
    if ((b.value === 'active' || b.initialized) && b.failure === null && a.failure !== null)
      return `${b.name} was initialized, then gained failure result ${a.failure.reason}`;
    if (b.value !== 'active' && b.value !== 'terminating') return true;
    if (a.value === 'initializing') return `${b.name} went from ${b.value} back to initializing`;
    if (a.pending.length > 0) return `${b.name} regained pending initializers ${JSON.stringify(a.pending)}`;
    return true;
  }),
  // Not a namespace initialized from the start: one whose initializers all completed during the run.
  witness: onStep(
    'a step changes a namespace that was created with pending initializers and has since been initialized',
    someChanged(({ b }) => b.hadInitializers && b.initialized),
  ),
});

export const initializersInOrder = stepProperty('initializers-in-order', ['IN-2'], {
  statement: 'Pending initializers complete in order: only the first pending one may be removed.',
  predicate: eachChanged(({ b, a }) => {
    if (b.value !== 'initializing' || !exists(a) || a.value === 'terminating') return true;
    if (sameList(a.pending, b.pending)) return true;
    if (!sameList(a.pending, b.pending.slice(1))) {
      return `${b.name}: pending ${JSON.stringify(b.pending)} became ${JSON.stringify(a.pending)}, not by removing the first`;
    }
    return true;
  }),
  witness: onStep(
    'an initializer is removed while another is still pending behind it',
    someChanged(
      ({ b, a }) =>
        b.value === 'initializing' && b.pending.length >= 2 && a.pending.length === b.pending.length - 1,
    ),
  ),
});

export const pendingMergedInNameOrder = stepProperty('pending-merged-in-name-order', ['IN-1', 'IN-3'], {
  statement:
    'A namespace is created with the pending list of the configurations admission last read, sorted by their names, entries in their order, a name listed twice kept once; only a principal meant to hold initialize may send its own.',
  predicate: eachChanged(({ b, a, model, before, event }) => {
    if (exists(b) || !exists(a)) return true;
    const sent = event.request?.body?.initializers;
    // D-17: a holder of initialize may send the pending list; admission fills it for everyone else (IN-1).
    const holder = !!event.request && meantToInitialize(intentOf(model.scope), event.request.principal.name);
    const expected =
      holder && sent !== undefined
        ? sent
        : documentedPendingList(
            model.scope,
            model.configurationsRead(before),
            model.configurationVersionsRead(before),
          );
    return sameList(a.pending, expected)
      ? true
      : `${a.name} was created with pending ${JSON.stringify(a.pending)}; the configurations admission holds give ${JSON.stringify(expected)}`;
  }),
  witness: onStep(
    'a namespace is created with two or more pending initializers',
    someChanged(({ b, a }) => !exists(b) && exists(a) && a.pending.length >= 2),
  ),
});

export const pendingOnlyByInitializers = stepProperty(
  'pending-only-by-initializers',
  ['IN-3', 'FP-2', 'FP-4'],
  {
    statement:
      'After creation, the pending list and result change only through a principal meant to hold initialize, a deletion that clears them, or the failure-policy timers and read-repair; and an initializer removes itself only once its work is done: what the scope says it creates is stored in the namespace.',
    predicate: (model, before, event, after) => {
      const holder =
        !!event.request && meantToInitialize(intentOf(model.scope), event.request.principal.name);
      for (const { b, a } of pairs(model, before, after)) {
        if (!exists(b) || !exists(a)) continue;
        const unfinished = removedBeforeItsWork(model, event, b, a);
        if (unfinished !== true) return unfinished;
        const changed =
          !sameList(a.pending, b.pending) || (a.failure?.reason ?? null) !== (b.failure?.reason ?? null);
        if (!changed) continue;
        const byDeletion = a.value === 'terminating' && b.value !== 'terminating' && a.pending.length === 0;
        const byTimerOrRepair =
          event.actorKind === 'apiserver' ||
          (event.request?.verb === 'get' && event.request.target === 'namespace');
        if (!byDeletion && !byTimerOrRepair && !holder) {
          return `${event.request?.principal.name ?? event.actor}, not meant to hold initialize, changed ${b.name}'s initializers ("${event.label}")`;
        }
      }
      return true;
    },
    witness: onStep(
      "a namespace's pending list or result changes",
      someChanged(
        ({ b, a }) => exists(b) && exists(a) && (!sameList(a.pending, b.pending) || a.failure !== b.failure),
      ),
    ),
  },
);

/**
 * IN-3: an initializer's own step that takes it off a namespace's pending list, without a failure
 * result, while the object the scope says it creates (`populates`) is not stored there.
 */
function removedBeforeItsWork(
  model: SystemModel,
  event: SystemEvent,
  b: NamespaceView,
  a: NamespaceView,
): true | string {
  if (event.actorKind !== 'initializer' || a.failure !== null) return true;
  if (!b.pending.includes(event.actor) || a.pending.includes(event.actor)) return true;
  const spec = model.scope.configurations.flatMap((c) => c.initializers).find((i) => i.name === event.actor);
  if (!spec) return true;
  const slot = model.objects.findIndex(
    (o) => o.resource === spec.populates.resource && o.name === spec.populates.name,
  );
  return slot >= 0 && (a.content & (1 << slot)) !== 0
    ? true
    : `${event.actor} removed itself from ${b.name}'s pending list before creating ${spec.populates.resource}/${spec.populates.name} there`;
}

export const finalizersOnlyByFinalize = stepProperty('finalizers-only-by-finalize', ['LC-6', 'LC-8'], {
  statement:
    'After creation, spec.finalizers changes only through the finalize sub-resource, and only shrinks once terminating.',
  predicate: eachChanged(({ b, a, event }) => {
    if (!exists(b) || !exists(a) || sameList(a.finalizers, b.finalizers)) return true;
    if (event.request?.verb !== 'finalize')
      return `${b.name}'s finalizers changed by "${event.label}", not by finalize`;
    if (b.value === 'terminating' && a.finalizers.some((f) => !b.finalizers.includes(f))) {
      return `${b.name}'s finalizers grew while terminating: ${JSON.stringify(b.finalizers)} → ${JSON.stringify(a.finalizers)}`;
    }
    return true;
  }),
  witness: onStep(
    "a namespace's finalizers change",
    someChanged(({ b, a }) => exists(b) && exists(a) && !sameList(a.finalizers, b.finalizers)),
  ),
});

export const failedNeverActive = invariant('failed-never-active', ['IN-7'], {
  statement: 'A namespace with a failure result is being deleted and never becomes Active.',
  predicate: (model, state) => {
    for (const v of model.views(state)) {
      if (v.failure === null) continue;
      if (v.value === 'active') return `${v.name} is Active with failure result ${v.failure.reason}`;
      if (v.deletedSecondsAgo === null)
        return `${v.name} has failure result ${v.failure.reason} but no deletion timestamp`;
    }
    return true;
  },
  witness: onState('a namespace carries a failure result', (model, state) =>
    model.views(state).some((v) => v.failure !== null),
  ),
});

export const phaseConsistency = stepProperty('phase-consistency', ['LC-3', 'IN-5', 'LC-1'], {
  statement:
    'A namespace is Terminating exactly when it has a deletion timestamp, Initializing exactly when initializers are pending, and its deletion timestamp never changes once set; a status update that sends another phase than that is never answered 2xx (D-30).',
  predicate: (model, before, event, after) => {
    const written = statusPhaseAccepted(model, before, event);
    return written === true ? phasesFollowTimestamps(model, before, event, after) : written;
  },
  witness: onStep(
    'a namespace is deleted while it exists',
    someChanged(({ b, a }) => exists(b) && b.value !== 'terminating' && a.value === 'terminating'),
  ),
});

/**
 * D-30 (NS-5): a status update's phase (absent: `Active`, v1's default) must be the one the namespace's
 * deletion timestamp gives: `Terminating` with one, `Active` (or `Initializing` while it initializes) without.
 */
function statusPhaseAccepted(model: SystemModel, before: SystemState, event: SystemEvent): true | string {
  const r = event.request;
  if (r?.target !== 'namespace' || r.verb !== 'update' || r.subresource !== 'status') return true;
  if (!succeeded(event) || r.namespace < 0) return true;
  const v = model.view(before, r.namespace);
  if (!exists(v)) return true;
  const sent = r.body?.phase ?? 'Active';
  const allowed =
    v.deletedSecondsAgo !== null
      ? ['Terminating']
      : v.value === 'initializing'
        ? ['Active', 'Initializing']
        : ['Active'];
  return allowed.includes(sent)
    ? true
    : `"${event.label}" was answered ${event.response?.code}, though it sets phase ${sent} on ${v.name}, which is ${v.value}`;
}

const phasesFollowTimestamps = eachChanged(({ b, a }) => {
  if (!exists(a)) return true;
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
  return true;
});

/** RB-2: a namespace that a request's step brought into existence records that request's sender as its creator. */
function creatorNotRecorded(model: SystemModel, before: SystemState, after: SystemState, sender: string) {
  for (const { b, a } of pairs(model, before, after)) {
    if (!exists(b) && exists(a) && a.creator !== sender)
      return `${a.name} was created by ${sender} but records ${a.creator === null ? 'no creator' : `creator ${a.creator}`}`;
  }
  return true;
}

export const tenantIsolation = stepProperty(
  'tenant-isolation',
  ['RB-4', 'RB-5', 'RB-6', 'NS-7', 'RB-1', 'RB-2'],
  {
    statement:
      "A tenant never reads or changes another tenant's namespace (its object by any verb but the get document 000 grants creators, or anything inside it), nor sees its content in a list; a namespace is its creator's (RB-2): the user whose request created it, as it records from that step on, and before any create the declared tenant's.",
    predicate: (model, before, event, after) => {
      const r = event.request;
      if (!r) return true;
      // RB-2, D-34: ownership is read from the creator a namespace records, so a create must record its sender.
      const misrecorded = creatorNotRecorded(model, before, after, r.principal.name);
      if (misrecorded !== true) return misrecorded;
      const intent = intentOf(model.scope);
      if (!intent.tenantPrincipals.has(r.principal.name)) return true;
      const who = r.principal.name;
      const ns = namespaceName(model, r.namespace);
      if (
        ns !== null &&
        foreignIn(model, before, intent, who, ns) &&
        succeeded(event) &&
        judgedByResponse(intent, r)
      ) {
        return `tenant ${who} got ${event.response?.code} for "${event.label}" in ${ns}, which belongs to ${ownersOf(model, before, intent, ns)?.join(', ')}`;
      }
      // A list is judged by the items it returned: a 200 with no foreign item shows nothing (D-15).
      const leaked = (event.items ?? []).filter((item) =>
        foreignIn(model, before, intent, who, itemNamespace(item)),
      );
      return leaked.length > 0 ? `tenant ${who} listed ${leaked.join(', ')}` : true;
    },
    witness: onStep(
      "a tenant sends a request on another tenant's namespace or its content, or a list answered with items",
      (model, before, event) => {
        const r = event.request;
        const intent = intentOf(model.scope);
        if (!r || !intent.tenantPrincipals.has(r.principal.name)) return false;
        if (r.verb === 'list') return (event.items ?? []).length > 0;
        const ns = namespaceName(model, r.namespace);
        return (
          ns !== null && foreignIn(model, before, intent, r.principal.name, ns) && judgedByResponse(intent, r)
        );
      },
    ),
  },
);

export const configFreshness = stepProperty('config-freshness', ['AC-2', 'AC-3', 'AC-1'], {
  statement:
    'No write is admitted when the admission configuration has not been read successfully for the documented staleness bound (5 s).',
  predicate: (model, before, event) => {
    const write =
      event.request !== undefined && event.request.verb !== 'get' && event.request.verb !== 'list';
    // The event first: a step that admits no write is judged without reading the configuration copy.
    if (!write || !succeeded(event)) return true;
    const age = model.systemView(before).secondsSinceConfigRead;
    if (age >= staleAfterSeconds(model)) {
      return `"${event.label}" admitted ${age}s after the last successful configuration read`;
    }
    return true;
  },
  witness: onStep(
    'a write arrives 5 s or more after the last successful configuration read',
    (model, before, event) =>
      !!event.request &&
      event.request.verb !== 'get' &&
      event.request.verb !== 'list' &&
      model.systemView(before).secondsSinceConfigRead >= staleAfterSeconds(model),
  ),
});

export const uniqueNames = stepProperty('unique-names', ['NS-3'], {
  statement:
    'A create never succeeds for a name that already exists: names are unique per kind per namespace.',
  predicate: (model, before, event) => {
    const r = event.request;
    if (r?.verb !== 'create' || !succeeded(event) || r.namespace < 0) return true;
    const v = model.view(before, r.namespace);
    if (r.target === 'namespace' && exists(v))
      return `namespace ${v.name} was created while it already existed`;
    if (r.target === 'content' && r.object >= 0 && (v.content & (1 << r.object)) !== 0) {
      return `${model.objectName(r.object)} was created twice in ${v.name}`;
    }
    return true;
  },
  witness: onStep(
    'a create of an object or namespace that already exists reaches storage (409 AlreadyExists, or stored)',
    (model, before, event) => {
      const r = event.request;
      if (r?.verb !== 'create' || r.namespace < 0 || !decidedByStorage(event)) return false;
      const v = model.view(before, r.namespace);
      return r.target === 'namespace' ? exists(v) : r.object >= 0 && (v.content & (1 << r.object)) !== 0;
    },
  ),
});

export const validNames = invariant('valid-names', ['NS-1', 'LC-2'], {
  statement:
    'Every stored namespace name is a DNS label and every finalizer name is `kubernetes` (or another standard name) or a qualified name.',
  predicate: (model, state) => {
    for (const v of model.views(state)) {
      if (!exists(v)) continue;
      if (!isDnsLabelName(v.name)) return `namespace "${v.name}" is stored, but its name is not a DNS label`;
      for (const f of v.finalizers) {
        if (!isFinalizerName(f)) return `${v.name} stores finalizer "${f}", neither standard nor qualified`;
      }
    }
    return true;
  },
  witness: onStep(
    'a create or finalize carrying an invalid namespace or finalizer name reaches validation (422 Invalid, or stored)',
    (model, before, event) => {
      const r = event.request;
      if (r?.target !== 'namespace' || r.namespace < 0 || !decidedByValidation(event)) return false;
      const name = model.scope.namespaces[r.namespace].name;
      if (r.verb === 'create') {
        return !isDnsLabelName(name) || (r.body?.extraFinalizers ?? []).some((f) => !isFinalizerName(f));
      }
      return (
        r.verb === 'finalize' &&
        (r.body?.finalizers ?? []).some((f) => !isFinalizerName(f)) &&
        exists(model.view(before, r.namespace))
      );
    },
  ),
});

export const systemNamespacesImmortal = invariant('system-namespaces-immortal', ['LC-10'], {
  statement: '`default`, `kube-system` and `kube-public` always exist and never start terminating.',
  predicate: (model, state) => {
    for (const v of model.views(state)) {
      if (!immortalNamespaces.includes(v.name)) continue;
      if (v.value !== 'active') return `system namespace ${v.name} is ${v.value}`;
    }
    return true;
  },
  // Only LC-10 stops it: a principal meant to act cluster-wide, while admission's copy is fresh (AC-2).
  witness: onStep(
    'a principal meant to act cluster-wide asks to delete a system namespace while the configuration copy is fresh',
    (model, before, event) => {
      const deleted = addressedBy(model, before, event, 'namespace', 'delete');
      return (
        deleted !== null &&
        immortalNamespaces.includes(deleted.name) &&
        intentOf(model.scope).clusterWide.includes(event.request?.principal.name ?? '') &&
        model.systemView(before).secondsSinceConfigRead < staleAfterSeconds(model)
      );
    },
  ),
});

export const safetyProperties: Property[] = [
  noAccessBeforeReady,
  neverInitializedStaysClosed,
  watchBeforeReady,
  noRemovalWithFinalizers,
  noCreateInTerminating,
  deletecollectionWhileTerminating,
  noOrphans,
  contentChangesOnlyByRequests,
  initializedIsForever,
  initializersInOrder,
  pendingMergedInNameOrder,
  pendingOnlyByInitializers,
  finalizersOnlyByFinalize,
  failedNeverActive,
  phaseConsistency,
  tenantIsolation,
  noEscalationThroughBindings,
  clusterWideAsDeclared,
  configFreshness,
  uniqueNames,
  validNames,
  systemNamespacesImmortal,
  // Timing safety (FP-1, FP-2, FP-4, AC-1..AC-3), judged from ages and the scope's declared bounds.
  ...timingProperties,
  // LC-2, LC-5, LC-8 stated at the step that breaks them, not only through no-orphans later.
  ...extraProperties,
];

/**
 * Whether a tenant's request on another tenant's namespace is judged by its response: lists are
 * judged by their items, a create only claims a free name, and a get of the namespace object is what
 * document 000's namespace-creator grants every creator (RB-1).
 */
function judgedByResponse(intent: Intent, r: NonNullable<SystemEvent['request']>): boolean {
  if (r.verb === 'list') return false;
  if (r.target === 'namespace' && r.verb === 'create') return false;
  return !(r.target === 'namespace' && r.verb === 'get' && intent.tenantsMayGetNamespaceObjects);
}

function initializingByName(model: SystemModel, state: SystemState, name: string): boolean {
  const i = model.scope.namespaces.findIndex((n) => n.name === name);
  return i >= 0 && model.view(state, i).value === 'initializing';
}

function describeOwners(model: SystemModel, mask: number): string {
  return model.scope.finalizerOwners.filter((_, k) => mask & (1 << k)).join(', ');
}

/** D-19, D-25: deleted or failed while Initializing, so never initialized, and not yet removed. */
function neverInitializedTerminating(v: NamespaceView): boolean {
  return v.value === 'terminating' && !v.initialized;
}

function closedByName(model: SystemModel, state: SystemState, name: string): boolean {
  const i = model.scope.namespaces.findIndex((n) => n.name === name);
  return i >= 0 && neverInitializedTerminating(model.view(state, i));
}

/**
 * D-25: the mark the gate reads is set when a namespace becomes Active (created without pending
 * initializers, or its last one removed without a failure result) and never cleared while it exists.
 */
function initializedMarkChange(b: NamespaceView, a: NamespaceView): true | string {
  if (!exists(a)) return true;
  if (a.value === 'active' && !a.initialized) return `${a.name} is Active but not marked initialized`;
  if (b.initialized && exists(b) && !a.initialized) return `${a.name} lost its initialized mark`;
  const becameActive = a.value === 'active' && (b.value === 'initializing' || !exists(b));
  if (!b.initialized && a.initialized && !becameActive)
    return `${a.name} was marked initialized going from ${b.value} to ${a.value}`;
  return true;
}

/** NS-3: storage answered the request: it stored it, or refused a name already taken (409). */
const decidedByStorage = (event: SystemEvent) => succeeded(event) || event.response?.code === 409;

/** NS-1, LC-2: validation answered the request: the object was stored, or refused as invalid (422). */
const decidedByValidation = (event: SystemEvent) => succeeded(event) || event.response?.code === 422;
