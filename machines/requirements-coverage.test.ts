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

const namespaceChecks: RequirementCheck[] = [
  {
    machine: 'namespace',
    requirement: 'FP-4',
    name: 'while Initializing, the creation timestamp ages up to the read-repair timeout and no further',
    run: () => {
      const walk = namespaceWalk(create([policy]), tick, tick, tick);
      expect(walk.context.createdSecondsAgo).toBe(2);
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'LC-1',
    name: 'a namespace created without pending initializers starts Active',
    run: () => {
      const walk = namespaceWalk(create([]));
      expect(walk.value).toBe('active');
      expect(phaseOf('active')).toBe('Active');
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'LC-2',
    name: 'creation stores kubernetes and the creator’s extra finalizers',
    run: () => {
      const walk = namespaceWalk(create([policy], ['kubernetes', origin]));
      expect(walk.context.finalizers).toEqual(['kubernetes', origin]);
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'NS-3',
    name: 'the name is taken once created: a second CREATE is refused',
    run: () => {
      const walk = namespaceWalk(create([], ['kubernetes']), create([], [origin]));
      expect(walk.steps[1].transitions).toEqual([]);
      expect(walk.context).toMatchObject({ finalizers: ['kubernetes'] });
      return walk.steps[0].transitions;
    },
  },
  {
    machine: 'namespace',
    requirement: 'IN-1',
    name: 'the pending list admission filled is stored in order',
    run: () => {
      const walk = namespaceWalk(create([policy, quota]));
      expect(walk.context.pending).toEqual([policy, quota]);
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'IN-5',
    name: 'Initializing while initializers are pending, Active when the last completes',
    run: () => {
      const initializing = namespaceWalk(create([policy]));
      expect(phaseOf(initializing.value as 'initializing')).toBe('Initializing');
      const walk = namespaceWalk(create([policy]), removePending(policy));
      expect(walk.value).toBe('active');
      return [...last(initializing), ...last(walk)];
    },
  },
  {
    machine: 'namespace',
    requirement: 'IN-2',
    name: 'only the first pending initializer may be removed',
    run: () => {
      expect(namespaceWalk(create([policy, quota]), removePending(quota)).steps[1].transitions).toEqual([]);
      const walk = namespaceWalk(create([policy, quota]), removePending(policy));
      expect(walk.context.pending).toEqual([quota]);
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'IN-3',
    name: 'an initializer removes itself from the pending list',
    run: () => {
      const walk = namespaceWalk(create([policy, quota]), removePending(policy));
      expect(walk.value).toBe('initializing');
      expect(walk.context.pending).not.toContain(policy);
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'IN-4',
    name: 'once the list is empty the namespace is initialized for good',
    run: () => {
      const walk = namespaceWalk(create([quota]), removePending(quota));
      expect(walk.value).toBe('active');
      expect(walk.context.pending).toEqual([]);
      const transitions = last(walk);
      const again = namespaceWalk(create([quota]), removePending(quota), create([policy]));
      expect(again.steps[2].transitions).toEqual([]);
      expect(again.value).toBe('active');
      return transitions;
    },
  },
  {
    machine: 'namespace',
    requirement: 'IN-7',
    name: 'a failure result deletes the namespace, which never becomes Active',
    run: () => {
      const walk = namespaceWalk(create([quota]), {
        type: 'RECORD_FAILURE',
        reason: 'ProvisioningFailed',
      });
      expect(walk.value).toBe('terminating');
      expect(walk.context).toMatchObject({ failure: { reason: 'ProvisioningFailed' }, deletedSecondsAgo: 0 });
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'LC-3',
    name: 'DELETE sets the deletion timestamp once; a second DELETE changes nothing',
    run: () => {
      const once = namespaceWalk(create([]), deleteNow, tick);
      expect(once.value).toBe('terminating');
      expect(once.context.deletedSecondsAgo).toBe(1);
      const twice = namespaceWalk(create([]), deleteNow, tick, deleteNow);
      expect(twice.context).toEqual(once.context);
      return [...last(once), ...last(twice)];
    },
  },
  {
    machine: 'namespace',
    requirement: 'LC-6',
    name: 'finalize replaces spec.finalizers',
    run: () => {
      const walk = namespaceWalk(create([]), finalize(['kubernetes', origin]));
      expect(walk.context.finalizers).toEqual(['kubernetes', origin]);
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'LC-8',
    name: 'an owner removes only its own finalizer while Terminating; adding one is refused',
    run: () => {
      const start = [create([], ['kubernetes', origin]), deleteNow];
      expect(
        namespaceWalk(...start, finalize(['kubernetes', origin, 'example.com/new'])).steps[2],
      ).toMatchObject({ transitions: [] });
      const walk = namespaceWalk(...start, finalize(['kubernetes']));
      expect(walk.context.finalizers).toEqual(['kubernetes']);
      return last(walk);
    },
  },
  {
    machine: 'namespace',
    requirement: 'LC-7',
    name: 'removal only with a deletion timestamp and no finalizer left',
    run: () => {
      expect(namespaceWalk(create([]), deleteNow, { type: 'PURGE' }).value).toBe('terminating');
      expect(namespaceWalk(create([], []), { type: 'PURGE' }).value).toBe('active');
      const walk = namespaceWalk(create([]), deleteNow, finalize([]), { type: 'PURGE' });
      expect(walk.value).toBe('removed');
      return last(walk);
    },
  },
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
  {
    machine: 'admission',
    requirement: 'AC-1',
    name: 'a request starts the chain at the configuration check',
    run: () => {
      const outcome = admit({});
      expect(outcome.value).toBe('admitted');
      expect(outcome.transitions[0]).toBe('admission:waiting:ADMIT->namespaceLifecycle');
      return outcome.transitions.slice(0, 1);
    },
  },
  {
    machine: 'admission',
    requirement: 'AC-2',
    name: 'a stale configuration copy refuses writes, not reads',
    run: () => {
      expect(admit({ operation: 'list', configurationFresh: false }).value).toBe('admitted');
      return refusedWith(
        admit({ operation: 'delete', configurationFresh: false }),
        'refuseConfigurationUnavailable',
      );
    },
  },
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
  {
    machine: 'admission',
    requirement: 'IN-3',
    name: 'a create carrying initializers needs initialize',
    run: () => {
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
    },
  },
  {
    machine: 'admission',
    requirement: 'IN-1',
    name: 'an ordinary namespace create gets the configured pending list',
    run: () => {
      const outcome = admit({ target: 'namespace', operation: 'create' });
      expect(outcome.value).toBe('admitted');
      expect(outcome.verdict).toEqual({ kind: 'admitted', pending: 'inject' });
      return outcome.transitions;
    },
  },
];

// ---------------------------------------------------------------- configuration sync

const configSync = new MachineStepper(configSyncMachine, { configurations: ['10-policy'] });

const configSyncChecks: RequirementCheck[] = [
  {
    machine: 'config-sync',
    requirement: 'AC-1',
    name: 'each successful read refreshes the copy',
    run: () => {
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
    },
  },
  {
    machine: 'config-sync',
    requirement: 'AC-2',
    name: 'five seconds without a successful read make the copy stale',
    run: () => {
      const fourFailures = [1, 2, 3, 4].reduce(
        (id) => configSync.step(id, { type: 'READ_FAILED' }).next,
        configSync.initial,
      );
      const step = configSync.step(fourFailures, { type: 'READ_FAILED' });
      expect(configSync.value(step.next)).toBe('stale');
      return step.transitions;
    },
  },
  {
    machine: 'config-sync',
    requirement: 'AC-3',
    name: 'within the window a failed read keeps the last copy',
    run: () => {
      const step = configSync.step(configSync.initial, { type: 'READ_FAILED' });
      expect(configSync.value(step.next)).toBe('fresh');
      expect(configSync.snapshot(step.next).context.configurations).toEqual(['10-policy']);
      return step.transitions;
    },
  },
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
  {
    machine: 'initializer-controller',
    requirement: 'IN-2',
    name: 'it acts only where it is first pending',
    run: () => {
      expect(reconcile(false, false).actions).toEqual([]);
      const step = reconcile(true, false);
      expect(step.actions).toEqual(['populateNamespace']);
      return step.transitions;
    },
  },
  ...(
    [
      [
        'RB-2',
        'policy population: it creates its object in the namespace',
        [true, false],
        'populateNamespace',
      ],
      ['IN-3', 'its work done, it removes itself', [true, true], 'removeSelfFromPending'],
      [
        'IN-7',
        'a provisioning failure sets a failure result',
        [true, false, 'PROVISIONING_FAILED'],
        'recordFailureResult',
      ],
    ] as [string, string, Parameters<typeof reconcile>, string][]
  ).map(
    ([requirement, name, situation, action]): RequirementCheck => ({
      machine: 'initializer-controller',
      requirement,
      name,
      run: () => {
        const step = reconcile(...situation);
        expect(step.actions).toEqual([action]);
        return step.transitions;
      },
    }),
  ),
  {
    machine: 'initializer-controller',
    requirement: 'FP-5',
    name: 'it may crash, does nothing while down, and restarts',
    run: () => {
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
    },
  },
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

const initializerTimeoutChecks: RequirementCheck[] = [
  {
    machine: 'initializer-timeout',
    requirement: 'FP-1',
    name: 'the failure policy decides what an expired timer does',
    run: () => {
      const ignore = timeoutCheck('TIMER_CHECK', 'Ignore', true);
      const fail = timeoutCheck('TIMER_CHECK', 'Fail', true);
      expect(ignore.actions).toEqual(['removeTimedOutInitializer']);
      expect(fail.actions).toEqual(['failNamespaceWithTimeout']);
      return [...ignore.transitions, ...fail.transitions];
    },
  },
  {
    machine: 'initializer-timeout',
    requirement: 'FP-2',
    name: 'Ignore removes an initializer that did not act in time; nothing before the timeout',
    run: () => {
      expect(timeoutCheck('TIMER_CHECK', 'Ignore', false).actions).toEqual([]);
      const step = timeoutCheck('TIMER_CHECK', 'Ignore', true);
      expect(step.actions).toEqual(['removeTimedOutInitializer']);
      return step.transitions;
    },
  },
  {
    machine: 'initializer-timeout',
    requirement: 'FP-4',
    name: 'a GET after the global timeout repairs the first pending initializer',
    run: () => {
      expect(timeoutCheck('READ_REPAIR_CHECK', 'Ignore', false).actions).toEqual([]);
      const step = timeoutCheck('READ_REPAIR_CHECK', 'Ignore', true);
      expect(step.actions).toEqual(['readRepairRemoveFirstPending']);
      return step.transitions;
    },
  },
  {
    machine: 'initializer-timeout',
    requirement: 'FP-5',
    name: 'a fail-open initializer that never acts is removed, by the timer or by read-repair',
    run: () => {
      const timer = timeoutCheck('TIMER_CHECK', 'Ignore', true);
      const repair = timeoutCheck('READ_REPAIR_CHECK', 'Ignore', true);
      expect(timer.actions).toEqual(['removeTimedOutInitializer']);
      expect(repair.actions).toEqual(['readRepairRemoveFirstPending']);
      return [...timer.transitions, ...repair.transitions];
    },
  },
  {
    machine: 'initializer-timeout',
    requirement: 'IN-7',
    name: 'a fail-closed timeout sets a failure result',
    run: () => {
      const step = timeoutCheck('READ_REPAIR_CHECK', 'Fail', true);
      expect(step.actions).toEqual(['failNamespaceWithTimeout']);
      return step.transitions;
    },
  },
];

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

const namespaceControllerChecks: RequirementCheck[] = [
  {
    machine: 'namespace-controller',
    requirement: 'LC-5',
    name: 'content is deleted before the namespace is finalized',
    run: () => {
      const step = controllerSync(true, ['kubernetes']);
      expect(step.actions).toEqual(['deleteOneContentObject']);
      return step.transitions;
    },
  },
  {
    machine: 'namespace-controller',
    requirement: 'LC-6',
    name: 'it removes `kubernetes` through finalize once no content is left',
    run: () => {
      const step = controllerSync(false, ['kubernetes', origin]);
      expect(step.actions).toEqual(['finalizeKubernetes']);
      return step.transitions;
    },
  },
  {
    machine: 'namespace-controller',
    requirement: 'LC-7',
    name: 'the final DELETE is sent only when no finalizer is left',
    run: () => {
      expect(controllerSync(false, [origin]).actions).toEqual([]);
      const step = controllerSync(false, []);
      expect(step.actions).toEqual(['sendFinalDelete']);
      return step.transitions;
    },
  },
  {
    machine: 'namespace-controller',
    requirement: 'LC-9',
    name: 'the final DELETE never leaves content behind',
    run: () => {
      expect(controllerSync(true, []).actions).toEqual(['deleteOneContentObject']);
      const step = controllerSync(false, []);
      expect(step.actions).toEqual(['sendFinalDelete']);
      return step.transitions;
    },
  },
];

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
  {
    machine: 'finalizer-owner',
    requirement: 'LC-8',
    name: 'it provisions for namespaces with its finalizer and removes only its own',
    run: () => {
      const provision = ownerSync({ namespaceActive: true, namespaceTerminating: false });
      expect(provision.actions.map((a) => a.type)).toEqual(['provisionExternalContent']);
      const remove = ownerSync({ finalizers: ['kubernetes', origin, 'example.com/other'] });
      expect(remove.actions).toEqual([
        { type: 'removeOwnFinalizer', finalizers: ['kubernetes', 'example.com/other'] },
      ]);
      return [...provision.transitions, ...remove.transitions];
    },
  },
  {
    machine: 'finalizer-owner',
    requirement: 'LC-9',
    name: 'its external content is purged before its finalizer goes',
    run: () => {
      const step = ownerSync({ externalContentExists: true });
      expect(step.actions.map((a) => a.type)).toEqual(['purgeExternalContent']);
      return step.transitions;
    },
  },
  {
    machine: 'finalizer-owner',
    requirement: 'LC-6',
    name: 'its finalizer is removed by a finalize request carrying the rest of the list',
    run: () => {
      const step = ownerSync({});
      expect(step.actions).toEqual([{ type: 'removeOwnFinalizer', finalizers: ['kubernetes'] }]);
      return step.transitions;
    },
  },
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

const timerChecks: RequirementCheck[] = [
  {
    machine: 'timer',
    requirement: 'FP-2',
    name: 'armed at create, the timer ages a second a tick and expires no later than its timeout',
    run: () => {
      const walk = timerWalk(arm, timerTick, timerTick);
      expect(walk.value).toBe('expired');
      expect(walk.context.ageSeconds).toBe(2);
      return walk.steps.flatMap((s) => s.transitions);
    },
  },
  {
    machine: 'timer',
    requirement: 'FP-1',
    name: 'the tick that reaches the timeout expires the timer, so the failure policy applies',
    run: () => {
      const walk = timerWalk(arm, timerTick, timerTick);
      expect(walk.value).toBe('expired');
      return last(walk);
    },
  },
  {
    machine: 'timer',
    requirement: 'FP-4',
    name: 'an apiserver restart loses an armed timer',
    run: () => {
      const walk = timerWalk(arm, { type: 'LOSE' });
      expect(walk.value).toBe('lost');
      return [...walk.steps[0].transitions, ...last(walk)];
    },
  },
  {
    machine: 'timer',
    requirement: 'IN-2',
    name: 'the next pending initializer gets a fresh timer with its own timeout',
    run: () => {
      const walk = timerWalk(arm, timerTick, { type: 'REARM', initializer: quota, timeoutSeconds: 3 });
      expect(walk.value).toBe('armed');
      expect(walk.context).toEqual({ initializer: quota, timeoutSeconds: 3, ageSeconds: 0 });
      return last(walk);
    },
  },
  {
    machine: 'timer',
    requirement: 'IN-4',
    name: 'once nothing is pending the timer is disarmed for good',
    run: () => {
      const walk = timerWalk(arm, { type: 'DISARM' }, timerTick);
      expect(walk.value).toBe('disarmed');
      return walk.steps[1].transitions;
    },
  },
];

const injector = new MachineStepper(failureInjectorMachine);

const failureInjectorChecks: RequirementCheck[] = [
  {
    machine: 'failure-injector',
    requirement: 'AC-2',
    name: 'configuration reads fail from the start of an outage to its end',
    run: () => {
      const start = injector.step(injector.initial, { type: 'START_OUTAGE' });
      expect(injector.value(start.next)).toBe('readsFailing');
      const end = injector.step(start.next, { type: 'END_OUTAGE' });
      expect(injector.value(end.next)).toBe('readsWorking');
      return [...start.transitions, ...end.transitions];
    },
  },
  {
    machine: 'failure-injector',
    requirement: 'FP-4',
    name: 'an apiserver restart loses the initializer timers',
    run: () => {
      const restart = injector.step(injector.initial, { type: 'RESTART_APISERVER' });
      expect(restart.emitted).toEqual([{ type: 'loseInitializerTimers' }]);
      return restart.transitions;
    },
  },
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
      expect(walk.snapshot.value).toBe('uninitialized');
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
