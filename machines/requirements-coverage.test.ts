import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { admissionFacts } from '../test-support/admission-facts.ts';
import { type AdmissionFacts, type AdmissionRefusal, admissionMachine } from './admission.ts';
import { machineCatalog } from './catalog.ts';
import { configSyncMachine } from './config-sync.ts';
import { failureInjectorMachine } from './failure-injector.ts';
import { type FinalizerOwnerObservation, finalizerOwnerMachine } from './finalizer-owner.ts';
import { type GenericObjectEvent, genericInitializationMachine } from './generic-initialization.ts';
import { initializerControllerMachine } from './initializer-controller.ts';
import { initializerTimeoutMachine, type TimeoutObservation } from './initializer-timeout.ts';
import { type NamespaceEvent, namespaceMachine, phaseOf } from './namespace.ts';
import { namespaceControllerMachine } from './namespace-controller.ts';
import { listTransitions, MachineStepper } from './stepper.ts';
import { type TimerEvent, timerMachine } from './timer.ts';

/**
 * Traceability: every requirement ID a machine claims in `meta.requirements` has a check here that
 * names it, steps that machine, asserts the outcome and returns the transitions it took; the check
 * passes only if one of those transitions claims the ID.
 */
interface RequirementCheck {
  /** Catalog id of the machine. */
  machine: string;
  requirement: string;
  name: string;
  /** Steps the machine, asserts the outcome, and returns the ids of the transitions that did it. */
  run: () => readonly string[];
}

/** The checks of one machine: each names its requirement, what it shows, and how (`run`). */
const checksOf =
  (machine: string) =>
  (requirement: string, name: string, run: RequirementCheck['run']): RequirementCheck => ({
    machine,
    requirement,
    name,
    run,
  });
const namespaceCheck = checksOf('namespace');
const admissionCheck = checksOf('admission');
const configSyncCheck = checksOf('config-sync');
const controllerCheck = checksOf('initializer-controller');
const ownerCheck = checksOf('finalizer-owner');
const timerCheck = checksOf('timer');
const injectorCheck = checksOf('failure-injector');

/** A step of a machine by its situation, as the types of the actions it emits and the transitions it took. */
type Emitting<A extends unknown[]> = (...situation: A) => {
  actions: string[];
  transitions: readonly string[];
};

/**
 * Checks whose outcome is what a machine emits, a row each: the requirement, its name, the situations whose
 * steps must emit the actions given and whose transitions are the check's, and situations asserted first
 * (that the machine does nothing there, or something else), whose transitions are not the check's.
 */
function emittingChecks<A extends unknown[]>(
  machine: string,
  step: Emitting<A>,
  rows: [requirement: string, name: string, taking: [A, string[]][], before?: [A, string[]][]][],
): RequirementCheck[] {
  return rows.map(([requirement, name, taking, before = []]) => ({
    machine,
    requirement,
    name,
    run: () => {
      for (const [situation, actions] of before) expect(step(...situation).actions).toEqual(actions);
      return taking.flatMap(([situation, actions]) => {
        const taken = step(...situation);
        expect(taken.actions).toEqual(actions);
        return taken.transitions;
      });
    },
  }));
}

/** authorization and the request pipeline are covered by their own test files. */
const checkedMachines = machineCatalog.filter(
  (entry) => entry.id !== 'authorization' && entry.id !== 'pipeline',
);

const policy = 'policy.example.com';
const quota = 'quota.example.com';
const origin = 'openshift.com/origin';

// ---------------------------------------------------------------- namespace

const namespaces = new MachineStepper(namespaceMachine);
/** Runs events from `absent`; the state reached and each step's result. */
const namespaceWalk = (...events: NamespaceEvent[]) => {
  let id = namespaces.initial;
  const steps = events.map((event) => {
    const step = namespaces.step(id, event);
    id = step.next;
    return step;
  });
  return { value: namespaces.value(id), context: namespaces.snapshot(id).context, steps };
};
const last = (walk: { steps: { transitions: string[] }[] }) => walk.steps[walk.steps.length - 1].transitions;
const create = (pending: string[], finalizers = ['kubernetes']): NamespaceEvent => ({
  type: 'CREATE',
  pending,
  finalizers,
});
const removePending = (name: string): NamespaceEvent => ({ type: 'REMOVE_PENDING', name });
const deleteNow: NamespaceEvent = { type: 'DELETE' };
const tick: NamespaceEvent = { type: 'TICK', readRepairAfterSeconds: 2 };
const finalize = (finalizers: string[]): NamespaceEvent => ({ type: 'FINALIZE', finalizers });

/** A check of the namespace machine that walks `events` from absent, asserts `outcome` and takes the last step. */
const namespaceWalkCheck = (
  requirement: string,
  name: string,
  events: NamespaceEvent[],
  outcome: (walk: ReturnType<typeof namespaceWalk>) => void,
): RequirementCheck => ({
  machine: 'namespace',
  requirement,
  name,
  run: () => {
    const walk = namespaceWalk(...events);
    outcome(walk);
    return last(walk);
  },
});

const namespaceChecks: RequirementCheck[] = [
  namespaceWalkCheck(
    'FP-4',
    'while Initializing, the creation timestamp ages up to the read-repair timeout and no further',
    [create([policy]), tick, tick, tick],
    (walk) => expect(walk.context.createdSecondsAgo).toBe(2),
  ),
  namespaceWalkCheck(
    'LC-1',
    'a namespace created without pending initializers starts Active',
    [create([])],
    (walk) => {
      expect(walk.value).toBe('active');
      expect(phaseOf('active')).toBe('Active');
    },
  ),
  namespaceWalkCheck(
    'LC-2',
    'creation stores kubernetes and the creator’s extra finalizers',
    [create([policy], ['kubernetes', origin])],
    (walk) => expect(walk.context.finalizers).toEqual(['kubernetes', origin]),
  ),
  namespaceCheck('NS-3', 'the name is taken once created: a second CREATE is refused', () => {
    const walk = namespaceWalk(create([], ['kubernetes']), create([], [origin]));
    expect(walk.steps[1].transitions).toEqual([]);
    expect(walk.context).toMatchObject({ finalizers: ['kubernetes'] });
    return walk.steps[0].transitions;
  }),
  namespaceCheck('IN-1', 'the pending list admission filled is stored in order', () => {
    const walk = namespaceWalk(create([policy, quota]));
    expect(walk.context.pending).toEqual([policy, quota]);
    return last(walk);
  }),
  namespaceCheck(
    'IN-5',
    'Initializing while initializers are pending, Active when the last completes',
    () => {
      const initializing = namespaceWalk(create([policy]));
      expect(phaseOf(initializing.value as 'initializing')).toBe('Initializing');
      const walk = namespaceWalk(create([policy]), removePending(policy));
      expect(walk.value).toBe('active');
      return [...last(initializing), ...last(walk)];
    },
  ),
  namespaceCheck('IN-2', 'only the first pending initializer may be removed', () => {
    expect(namespaceWalk(create([policy, quota]), removePending(quota)).steps[1].transitions).toEqual([]);
    const walk = namespaceWalk(create([policy, quota]), removePending(policy));
    expect(walk.context.pending).toEqual([quota]);
    return last(walk);
  }),
  namespaceWalkCheck(
    'IN-3',
    'an initializer removes itself from the pending list',
    [create([policy, quota]), removePending(policy)],
    (walk) => {
      expect(walk.value).toBe('initializing');
      expect(walk.context.pending).not.toContain(policy);
    },
  ),
  namespaceCheck('IN-4', 'once the list is empty the namespace is initialized for good', () => {
    const walk = namespaceWalk(create([quota]), removePending(quota));
    expect(walk.value).toBe('active');
    expect(walk.context.pending).toEqual([]);
    const transitions = last(walk);
    const again = namespaceWalk(create([quota]), removePending(quota), create([policy]));
    expect(again.steps[2].transitions).toEqual([]);
    expect(again.value).toBe('active');
    return transitions;
  }),
  namespaceCheck('IN-7', 'a failure result deletes the namespace, which never becomes Active', () => {
    const walk = namespaceWalk(create([quota]), {
      type: 'RECORD_FAILURE',
      reason: 'ProvisioningFailed',
    });
    expect(walk.value).toBe('terminating');
    expect(walk.context).toMatchObject({ failure: { reason: 'ProvisioningFailed' }, deletedSecondsAgo: 0 });
    return last(walk);
  }),
  namespaceCheck('LC-3', 'DELETE sets the deletion timestamp once; a second DELETE changes nothing', () => {
    const once = namespaceWalk(create([]), deleteNow, tick);
    expect(once.value).toBe('terminating');
    expect(once.context.deletedSecondsAgo).toBe(1);
    const twice = namespaceWalk(create([]), deleteNow, tick, deleteNow);
    expect(twice.context).toEqual(once.context);
    return [...last(once), ...last(twice)];
  }),
  namespaceWalkCheck(
    'LC-6',
    'finalize replaces spec.finalizers',
    [create([]), finalize(['kubernetes', origin])],
    (walk) => expect(walk.context.finalizers).toEqual(['kubernetes', origin]),
  ),
  namespaceCheck(
    'LC-8',
    'an owner removes only its own finalizer while Terminating; adding one is refused',
    () => {
      const start = [create([], ['kubernetes', origin]), deleteNow];
      expect(
        namespaceWalk(...start, finalize(['kubernetes', origin, 'example.com/new'])).steps[2],
      ).toMatchObject({ transitions: [] });
      const walk = namespaceWalk(...start, finalize(['kubernetes']));
      expect(walk.context.finalizers).toEqual(['kubernetes']);
      return last(walk);
    },
  ),
  namespaceCheck('LC-7', 'removal only with a deletion timestamp and no finalizer left', () => {
    expect(namespaceWalk(create([]), deleteNow, { type: 'PURGE' }).value).toBe('terminating');
    expect(namespaceWalk(create([], []), { type: 'PURGE' }).value).toBe('active');
    const walk = namespaceWalk(create([]), deleteNow, finalize([]), { type: 'PURGE' });
    expect(walk.value).toBe('removed');
    return last(walk);
  }),
];

// ---------------------------------------------------------------- admission

const admissions = new MachineStepper(admissionMachine);
const admit = (overrides: Partial<AdmissionFacts>) => {
  const facts = admissionFacts(overrides);

  const step = admissions.step(admissions.initial, { type: 'ADMIT', facts });
  return {
    value: admissions.value(step.next),
    verdict: admissions.snapshot(step.next).context.verdict,
    transitions: step.transitions,
  };
};
const refusedWith = (outcome: ReturnType<typeof admit>, refusal: AdmissionRefusal) => {
  expect(outcome.value).toBe('refused');
  expect(outcome.verdict).toEqual({ kind: 'refused', refusal });
  return outcome.transitions;
};

const admissionChecks: RequirementCheck[] = [
  admissionCheck('AC-1', 'a request starts the chain at the configuration check', () => {
    const outcome = admit({});
    expect(outcome.value).toBe('admitted');
    expect(outcome.transitions[0]).toBe('admission:waiting:ADMIT->namespaceLifecycle');
    return outcome.transitions.slice(0, 1);
  }),
  admissionCheck('AC-2', 'a stale configuration copy refuses writes, not reads', () => {
    expect(admit({ operation: 'list', configurationFresh: false }).value).toBe('admitted');
    return refusedWith(
      admit({ operation: 'delete', configurationFresh: false }),
      'refuseConfigurationUnavailable',
    );
  }),
  {
    machine: 'admission',
    requirement: 'AC-3',
    name: 'no namespace is created from a stale configuration copy',
    run: () =>
      refusedWith(
        admit({ target: 'namespace', operation: 'create', configurationFresh: false }),
        'refuseConfigurationUnavailable',
      ),
  },
  {
    machine: 'admission',
    requirement: 'NS-2',
    name: 'content in a namespace that does not exist is refused',
    run: () => refusedWith(admit({ operation: 'create', namespaceExists: false }), 'refuseNamespaceNotFound'),
  },
  {
    machine: 'admission',
    requirement: 'LC-4',
    name: 'new content in a Terminating namespace is refused',
    run: () =>
      refusedWith(admit({ operation: 'create', namespaceTerminating: true }), 'refuseNamespaceTerminating'),
  },
  {
    machine: 'admission',
    requirement: 'LC-10',
    name: 'an immortal namespace may not be deleted',
    run: () =>
      refusedWith(
        admit({ target: 'namespace', operation: 'delete', namespaceImmortal: true }),
        'refuseImmortalNamespaceDeletion',
      ),
  },
  admissionCheck('IN-3', 'a create carrying initializers needs initialize', () => {
    const holder = admit({
      target: 'namespace',
      operation: 'create',
      createCarriesInitializers: true,
      callerMayInitialize: true,
    });
    expect(holder.verdict).toEqual({ kind: 'admitted', pending: 'asSent' });
    return refusedWith(
      admit({ target: 'namespace', operation: 'create', createCarriesInitializers: true }),
      'refuseInitializersSetAtCreate',
    );
  }),
  admissionCheck('IN-1', 'an ordinary namespace create gets the configured pending list', () => {
    const outcome = admit({ target: 'namespace', operation: 'create' });
    expect(outcome.value).toBe('admitted');
    expect(outcome.verdict).toEqual({ kind: 'admitted', pending: 'inject' });
    return outcome.transitions;
  }),
];

// ---------------------------------------------------------------- configuration sync

const configSync = new MachineStepper(configSyncMachine, { configurations: ['10-policy'] });

const configSyncChecks: RequirementCheck[] = [
  configSyncCheck('AC-1', 'each successful read refreshes the copy', () => {
    const step = configSync.step(configSync.initial, {
      type: 'READ_SUCCEEDED',
      configurations: ['20-quota', '10-policy'],
    });
    expect(configSync.snapshot(step.next).context).toEqual({
      secondsSinceRead: 0,
      configurations: ['10-policy', '20-quota'],
      versions: {},
    });
    return step.transitions;
  }),
  configSyncCheck('AC-2', 'five seconds without a successful read make the copy stale', () => {
    const fourFailures = [1, 2, 3, 4].reduce(
      (id) => configSync.step(id, { type: 'READ_FAILED' }).next,
      configSync.initial,
    );
    const step = configSync.step(fourFailures, { type: 'READ_FAILED' });
    expect(configSync.value(step.next)).toBe('stale');
    return step.transitions;
  }),
  configSyncCheck('AC-3', 'within the window a failed read keeps the last copy', () => {
    const step = configSync.step(configSync.initial, { type: 'READ_FAILED' });
    expect(configSync.value(step.next)).toBe('fresh');
    expect(configSync.snapshot(step.next).context.configurations).toEqual(['10-policy']);
    return step.transitions;
  }),
];

// ---------------------------------------------------------------- initializer controller

const controllers = new MachineStepper(initializerControllerMachine);
const reconcile = (
  firstPendingIsMe: boolean,
  populated: boolean,
  type: 'RECONCILE' | 'PROVISIONING_FAILED' = 'RECONCILE',
) => {
  const step = controllers.step(controllers.initial, { type, observed: { firstPendingIsMe, populated } });
  return { actions: step.emitted.map((e) => e.type), transitions: step.transitions };
};

const initializerControllerChecks: RequirementCheck[] = [
  ...emittingChecks('initializer-controller', reconcile, [
    [
      'IN-2',
      'it acts only where it is first pending',
      [[[true, false], ['populateNamespace']]],
      [[[false, false], []]],
    ],
    [
      'RB-2',
      'policy population: it creates its object in the namespace',
      [[[true, false], ['populateNamespace']]],
    ],
    ['IN-3', 'its work done, it removes itself', [[[true, true], ['removeSelfFromPending']]]],
    [
      'IN-7',
      'a provisioning failure sets a failure result',
      [[[true, false, 'PROVISIONING_FAILED'], ['recordFailureResult']]],
    ],
  ]),
  controllerCheck('FP-5', 'it may crash, does nothing while down, and restarts', () => {
    const crash = controllers.step(controllers.initial, { type: 'CRASH' });
    expect(controllers.value(crash.next)).toBe('crashed');
    const idle = controllers.step(crash.next, {
      type: 'RECONCILE',
      observed: { firstPendingIsMe: true, populated: false },
    });
    expect(idle.actions).toEqual([]);
    const restart = controllers.step(crash.next, { type: 'RESTART' });
    expect(restart.next).toBe(controllers.initial);
    return [...crash.transitions, ...restart.transitions];
  }),
];

// ---------------------------------------------------------------- initializer timeout

const timeouts = new MachineStepper(initializerTimeoutMachine);
const timeoutCheck = (
  type: 'TIMER_CHECK' | 'READ_REPAIR_CHECK',
  failurePolicy: TimeoutObservation['failurePolicy'],
  due: boolean,
) => {
  const observed: TimeoutObservation = {
    failurePolicy,
    timerExpired: type === 'TIMER_CHECK' && due,
    readRepairDue: type === 'READ_REPAIR_CHECK' && due,
  };
  const step = timeouts.step(timeouts.initial, { type, observed });
  return { actions: step.emitted.map((e) => e.type), transitions: step.transitions };
};

type TimeoutCase = [Parameters<typeof timeoutCheck>, string[]];
const timerRemoves: TimeoutCase = [['TIMER_CHECK', 'Ignore', true], ['removeTimedOutInitializer']];
const timerFails: TimeoutCase = [['TIMER_CHECK', 'Fail', true], ['failNamespaceWithTimeout']];
const repairRemoves: TimeoutCase = [['READ_REPAIR_CHECK', 'Ignore', true], ['readRepairRemoveFirstPending']];
const repairFails: TimeoutCase = [['READ_REPAIR_CHECK', 'Fail', true], ['failNamespaceWithTimeout']];
const notDue = (type: TimeoutCase[0][0]): TimeoutCase => [[type, 'Ignore', false], []];

const initializerTimeoutChecks: RequirementCheck[] = emittingChecks('initializer-timeout', timeoutCheck, [
  ['FP-1', 'the failure policy decides what an expired timer does', [timerRemoves, timerFails]],
  [
    'FP-2',
    'Ignore removes an initializer that did not act in time; nothing before the timeout',
    [timerRemoves],
    [notDue('TIMER_CHECK')],
  ],
  [
    'FP-4',
    'a GET after the global timeout repairs the first pending initializer',
    [repairRemoves],
    [notDue('READ_REPAIR_CHECK')],
  ],
  [
    'FP-5',
    'a fail-open initializer that never acts is removed, by the timer or by read-repair',
    [timerRemoves, repairRemoves],
  ],
  ['IN-7', 'a fail-closed timeout sets a failure result', [repairFails]],
]);

// ---------------------------------------------------------------- namespace controller

const namespaceControllers = new MachineStepper(namespaceControllerMachine);
// The controller acts only on Terminating namespaces (its machine's guards; namespace-controller.test.ts).
const controllerSync = (contentRemains: boolean, finalizers: string[]) => {
  const step = namespaceControllers.step(namespaceControllers.initial, {
    type: 'SYNC',
    observed: { terminating: true, contentRemains, finalizers },
  });
  return { actions: step.emitted.map((e) => e.type), transitions: step.transitions };
};

const namespaceControllerChecks: RequirementCheck[] = emittingChecks('namespace-controller', controllerSync, [
  [
    'LC-5',
    'content is deleted before the namespace is finalized',
    [[[true, ['kubernetes']], ['deleteOneContentObject']]],
  ],
  [
    'LC-6',
    'it removes `kubernetes` through finalize once no content is left',
    [[[false, ['kubernetes', origin]], ['finalizeKubernetes']]],
  ],
  [
    'LC-7',
    'the final DELETE is sent only when no finalizer is left',
    [[[false, []], ['sendFinalDelete']]],
    [[[false, [origin]], []]],
  ],
  [
    'LC-9',
    'the final DELETE never leaves content behind',
    [[[false, []], ['sendFinalDelete']]],
    [[[true, []], ['deleteOneContentObject']]],
  ],
]);

// ---------------------------------------------------------------- finalizer owner

const owners = new MachineStepper(finalizerOwnerMachine);
const ownerSync = (overrides: Partial<FinalizerOwnerObservation>) => {
  const observed: FinalizerOwnerObservation = {
    owner: origin,
    namespaceActive: false,
    namespaceTerminating: true,
    finalizers: ['kubernetes', origin],
    externalContentExists: false,
    ...overrides,
  };
  const step = owners.step(owners.initial, { type: 'SYNC', observed });
  return { actions: step.emitted, transitions: step.transitions };
};

const finalizerOwnerChecks: RequirementCheck[] = [
  ownerCheck('LC-8', 'it provisions for namespaces with its finalizer and removes only its own', () => {
    const provision = ownerSync({ namespaceActive: true, namespaceTerminating: false });
    expect(provision.actions.map((a) => a.type)).toEqual(['provisionExternalContent']);
    const remove = ownerSync({ finalizers: ['kubernetes', origin, 'example.com/other'] });
    expect(remove.actions).toEqual([
      { type: 'removeOwnFinalizer', finalizers: ['kubernetes', 'example.com/other'] },
    ]);
    return [...provision.transitions, ...remove.transitions];
  }),
  ownerCheck('LC-9', 'its external content is purged before its finalizer goes', () => {
    const step = ownerSync({ externalContentExists: true });
    expect(step.actions.map((a) => a.type)).toEqual(['purgeExternalContent']);
    return step.transitions;
  }),
  ownerCheck('LC-6', 'its finalizer is removed by a finalize request carrying the rest of the list', () => {
    const step = ownerSync({});
    expect(step.actions).toEqual([{ type: 'removeOwnFinalizer', finalizers: ['kubernetes'] }]);
    return step.transitions;
  }),
];

// ---------------------------------------------------------------- timer

const timers = new MachineStepper(timerMachine);
const timerWalk = (...events: TimerEvent[]) => {
  const steps: { transitions: string[] }[] = [];
  const id = events.reduce((at, event) => {
    const step = timers.step(at, event);
    steps.push(step);
    return step.next;
  }, timers.initial);
  return { value: timers.value(id), context: timers.snapshot(id).context, steps };
};
const arm: TimerEvent = { type: 'ARM', initializer: policy, timeoutSeconds: 2 };
const timerTick: TimerEvent = { type: 'TICK' };
/** Armed with a 2 s timeout, then two ticks: the timer has expired. */
const expiredTimer = () => {
  const walk = timerWalk(arm, timerTick, timerTick);
  expect(walk.value).toBe('expired');
  return walk;
};

const timerChecks: RequirementCheck[] = [
  timerCheck(
    'FP-2',
    'armed at create, the timer ages a second a tick and expires no later than its timeout',
    () => {
      const walk = expiredTimer();
      expect(walk.context.ageSeconds).toBe(2);
      return walk.steps.flatMap((s) => s.transitions);
    },
  ),
  timerCheck(
    'FP-1',
    'the tick that reaches the timeout expires the timer, so the failure policy applies',
    () => last(expiredTimer()),
  ),
  timerCheck('FP-4', 'an apiserver restart loses an armed timer', () => {
    const walk = timerWalk(arm, { type: 'LOSE' });
    expect(walk.value).toBe('lost');
    return [...walk.steps[0].transitions, ...last(walk)];
  }),
  timerCheck('IN-2', 'the next pending initializer gets a fresh timer with its own timeout', () => {
    const walk = timerWalk(arm, timerTick, { type: 'REARM', initializer: quota, timeoutSeconds: 3 });
    expect(walk.value).toBe('armed');
    expect(walk.context).toEqual({ initializer: quota, timeoutSeconds: 3, ageSeconds: 0 });
    return last(walk);
  }),
  timerCheck('IN-4', 'once nothing is pending the timer is disarmed for good', () => {
    const walk = timerWalk(arm, { type: 'DISARM' }, timerTick);
    expect(walk.value).toBe('disarmed');
    return walk.steps[1].transitions;
  }),
];

const injector = new MachineStepper(failureInjectorMachine);

const failureInjectorChecks: RequirementCheck[] = [
  injectorCheck('AC-2', 'configuration reads fail from the start of an outage to its end', () => {
    const start = injector.step(injector.initial, { type: 'START_OUTAGE' });
    expect(injector.value(start.next)).toBe('readsFailing');
    const end = injector.step(start.next, { type: 'END_OUTAGE' });
    expect(injector.value(end.next)).toBe('readsWorking');
    return [...start.transitions, ...end.transitions];
  }),
  injectorCheck('FP-4', 'an apiserver restart loses the initializer timers', () => {
    const restart = injector.step(injector.initial, { type: 'RESTART_APISERVER' });
    expect(restart.emitted).toEqual([{ type: 'loseInitializerTimers' }]);
    return restart.transitions;
  }),
];

// ---------------------------------------------------------------- generic initialization (seed 002)

const objects = new MachineStepper(genericInitializationMachine);
/** Runs requests from absent; the transitions of the last one, and the snapshot it reached. */
const objectWalk = (...events: GenericObjectEvent[]) => {
  let id = objects.initial;
  let last: readonly string[] = [];
  for (const e of events) {
    const step = objects.step(id, e);
    id = step.next;
    last = step.transitions;
  }
  return { snapshot: objects.snapshot(id), transitions: last };
};
const podCreate: GenericObjectEvent = {
  type: 'CREATE',
  initializers: ['sizer'],
  strictlyValid: true,
  wait: true,
};

const genericInitializationChecks: RequirementCheck[] = [
  {
    machine: 'generic-initialization',
    requirement: 'AC-4',
    name: 'a create whose kind the rules match gets their initializers as metadata.initializers',
    run: () => {
      const walk = objectWalk(podCreate);
      expect(walk.snapshot.value).toEqual({ initializing: 'uninitialized' });
      expect(walk.snapshot.context.pending).toEqual(['sizer']);
      return walk.transitions;
    },
  },
  {
    machine: 'generic-initialization',
    requirement: 'IN-9',
    name: 'an uninitialized object is hidden from a read that does not ask for uninitialized objects',
    run: () => {
      const walk = objectWalk(podCreate, { type: 'READ', includeUninitialized: false });
      expect(walk.snapshot.context.outcome).toEqual({ kind: 'not-found', code: 404 });
      return walk.transitions;
    },
  },
  {
    machine: 'generic-initialization',
    requirement: 'IN-10',
    name: 'the scheduler leaves an uninitialized pod alone',
    run: () => {
      const walk = objectWalk(podCreate, { type: 'SCHEDULE' });
      expect(walk.snapshot.context.scheduled).toBe(false);
      return walk.transitions;
    },
  },
  {
    machine: 'generic-initialization',
    requirement: 'ALT-3',
    name: 'the held create is answered 504 at its fifth second',
    run: () => {
      const tick: GenericObjectEvent = { type: 'TICK' };
      const walk = objectWalk(podCreate, tick, tick, tick, tick, tick);
      expect(walk.snapshot.context.outcome).toEqual({ kind: 'timeout', code: 504 });
      return walk.transitions;
    },
  },
];

const checks: RequirementCheck[] = [
  ...genericInitializationChecks,
  ...timerChecks,
  ...failureInjectorChecks,
  ...namespaceChecks,
  ...admissionChecks,
  ...configSyncChecks,
  ...initializerControllerChecks,
  ...initializerTimeoutChecks,
  ...namespaceControllerChecks,
  ...finalizerOwnerChecks,
];

// ---------------------------------------------------------------- the checks and their coverage

/** Requirement IDs claimed by each transition id, across the catalog. */
const claimsByTransition = new Map(
  machineCatalog.flatMap((entry) =>
    listTransitions(entry.machine).map((t) => [t.id, t.requirements] as const),
  ),
);
const claimedBy = (entry: (typeof machineCatalog)[number]) =>
  new Set(listTransitions(entry.machine).flatMap((t) => t.requirements));

describe('requirement checks: each steps its machine and takes a transition claiming the ID', () => {
  for (const check of checks) {
    it(`${check.requirement} ${check.machine}: ${check.name}`, () => {
      const entry = machineCatalog.find((e) => e.id === check.machine);
      expect(entry).toBeDefined();
      const taken = check.run();
      expect(taken.length).toBeGreaterThan(0);
      for (const id of taken) expect(id.startsWith(`${entry?.machine.id}:`)).toBe(true);
      expect(taken.flatMap((id) => claimsByTransition.get(id) ?? [])).toContain(check.requirement);
    });
  }
});

describe('requirement coverage of the machines', () => {
  it('every requirement a machine claims has a check that names it', () => {
    const uncovered = checkedMachines.flatMap((entry) => {
      const covered = new Set(checks.filter((c) => c.machine === entry.id).map((c) => c.requirement));
      return [...claimedBy(entry)].filter((id) => !covered.has(id)).map((id) => `${entry.id} ${id}`);
    });
    expect(uncovered).toEqual([]);
  });

  it('every check names a requirement its machine claims (no stale entries)', () => {
    const stale = checks
      .filter((c) => {
        const entry = machineCatalog.find((e) => e.id === c.machine);
        return !entry || !claimedBy(entry).has(c.requirement);
      })
      .map((c) => `${c.machine} ${c.requirement}`);
    expect(stale).toEqual([]);
    const keys = checks.map((c) => `${c.machine} ${c.requirement}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every requirement ID a machine claims exists in docs/requirements.md', () => {
    const catalog = readFileSync(new URL('../docs/requirements.md', import.meta.url), 'utf8');
    const defined = new Set([...catalog.matchAll(/\*\*([A-Z]+-\d+)\*\*/g)].map((m) => m[1]));
    expect(defined).toContain('NS-1');
    expect(defined).toContain('ALT-6');
    const unknown = machineCatalog.flatMap((entry) =>
      [...claimedBy(entry)].filter((id) => !defined.has(id)).map((id) => `${entry.id} ${id}`),
    );
    expect(unknown).toEqual([]);
  });

  it('every transition of every machine claims at least one requirement', () => {
    const bare = machineCatalog.flatMap((entry) =>
      listTransitions(entry.machine)
        .filter((t) => t.requirements.length === 0)
        .map((t) => t.id),
    );
    expect(bare).toEqual([]);
  });
});
