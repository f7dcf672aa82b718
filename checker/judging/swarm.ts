import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { schemaRef } from '../cli/schema-ref.ts';
import { panOptimization, parsePanOutput } from './spin.ts';

/**
 * Swarm verification (Holzmann, Joshi, Groce): many bitstate runs of pan on one Promela model, each
 * diversified (hash function `-h`, search order `-t_reverse`), so a state one run's filter wrongly
 * takes for seen is found by another. A slice `I/M` runs the runs numbered I, I+M, I+2M, ...: the same
 * command line on M machines covers all of them, and `mergeSwarm` combines their reports.
 */

/** Hash functions per state in pan's bitstate filter (its default `-k3`). */
const bitsPerState = 3;

export interface SwarmRun {
  run: number;
  flags: string[];
  states: number;
  transitions: number;
  depth: number;
  errors: number;
  seconds: number;
  /** The filter's size, 2^log2Bits bits. */
  log2Bits: number;
  /** Expected states this run took for seen: the sum over stored states of the filter's fill^k then. */
  expectedMissed: number;
  /** pan's depth bound was hit (the run cut its search short, beyond the filter's misses). */
  truncated: boolean;
}

/** A slice file of `swarm --out`: its `$schema`, the model searched and its runs (`--merge` reads them back). */
export interface SwarmSlice {
  $schema: string;
  scope: string;
  variant: string;
  runs: SwarmRun[];
}

/** The schema of a slice file (schemas/swarm.schema.json is generated from it). */
export const swarmSliceSchema = z
  .strictObject({
    $schema: z.string(),
    scope: z.string(),
    variant: z.string(),
    runs: z.array(
      z.strictObject({
        run: z.number().int().nonnegative(),
        flags: z.array(z.string()),
        states: z.number().int().nonnegative(),
        transitions: z.number().int().nonnegative(),
        depth: z.number().int().nonnegative(),
        errors: z.number().int().nonnegative(),
        seconds: z.number().nonnegative(),
        log2Bits: z.number().int().positive(),
        expectedMissed: z.number().nonnegative(),
        truncated: z.boolean(),
      }),
    ),
  })
  .meta({
    title: 'nsmodel swarm slice',
    description:
      'The file npm run swarm -- --out writes: the bitstate runs of one slice of a swarm search, merged by --merge.',
  }) as unknown as z.ZodType<SwarmSlice>;

/** A slice file's content; `$schema` is relative to `file` (POSIX, relative to the project root). */
export function swarmSlice(scope: string, variant: string, runs: SwarmRun[], file: string): SwarmSlice {
  return { $schema: schemaRef('swarm', file), scope, variant, runs };
}

export interface SwarmReport {
  scope: string;
  variant: string;
  runs: SwarmRun[];
  /** The most states any run stored: a lower bound on the reachable states. */
  statesAtLeast: number;
  /** Per state, the chance every run missed it: the product of the runs' mean per-state miss chances. */
  missPerState: number;
  /** Expected states every run missed (statesAtLeast × missPerState) and the chance of any: 1 − e^(−expected). */
  expectedMissed: number;
  missProbability: number;
  errors: number;
}

/**
 * Expected states missed by a bitstate run that stored `stored` states in 2^log2 bits: the j-th state
 * stored meets a filter with about k·j bits set, so it is a false "seen" with chance (1 − e^(−k·j/m))^k.
 */
export function expectedMisses(stored: number, log2Bits: number): number {
  const m = 2 ** log2Bits;
  const k = bitsPerState;
  // Midpoint sums over 1,000 blocks: exact enough for a chance, cheap for any count.
  const blocks = Math.min(stored, 1000);
  let sum = 0;
  for (let b = 0; b < blocks; b++) {
    const j = ((b + 0.5) * stored) / blocks;
    sum += (1 - Math.exp((-k * j) / m)) ** k;
  }
  return blocks === 0 ? 0 : (sum * stored) / blocks;
}

/** The run numbers of slice `index` of `count` among `runs`. */
export function sliceRuns(runs: number, index: number, count: number): number[] {
  return Array.from({ length: runs }, (_, r) => r).filter((r) => r % count === index);
}

/** Run r's diversification: its own hash function, and every other run the reverse search order. */
export function runFlags(run: number): string[] {
  return [`-h${run % 500}`, ...(run % 2 === 1 ? ['-t_reverse'] : [])];
}

/** Compiles the model once with -DBITSTATE and runs pan for each run number; nothing is left behind. */
export function runSwarm(
  promela: string,
  runs: readonly number[],
  options: { log2Bits: number; maxDepth: number; onRun?: (run: SwarmRun) => void },
): SwarmRun[] {
  const dir = mkdtempSync(join(tmpdir(), 'nsmodel-swarm-'));
  try {
    writeFileSync(join(dir, 'model.pml'), promela);
    execFileSync('spin', ['-a', 'model.pml'], { cwd: dir, stdio: 'pipe' });
    execFileSync('gcc', [panOptimization(), '-w', '-DBITSTATE', '-DNOREDUCE', '-o', 'pan', 'pan.c'], {
      cwd: dir,
      stdio: 'pipe',
    });
    return runs.map((run) => {
      const flags = [`-w${options.log2Bits}`, `-k${bitsPerState}`, ...runFlags(run)];
      const pan = spawnSync('./pan', [`-m${options.maxDepth}`, '-n', '-c0', ...flags], {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const output = `${pan.stdout}${pan.stderr}`;
      const figures = parsePanOutput(output, { status: pan.status, signal: pan.signal });
      const result: SwarmRun = {
        run,
        flags,
        states: figures.states,
        transitions: figures.transitions,
        depth: figures.depth,
        errors: figures.errors,
        seconds: figures.seconds,
        log2Bits: options.log2Bits,
        expectedMissed: expectedMisses(figures.states, options.log2Bits),
        truncated: /max search depth too small/.test(output),
      };
      options.onRun?.(result);
      return result;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One report from the runs of every slice (each run once: a run number given twice is an error). */
export function mergeSwarm(scope: string, variant: string, runs: readonly SwarmRun[]): SwarmReport {
  const numbers = new Set<number>();
  for (const r of runs) {
    if (numbers.has(r.run)) throw new Error(`run ${r.run} is reported twice`);
    numbers.add(r.run);
  }
  const sorted = [...runs].sort((a, b) => a.run - b.run);
  const statesAtLeast = Math.max(0, ...sorted.map((r) => r.states));
  // A truncated run may have missed anything below its depth bound: it lowers no miss chance.
  const counted = sorted.filter((r) => !r.truncated && r.states > 0);
  const missPerState =
    counted.length === 0 ? 1 : counted.reduce((p, r) => p * Math.min(1, r.expectedMissed / r.states), 1);
  const expectedMissed = statesAtLeast * missPerState;
  return {
    scope,
    variant,
    runs: sorted,
    statesAtLeast,
    missPerState,
    expectedMissed,
    missProbability: counted.length === 0 ? 1 : 1 - Math.exp(-expectedMissed),
    errors: sorted.reduce((sum, r) => sum + r.errors, 0),
  };
}
