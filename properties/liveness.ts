import type { NamespaceView, SystemModel, SystemState } from '../machines/system.ts';
import type { Fairness, LivenessProperty } from './types.ts';

/**
 * The progress the documents promise, as leads-to properties under stated fairness. Each names the
 * fairness it assumes as data; a property that needs time to pass assumes the clock is fair, and on a
 * bounded clock its verdict waits for relative time (the checker reports it so, never as a pass).
 */

const ns = (model: SystemModel, s: SystemState, i: number): NamespaceView => model.view(s, i);
const initializing = (v: NamespaceView) => v.value === 'initializing';
const policyOf = (model: SystemModel, name: string) => model.initializerSpec(name)?.failurePolicy;
const crashed = (model: SystemModel, s: SystemState, k: number) =>
  model.initializerStepper.value(s.initializers[k]) === 'crashed';
const anyInitializerCrashed = (model: SystemModel, s: SystemState) =>
  s.initializers.some((_, k) => crashed(model, s, k));

const controllerFair: Fairness = {
  kind: 'weak',
  actorKind: 'namespace-controller',
  perNamespace: true,
  why: 'the namespace controller keeps syncing a namespace it can work on (its work queue retries)',
};
const ownersFair: Fairness = {
  kind: 'weak',
  actorKind: 'finalizer-owner',
  perNamespace: true,
  why: 'each finalizer owner keeps reconciling a namespace that carries its finalizer',
};
const timersFair: Fairness = {
  kind: 'weak',
  actorKind: 'apiserver',
  perNamespace: true,
  why: "the apiserver's initializer timer fires once it has expired",
};
const clockFair: Fairness = {
  kind: 'weak',
  actorKind: 'clock',
  why: 'time passes',
};

export const terminatingNamespaceIsRemoved: LivenessProperty = {
  id: 'terminating-namespace-is-removed',
  kind: 'leads-to',
  statement:
    "A Terminating namespace is eventually removed when the namespace controller and every finalizer owner keep working on it, unless admission's configuration copy goes stale first (every write is then refused, AC-2: an outage that never ends blocks removal, and outage-ends judges the way back).",
  requirements: ['LC-5', 'LC-7', 'LC-8', 'LC-9'],
  perNamespace: true,
  premise: 'the namespace is Terminating',
  goal: "the namespace is removed, or admission's copy is stale",
  p: (model, s, i) => ns(model, s, i).value === 'terminating',
  q: (model, s, i) => ns(model, s, i).value === 'removed' || !model.configurationFresh(s),
  fairness: [controllerFair, ownersFair],
};

export const failOpenInitializerNeverBlocks: LivenessProperty = {
  id: 'fail-open-initializer-never-blocks',
  kind: 'leads-to',
  statement:
    'A namespace whose first pending initializer is fail-open (Ignore), with its timer armed, eventually leaves Initializing (Active, or Terminating when a later fail-closed one times out), even if its initializers crash and never come back.',
  requirements: ['FP-2', 'FP-5'],
  perNamespace: true,
  premise: 'Initializing, timer armed, first pending initializer Ignore',
  goal: 'not Initializing',
  p: (model, s, i) => {
    const v = ns(model, s, i);
    return (
      initializing(v) &&
      v.failOpenTimer !== null &&
      v.pending.length > 0 &&
      policyOf(model, v.pending[0]) === 'Ignore'
    );
  },
  q: (model, s, i) => !initializing(ns(model, s, i)),
  // No fairness for the initializers: they may crash and never restart.
  fairness: [timersFair, clockFair],
};

export const readRepairUnblocks: LivenessProperty = {
  id: 'read-repair-unblocks',
  kind: 'leads-to',
  statement:
    'After an apiserver restart loses the initializer timers, an Initializing namespace still leaves Initializing once a client keeps reading it (read-repair).',
  requirements: ['FP-4', 'IN-8'],
  perNamespace: true,
  premise: 'Initializing with pending initializers and no timer armed',
  goal: 'not Initializing',
  p: (model, s, i) => {
    const v = ns(model, s, i);
    return initializing(v) && v.pending.length > 0 && v.failOpenTimer === null;
  },
  q: (model, s, i) => !initializing(ns(model, s, i)),
  fairness: [
    timersFair,
    clockFair,
    {
      kind: 'weak',
      actorKind: 'principal',
      labelIncludes: 'get namespaces/',
      why: 'a client polls the namespace until it is ready (IN-8)',
    },
  ],
};

export const outageEnds: LivenessProperty = {
  id: 'outage-ends',
  kind: 'leads-to',
  statement:
    "Once configuration reads succeed again, admission's copy becomes fresh (it admits again), unless reads fail anew first.",
  requirements: ['AC-2'],
  perNamespace: false,
  premise: 'reads succeed but the copy is stale',
  goal: 'the copy is fresh, or reads fail again',
  p: (model, s) => !s.configReadFailing && !model.configurationFresh(s),
  q: (model, s) => model.configurationFresh(s) || s.configReadFailing,
  fairness: [clockFair],
};

export const otherNamespacesUnaffected: LivenessProperty = {
  id: 'other-namespaces-unaffected',
  kind: 'leads-to',
  statement:
    'While an initializer controller is crashed, every namespace that is Initializing with its timer armed still leaves Initializing: a crash stalls no namespace forever, its own or another.',
  requirements: ['FP-5', 'FP-2'],
  perNamespace: true,
  premise: 'an initializer controller is crashed; the namespace is Initializing with its timer armed',
  goal: 'not Initializing',
  p: (model, s, i) => {
    const v = ns(model, s, i);
    return anyInitializerCrashed(model, s) && initializing(v) && v.failOpenTimer !== null;
  },
  q: (model, s, i) => !initializing(ns(model, s, i)),
  fairness: [timersFair, clockFair],
};

export const failClosedInitializerTimesOut: LivenessProperty = {
  id: 'fail-closed-initializer-times-out',
  kind: 'leads-to',
  statement:
    'A namespace whose first pending initializer is fail-closed (Fail) and crashed, with its timer armed, leaves Initializing anyway: the timer records result Timeout and the namespace is deleted (the create fails with a timeout, document 004); it is never stuck.',
  requirements: ['FP-2', 'IN-7', 'IN-8'],
  perNamespace: true,
  premise: 'Initializing, timer armed, first pending initializer Fail and crashed',
  goal: 'not Initializing',
  p: (model, s, i) => {
    const v = ns(model, s, i);
    if (!initializing(v) || v.failOpenTimer === null || v.pending.length === 0) return false;
    const k = model.initializers.findIndex((spec) => spec.name === v.pending[0]);
    return k >= 0 && model.initializers[k].failurePolicy === 'Fail' && crashed(model, s, k);
  },
  q: (model, s, i) => !initializing(ns(model, s, i)),
  fairness: [timersFair, clockFair],
};

export const livenessProperties: LivenessProperty[] = [
  terminatingNamespaceIsRemoved,
  failOpenInitializerNeverBlocks,
  readRepairUnblocks,
  outageEnds,
  otherNamespacesUnaffected,
  failClosedInitializerTimesOut,
];
