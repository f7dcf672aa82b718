/**
 * IN-9 and IN-10 for seed 002's generic initializers, stated from the seed over one step of one
 * content object: what the object was, what was asked, what it became and what was answered. The
 * shapes are declared here (the object's phase, its pending list, whether it would pass strict
 * validation, whether it is bound to a node): a property reads the data of a step, never the guards
 * or actions of the machine it judges.
 */

/** One content object as a step sees it. */
export interface ObjectSeen {
  /** `absent`, `deleted`, `initialized`, or one of the phases before initialization. */
  value: string;
  context: {
    pending: readonly string[];
    strictlyValid: boolean;
    scheduled: boolean;
    events: readonly string[];
    outcome: { kind: string; code?: number; action?: string };
  };
}

/** What was asked, as far as the properties read it: a read's ask for uninitialized objects, initialize's name. */
export type ObjectRequest =
  | { type: 'READ'; includeUninitialized: boolean }
  | { type: 'INITIALIZE'; initializer: string }
  | { type: 'CREATE' | 'COMPLETE' | 'TICK' | 'REPLICATION_COUNTS' | 'SCHEDULE' | 'QUOTA_COUNTS' };

export interface ObjectStep {
  before: ObjectSeen;
  event: ObjectRequest;
  after: ObjectSeen;
}

export interface ObjectProperty {
  id: string;
  requirements: readonly string[];
  statement: string;
  /** True when the step keeps the property, else what went wrong. */
  predicate: (step: ObjectStep) => true | string;
  /** The steps whose premise the property constrains: none reached means the check was vacuous. */
  witness: (step: ObjectStep) => boolean;
}

/** 002: "Once a resource is initialized, it is forever initialized"; until then it is not. */
const isInitialized = (o: ObjectSeen) => o.value === 'initialized';
/** Stored: created and not (yet) deleted. */
const isStored = (o: ObjectSeen) => o.value !== 'absent' && o.value !== 'deleted';
/** Stored and not yet initialized: what IN-9 hides and IN-10's scheduler leaves alone. */
const isUninitialized = (o: ObjectSeen) => isStored(o) && !isInitialized(o);
const servedOk = (o: ObjectSeen) => o.context.outcome.kind === 'served' && o.context.outcome.code === 200;

export const uninitializedHiddenAndInitializeRules: ObjectProperty = {
  id: 'generic-uninitialized-hidden',
  requirements: ['IN-9'],
  statement:
    'An uninitialized object is served to a read only when the client asks for uninitialized objects; initialize/{name} errs, changing nothing, when the object is already initialized or the name is not pending, and otherwise removes exactly that name; an object becomes initialized only once its list is empty and it passes strict validation, and one that fails strict validation then is deleted with an event recorded.',
  predicate: ({ before, event, after }) => {
    if (event.type === 'READ') {
      if (!event.includeUninitialized && isUninitialized(before) && servedOk(after))
        return `a read without includeUninitialized was served the uninitialized object (${before.value})`;
      if (event.includeUninitialized && isStored(before) && !servedOk(after))
        return `a read with includeUninitialized was not served the stored object (${before.value})`;
      return true;
    }
    if (event.type === 'INITIALIZE' && isStored(before)) {
      const pending = before.context.pending;
      if (isInitialized(before) || !pending.includes(event.initializer)) {
        if (after.context.outcome.kind !== 'refused')
          return `initialize/${event.initializer} was not refused (pending [${pending.join(', ')}], ${before.value})`;
        if (after.value !== before.value || after.context.pending.join() !== pending.join())
          return `a refused initialize/${event.initializer} changed the object`;
        return true;
      }
      const expected = pending.filter((name) => name !== event.initializer);
      if (after.context.pending.join() !== expected.join())
        return `initialize/${event.initializer} left [${after.context.pending.join(', ')}], not [${expected.join(', ')}]`;
      if (isInitialized(after)) return `initialize/${event.initializer} itself initialized the object`;
      return true;
    }
    if (isUninitialized(before) && isInitialized(after)) {
      if (event.type !== 'COMPLETE' || before.context.pending.length > 0 || !before.context.strictlyValid)
        return `the object became initialized by ${event.type} with [${before.context.pending.join(', ')}] pending, strictly valid: ${before.context.strictlyValid}`;
    }
    if (
      event.type === 'COMPLETE' &&
      isUninitialized(before) &&
      before.context.pending.length === 0 &&
      !before.context.strictlyValid
    ) {
      if (isStored(after)) return 'an object failing strict validation with an empty list was not deleted';
      if (after.context.events.length !== before.context.events.length + 1)
        return 'an object deleted for failing strict validation has no event recorded';
    }
    return true;
  },
  witness: ({ before, event }) =>
    event.type === 'READ' && !event.includeUninitialized && isUninitialized(before),
};

export const consumersLeaveUninitializedAlone: ObjectProperty = {
  id: 'generic-consumers-wait-for-initialization',
  requirements: ['IN-10'],
  statement:
    'The scheduler never binds an uninitialized pod to a node; replication counts a stored pod as a pod in every phase, so creates no second one, and quota counts it in every phase.',
  predicate: ({ before, event, after }) => {
    if (
      event.type === 'SCHEDULE' &&
      !isInitialized(before) &&
      after.context.scheduled &&
      !before.context.scheduled
    )
      return `the scheduler bound the uninitialized object (${before.value})`;
    if ((event.type === 'REPLICATION_COUNTS' || event.type === 'QUOTA_COUNTS') && isStored(before)) {
      const o = after.context.outcome;
      if (o.kind !== 'consumer' || o.action !== 'counted')
        return `${event.type} did not count the stored object (${before.value})`;
    }
    return true;
  },
  witness: ({ before, event }) => event.type === 'SCHEDULE' && isUninitialized(before),
};

export const genericInitializationProperties: readonly ObjectProperty[] = [
  uninitializedHiddenAndInitializeRules,
  consumersLeaveUninitializedAlone,
];
