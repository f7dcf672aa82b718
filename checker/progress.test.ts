import { describe, expect, it } from 'vitest';
import type { Progress } from './model.ts';
import { createProgressReporter, formatProgress, resolveProgress, silentProgress } from './progress.ts';

const sample: Progress = {
  states: 1234567,
  queue: 890,
  transitions: 4567890,
  depth: 12,
  elapsedMs: 2500,
  statesPerSecond: 493826.8,
};

function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, write: (chunk: string) => chunks.push(chunk) } };
}

describe('progress reporting', () => {
  it('formats distinct states, queue, rate and elapsed time on one line', () => {
    expect(formatProgress(sample, 'reference N=6')).toBe(
      'reference N=6: 1,234,567 states, 890 queued, 4,567,890 transitions, depth 12, 493,827 states/s, 2.5 s',
    );
  });

  it('rewrites one line in place on a terminal and ends it when the search finishes', () => {
    const { chunks, stream } = fakeStream(true);
    let clock = 0;
    const reporter = createProgressReporter({ stream, now: () => clock });
    reporter.update(sample);
    clock = 50;
    reporter.update(sample); // within the interval: not printed
    clock = 300;
    reporter.update(sample);
    reporter.finish(sample);
    expect(chunks).toHaveLength(3);
    expect(chunks.every((chunk) => chunk.startsWith('\r'))).toBe(true);
    expect(chunks.at(-1)?.endsWith('\n')).toBe(true);
  });

  it('prints whole lines at most every five seconds when not on a terminal', () => {
    const { chunks, stream } = fakeStream(false);
    let clock = 0;
    const reporter = createProgressReporter({ stream, now: () => clock });
    for (clock = 0; clock <= 12_000; clock += 1000) reporter.update(sample);
    expect(chunks).toHaveLength(3);
    expect(chunks.every((chunk) => chunk.endsWith('\n') && !chunk.includes('\r'))).toBe(true);
  });

  it('stays silent when asked, and wraps plain callbacks', () => {
    const { chunks, stream } = fakeStream(true);
    const reporter = createProgressReporter({ stream, mode: 'silent' });
    reporter.update(sample);
    reporter.finish(sample);
    expect(chunks).toEqual([]);
    expect(reporter).toBe(silentProgress);
    expect(resolveProgress(undefined)).toBeNull();
    expect(resolveProgress(false)).toBeNull();
    const seen: Progress[] = [];
    resolveProgress((p) => seen.push(p))?.finish(sample);
    expect(seen).toEqual([sample]);
  });
});
