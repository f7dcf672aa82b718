import { assign, setup } from 'xstate';
import type { Rule } from './k8s-types.ts';
import { type RequestResource, ruleMatches } from './rules.ts';
import { act, orElse, when } from './transition.ts';

/**
 * Seed 002's generic initializers for one content object (IN-9, IN-10, ALT-3): a create of a kind an
 * InitializerConfiguration's rules match (AC-4) gets `metadata.initializers` from it, and the object
 * stays uninitialized until every named initializer has visited it through `initialize/{name}`. While
 * uninitialized it is hidden from get, list and watch unless the client asks for uninitialized
 * objects; the `initialize` sub-resource refuses an object already initialized and a name not
 * pending; once the list is empty the object must pass strict validation to become initialized, or it
 * is deleted and an event recorded (002, Making the transition to initialized). The creating POST is
 * held until the object is initialized and answers 504 at its time limit (002 with 004's 5 s
 * default, ALT-3). Consumers (IN-10): replication counts an uninitialized object as a replica, the
 * scheduler does not schedule it, quota counts it in every phase.
 *
 * Time is relative, as for the apiserver's timer (docs/time.md): the waiting create keeps its age in
 * whole seconds, capped at its limit.
 */

/** A rule-bearing initializer of an InitializerConfiguration, as seed 002 and doc 004 declare it. */
export interface GenericInitializer {
  name: string;
  rules: Rule[];
}

/** 004: "The default timeout for each initializer is 5s": how long the creating POST is held. */
export const defaultCreateTimeoutSeconds = 5;

/**
 * AC-4 for content kinds: the initializers whose rules match the created object's group, version and
 * resource, in configuration order, each once (a create of a sub-resource never gets initializers).
 */
export function initializersFor(
  configurations: readonly { initializers: readonly GenericInitializer[] }[],
  object: RequestResource,
): string[] {
  const names: string[] = [];
  for (const c of configurations)
    for (const i of c.initializers)
      if (!names.includes(i.name) && i.rules.some((rule) => ruleMatches(rule, object))) names.push(i.name);
  return names;
}

/** What the last request or controller step was answered, as the client or controller sees it. */
export type GenericOutcome =
  | { kind: 'none' }
  | { kind: 'created'; code: 201 }
  | { kind: 'timeout'; code: 504 }
  | { kind: 'served'; code: 200 }
  | { kind: 'not-found'; code: 404 }
  /**
   * 002 says only that the server errs; shipped Kubernetes (1.7–1.13) answers a change of the pending
   * list it does not allow 422 Invalid ("field is immutable" once initialized), so the model does too.
   */
  | { kind: 'refused'; code: 422; reason: RefusalReason }
  | { kind: 'consumer'; action: 'counted' | 'scheduled' | 'skipped' };

export interface GenericObjectContext {
  /** metadata.initializers: the named tokens still to visit the object, in the order rules gave them. */
  pending: string[];
  /** The object as stored would pass strict validation (002: required to become initialized). */
  strictlyValid: boolean;
  /** The creating POST is still held, waiting for initialization (ALT-3). */
  createWaiting: boolean;
  /** Whole seconds the creating POST has been held, capped at createTimeoutSeconds. */
  waitedSeconds: number;
  createTimeoutSeconds: number;
  /** The pod has been bound to a node by the scheduler (IN-10). */
  scheduled: boolean;
  /** Events recorded for the object (002: deletion after failed strict validation). */
  events: string[];
  outcome: GenericOutcome;
}

export type GenericObjectEvent =
  /** The create: `initializers` from the configurations' rules (initializersFor), `wait` if the client holds the POST. */
  | { type: 'CREATE'; initializers: string[]; strictlyValid: boolean; wait: boolean; timeoutSeconds?: number }
  /** GET, LIST or WATCH; `includeUninitialized` is the client's ask for uninitialized objects. */
  | { type: 'READ'; includeUninitialized: boolean }
  /** `PUT .../initialize/{initializer}` with the object as edited; `strictlyValid` of the body it sends. */
  | { type: 'INITIALIZE'; initializer: string; strictlyValid: boolean }
  /** The initialization controller's `POST /api/initialize` for an object whose list is empty. */
  | { type: 'COMPLETE' }
  /** A second of the held create's wait. */
  | { type: 'TICK' }
  /** IN-10's consumers looking at the object: replication counting replicas, the scheduler, quota. */
  | { type: 'REPLICATION_COUNTS' }
  | { type: 'SCHEDULE' }
  | { type: 'QUOTA_COUNTS' };

export type GenericObjectStateValue =
  | 'absent'
  | { initializing: 'uninitialized' | 'awaitingInitialize' }
  | 'initialized'
  | 'deleted';

const fresh: GenericObjectContext = {
  pending: [],
  strictlyValid: true,
  createWaiting: false,
  waitedSeconds: 0,
  createTimeoutSeconds: defaultCreateTimeoutSeconds,
  scheduled: false,
  events: [],
  outcome: { kind: 'none' },
};

type RefusalReason = 'already-initialized' | 'not-pending' | 'not-initializing' | 'invalid';
type Change = Partial<GenericObjectContext>;

const answer = (outcome: GenericOutcome): Change => ({ outcome });
const refusal = (reason: RefusalReason): Change => answer({ kind: 'refused', code: 422, reason });
const served: GenericOutcome = { kind: 'served', code: 200 };
const created: GenericOutcome = { kind: 'created', code: 201 };

export const genericInitializationMachine = setup({
  types: { context: {} as GenericObjectContext, events: {} as GenericObjectEvent },
  guards: {
    createNamesInitializers: ({ event }) => event.type === 'CREATE' && event.initializers.length > 0,
    createIsStrictlyValid: ({ event }) => event.type === 'CREATE' && event.strictlyValid,
    clientAsksForUninitialized: ({ event }) => event.type === 'READ' && event.includeUninitialized,
    initializerNotPending: ({ context, event }) =>
      event.type === 'INITIALIZE' && !context.pending.includes(event.initializer),
    removesLastPending: ({ context, event }) =>
      event.type === 'INITIALIZE' && context.pending.length === 1 && context.pending[0] === event.initializer,
    passesStrictValidation: ({ context }) => context.strictlyValid,
    createIsHeld: ({ context }) => context.createWaiting,
    tickReachesCreateTimeout: ({ context }) =>
      context.createWaiting && context.waitedSeconds + 1 >= context.createTimeoutSeconds,
  },
  actions: {
    // Stored with the initializers the rules gave: 201 at once unless the client holds the POST.
    storeWithInitializers: assign(
      ({ event }): Change =>
        event.type === 'CREATE'
          ? {
              ...fresh,
              pending: [...event.initializers],
              strictlyValid: event.strictlyValid,
              createWaiting: event.wait,
              createTimeoutSeconds: event.timeoutSeconds ?? defaultCreateTimeoutSeconds,
              outcome: event.wait ? { kind: 'none' } : created,
            }
          : {},
    ),
    // Nothing to wait for: stored initialized and answered 201 at once.
    storeInitialized: assign((): Change => ({ ...fresh, outcome: created })),
    // An ordinary create of an object that fails validation, with no initializer to fix it: 422.
    refuseInvalid: assign(() => refusal('invalid')),
    answerObject: assign(() => answer(served)),
    answerNotFound: assign(() => answer({ kind: 'not-found', code: 404 })),
    refuseAlreadyInitialized: assign(() => refusal('already-initialized')),
    refuseNotPending: assign(() => refusal('not-pending')),
    refuseNotInitializing: assign(() => refusal('not-initializing')),
    removeInitializer: assign(
      ({ context, event }): Change =>
        event.type === 'INITIALIZE'
          ? {
              pending: context.pending.filter((name) => name !== event.initializer),
              strictlyValid: event.strictlyValid,
              outcome: served,
            }
          : {},
    ),
    // The held create learns the object is initialized: 201 with the initialized object.
    releaseHeldCreate: assign(
      ({ context }): Change => (context.createWaiting ? { createWaiting: false, outcome: created } : {}),
    ),
    // Capped at the limit: no guard compares a larger wait, so longer waits are one state.
    waitOneSecond: assign(
      ({ context }): Change => ({
        waitedSeconds: Math.min(context.waitedSeconds + 1, context.createTimeoutSeconds),
        outcome: { kind: 'none' },
      }),
    ),
    answerTimeout: assign(
      ({ context }): Change => ({
        createWaiting: false,
        waitedSeconds: context.createTimeoutSeconds,
        outcome: { kind: 'timeout', code: 504 },
      }),
    ),
    recordFailedInitialization: assign(
      ({ context }): Change => ({
        createWaiting: false,
        pending: [],
        events: [...context.events, 'FailedInitialization: the object fails strict validation'],
        outcome: served,
      }),
    ),
    // Replication counts it as a replica (no second create), quota charges it: in every phase (IN-10).
    countObject: assign(() => answer({ kind: 'consumer', action: 'counted' })),
    skipUninitialized: assign(() => answer({ kind: 'consumer', action: 'skipped' })),
    bindToNode: assign(
      (): Change => ({ scheduled: true, outcome: { kind: 'consumer', action: 'scheduled' } }),
    ),
  },
}).createMachine({
  id: 'generic-initialization',
  context: fresh,
  initial: 'absent',
  states: {
    absent: {
      description: 'Nothing stored yet.',
      on: {
        CREATE: [
          when('createNamesInitializers', 'initializing.uninitialized', 'storeWithInitializers', [
            'IN-9',
            'AC-4',
          ]),
          when('createIsStrictlyValid', 'initialized', 'storeInitialized', ['IN-9']),
          { actions: 'refuseInvalid', meta: { requirements: ['IN-9'] } },
        ],
      },
    },
    initializing: {
      description:
        'Stored but not yet initialized (IN-9): hidden from reads that do not ask for uninitialized objects.',
      initial: 'uninitialized',
      // Both inner states answer reads, initialize/{name}, ticks and consumers alike; each completes its own way.
      on: {
        READ: [
          act('clientAsksForUninitialized', 'answerObject', ['IN-9']),
          { actions: 'answerNotFound', meta: { requirements: ['IN-9'] } },
        ],
        TICK: [
          act('tickReachesCreateTimeout', 'answerTimeout', ['ALT-3']),
          act('createIsHeld', 'waitOneSecond', ['ALT-3']),
        ],
        // A name not pending is refused (in awaitingInitialize none is); any other but the last is removed.
        INITIALIZE: [
          act('initializerNotPending', 'refuseNotPending', ['IN-9']),
          { actions: 'removeInitializer', meta: { requirements: ['IN-9'] } },
        ],
        REPLICATION_COUNTS: { actions: 'countObject', meta: { requirements: ['IN-10'] } },
        SCHEDULE: { actions: 'skipUninitialized', meta: { requirements: ['IN-10'] } },
        QUOTA_COUNTS: { actions: 'countObject', meta: { requirements: ['IN-10'] } },
      },
      states: {
        uninitialized: {
          description:
            'metadata.initializers names initializers still to visit: hidden from clients that do not ask for uninitialized objects.',
          on: {
            // Tried before initializing's INITIALIZE: the last pending name moves on to awaitingInitialize.
            INITIALIZE: when('removesLastPending', 'awaitingInitialize', 'removeInitializer', ['IN-9']),
            COMPLETE: { actions: 'refuseNotInitializing', meta: { requirements: ['IN-9'] } },
          },
        },
        awaitingInitialize: {
          description:
            'Every initializer has visited; still uninitialized until the initialization controller completes it.',
          on: {
            COMPLETE: [
              when('passesStrictValidation', '#generic-initialization.initialized', 'releaseHeldCreate', [
                'IN-9',
              ]),
              orElse('#generic-initialization.deleted', 'recordFailedInitialization', ['IN-9']),
            ],
          },
        },
      },
    },
    initialized: {
      description: 'Initialized forever: visible to every read, acted on by every controller.',
      on: {
        READ: { actions: 'answerObject', meta: { requirements: ['IN-9'] } },
        INITIALIZE: { actions: 'refuseAlreadyInitialized', meta: { requirements: ['IN-9'] } },
        COMPLETE: { actions: 'refuseAlreadyInitialized', meta: { requirements: ['IN-9'] } },
        REPLICATION_COUNTS: { actions: 'countObject', meta: { requirements: ['IN-10'] } },
        SCHEDULE: { actions: 'bindToNode', meta: { requirements: ['IN-10'] } },
        QUOTA_COUNTS: { actions: 'countObject', meta: { requirements: ['IN-10'] } },
      },
    },
    deleted: {
      description:
        'Deleted by the initialization controller: it would forever fail strict validation (an event says so).',
      on: {
        READ: { actions: 'answerNotFound', meta: { requirements: ['IN-9'] } },
      },
    },
  },
});
