import { describe, expect, it } from 'vitest';
import { initialTransition, type SnapshotFrom, transition } from 'xstate';
import { type ConfigSyncEvent, configSyncMachine, configurationStaleAfterSeconds } from './config-sync.ts';

type Snapshot = SnapshotFrom<typeof configSyncMachine>;

const [initial] = initialTransition(configSyncMachine, { configurations: ['20-quota', '10-policy'] });
const step = (snapshot: Snapshot, event: ConfigSyncEvent): Snapshot =>
  transition(configSyncMachine, snapshot, event)[0];
const run = (...events: ConfigSyncEvent[]): Snapshot => events.reduce(step, initial);
const fail = (now: number): ConfigSyncEvent => ({ type: 'READ_FAILED', now });
const succeed = (now: number, configurations: string[]): ConfigSyncEvent => ({
  type: 'READ_SUCCEEDED',
  now,
  configurations,
});

describe('configuration sync machine', () => {
  it('AC-3: starts fresh with the configurations present at start, sorted by name, read at second 0', () => {
    expect(initial.value).toBe('fresh');
    expect(initial.context).toEqual({ lastSuccessfulReadAt: 0, configurations: ['10-policy', '20-quota'] });
  });

  it('AC-2: the stale window is five seconds', () => {
    expect(configurationStaleAfterSeconds).toBe(5);
  });

  it('AC-1, AC-3: a successful read replaces the copy and its time', () => {
    const event = succeed(1, ['30-logging', '10-policy']);
    const next = step(initial, event);
    expect(next.value).toBe('fresh');
    expect(next.context).toEqual({ lastSuccessfulReadAt: 1, configurations: ['10-policy', '30-logging'] });
    // The copy is admission's own: the list read is not aliased.
    if (event.type === 'READ_SUCCEEDED') event.configurations.push('99-late');
    expect(next.context.configurations).toEqual(['10-policy', '30-logging']);
  });

  it('AC-2, AC-3: a failed read within five seconds of the last success keeps the copy fresh and unchanged', () => {
    const afterFour = run(fail(1), fail(2), fail(3), fail(4));
    expect(afterFour.value).toBe('fresh');
    expect(afterFour.context).toEqual(initial.context);
  });

  it('AC-2: a failed read five seconds after the last success makes the copy stale', () => {
    const stale = run(fail(1), fail(2), fail(3), fail(4), fail(5));
    expect(stale.value).toBe('stale');
    expect(stale.context).toEqual(initial.context);
  });

  it('AC-2: the window counts from the last successful read, not from the first failure', () => {
    const base = run(fail(1), fail(2), succeed(3, ['10-policy']));
    expect(step(base, fail(7)).value).toBe('fresh');
    expect(step(step(base, fail(7)), fail(8)).value).toBe('stale');
  });

  it('AC-2: failures keep a stale copy stale; the next successful read makes it fresh again', () => {
    const stale = step(initial, fail(5));
    const still = step(stale, fail(6));
    expect(still.value).toBe('stale');
    expect(still.context).toEqual(stale.context);
    const fresh = step(still, succeed(7, ['20-quota']));
    expect(fresh.value).toBe('fresh');
    expect(fresh.context).toEqual({ lastSuccessfulReadAt: 7, configurations: ['20-quota'] });
  });
});
