import { describe, expect, it } from 'vitest';
import type { Progress } from './model.ts';
import {
  colorEnabled,
  createProgressReporter,
  formatProgress,
  formatSeconds,
  progressBar,
  resolveProgress,
} from './progress.ts';

const sample: Progress = {
  states: 1234567,
  queue: 890,
  transitions: 4567890,
  depth: 12,
  elapsedMs: 2500,
  statesPerSecond: 493826.8,
};

function fakeStream(isTTY: boolean, columns?: number) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns, write: (chunk: string) => chunks.push(chunk) } };
}

const esc = String.fromCharCode(27);
const colour = new RegExp(`${esc}\\[\\d+m`);
const noColorEnv = { NO_COLOR: '1' };
const colorEnv = {};

describe('progress reporting', () => {
  it('formats distinct states, queue, rate and elapsed time on one line', () => {
    expect(formatProgress(sample, 'reference N=6')).toBe(
      'reference N=6: 1,234,567 states, 890 queued, 4,567,890 transitions, depth 12, 493,827 states/s, 2.5 s',
    );
  });

  it('adds the share done and the ETA when the total is known, and only then', () => {
    expect(formatProgress(sample, 'verify', 2_469_134)).toBe(
      'verify: 1,234,567 of ~2,469,134 states, 890 queued, 4,567,890 transitions, depth 12, 493,827 states/s, 2.5 s, ETA 2.5 s',
    );
    // A total already passed (the model grew since the golden count) gives no made-up ETA.
    expect(formatProgress(sample, 'verify', 1000)).not.toContain('ETA');
    expect(formatSeconds(187)).toBe('3:07');
  });

  it('rewrites one bar in place on a terminal and ends it when the search finishes', () => {
    const { chunks, stream } = fakeStream(true);
    let clock = 0;
    const reporter = createProgressReporter({ stream, now: () => clock, env: colorEnv });
    reporter.update(sample);
    clock = 50;
    reporter.update(sample); // within the interval: not printed
    clock = 300;
    reporter.update(sample);
    reporter.finish(sample);
    expect(chunks).toHaveLength(3);
    expect(chunks.every((chunk) => chunk.startsWith('\r'))).toBe(true);
    expect(chunks.every((chunk) => chunk.includes('█') && chunk.includes('\x1b[K'))).toBe(true);
    expect(chunks.at(-1)?.endsWith('\n')).toBe(true);
    expect(chunks[0]).toMatch(colour);
  });

  it('draws a filled bar with the percentage and ETA when the total is known', () => {
    const line = progressBar(sample, { expectedStates: 2_469_134, color: false, frame: 0 });
    expect(line).toBe(
      `${'█'.repeat(10)}${'░'.repeat(10)}  50% 1,234,567 of ~2,469,134 states, 890 queued, 4,567,890 transitions, depth 12, 493,827 states/s, 2.5 s, ETA 2.5 s`,
    );
    // Unknown total: one block sweeps along the bar, frame by frame.
    expect(progressBar(sample, { color: false, frame: 3 }).slice(0, 20)).toBe(`░░░█${'░'.repeat(16)}`);
  });

  it('never wraps: a narrow terminal drops the bar, then cuts the figures', () => {
    const wide = progressBar(sample, { label: 'verify', color: false, columns: 200, frame: 0 });
    expect(progressBar(sample, { label: 'verify', color: false, columns: 0, frame: 0 })).toBe(
      progressBar(sample, { label: 'verify', color: false, frame: 0 }),
    );
    expect(wide).toContain('█');
    const narrow = progressBar(sample, { label: 'verify', color: false, columns: 100, frame: 0 });
    expect(narrow).toMatch(/^verify: 1,234,567 states/);
    expect(narrow.length).toBeLessThan(100);
    expect(progressBar(sample, { label: 'verify', color: false, columns: 30, frame: 0 }).length).toBeLessThan(
      30,
    );
  });

  it('prints a note above the bar and redraws the bar under it', () => {
    const { chunks, stream } = fakeStream(true);
    const reporter = createProgressReporter({ stream, now: () => 1000, env: noColorEnv });
    reporter.update(sample);
    reporter.note('verify: violated p at depth 3');
    expect(chunks[1]).toBe(`\rverify: violated p at depth 3\x1b[K\n${chunks[0].slice(1, -3)}`);
  });

  it('erases a transient bar when it finishes, and prints no last line in CI', () => {
    const live = fakeStream(true);
    const bar = createProgressReporter({ stream: live.stream, now: () => 1000, transient: true });
    bar.update(sample);
    bar.finish(sample);
    expect(live.chunks.at(-1)).toBe('\r\x1b[K');
    const ci = fakeStream(false);
    const lines = createProgressReporter({ stream: ci.stream, now: () => 1000, transient: true });
    lines.update(sample);
    lines.finish(sample);
    expect(ci.chunks).toHaveLength(1);
  });

  it('uses colour only on a terminal without NO_COLOR', () => {
    expect(colorEnabled({ isTTY: true, write() {} }, colorEnv)).toBe(true);
    expect(colorEnabled({ isTTY: true, write() {} }, noColorEnv)).toBe(false);
    expect(colorEnabled({ isTTY: true, write() {} }, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled({ isTTY: false, write() {} }, colorEnv)).toBe(false);
    const { chunks, stream } = fakeStream(true);
    const reporter = createProgressReporter({ stream, now: () => 1000, env: noColorEnv });
    reporter.update(sample);
    reporter.finish(sample);
    expect(reporter.color).toBe(false);
    expect(chunks.join('')).not.toMatch(colour);
    expect(chunks[0]).toContain('█');
  });

  it('prints whole lines at most every five seconds when not on a terminal', () => {
    const { chunks, stream } = fakeStream(false);
    let clock = 0;
    const reporter = createProgressReporter({ stream, now: () => clock, env: colorEnv });
    for (clock = 0; clock <= 12_000; clock += 1000) reporter.update(sample);
    reporter.note('a note');
    expect(chunks).toHaveLength(4);
    expect(chunks.every((chunk) => chunk.endsWith('\n') && !chunk.includes('\r'))).toBe(true);
    // CI logs get plain text: no bar, no colour, no terminal control codes.
    expect(chunks.join('')).not.toContain(esc);
    expect(chunks.join('')).not.toContain('█');
    expect(reporter.color).toBe(false);
  });

  it('prints no progress when quiet, only notes, and wraps plain callbacks', () => {
    const { chunks, stream } = fakeStream(true);
    const reporter = createProgressReporter({ stream, mode: 'silent', env: noColorEnv });
    reporter.update(sample);
    reporter.finish(sample);
    expect(chunks).toEqual([]);
    reporter.note('verify: violated p at depth 3');
    expect(chunks).toEqual(['verify: violated p at depth 3\n']);
    expect(resolveProgress(undefined)).toBeNull();
    expect(resolveProgress(false)).toBeNull();
    const seen: Progress[] = [];
    resolveProgress((p) => seen.push(p))?.finish(sample);
    expect(seen).toEqual([sample]);
  });
});
