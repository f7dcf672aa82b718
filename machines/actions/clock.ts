import type { Composition } from '../composition.ts';
import type { Enabled, NamespaceState, SystemEvent, SystemState } from '../system-types.ts';

/** What one second does to one namespace: every age grows, capped (docs/time.md). */
export interface ClockSlot {
  next: NamespaceState;
  transitions: readonly string[];
}

/** What one second does to the global part: admission reads its configuration, or fails to. */
export interface ClockGlobal {
  configSync: number;
  transitions: readonly string[];
  failing: boolean;
}

/** The namespace's timer has expired and not fired: time may not pass (a timed-automaton invariant, FP-2). */
export const blocksTime = (m: Composition, ns: NamespaceState): boolean => m.timerValue(ns) === 'expired';

/** One second on namespace `ns`: reads that namespace alone (the compiled path tabulates it per namespace state). */
export function clockSlot(m: Composition, ns: NamespaceState): ClockSlot {
  const readRepairAfterSeconds = m.scope.clock.readRepairTimeoutSeconds;
  const aged = m.namespaceStepper.step(
    ns.lifecycle,
    { type: 'TICK', readRepairAfterSeconds },
    `TICK|${readRepairAfterSeconds}`,
  );
  const timer = m.stepTimer(ns.timer, { type: 'TICK' });
  return {
    next: m.namespaceState(aged.next, ns.content, ns.external, timer.next),
    transitions: [...aged.transitions, ...timer.transitions],
  };
}

/** One second on the configuration copy: reads the copy, the faults and the store, nothing of any namespace. */
export function clockGlobal(m: Composition, s: SystemState): ClockGlobal {
  const failing = m.configReadsFailing(s);
  const read = failing
    ? m.configSyncStepper.step(s.configSync, { type: 'READ_FAILED' }, 'F')
    : m.readStore(s);
  return { configSync: read.next, transitions: read.transitions, failing };
}

/** The clock's event: every transition the second took, once each, sorted. */
export function clockEvent(m: Composition, global: ClockGlobal, slots: readonly ClockSlot[]): SystemEvent {
  const transitions = [...global.transitions];
  for (const slot of slots) transitions.push(...slot.transitions);
  return m.internEvent({
    actor: 'clock',
    actorKind: 'clock',
    label: `one second passes; configuration read ${global.failing ? 'fails' : 'succeeds'}`,
    namespace: -1,
    transitions: [...new Set(transitions)].sort(),
  });
}

/**
 * Whether one second passes over `count` namespaces, and if so each one's part of it: time waits while a
 * namespace's timer has expired and not fired (FP-2). Both engines compose the clock through it.
 */
export function secondPasses(
  count: number,
  blocksAt: (i: number) => boolean,
  agesAt: (i: number) => void,
): boolean {
  for (let i = 0; i < count; i++) if (blocksAt(i)) return false;
  for (let i = 0; i < count; i++) agesAt(i);
  return true;
}

/** One second passes, unless a timer has expired and not yet fired (FP-2). */
export function clockTicks(m: Composition, s: SystemState, out: Enabled[]): void {
  const slots: ClockSlot[] = [];
  const passes = secondPasses(
    s.namespaces.length,
    (i) => blocksTime(m, s.namespaces[i]),
    (i) => {
      slots[i] = clockSlot(m, s.namespaces[i]);
    },
  );
  if (!passes) return;
  const global = clockGlobal(m, s);
  const same = slots.every((slot, i) => slot.next === s.namespaces[i]);
  out.push({
    event: clockEvent(m, global, slots),
    next: {
      ...s,
      configSync: global.configSync,
      namespaces: same ? s.namespaces : slots.map((slot) => slot.next),
    },
  });
}

/** The configuration-read fault starts or ends (AC-2). */
export function configReadFault(m: Composition, s: SystemState, out: Enabled[]): void {
  const failing = m.configReadsFailing(s);
  const toggle = m.faultStepper.step(
    s.faults,
    { type: failing ? 'END_OUTAGE' : 'START_OUTAGE' },
    failing ? 'END_OUTAGE' : 'START_OUTAGE',
  );
  out.push({
    event: m.internEvent({
      actor: 'fault',
      actorKind: 'fault',
      label: failing ? 'configuration reads recover' : 'configuration reads start failing',
      fault: failing ? 'config-read-recovering' : 'config-read-failing',
      namespace: -1,
      transitions: toggle.transitions,
    }),
    next: { ...s, faults: toggle.next },
  });
}
