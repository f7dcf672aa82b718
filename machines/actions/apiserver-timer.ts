import type { Composition } from '../composition.ts';
import type { Enabled, NamespaceState, SystemEvent, SystemState } from '../system-types.ts';

/** What an apiserver restart does to one namespace: a running timer is lost (FP-4). */
export interface RestartSlot {
  running: boolean;
  lost: NamespaceState;
  transitions: readonly string[];
}

/** What a restart does globally: the failure injector's step, and whether it loses the timers. */
export interface RestartGlobal {
  transitions: readonly string[];
  loses: boolean;
}

/** A restart's effect on namespace `ns`: reads that namespace alone (tabulated per namespace state). */
export function restartSlot(m: Composition, ns: NamespaceState): RestartSlot {
  const value = m.timerValue(ns);
  if (value !== 'armed' && value !== 'expired') return { running: false, lost: ns, transitions: [] };
  const lost = m.stepTimer(ns.timer, { type: 'LOSE' });
  return {
    running: true,
    lost: m.namespaceState(ns.lifecycle, ns.content, ns.external, lost.next),
    transitions: lost.transitions,
  };
}

/** A restart's global part: reads the faults lane only. */
export function restartGlobal(m: Composition, s: SystemState): RestartGlobal {
  const restart = m.faultStepper.step(s.faults, { type: 'RESTART_APISERVER' }, 'RESTART_APISERVER');
  return {
    transitions: restart.transitions,
    loses: restart.emitted.some((e) => e.type === 'loseInitializerTimers'),
  };
}

/** The restart's event: the injector's transitions, then each namespace's lost timer, once each in order. */
export function restartEvent(
  m: Composition,
  global: RestartGlobal,
  slots: readonly RestartSlot[],
): SystemEvent {
  const transitions = [...global.transitions];
  if (global.loses) for (const slot of slots) if (slot.running) transitions.push(...slot.transitions);
  return m.internEvent({
    actor: 'apiserver',
    actorKind: 'fault',
    label: 'apiserver restarts and loses its initializer timers',
    fault: 'apiserver-restart',
    namespace: -1,
    transitions: [...new Set(transitions)],
  });
}

/**
 * Whether the API server restarts over `count` namespaces (only while a timer runs), and if so which timers
 * it loses: every running one, when the injector's restart loses them (FP-4). Both engines compose it so.
 */
export function restartHappens(
  count: number,
  runningAt: (i: number) => boolean,
  loses: () => boolean,
  loseAt: (i: number) => void,
): boolean {
  let running = false;
  for (let i = 0; i < count; i++) running ||= runningAt(i);
  if (!running) return false;
  if (loses()) for (let i = 0; i < count; i++) if (runningAt(i)) loseAt(i);
  return true;
}

/** The API server restarts while a timer runs and loses the timers (FP-4). */
export function apiserverRestarts(m: Composition, s: SystemState, out: Enabled[]): void {
  const slots = s.namespaces.map((ns) => restartSlot(m, ns));
  const global = restartGlobal(m, s);
  const namespaces = s.namespaces.slice();
  const happens = restartHappens(
    slots.length,
    (i) => slots[i].running,
    () => global.loses,
    (i) => {
      namespaces[i] = slots[i].lost;
    },
  );
  if (!happens) return;
  out.push({ event: restartEvent(m, global, slots), next: { ...s, namespaces } });
}

/** An expired timer on namespace slot i fires (FP-2). */
export function timerFires(m: Composition, s: SystemState, _k: number, i: number, out: Enabled[]): void {
  const ns = s.namespaces[i];
  // An expired timer fires before time passes on (FP-2: no later than timeoutSeconds).
  if (m.timerValue(ns) !== 'expired') return;
  const v = m.view(s, i);
  if (v.value !== 'initializing' || v.pending.length === 0) return;
  const first = m.initializerInForce(s, v.pending[0]);
  if (!first) return;
  const observed = { failurePolicy: first.failurePolicy, timerExpired: true, readRepairDue: false };
  const check = m.timeoutStepper.step(
    m.timeoutStepper.initial,
    { type: 'TIMER_CHECK', observed },
    `TIMER|${observed.failurePolicy}|true`,
  );
  if (check.emitted.length === 0) {
    // A design whose policy does nothing on expiry: the spent timer is dropped, so time is not locked.
    const timer = m.stepTimer(ns.timer, { type: 'DISARM' });
    out.push({
      event: m.internEvent({
        actor: 'apiserver',
        actorKind: 'apiserver',
        label: `timer: ${first.name} timed out on ${v.name} (${first.failurePolicy}: nothing acts on it)`,
        namespace: i,
        transitions: [...check.transitions, ...timer.transitions],
      }),
      next: m.withNamespace(s, i, { timer: timer.next }),
    });
  }
  for (const effect of check.emitted) {
    const transitions = [...check.transitions];
    let next: SystemState | null = null;
    let label = '';
    if (effect.type === 'removeTimedOutInitializer') {
      const step = m.namespaceStepper.step(
        ns.lifecycle,
        { type: 'REMOVE_PENDING', name: first.name },
        `REMOVE_PENDING|${first.name}`,
      );
      transitions.push(...step.transitions);
      next = afterPendingChange(m, s, i, step.next, transitions);
      label = `timer: ${first.name} timed out on ${v.name} (Ignore: removed from pending)`;
    } else if (effect.type === 'failNamespaceWithTimeout') {
      const step = m.namespaceStepper.step(
        ns.lifecycle,
        { type: 'RECORD_FAILURE', reason: 'Timeout' },
        'RECORD_FAILURE|Timeout',
      );
      const timer = m.stepTimer(ns.timer, { type: 'DISARM' });
      transitions.push(...step.transitions, ...timer.transitions);
      next = m.withNamespace(s, i, { lifecycle: step.next, timer: timer.next });
      label = `timer: ${first.name} timed out on ${v.name} (Fail: result Timeout, 504)`;
    }
    if (next) {
      out.push({
        event: m.internEvent({
          actor: 'apiserver',
          actorKind: 'apiserver',
          label,
          namespace: i,
          transitions,
        }),
        next,
      });
    }
  }
}

/**
 * The namespace with `lifecycle` and its timer set for `first`: armed on create (ARM), re-armed when the
 * first pending initializer changes (REARM; a lost timer stays lost, since only the server that handled
 * the create had it, FP-4), disarmed when none is pending or the namespace leaves Initializing (FP-2).
 */
function timeFirstPending(
  m: Composition,
  s: SystemState,
  i: number,
  lifecycle: number,
  type: 'ARM' | 'REARM',
  first: string | undefined,
  transitions?: string[],
): SystemState {
  const spec = first === undefined ? undefined : m.initializerInForce(s, first);
  const timer = spec
    ? m.stepTimer(s.namespaces[i].timer, {
        type,
        initializer: spec.name,
        timeoutSeconds: spec.timeoutSeconds,
      })
    : m.stepTimer(s.namespaces[i].timer, { type: 'DISARM' });
  transitions?.push(...timer.transitions);
  return m.withNamespace(s, i, { lifecycle, timer: timer.next });
}

/** FP-4: the apiserver that handled the create arms the timer for the first pending initializer. */
export const withArmedTimer = (
  m: Composition,
  s: SystemState,
  i: number,
  lifecycle: number,
  pending: readonly string[],
  transitions: string[],
): SystemState => timeFirstPending(m, s, i, lifecycle, 'ARM', pending[0], transitions);

/** The namespace leaves Initializing or is removed: its timer, armed or lost, goes (FP-2). */
export const withoutTimer = (
  m: Composition,
  s: SystemState,
  i: number,
  lifecycle: number,
  transitions: string[],
) => timeFirstPending(m, s, i, lifecycle, 'REARM', undefined, transitions);

/** The first pending initializer may have changed: the timer follows it (FP-2, FP-4). */
export const afterPendingChange = (
  m: Composition,
  s: SystemState,
  i: number,
  lifecycle: number,
  transitions?: string[],
): SystemState =>
  timeFirstPending(
    m,
    s,
    i,
    lifecycle,
    'REARM',
    m.namespaceStepper.snapshot(lifecycle).context.pending[0],
    transitions,
  );

/** FP-4: a GET after the global timeout since creation removes the first pending initializer. */
export function readRepair(m: Composition, s: SystemState, i: number, transitions: string[]): SystemState {
  const v = m.view(s, i);
  if (v.value !== 'initializing' || v.pending.length === 0) return s;
  const first = m.initializerInForce(s, v.pending[0]);
  // The creation age is capped at this very timeout, so `>=` is exact (docs/time.md).
  const readRepairDue =
    v.createdSecondsAgo !== null && v.createdSecondsAgo >= m.scope.clock.readRepairTimeoutSeconds;
  const check = m.timeoutStepper.step(
    m.timeoutStepper.initial,
    {
      type: 'READ_REPAIR_CHECK',
      observed: { failurePolicy: first?.failurePolicy ?? 'Ignore', timerExpired: false, readRepairDue },
    },
    `RR|${readRepairDue}|${first?.failurePolicy}`,
  );
  transitions.push(...check.transitions);
  const effect = check.emitted[0];
  if (effect?.type === 'failNamespaceWithTimeout') {
    const failed = m.namespaceStepper.step(
      s.namespaces[i].lifecycle,
      { type: 'RECORD_FAILURE', reason: 'Timeout' },
      'RECORD_FAILURE|Timeout',
    );
    transitions.push(...failed.transitions);
    return withoutTimer(m, s, i, failed.next, transitions);
  }
  if (effect?.type !== 'readRepairRemoveFirstPending') return s;
  const step = m.namespaceStepper.step(
    s.namespaces[i].lifecycle,
    { type: 'REMOVE_PENDING', name: v.pending[0] },
    `REMOVE_PENDING|${v.pending[0]}`,
  );
  transitions.push(...step.transitions);
  return afterPendingChange(m, s, i, step.next, transitions);
}
