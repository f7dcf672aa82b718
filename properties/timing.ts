import type { NamespaceView, SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { onStep, stepProperty } from './declare.ts';
import {
  type ChangedNamespace,
  eachChanged,
  initializerInEffect,
  sameList,
  someChanged,
  staleAfterSeconds,
  succeeded,
} from './steps.ts';
import type { Property, Verdict } from './types.ts';

/**
 * Timing safety (FP-1, FP-2, FP-4, AC-1..AC-3), judged from the readable state only: the ages the view
 * shows and the bounds the scope declares (each initializer's `timeoutSeconds` and `failurePolicy`, the
 * read-repair timeout, the 5 s staleness of D-9). Never a call into the timer, timeout, configuration or
 * admission code these properties judge.
 */

const views = (model: SystemModel, s: SystemState): readonly NamespaceView[] => model.views(s);
const isTick = (e: SystemEvent) => e.actorKind === 'clock';
/** The apiserver's own timer step on a namespace (a restart is a fault, not this). */
const isTimerStep = (e: SystemEvent) => e.actorKind === 'apiserver' && e.namespace >= 0;
const firstPendingDeclared = (model: SystemModel, s: SystemState, v: NamespaceView) =>
  v.value === 'initializing' &&
  v.pending.length > 0 &&
  initializerInEffect(model, s, v.pending[0]) !== undefined;

export const timerRunsForFirstPending = stepProperty(
  'timer-runs-for-first-pending',
  ['FP-2', 'FP-4', 'IN-2'],
  {
    statement:
      "While a namespace is Initializing, the apiserver's timer runs for its first pending initializer, from 0 s each time that initializer changes, unless the apiserver restarted and lost it; outside Initializing no timer runs.",
    predicate: eachChanged(({ b: was, a, model, after }) => {
      if (!firstPendingDeclared(model, after, a))
        return a.value !== 'initializing' && (a.failOpenTimer !== null || a.timerLost)
          ? `${a.name} is ${a.value} with an initializer timer`
          : true;
      if (a.timerLost) return true;
      const timer = a.failOpenTimer;
      if (timer === null) return `${a.name} waits on ${a.pending[0]} with no timer running`;
      if (timer.initializer !== a.pending[0])
        return `${a.name}'s timer runs for ${timer.initializer}, but ${a.pending[0]} is first pending`;
      const firstChanged = was.value !== 'initializing' || was.pending[0] !== a.pending[0];
      if (firstChanged && timer.ageSeconds !== 0)
        return `${a.name}'s timer for ${a.pending[0]} started at ${timer.ageSeconds}s, not 0`;
      return true;
    }),
    witness: onStep(
      'the first pending initializer of an Initializing namespace changes while its timer runs',
      // A namespace whose first pending changed is one the step changed.
      someChanged(
        ({ b, a }) => a.failOpenTimer !== null && b.value === 'initializing' && b.pending[0] !== a.pending[0],
      ),
    ),
  },
);

export const timerFiresByTimeout = stepProperty('timer-fires-by-timeout', ['FP-2', 'FP-5'], {
  statement:
    "Time does not pass while an initializer's timer has run its declared timeoutSeconds: the timer fires no later than timeoutSeconds after it was armed (FP-2).",
  predicate: (model, before, event, after) => {
    if (!isTick(event)) return true;
    // Each running timer read where it runs: no list of them per tick judged.
    const was = views(model, before);
    for (let i = 0; i < was.length; i++) {
      const v = was[i];
      const t = v.failOpenTimer;
      const spec = t && initializerInEffect(model, before, t.initializer);
      if (t && spec && v.value === 'initializing' && t.ageSeconds >= spec.timeoutSeconds)
        return `a second passed while ${t.initializer}'s timer on ${v.name} had run ${t.ageSeconds}s of its ${spec.timeoutSeconds}s`;
    }
    const is = views(model, after);
    for (let i = 0; i < is.length; i++) {
      const v = is[i];
      const t = v.failOpenTimer;
      const spec = t && initializerInEffect(model, after, t.initializer);
      if (t && spec && t.ageSeconds > spec.timeoutSeconds)
        return `${t.initializer}'s timer on ${v.name} is ${t.ageSeconds}s old, past its ${spec.timeoutSeconds}s`;
    }
    return true;
  },
  witness: onStep(
    "a second passes while an initializer's timer runs",
    (model, before, event) => isTick(event) && views(model, before).some((v) => v.failOpenTimer !== null),
  ),
});

/**
 * The slot of an Initializing namespace, its first pending initializer declared, that a GET of the
 * namespace itself addressed; -1 for any other step. The status sub-resource never changes spec (D-30).
 */
const repairableGet = (model: SystemModel, before: SystemState, event: SystemEvent): number => {
  const r = event.request;
  if (r?.verb !== 'get' || r.target !== 'namespace' || r.subresource || r.namespace < 0) return -1;
  return firstPendingDeclared(model, before, model.view(before, r.namespace)) ? r.namespace : -1;
};

/** The slot of the namespace a timer step acted on; -1 for any other step. */
const timerStepSlot = (_model: SystemModel, _before: SystemState, event: SystemEvent): number =>
  isTimerStep(event) ? event.namespace : -1;

/** A step predicate judged on the namespace `slotOf` picks, before and after the step; true where it picks none. */
const onAddressed =
  (
    slotOf: (model: SystemModel, before: SystemState, event: SystemEvent) => number,
    judge: (changed: ChangedNamespace) => Verdict,
  ) =>
  (model: SystemModel, before: SystemState, event: SystemEvent, after: SystemState): Verdict => {
    const i = slotOf(model, before, event);
    return i < 0
      ? true
      : judge({ b: model.view(before, i), a: model.view(after, i), model, before, event, after });
  };

export const timeoutFollowsFailurePolicy = stepProperty(
  'timeout-follows-failure-policy',
  ['FP-1', 'FP-2', 'IN-7'],
  {
    statement:
      'An initializer timer fires only once its declared timeoutSeconds have run; then `Ignore` removes that initializer from the pending list and the namespace carries on, `Fail` records the result Timeout and the namespace is deleted (FP-1, FP-2).',
    predicate: onAddressed(timerStepSlot, ({ b, a, model, before }) => {
      const t = b.failOpenTimer;
      const spec = t && initializerInEffect(model, before, t.initializer);
      if (!t || !spec) return `the apiserver acted on ${b.name} without a running timer`;
      if (t.ageSeconds < spec.timeoutSeconds)
        return `${t.initializer}'s timer on ${b.name} fired after ${t.ageSeconds}s, before its ${spec.timeoutSeconds}s timeout`;
      if (b.pending[0] !== t.initializer) return `the timer fired for ${t.initializer}, not first pending`;
      if (spec.failurePolicy === 'Ignore') {
        if (a.failure !== null || a.value === 'terminating')
          return `${t.initializer} (Ignore) timed out and ${a.name} failed instead of carrying on`;
        if (!sameList(a.pending, b.pending.slice(1)))
          return `${t.initializer} (Ignore) timed out but pending went ${JSON.stringify(b.pending)} → ${JSON.stringify(a.pending)}`;
        return true;
      }
      if (a.value !== 'terminating' || a.failure?.reason !== 'Timeout')
        return `${t.initializer} (Fail) timed out but ${a.name} is ${a.value} with result ${a.failure?.reason ?? 'none'}, not Timeout`;
      return true;
    }),
    witness: onStep("an initializer's timer fires", (_model, _before, event) => isTimerStep(event)),
  },
);

export const readRepairAfterGlobalTimeout = stepProperty(
  'read-repair-after-global-timeout',
  ['FP-4', 'FP-1', 'IN-8'],
  {
    statement:
      'A GET of an Initializing namespace repairs it exactly when the declared global timeout has passed since creation: the first pending initializer is removed (`Ignore`) or the result Timeout recorded (`Fail`); before that, a GET changes nothing (FP-4).',
    predicate: onAddressed(repairableGet, ({ b, a, model, before, event }) => {
      const first = b.pending[0];
      const spec = initializerInEffect(model, before, first);
      const due = (b.createdSecondsAgo ?? 0) >= model.scope.clock.readRepairTimeoutSeconds;
      const changed = !sameList(a.pending, b.pending) || a.value !== b.value;
      const ok = succeeded(event);
      if (!due)
        return changed
          ? `a GET changed ${b.name} ${b.createdSecondsAgo}s after creation, before the ${model.scope.clock.readRepairTimeoutSeconds}s global timeout`
          : true;
      if (!ok) return true;
      if (spec?.failurePolicy === 'Fail')
        return a.failure?.reason === 'Timeout' && a.value === 'terminating'
          ? true
          : `a GET after the global timeout left ${b.name} ${a.value} with ${first} (Fail) pending, no Timeout result`;
      return sameList(a.pending, b.pending.slice(1))
        ? true
        : `a GET after the global timeout left ${b.name}'s pending ${JSON.stringify(a.pending)}, ${first} (Ignore) not removed`;
    }),
    witness: onStep(
      'a GET of an Initializing namespace once the global timeout has passed since creation',
      (model, before, event) => {
        const i = repairableGet(model, before, event);
        return (
          i >= 0 &&
          (model.view(before, i).createdSecondsAgo ?? 0) >= model.scope.clock.readRepairTimeoutSeconds
        );
      },
    ),
  },
);

export const configurationCopyRefreshed = stepProperty(
  'configuration-copy-refreshed',
  ['AC-1', 'AC-2', 'AC-3'],
  {
    statement:
      'Each second admission reads the configurations: a successful read makes its copy exactly what the store holds, 0 s old; a failed read keeps the copy and ages it; the copy is stale exactly when it is 5 s old (AC-1, AC-2, AC-3), so a configuration change reaches new namespaces at the next successful read, and never waits beyond the staleness bound while reads work.',
    predicate: (model, before, event, after) => {
      // A step that keeps admission's copy as it was has nothing to judge.
      if (!isTick(event) && model.sameConfigurationCopy(before, after)) return true;
      const b = model.systemView(before);
      const a = model.systemView(after);
      if (a.configurationFresh !== a.secondsSinceConfigRead < staleAfterSeconds(model))
        return `the copy is ${a.configurationFresh ? 'fresh' : 'stale'} ${a.secondsSinceConfigRead}s after the last successful read`;
      if (!isTick(event)) {
        if (
          a.secondsSinceConfigRead !== b.secondsSinceConfigRead ||
          !sameList(a.configurationsRead, b.configurationsRead)
        )
          return `"${event.label}" changed admission's configuration copy between reads`;
        return true;
      }
      if (!b.configReadsFailing) {
        const stored = [...b.configurationsRegistered].sort();
        if (a.secondsSinceConfigRead !== 0 || !sameList(a.configurationsRead, stored))
          return `a successful read left the copy ${a.secondsSinceConfigRead}s old with ${JSON.stringify(a.configurationsRead)}, the store holds ${JSON.stringify(stored)}`;
        return true;
      }
      const age = Math.min(b.secondsSinceConfigRead + 1, staleAfterSeconds(model));
      if (a.secondsSinceConfigRead !== age || !sameList(a.configurationsRead, b.configurationsRead))
        return `a failed read took the copy from ${b.secondsSinceConfigRead}s to ${a.secondsSinceConfigRead}s old (${age}s expected) or changed it`;
      return true;
    },
    witness: onStep('a configuration read fails, and later one succeeds', (model, before, event) => {
      if (!isTick(event)) return false;
      const b = model.systemView(before);
      // The copy aged, so a read failed; this tick's read succeeds unless reads still fail.
      return b.secondsSinceConfigRead > 0 && !b.configReadsFailing;
    }),
  },
);

export const timingProperties: Property[] = [
  timerRunsForFirstPending,
  timerFiresByTimeout,
  timeoutFollowsFailurePolicy,
  readRepairAfterGlobalTimeout,
  configurationCopyRefreshed,
];
