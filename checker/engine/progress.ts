import type { Progress } from './model.ts';

/** Receives the search's progress: `update` while it runs (throttled by the explorer), `finish` once. */
export interface ProgressReporter {
  update(progress: Progress): void;
  finish(progress: Progress): void;
}

/** A reporter that can also print a message line (a first violation) without garbling the bar. */
export interface ProgressConsole extends ProgressReporter {
  /** Prints one whole line, above the bar when one is drawn; printed even in `silent` mode. */
  note(line: string): void;
  /** Whether this stream gets colour (a terminal, and no NO_COLOR). */
  readonly color: boolean;
}

/** What the explorers accept: a reporter, a plain callback, `true` for the default reporter, or nothing. */
export type ProgressOption = ProgressReporter | ((progress: Progress) => void) | boolean | undefined;

/** `live`: one bar redrawn in place; `lines`: a line every few seconds; `auto`: live on a TTY; `silent`: none. */
export type ProgressMode = 'auto' | 'live' | 'lines' | 'silent';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** Terminal width: the live bar is cut to fit, since a wrapped line cannot be redrawn in place. */
  columns?: number;
}

export interface ProgressReporterOptions {
  mode?: ProgressMode;
  /** Printed before the figures, e.g. the model's name. */
  label?: string;
  stream?: ProgressStream;
  /** Least time between two printed lines; defaults to 200 ms live and 5 s in `lines` mode. */
  intervalMs?: number;
  now?: () => number;
  /** Environment read for NO_COLOR (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Distinct states the search is expected to find (a golden count), for the bar's fraction and the ETA. */
  expectedStates?: number;
  /** `finish` erases the bar (and prints no last line in CI): for a command that prints its own result line. */
  transient?: boolean;
}

export const silentProgress: ProgressReporter = { update() {}, finish() {} };

const numberFormat = new Intl.NumberFormat('en-US');

/** Colour only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org). */
export function colorEnabled(
  stream: ProgressStream,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

const ansi = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;

/** Wraps `text` in an ANSI colour when `enabled`. */
export function paint(text: string, color: keyof typeof ansi, enabled: boolean): string {
  return enabled ? `\x1b[${ansi[color]}m${text}\x1b[0m` : text;
}

/** Seconds as `4.2 s` under a minute, `3:07` (m:ss) above. */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Fraction done and seconds left, when the expected total is known and not yet passed. */
export function estimate(
  progress: Progress,
  expectedStates?: number,
): { fraction: number; etaSeconds?: number } | null {
  if (expectedStates === undefined || expectedStates <= 0 || progress.states > expectedStates) return null;
  const remaining = expectedStates - progress.states;
  return {
    fraction: progress.states / expectedStates,
    ...(progress.statesPerSecond > 0 ? { etaSeconds: remaining / progress.statesPerSecond } : {}),
  };
}

/** One human line: distinct states, queue, transitions, depth, rate, elapsed time, and the ETA when known. */
export function formatProgress(progress: Progress, label?: string, expectedStates?: number): string {
  const known = estimate(progress, expectedStates);
  const parts = [
    `${numberFormat.format(progress.states)}${known ? ` of ~${numberFormat.format(expectedStates ?? 0)}` : ''} states`,
    `${numberFormat.format(progress.queue)} queued`,
    `${numberFormat.format(progress.transitions)} transitions`,
    `depth ${progress.depth}`,
    `${numberFormat.format(Math.round(progress.statesPerSecond))} states/s`,
    `${(progress.elapsedMs / 1000).toFixed(1)} s`,
  ];
  if (known?.etaSeconds !== undefined) parts.push(`ETA ${formatSeconds(known.etaSeconds)}`);
  return `${label ? `${label}: ` : ''}${parts.join(', ')}`;
}

const barWidth = 20;

/** The live line: a bar (filled in proportion when the total is known, else a moving block) and the figures. */
export function progressBar(
  progress: Progress,
  options: { label?: string; expectedStates?: number; color: boolean; columns?: number; frame: number },
): string {
  const known = estimate(progress, options.expectedStates);
  let bar: string;
  if (known) {
    const filled = Math.min(barWidth, Math.floor(known.fraction * barWidth));
    bar = `${paint('█'.repeat(filled), 'cyan', options.color)}${'░'.repeat(barWidth - filled)} ${String(Math.floor(known.fraction * 100)).padStart(3)}%`;
  } else {
    // The total is unknown: a block sweeps the bar so a stalled search is told apart from a slow one.
    const at = options.frame % barWidth;
    bar = `${'░'.repeat(at)}${paint('█', 'cyan', options.color)}${'░'.repeat(barWidth - at - 1)}`;
  }
  const text = formatProgress(progress, undefined, options.expectedStates);
  const label = options.label ? `${paint(options.label, 'bold', options.color)} ` : '';
  const line = `${label}${bar} ${text}`;
  const visible =
    (options.label ? options.label.length + 1 : 0) + barWidth + (known ? 5 : 0) + 1 + text.length;
  // A pseudo-terminal may report 0 columns: that means unknown, not zero width.
  if (options.columns === undefined || options.columns <= 0 || visible < options.columns) return line;
  // Too wide: drop the bar first, then cut the figures, so the line never wraps.
  const plain = `${options.label ? `${options.label}: ` : ''}${text}`;
  return plain.length < options.columns ? plain : plain.slice(0, Math.max(0, options.columns - 2));
}

export function createProgressReporter(options: ProgressReporterOptions = {}): ProgressConsole {
  const stream = options.stream ?? process.stderr;
  const requested = options.mode ?? 'auto';
  const mode = requested === 'auto' ? (stream.isTTY ? 'live' : 'lines') : requested;
  const color = colorEnabled(stream, options.env ?? process.env);
  const now = options.now ?? (() => performance.now());
  const intervalMs = options.intervalMs ?? (mode === 'live' ? 200 : 5000);
  let lastPrinted = Number.NEGATIVE_INFINITY;
  let frame = 0;
  /** The bar on screen, redrawn after a note; empty when none is drawn. */
  let shown = '';
  const line = (progress: Progress) =>
    mode === 'live'
      ? progressBar(progress, {
          label: options.label,
          expectedStates: options.expectedStates,
          color,
          columns: stream.columns,
          frame: frame++,
        })
      : formatProgress(progress, options.label, options.expectedStates);
  return {
    color,
    update(progress) {
      if (mode === 'silent') return;
      const at = now();
      if (at - lastPrinted < intervalMs) return;
      lastPrinted = at;
      if (mode === 'live') {
        // Carriage return plus erase-to-end-of-line rewrites the same terminal line.
        shown = line(progress);
        stream.write(`\r${shown}\x1b[K`);
      } else {
        stream.write(`${line(progress)}\n`);
      }
    },
    finish(progress) {
      if (mode === 'silent') return;
      if (options.transient) {
        if (mode === 'live' && shown !== '') stream.write('\r\x1b[K');
      } else stream.write(mode === 'live' ? `\r${line(progress)}\x1b[K\n` : `${line(progress)}\n`);
      shown = '';
      lastPrinted = Number.NEGATIVE_INFINITY;
    },
    note(text) {
      if (mode === 'live' && shown !== '') stream.write(`\r${text}\x1b[K\n${shown}`);
      else stream.write(`${text}\n`);
    },
  };
}

/** Normalises the explorers' `progress` option; `null` means report nothing. */
export function resolveProgress(option: ProgressOption): ProgressReporter | null {
  if (option === undefined || option === false) return null;
  if (option === true) return createProgressReporter();
  if (typeof option === 'function') return { update: option, finish: option };
  return option;
}

/** How often the explorers hand progress to the reporter. */
export const progressIntervalMs = 200;
