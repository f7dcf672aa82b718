import type { NamespaceView, SystemModel, SystemState } from '../machines/system.ts';
import { initializerInEffect, staleAfterSeconds } from './steps.ts';
import type { Fairness, LivenessProperty } from './types.ts';

/**
 * The progress the documents promise, as leads-to properties under stated fairness. Time is relative
 * (docs/time.md), so a run that waits is a cycle and every verdict is a real one. Each property names
 * the fairness it assumes as data; the findings its verdicts record are in docs/decisions.md (D-27).
 */

const ns = (model: SystemModel, s: SystemState, i: number): NamespaceView => model.view(s, i);
/** A per-namespace predicate that reads the namespace's view first, as every one here does. */
const onView =
  (judge: (v: NamespaceView, model: SystemModel, s: SystemState, i: number) => boolean) =>
  (model: SystemModel, s: SystemState, i: number): boolean =>
    judge(ns(model, s, i), model, s, i);
const initializing = (v: NamespaceView) => v.value === 'initializing';
/** The failure policy the documents give an initializer in state s (D-32). */
const policyOf = (model: SystemModel, s: SystemState, name: string) =>
  initializerInEffect(model, s, name)?.failurePolicy;
const crashed = (model: SystemModel, s: SystemState, name: string) =>
  model.systemView(s).crashedInitializers.includes(name);
// Stale by the documents' bound (AC-2), judged from the copy's age, not from admission's own verdict.
const stale = (model: SystemModel, s: SystemState) =>
  model.systemView(s).secondsSinceConfigRead >= staleAfterSeconds(model);
/** Some principal of the scope declares it polls this namespace (IN-8: clients poll until ready). */
const polled = (model: SystemModel, i: number) => {
  const name = model.scope.namespaces[i].name;
  return model.scope.principals.some(
    (p) => p.requests.includes('get-namespace') && (!p.namespaces || p.namespaces.includes(name)),
  );
};
/** Left Initializing, or the apiserver lost the timer (read-repair-unblocks judges what follows). */
const settledOrLost = onView((v) => !initializing(v) || v.timerLost);

/** A leads-to property judged once per namespace slot: its id and requirement IDs. */
const leadsTo = (id: string, requirements: string[]) =>
  ({ id, kind: 'leads-to', requirements, perNamespace: true }) as const;
/** A leads-to property judged once for the whole system. */
const systemLeadsTo = (id: string, requirements: string[]) =>
  ({ id, kind: 'leads-to', requirements, perNamespace: false }) as const;

/** Weak fairness for one kind of actor, per namespace slot unless `perNamespace` says otherwise. */
const weakly = (actorKind: Fairness['actorKind'], why: string, more: Partial<Fairness> = {}): Fairness => ({
  kind: 'weak',
  actorKind,
  perNamespace: true,
  ...more,
  why,
});

const controllerFair = weakly(
  'namespace-controller',
  'the namespace controller keeps syncing a namespace it can work on (its work queue retries)',
);
const ownersFair = weakly(
  'finalizer-owner',
  'each finalizer owner keeps reconciling a namespace that carries its finalizer',
);
const timersFair = weakly(
  'apiserver',
  "the apiserver's initializer timer fires once it has expired (time waits for it, docs/time.md)",
);
const clockFair: Fairness = { kind: 'weak', actorKind: 'clock', why: 'time passes' };
const initializersFair = weakly(
  'initializer',
  'an initializer controller that is running keeps reconciling the namespaces where it is first pending',
);
const pollerFair = weakly('principal', 'a client polls the namespace until it is ready (IN-8)', {
  request: { verb: 'get', target: 'namespace' },
});

/**
 * The promise that a namespace Initializing with its timer held, where `when` also holds, leaves Initializing
 * (or loses its timer) as long as time passes and the apiserver's timers fire.
 */
const leavesInitializing = (when: (v: NamespaceView, model: SystemModel, s: SystemState) => boolean) => ({
  p: onView((v, model, s) => initializing(v) && !v.timerLost && when(v, model, s)),
  goal: 'not Initializing, or the timer lost',
  q: settledOrLost,
  fairness: [timersFair, clockFair],
});

export const terminatingNamespaceIsRemoved: LivenessProperty = {
  ...leadsTo('terminating-namespace-is-removed', ['LC-5', 'LC-7', 'LC-8', 'LC-9']),
  statement:
    "A Terminating namespace is eventually removed when the namespace controller and every finalizer owner keep working on it, unless admission's configuration copy goes stale first (every write is then refused, AC-2: an outage that never ends blocks removal, and outage-ends judges the way back).",
  premise: 'the namespace is Terminating',
  p: (model, s, i) => ns(model, s, i).value === 'terminating',
  goal: "the namespace is removed, or admission's copy is stale",
  q: (model, s, i) => ns(model, s, i).value === 'removed' || stale(model, s),
  fairness: [controllerFair, ownersFair],
};

export const initializationCompletes: LivenessProperty = {
  ...leadsTo('initialization-completes', ['IN-4', 'FP-2', 'FP-5']),
  statement:
    'An Initializing namespace whose timer the apiserver still holds eventually leaves Initializing (Active, or Terminating after a failure result), whatever its initializers do, as long as time passes and timers fire.',
  premise: 'Initializing, the timer not lost',
  ...leavesInitializing(() => true),
  goal: 'not Initializing, or the timer lost to an apiserver restart',
};

export const failOpenInitializerNeverBlocks: LivenessProperty = {
  ...leadsTo('fail-open-initializer-never-blocks', ['FP-2', 'FP-5']),
  statement:
    'A namespace whose first pending initializer is fail-open (Ignore) eventually leaves Initializing (Active, or Terminating when a later fail-closed one times out), even if its initializers crash and never come back; only an apiserver restart that loses the timer hands it over to read-repair.',
  premise: 'Initializing, first pending initializer Ignore, timer not lost',
  // No fairness for the initializers: they may crash and never restart.
  ...leavesInitializing(
    (v, model, s) => v.pending.length > 0 && policyOf(model, s, v.pending[0]) === 'Ignore',
  ),
};

export const readRepairUnblocks: LivenessProperty = {
  ...leadsTo('read-repair-unblocks', ['FP-4', 'IN-8']),
  statement:
    'After an apiserver restart loses the initializer timer, an Initializing namespace that a client keeps reading still leaves Initializing (read-repair after the global timeout), unless admission refuses the reads because its copy went stale. A namespace nobody reads stays Initializing: FP-4 repairs on a GET only (D-27).',
  premise: 'Initializing with pending initializers, the timer lost, and a principal of the scope polls it',
  p: onView((v, model, _s, i) => initializing(v) && v.pending.length > 0 && v.timerLost && polled(model, i)),
  goal: "not Initializing, or admission's copy is stale",
  q: (model, s, i) => !initializing(ns(model, s, i)) || stale(model, s),
  // Time may wait for another namespace's expired timer, so timers must fire for the clock to reach the timeout.
  fairness: [clockFair, pollerFair, timersFair],
};

export const outageEnds: LivenessProperty = {
  ...systemLeadsTo('outage-ends', ['AC-2']),
  statement:
    "Once configuration reads succeed again, admission's copy becomes fresh (it admits again) within a second, unless reads fail anew first.",
  premise: 'reads succeed but the copy is stale',
  p: (model, s) => !model.systemView(s).configReadsFailing && stale(model, s),
  goal: 'the copy is fresh, or reads fail again',
  q: (model, s) => !stale(model, s) || model.systemView(s).configReadsFailing,
  // Time may wait for an expired timer, so timers must fire for the next read to come.
  fairness: [clockFair, timersFair],
};

export const otherNamespacesUnaffected: LivenessProperty = {
  ...leadsTo('other-namespaces-unaffected', ['FP-5', 'FP-2']),
  statement:
    'While an initializer controller is crashed, every namespace that is Initializing, its own or another, still leaves Initializing: a crash stalls no namespace forever (only a lost timer hands one over to read-repair).',
  premise: 'an initializer controller is crashed; the namespace is Initializing with its timer not lost',
  ...leavesInitializing((_v, model, s) => model.systemView(s).crashedInitializers.length > 0),
};

export const failClosedInitializerTimesOut: LivenessProperty = {
  ...leadsTo('fail-closed-initializer-times-out', ['FP-2', 'IN-7', 'IN-8']),
  statement:
    'A namespace whose first pending initializer is fail-closed (Fail) and crashed leaves Initializing anyway: its timer records result Timeout and the namespace is deleted. Document 004 says the create fails with a timeout; here, as in KEP-33, creation is asynchronous: the create already answered 201 and the client sees the Timeout result when it polls (D-27).',
  premise: 'Initializing, first pending initializer Fail and crashed, timer not lost',
  ...leavesInitializing(
    (v, model, s) =>
      v.pending.length > 0 && policyOf(model, s, v.pending[0]) === 'Fail' && crashed(model, s, v.pending[0]),
  ),
};

export const runningInitializerCompletes: LivenessProperty = {
  ...leadsTo('running-initializer-completes', ['IN-3', 'IN-4', 'IN-7']),
  statement:
    'An initializer controller that is running and first pending on a namespace eventually gets past it: it removes itself or records a failure, unless it crashes or admission refuses its writes (copy stale). The model bounds no initializer’s speed, so IN-4’s "completes" is this liveness property, with no timer assumed fair (IN-3, IN-4).',
  premise: 'Initializing; the first pending initializer is running; the copy is fresh',
  p: onView(
    (v, model, s) =>
      initializing(v) &&
      v.pending.length > 0 &&
      policyOf(model, s, v.pending[0]) !== undefined &&
      !crashed(model, s, v.pending[0]) &&
      !stale(model, s),
  ),
  goal: 'that initializer is no longer first pending, or it crashed, or the copy is stale',
  q: onView(
    (v, model, s) =>
      !initializing(v) || v.pending.length === 0 || crashed(model, s, v.pending[0]) || stale(model, s),
  ),
  fairness: [initializersFair],
};

export const livenessProperties: LivenessProperty[] = [
  terminatingNamespaceIsRemoved,
  initializationCompletes,
  failOpenInitializerNeverBlocks,
  readRepairUnblocks,
  outageEnds,
  otherNamespacesUnaffected,
  failClosedInitializerTimesOut,
  runningInitializerCompletes,
];
