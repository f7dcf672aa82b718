import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs SPIN on a Promela model: `spin -a`, `gcc` on the generated `pan.c`, then `pan`, all in a
 * temporary folder, and reads pan's summary. Nothing is written outside that folder.
 */

export interface PanFigures {
  states: number;
  transitions: number;
  depth: number;
  errors: number;
  /** pan's own figures: the search ran to the end (no depth limit hit, no memory stop). */
  complete: boolean;
  /** Why not complete, in pan's words. */
  incomplete?: string;
  seconds: number;
  stateVectorBytes: number;
  /** Trail files written (`-e`), as folder-relative names, in pan's numbering order. */
  trails: string[];
  output: string;
}

export interface SpinRun extends PanFigures {
  /** Seconds for spin -a and for gcc. */
  generateSeconds: number;
  compileSeconds: number;
  dir: string;
}

export interface SpinOptions {
  /** Extra -D flags for gcc (NOREDUCE is always given; e.g. BFS, HC4, BITSTATE, NCORE=2). */
  defines?: string[];
  /** pan's depth bound (-m); a DFS goes no deeper than the number of states. */
  maxDepth: number;
  /** Extra pan flags. */
  panFlags?: string[];
  /** Keep the folder (for trail replays); the caller removes it with `removeSpinRun`. */
  keep?: boolean;
  /** Environment variables for pan (added to this process's). */
  env?: Record<string, string>;
}

/**
 * gcc's optimisation of pan: -O2, or the level NSMODEL_PAN_OPTIMIZE names (the tests give -O0: a small
 * model's pan compiles in a fifth of the time and searches the same states; timed runs keep -O2).
 */
export function panOptimization(): string {
  const level = process.env.NSMODEL_PAN_OPTIMIZE ?? '-O2';
  if (!/^-O[0-3gs]?$/.test(level))
    throw new Error(
      `NSMODEL_PAN_OPTIMIZE: ${JSON.stringify(level)} is no gcc -O level; fix: give -O0 to -O3 or unset it`,
    );
  return level;
}

/** Whether `spin` and `gcc` can be run here. */
export function spinAvailable(): boolean {
  const found = (tool: string, flag: string) => spawnSync(tool, [flag], { stdio: 'ignore' }).status !== null;
  return found('spin', '-V') && found('gcc', '--version');
}

const count = (text: string, pattern: RegExp): number | undefined => {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : undefined;
};

/** How a pan process ended: its exit status, the signal that ended it, or why it could not run. */
export interface PanExit {
  status: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started or was stopped by this process (e.g. ENOBUFS, ETIMEDOUT). */
  error?: string;
  seconds?: number;
}

/** A pan exit in words: "exit status 0", "ended by signal SIGTERM, stopped: ENOBUFS, after 12.3 s". */
export function describePanExit(exit: PanExit): string {
  const parts = [
    exit.signal !== null ? `ended by signal ${exit.signal}` : `exit status ${exit.status ?? 'unknown'}`,
  ];
  if (exit.error !== undefined) parts.push(`stopped: ${exit.error}`);
  if (exit.seconds !== undefined) parts.push(`after ${exit.seconds.toFixed(1)} s`);
  return parts.join(', ');
}

/** Lines of pan's output a failure keeps: enough for its progress lines, its last words and any summary. */
const failureTailLines = 60;

/**
 * pan ended without its summary (killed, out of memory, stopped by a limit): the error says how it
 * ended and gives the end of its output, so the cause is visible where the error is printed.
 */
export class PanFailed extends Error {
  constructor(
    readonly exit: string,
    readonly output: string,
    /** Which run: "pan", or e.g. "pan -a for P on team-a". */
    readonly run = 'pan',
  ) {
    const lines = output.trimEnd().split('\n');
    const tail = lines.slice(-failureTailLines);
    const shown =
      output.trim() === ''
        ? '(pan printed nothing)'
        : `${lines.length > tail.length ? `(the last ${tail.length} of ${lines.length} lines)\n` : ''}${tail.join('\n')}`;
    super(`${run} gave no summary (${exit}); its output:\n${shown}`);
  }
}

/** pan's output and how its process ended, from spawnSync. */
function panResult(pan: SpawnSyncReturns<string>, started: number): { output: string; exit: PanExit } {
  const error = pan.error as (Error & { code?: string }) | undefined;
  return {
    output: `${pan.stdout ?? ''}${pan.stderr ?? ''}`,
    exit: {
      status: pan.status,
      signal: pan.signal,
      ...(error ? { error: error.code ?? error.message } : {}),
      seconds: (performance.now() - started) / 1000,
    },
  };
}

/**
 * Whether pan printed a count of states or transitions rounded: it prints them with %9.8g, exact below
 * 10^8 and rounded to 8 significant digits from there on.
 */
export const panRounded = (printed: number): boolean => printed >= 1e8;

/** A count as pan would print it: `n` rounded to 8 significant digits from 10^8 on. */
export const asPanPrints = (n: number): number => (panRounded(n) ? Number(n.toPrecision(8)) : n);

/** pan's summary figures, or a PanFailed error when the output has none (pan did not finish). */
export function parsePanOutput(output: string, exit?: PanExit): Omit<PanFigures, 'trails' | 'output'> {
  // pan prints these two with %9.8g: from 10^8 on in exponent form, rounded to 8 significant digits.
  const states = count(output, /^\s*(\d+(?:\.\d+)?(?:e\+\d+)?) states, stored/m);
  const transitions = count(output, /^\s*(\d+(?:\.\d+)?(?:e\+\d+)?) transitions \(= /m);
  const depth = count(output, /depth reached (\d+)/);
  const errors = count(output, /errors: (\d+)/);
  if (states === undefined || transitions === undefined || depth === undefined || errors === undefined)
    throw new PanFailed(exit ? describePanExit(exit) : 'how it ended is unknown', output);
  const incomplete = [
    /max search depth too small/,
    /pan: out of memory/,
    /search was not completed/,
    /Bit statespace search/,
    /hash-compact/i,
    /incomplete table/,
  ]
    .map((pattern) => pattern.exec(output)?.[0])
    .find((found) => found !== undefined);
  return {
    states,
    transitions,
    depth,
    errors,
    complete: incomplete === undefined,
    ...(incomplete !== undefined ? { incomplete } : {}),
    seconds: Number(/elapsed time ([0-9.e+-]+) seconds/.exec(output)?.[1] ?? Number.NaN),
    stateVectorBytes: count(output, /State-vector (\d+) byte/) ?? 0,
  };
}

/** Generates, compiles and runs pan on `promela`; the folder is removed unless `keep`. */
export function runSpin(promela: string, options: SpinOptions): SpinRun {
  const dir = mkdtempSync(join(tmpdir(), 'nsmodel-spin-'));
  let kept = false;
  try {
    writeFileSync(join(dir, 'model.pml'), promela);
    const seconds = (started: number) => (performance.now() - started) / 1000;
    let started = performance.now();
    execFileSync('spin', ['-a', 'model.pml'], { cwd: dir, stdio: 'pipe' });
    const generateSeconds = seconds(started);
    started = performance.now();
    const defines = ['NOREDUCE', ...(options.defines ?? [])].map((d) => `-D${d}`);
    execFileSync('gcc', [panOptimization(), '-w', ...defines, '-o', 'pan', 'pan.c'], {
      cwd: dir,
      stdio: 'pipe',
    });
    const compileSeconds = seconds(started);
    // pan exits non-zero on some errors; its summary is what is read.
    const { output, exit } = runPan(dir, options.maxDepth, options.panFlags ?? [], options.env ?? {});
    const trails = readdirSync(dir)
      .filter((f) => f.endsWith('.trail'))
      .sort((a, b) => trailNumber(a) - trailNumber(b));
    const run = { ...parsePanOutput(output, exit), trails, output, generateSeconds, compileSeconds, dir };
    kept = options.keep === true;
    return run;
  } finally {
    // A failed run is never handed back, so its folder goes even when `keep` asked for it.
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

/** `model.pml.trail` is trail 0, `model.pml3.trail` trail 3. */
const trailNumber = (name: string): number => Number(/(\d*)\.trail$/.exec(name)?.[1] || 0);

/** Replays one trail with `pan -r -S`: only the model's own printed lines (its steps) come out. */
export function replayTrail(
  run: SpinRun,
  trail: string,
  maxDepth: number,
  /** Environment variables for pan (a liveness build reads its goal from NSMODEL_GOAL). */
  env: Record<string, string> = {},
): string {
  const pan = spawnSync('./pan', ['-S', `-m${maxDepth}`, '-r', trail], {
    cwd: run.dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  return `${pan.stdout}`;
}

/** Runs the compiled pan of a kept run again, with other flags and environment; trails it writes stay in the folder. */
export function rerunPan(
  run: SpinRun,
  maxDepth: number,
  panFlags: string[],
  env: Record<string, string>,
): Omit<PanFigures, 'trails' | 'output'> & { output: string } {
  const { output, exit } = runPan(run.dir, maxDepth, panFlags, env);
  return { ...parsePanOutput(output, exit), output };
}

/** Runs the compiled pan in `dir`: its output (stdout then stderr) and how it ended. */
function runPan(
  dir: string,
  maxDepth: number,
  panFlags: readonly string[],
  env: Record<string, string>,
): { output: string; exit: PanExit } {
  const started = performance.now();
  const pan = spawnSync('./pan', [`-m${maxDepth}`, '-n', ...panFlags], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  return panResult(pan, started);
}

export function removeSpinRun(run: SpinRun): void {
  rmSync(run.dir, { recursive: true, force: true });
}
