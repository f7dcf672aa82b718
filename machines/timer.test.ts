import { describe, expect, it } from 'vitest';
import { initialTransition, type SnapshotFrom, transition } from 'xstate';
import { type TimerEvent, timerMachine } from './timer.ts';

type Snapshot = SnapshotFrom<typeof timerMachine>;

const [initial] = initialTransition(timerMachine);
const step = (snapshot: Snapshot, event: TimerEvent): Snapshot =>
  transition(timerMachine, snapshot, event)[0];
const run = (...events: TimerEvent[]): Snapshot => events.reduce(step, initial);
const arm: TimerEvent = { type: 'ARM', initializer: 'policy.example.com', timeoutSeconds: 3 };
const tick: TimerEvent = { type: 'TICK' };
const ticks = (n: number) => Array<TimerEvent>(n).fill(tick);

describe('initializer timer (relative time)', () => {
  it('starts disarmed; time passing changes nothing', () => {
    expect(initial.value).toBe('disarmed');
    expect(step(initial, tick).context).toEqual(initial.context);
  });

  it('FP-2: armed for the first pending initializer, it ages a second a tick and expires at its timeout', () => {
    expect(run(arm).context).toEqual({ initializer: 'policy.example.com', timeoutSeconds: 3, ageSeconds: 0 });
    expect(run(arm, ...ticks(2)).value).toBe('armed');
    expect(run(arm, ...ticks(2)).context.ageSeconds).toBe(2);
    const expired = run(arm, ...ticks(3));
    expect(expired.value).toBe('expired');
    expect(expired.context.ageSeconds).toBe(3);
  });

  it('FP-2: an expired timer does not age: the apiserver fires it before time passes on', () => {
    const expired = run(arm, ...ticks(3));
    expect(step(expired, tick)).toEqual(expired);
  });

  it('FP-2, IN-2: re-armed when the first pending initializer changes, from zero', () => {
    const next: TimerEvent = { type: 'REARM', initializer: 'quota.example.com', timeoutSeconds: 5 };
    for (const before of [run(arm, tick), run(arm, ...ticks(3))]) {
      const rearmed = step(before, next);
      expect(rearmed.value).toBe('armed');
      expect(rearmed.context).toEqual({ initializer: 'quota.example.com', timeoutSeconds: 5, ageSeconds: 0 });
    }
  });

  it('FP-4: an apiserver restart loses the timer; re-arming does not bring it back, disarming forgets it', () => {
    const lost = run(arm, tick, { type: 'LOSE' });
    expect(lost.value).toBe('lost');
    const rearm: TimerEvent = { type: 'REARM', initializer: 'quota.example.com', timeoutSeconds: 5 };
    expect(step(lost, rearm).value).toBe('lost');
    expect(step(lost, tick).value).toBe('lost');
    expect(step(lost, { type: 'DISARM' }).value).toBe('disarmed');
  });

  it('FP-2: disarmed when nothing is pending any more', () => {
    const disarmed = run(arm, tick, { type: 'DISARM' });
    expect(disarmed.value).toBe('disarmed');
    expect(disarmed.context).toEqual(initial.context);
  });
});
