import { describe, expect, it } from 'vitest';
import { initialTransition, type SnapshotFrom, transition } from 'xstate';
import { type ConfigSyncEvent, configSyncMachine, configurationStaleAfterSeconds } from './config-sync.ts';

type Snapshot = SnapshotFrom<typeof configSyncMachine>;

const [initial] = initialTransition(configSyncMachine, { configurations: ['20-quota', '10-policy'] });
const step = (snapshot: Snapshot, event: ConfigSyncEvent): Snapshot =>
  transition(configSyncMachine, snapshot, event)[0];
const run = (...events: ConfigSyncEvent[]): Snapshot => events.reduce(step, initial);
const fail: ConfigSyncEvent = { type: 'READ_FAILED' };
const failures = (n: number) => Array<ConfigSyncEvent>(n).fill(fail);
const succeed = (configurations: string[]): ConfigSyncEvent => ({ type: 'READ_SUCCEEDED', configurations });

describe('configuration sync machine (one read a second, relative time)', () => {
  it('AC-3: starts fresh with the configurations present at start, sorted by name, just read', () => {
    expect(initial.value).toBe('fresh');
    expect(initial.context).toEqual({
      secondsSinceRead: 0,
      configurations: ['10-policy', '20-quota'],
      versions: {},
    });
  });

  it('AC-2: the stale window is five seconds', () => {
    expect(configurationStaleAfterSeconds).toBe(5);
  });

  it('AC-1, AC-3: a successful read replaces the copy and resets its age', () => {
    const event = succeed(['30-logging', '10-policy']);
    const next = step(run(fail, fail), event);
    expect(next.value).toBe('fresh');
    expect(next.context).toEqual({
      secondsSinceRead: 0,
      configurations: ['10-policy', '30-logging'],
      versions: {},
    });
    // The copy is admission's own: the list read is not aliased.
    if (event.type === 'READ_SUCCEEDED') event.configurations.push('99-late');
    expect(next.context.configurations).toEqual(['10-policy', '30-logging']);
  });

  it('AC-2, AC-3: four failed reads in a row keep the copy fresh and unchanged, four seconds old', () => {
    const afterFour = run(...failures(4));
    expect(afterFour.value).toBe('fresh');
    expect(afterFour.context).toEqual({ ...initial.context, secondsSinceRead: 4 });
  });

  it('AC-2: the fifth failed read in a row makes the copy stale; its age stops at the bound', () => {
    const stale = run(...failures(5));
    expect(stale.value).toBe('stale');
    expect(stale.context.secondsSinceRead).toBe(configurationStaleAfterSeconds);
    expect(run(...failures(9)).context).toEqual(stale.context);
  });

  it('AC-2: the window counts from the last successful read, not from the first failure', () => {
    const base = run(fail, fail, succeed(['10-policy']));
    expect(run(...[fail, fail, succeed(['10-policy'])], ...failures(4)).value).toBe('fresh');
    expect(step(base, fail).context.secondsSinceRead).toBe(1);
    expect(run(...[fail, fail, succeed(['10-policy'])], ...failures(5)).value).toBe('stale');
  });

  it('AC-2: failures keep a stale copy stale; the next successful read makes it fresh again', () => {
    const stale = run(...failures(5));
    const still = step(stale, fail);
    expect(still.value).toBe('stale');
    expect(still.context).toEqual(stale.context);
    const fresh = step(still, succeed(['20-quota']));
    expect(fresh.value).toBe('fresh');
    expect(fresh.context).toEqual({ secondsSinceRead: 0, configurations: ['20-quota'], versions: {} });
  });
});

describe('configuration sync machine: versions (FP-3, D-32)', () => {
  it('a read keeps the versions updates gave the configurations it returned, and the next read replaces them', () => {
    const updated = step(initial, {
      type: 'READ_SUCCEEDED',
      configurations: ['10-policy'],
      versions: { '10-policy': 2 },
    });
    expect(updated.context.versions).toEqual({ '10-policy': 2 });
    expect(step(updated, { type: 'READ_SUCCEEDED', configurations: ['10-policy'] }).context.versions).toEqual(
      {},
    );
  });
});
