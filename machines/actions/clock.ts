import type { SystemModel } from '../system.ts';
import type { Enabled, SystemState } from '../system-types.ts';

/**
 * One second passes: admission reads its configuration, every age grows by one up to its cap. Time
 * may not pass while a timer has expired and not yet fired (a timed-automaton invariant, FP-2).
 */
export function clockAndFaults(m: SystemModel, s: SystemState, out: Enabled[]): void {
  if (!s.namespaces.some((ns) => m.timerValue(ns) === 'expired')) {
    const read = m.configReadsFailing(s)
      ? m.configSyncStepper.step(s.configSync, { type: 'READ_FAILED' }, 'F')
      : m.readStore(s);
    const transitions = [...read.transitions];
    const readRepairAfterSeconds = m.scope.clock.readRepairTimeoutSeconds;
    const namespaces = s.namespaces.map((ns) => {
      const aged = m.namespaceStepper.step(
        ns.lifecycle,
        { type: 'TICK', readRepairAfterSeconds },
        `TICK|${readRepairAfterSeconds}`,
      );
      const timer = m.stepTimer(ns.timer, { type: 'TICK' });
      transitions.push(...aged.transitions, ...timer.transitions);
      return m.namespaceState(aged.next, ns.content, ns.external, timer.next);
    });
    const same = namespaces.every((ns, i) => ns === s.namespaces[i]);
    out.push({
      event: m.internEvent({
        actor: 'clock',
        actorKind: 'clock',
        label: `one second passes; configuration read ${m.configReadsFailing(s) ? 'fails' : 'succeeds'}`,
        namespace: -1,
        transitions: [...new Set(transitions)].sort(),
      }),
      next: { ...s, configSync: read.next, namespaces: same ? s.namespaces : namespaces },
    });
  }
  if (m.scope.faults.configReadFailure) {
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
}
