import { designOf } from '../machines/design-options.ts';
import type { Scope } from '../machines/scope.ts';
import type { NamespaceView, SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { invariant, onState, onStep, stepProperty } from './declare.ts';
import { documentedPendingList } from './intent.ts';
import { eachChanged, sameList, someChanged, staleAfterSeconds, succeeded } from './steps.ts';
import type { Property, Verdict } from './types.ts';

/**
 * The documents' own goals, stated so that design alternatives have something to break: 004's
 * predictability (Goal 1, AC-3) and time bound (Goal 2), its "do not block the cluster" (Goal 4, FP-5),
 * KEP-33's creation that does not time out (IN-8), 002's consumers that leave uninitialized objects
 * alone (IN-10) and 001's DELETE that is honoured (LC-3). They read the state view and the scope's
 * declared data (machines/design-options.ts), never what a machine computes.
 */

/** A namespace create whose pending list admission filled in (no client-supplied list). */
const injectedCreate = (e: SystemEvent) =>
  e.request?.target === 'namespace' &&
  e.request.verb === 'create' &&
  e.request.body?.initializers === undefined;

/** The initializer names the stored configurations give, at the versions updates gave them (IN-1, FP-3). */
const fromStore = (model: SystemModel, s: SystemState) => {
  const view = model.systemView(s);
  return documentedPendingList(
    model.scope,
    view.configurationsRegistered,
    view.configurationVersionsRegistered,
  );
};
/** The initializer names admission's copy gives (AC-3). */
const fromCopy = (model: SystemModel, s: SystemState) => {
  const view = model.systemView(s);
  return documentedPendingList(model.scope, view.configurationsRead, view.configurationVersionsRead);
};
const copyAge = (model: SystemModel, s: SystemState) => model.systemView(s).secondsSinceConfigRead;

/** What a new namespace got, and the two lists an administrator can predict it from. */
function createdPending(model: SystemModel, before: SystemState, event: SystemEvent, after: SystemState) {
  const i = event.namespace;
  return {
    name: model.view(after, i).name,
    got: model.view(after, i).pending,
    fromStore: fromStore(model, before),
    fromCopy: fromCopy(model, before),
  };
}

/** A step predicate judged on each successful create whose pending list admission filled in; true on any other step. */
const onInjectedCreate =
  (judge: (c: ReturnType<typeof createdPending>, model: SystemModel, before: SystemState) => Verdict) =>
  (model: SystemModel, before: SystemState, event: SystemEvent, after: SystemState): Verdict =>
    injectedCreate(event) && succeeded(event)
      ? judge(createdPending(model, before, event, after), model, before)
      : true;

export const initializersPredictable = stepProperty('initializers-predictable', ['AC-3'], {
  statement:
    'An administrator can predict the initializers a new namespace gets: those of the stored configurations, or of a copy admission read less than 5 s ago, or of a copy whose version admission reports.',
  predicate: onInjectedCreate((c, model, before) => {
    if (sameList(c.got, c.fromStore)) return true;
    const age = copyAge(model, before);
    if (
      sameList(c.got, c.fromCopy) &&
      (age < staleAfterSeconds(model) || designOf(model.scope).reportsCachedVersion)
    )
      return true;
    return `${c.name} got initializers ${JSON.stringify(c.got)}: the store holds ${JSON.stringify(c.fromStore)}, and admission's copy is ${age}s old and unreported`;
  }),
  witness: onStep(
    'a namespace is created while the store holds a configuration admission has not read',
    (model, before, event) =>
      injectedCreate(event) &&
      succeeded(event) &&
      !sameList(fromStore(model, before), fromCopy(model, before)),
  ),
});

export const configurationAppliesWithinBound = stepProperty(
  'configuration-applies-within-bound',
  ['AC-1', 'AC-2', 'AC-3'],
  {
    statement:
      'A stored configuration applies to every namespace created 5 s or more after it was stored: admission never creates from a copy older than 5 s.',
    predicate: onInjectedCreate((c, model, before) => {
      const age = copyAge(model, before);
      if (sameList(c.got, c.fromStore) || age < staleAfterSeconds(model)) return true;
      return `${c.name} was created from a configuration copy ${age}s old: got ${JSON.stringify(c.got)}, the store holds ${JSON.stringify(c.fromStore)}`;
    }),
    witness: onStep(
      'a namespace create arrives 5 s or more after the last successful configuration read',
      (model, before, event) => injectedCreate(event) && copyAge(model, before) >= staleAfterSeconds(model),
    ),
  },
);

/** The namespace's consumer-controller request (IN-10), when the scope declares one. */
const consumerRequestInto = (model: SystemModel, event: SystemEvent) => {
  const r = event.request;
  const consumers = designOf(model.scope).consumers ?? [];
  return r && r.target === 'content' && r.namespace >= 0 && consumers.includes(event.actor)
    ? r.namespace
    : -1;
};

export const consumersWaitForReady = stepProperty('consumers-wait-for-ready', ['IN-10', 'IN-6'], {
  statement:
    'A controller that starts work in a namespace (the scope names it) never succeeds in acting there before the namespace is Active.',
  predicate: (model, before, event) => {
    const i = consumerRequestInto(model, event);
    if (i < 0 || !succeeded(event)) return true;
    const v = model.view(before, i);
    return v.value === 'active' ? true : `${event.actor} did "${event.label}" while ${v.name} is ${v.value}`;
  },
  witness: onStep('the consumer sends a request into an Initializing namespace', (model, before, event) => {
    const i = consumerRequestInto(model, event);
    return i >= 0 && model.view(before, i).value === 'initializing';
  }),
});

/** ALT-3: whether creates are held; the model answers 201 at once (IN-8), so the property does not apply. */
function createHeldSeconds(scope: Scope): number | undefined {
  return designOf(scope).createHeldSeconds;
}

export const createAnsweredInTime = invariant('create-answered-in-time', ['IN-8'], {
  statement:
    "A namespace create is answered before the client's time limit: a held create (ALT-3) times out when the namespace is still Initializing when the limit passes.",
  predicate: (model, state) => {
    const limit = createHeldSeconds(model.scope);
    if (limit === undefined) return true;
    for (const v of model.views(state)) {
      if (v.value === 'initializing' && v.createdSecondsAgo !== null && v.createdSecondsAgo >= limit)
        return `the create of ${v.name} timed out (504): still Initializing ${v.createdSecondsAgo}s after it was sent, pending ${JSON.stringify(v.pending)}`;
    }
    return true;
  },
  witness: onState(
    'a held create waits for a namespace that is Initializing',
    (model, state) =>
      createHeldSeconds(model.scope) !== undefined &&
      model.views(state).some((v) => v.value === 'initializing'),
  ),
});

/** The head of an Initializing namespace, when the scope says its controller may not be ready. */
const notReadyHead = (model: SystemModel, v: NamespaceView) => {
  const head = v.pending[0];
  return v.value === 'initializing' &&
    head !== undefined &&
    (designOf(model.scope).mayBeNotReady ?? []).includes(head)
    ? head
    : null;
};

export const notReadyInitializerDoesNotFail = stepProperty(
  'not-ready-initializer-does-not-fail',
  ['FP-5', 'FP-2'],
  {
    statement:
      'An initializer that is registered but not ready (the scope names it) never makes a namespace fail by timing out: when it times out the namespace goes on without it.',
    predicate: eachChanged(({ b, a, model }) => {
      const head = notReadyHead(model, b);
      if (head && a.value === 'terminating' && a.failure?.reason === 'Timeout')
        return `${a.name} failed (${a.failure.reason}) while waiting for ${head}, which is not ready`;
      return true;
    }),
    witness: onStep(
      'an initializer that may not be ready leaves the head of a namespace, or the namespace fails while it is the head',
      someChanged(({ b, a, model }) => {
        const head = notReadyHead(model, b);
        return head !== null && (a.value !== 'initializing' || a.pending[0] !== head);
      }),
    ),
  },
);

/** A DELETE by a cluster administrator (system:masters) of a mortal namespace that exists. */
const adminDelete = (model: SystemModel, before: SystemState, event: SystemEvent) => {
  const r = event.request;
  if (r?.target !== 'namespace' || r.verb !== 'delete' || r.namespace < 0) return null;
  if (!r.principal.groups.includes('system:masters')) return null;
  const v = model.view(before, r.namespace);
  return v.system || v.value === 'absent' || v.value === 'removed' ? null : v;
};

export const deletionHonoured = stepProperty('deletion-honoured', ['LC-3', 'FP-5'], {
  statement:
    'A cluster administrator can always delete a namespace that exists and is not a system namespace, whatever its phase, while admission admits writes.',
  predicate: (model, before, event, after) => {
    const v = adminDelete(model, before, event);
    const stale = model.systemView(before).secondsSinceConfigRead >= staleAfterSeconds(model);
    if (!v || stale) return true;
    const a = model.view(after, event.namespace);
    // Honoured once the deletion is recorded: the phase may follow later (D-11's option not taken).
    return succeeded(event) && (a.value === 'removed' || a.deletedSecondsAgo !== null)
      ? true
      : `${event.actor}'s "${event.label}" got ${event.response?.code} and left ${v.name} ${a.value}`;
  },
  witness: onStep(
    'a cluster administrator deletes an Initializing namespace',
    (model, before, event) => adminDelete(model, before, event)?.value === 'initializing',
  ),
});

/** The goal properties, in the matrix's column order. */
export const goalProperties: Property[] = [
  initializersPredictable,
  configurationAppliesWithinBound,
  consumersWaitForReady,
  createAnsweredInTime,
  notReadyInitializerDoesNotFail,
  deletionHonoured,
];

/** Why a goal does not apply to a scope, or null when it does. */
export function goalNotApplicable(propertyId: string, scope: Scope): string | null {
  const design = designOf(scope);
  if (propertyId === createAnsweredInTime.id && createHeldSeconds(scope) === undefined)
    return 'the create returns 201 at once and clients poll (IN-8): there is no held request to time out';
  if (propertyId === consumersWaitForReady.id && (design.consumers ?? []).length === 0)
    return 'the scope names no consumer controller';
  if (propertyId === notReadyInitializerDoesNotFail.id && (design.mayBeNotReady ?? []).length === 0)
    return 'the scope names no initializer that may not be ready';
  return null;
}
