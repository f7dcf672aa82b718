import type { Progress } from './model.ts';

/** Receives the search's progress: `update` while it runs (throttled by the explorer), `finish` once. */
export interface ProgressReporter {
  update(progress: Progress): void;
  finish(progress: Progress): void;
}

/** What the explorers accept: a reporter, a plain callback, `true` for the default reporter, or nothing. */
export type ProgressOption = ProgressReporter | ((progress: Progress) => void) | boolean | undefined;

/** `live`: one line rewritten in place; `lines`: a line every few seconds; `auto`: live on a TTY. */
export type ProgressMode = 'auto' | 'live' | 'lines' | 'silent';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface ProgressReporterOptions {
  mode?: ProgressMode;
  /** Printed before the figures, e.g. the model's name. */
  label?: string;
  stream?: ProgressStream;
  /** Least time between two printed lines; defaults to 200 ms live and 5 s in `lines` mode. */
  intervalMs?: number;
  now?: () => number;
}

export const silentProgress: ProgressReporter = { update() {}, finish() {} };

const numberFormat = new Intl.NumberFormat('en-US');

/** One human line: distinct states, queue, transitions, depth, rate, elapsed time. */
export function formatProgress(progress: Progress, label?: string): string {
  const parts = [
    `${numberFormat.format(progress.states)} states`,
    `${numberFormat.format(progress.queue)} queued`,
    `${numberFormat.format(progress.transitions)} transitions`,
    `depth ${progress.depth}`,
    `${numberFormat.format(Math.round(progress.statesPerSecond))} states/s`,
    `${(progress.elapsedMs / 1000).toFixed(1)} s`,
  ];
  return `${label ? `${label}: ` : ''}${parts.join(', ')}`;
}

export function createProgressReporter(options: ProgressReporterOptions = {}): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  const requested = options.mode ?? 'auto';
  const mode = requested === 'auto' ? (stream.isTTY ? 'live' : 'lines') : requested;
  if (mode === 'silent') return silentProgress;
  const now = options.now ?? (() => performance.now());
  const intervalMs = options.intervalMs ?? (mode === 'live' ? 200 : 5000);
  let lastPrinted = Number.NEGATIVE_INFINITY;
  return {
    update(progress) {
      const at = now();
      if (at - lastPrinted < intervalMs) return;
      lastPrinted = at;
      if (mode === 'live') {
        // Carriage return plus erase-to-end-of-line rewrites the same terminal line.
        stream.write(`\r${formatProgress(progress, options.label)}\x1b[K`);
      } else {
        stream.write(`${formatProgress(progress, options.label)}\n`);
      }
    },
    finish(progress) {
      const line = formatProgress(progress, options.label);
      stream.write(mode === 'live' ? `\r${line}\x1b[K\n` : `${line}\n`);
      lastPrinted = Number.NEGATIVE_INFINITY;
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
