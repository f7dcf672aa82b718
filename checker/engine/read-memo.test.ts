import { describe, expect, it } from 'vitest';
import { ReadKeyedMemo } from './read-memo.ts';

interface Facts {
  allowed: boolean;
  exists: boolean;
  verdict: { kind: string; reason?: string };
  unread: number;
}

/** A small decision: `exists` is read only when `allowed`, the verdict only when both hold. */
const decide = (f: Facts): string => {
  if (!f.allowed) return 'forbidden';
  if (!f.exists) return 'not found';
  return f.verdict.kind === 'refused' ? `refused: ${f.verdict.reason}` : 'ok';
};

const facts = (overrides: Partial<Facts> = {}): Facts => ({
  allowed: true,
  exists: true,
  verdict: { kind: 'admitted' },
  unread: 0,
  ...overrides,
});

describe('ReadKeyedMemo: a memo keyed by what the function reads', () => {
  it('answers as the function does, and computes once per distinct values of the fields read', () => {
    const memo = new ReadKeyedMemo(decide);
    const inputs = [
      facts(),
      facts({ unread: 7 }),
      facts({ allowed: false }),
      facts({ allowed: false, exists: false, unread: 3 }),
      facts({ exists: false }),
      facts({ verdict: { kind: 'refused', reason: 'quota' } }),
      facts({ verdict: { reason: 'quota', kind: 'refused' }, unread: 9 }),
      facts({ verdict: { kind: 'refused', reason: 'terminating' } }),
    ];
    expect(inputs.map((f) => memo.get(f))).toEqual(inputs.map(decide));
    // Fields the path did not read (unread; exists once refused) and key order inside a record share an entry.
    expect({ misses: memo.misses, hits: memo.hits }).toEqual({ misses: 5, hits: 3 });
  });

  it('keys a field the function starts to read, where a hand-listed key would have served a stale answer', () => {
    const readsUnread = (f: Facts) => (f.unread > 0 ? 'limited' : decide(f));
    const memo = new ReadKeyedMemo(readsUnread);
    expect(memo.get(facts())).toBe('ok');
    expect(memo.get(facts({ unread: 1 }))).toBe('limited');
    expect(memo.misses).toBe(2);
  });

  it('refuses a function that reads something besides its input, rather than answer from the wrong entry', () => {
    let calls = 0;
    const memo = new ReadKeyedMemo((f: Facts) => (calls++ === 0 ? f.allowed : f.exists), 'flaky');
    memo.get(facts());
    expect(() => memo.get(facts({ allowed: false }))).toThrow(/flaky: read exists where an earlier call/);
  });

  it('refuses a function that lists its input instead of reading fields by name', () => {
    const memo = new ReadKeyedMemo((f: Facts) => Object.keys(f).length);
    expect(() => memo.get(facts())).toThrow(/must read them by name/);
  });
});
