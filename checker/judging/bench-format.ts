import { z } from 'zod';
import { schemaRef } from '../cli/schema-ref.ts';

/**
 * What `npm run bench -- --json` prints: one JSON object per line, each carrying its `$schema`. A line is
 * a measured case (an explorer on a reference model or a scope) or, with `--spin`, a row of SPIN beside
 * verify. The zod types here are the ones the bench writes and the ones schemas/bench.schema.json is made of.
 */

const count = z.number().int().nonnegative();
const bytes = z.number().nonnegative();

export const benchEngines = [
  'dense',
  'generic',
  'adjacency-map',
  'system-scope',
  'system-packed',
  'system-bitstate',
  'system-symmetry',
  'system-compiled',
  'verify',
] as const;
export type BenchEngine = (typeof benchEngines)[number];

const caseResultShape = {
  engine: z.enum(benchEngines),
  /** Copies of the reference namespace, or the scope's name for the system model. */
  subject: z.union([count, z.string()]),
  states: count,
  transitions: count.nullable(),
  depth: count.nullable(),
  complete: z.boolean(),
  stopReason: z.string().optional(),
  seconds: z.number().nonnegative(),
  statesPerSecond: z.number().nonnegative(),
  cpuSeconds: z
    .number()
    .nonnegative()
    .optional()
    .describe(
      'verify cases: user and system CPU seconds of the whole command (wall time lies on a loaded machine)',
    ),
  statesPerCpuSecond: z.number().nonnegative().optional().describe('verify cases: states per CPU second'),
  peakRssBytes: bytes.describe('peak resident set size of the whole process (maxRSS)'),
  baselineRssBytes: bytes.describe('RSS just before the search: the runtime, modules and tabulated machine'),
  retainedBytes: z
    .number()
    .describe('heap plus array buffers still held after the search, after a full GC, over the baseline'),
  structureBytes: bytes.optional().describe('typed arrays of the dense or packed engine, when known'),
  missProbability: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("a bitstate search's estimated chance of a missed state"),
  representedStates: count.optional().describe('under symmetry reduction: the states the orbits stand for'),
  reductions: z.array(z.string()).optional().describe('verify cases: the reductions in force'),
  livenessJudged: z.boolean().optional().describe('verify cases: whether deadlock and liveness were judged'),
  bundleBuildSeconds: z
    .number()
    .nonnegative()
    .optional()
    .describe(
      "verify cases: seconds to build npm run verify's bundle before the runs, as the first run after an edit does (0: its sources were unchanged)",
    ),
  compiled: z
    .strictObject({
      fillSeconds: z.number().nonnegative(),
      tableBytes: bytes,
      misses: count,
      warm: z.strictObject({
        seconds: z.number().nonnegative(),
        statesPerSecond: z.number().nonnegative(),
        firstStatesPerSecond: z.number().nonnegative(),
        retainedBytes: z.number(),
        structureBytes: bytes,
        runs: count,
      }),
    })
    .optional()
    .describe('the compiled model: this result is the cold search, warm the best later one'),
  error: z.string().optional().describe('why the case failed (its figures are then zero)'),
};

/** One case's figures, as the bench's child process reports them. */
export const caseResultSchema = z.strictObject(caseResultShape);
export type CaseResult = z.infer<typeof caseResultSchema>;

/** A measured case as `--json` prints it. */
const caseLineSchema = z.strictObject({
  $schema: z.string(),
  environment: z.string().describe('Node version, cores, CPU and memory of the machine'),
  ...caseResultShape,
  medianStatesPerSecond: z.number().nonnegative().describe('the median rate over the runs'),
  runs: z.number().int().positive(),
});
export type BenchCaseLine = z.infer<typeof caseLineSchema>;

/** A row of `--spin --json`: SPIN or verify on one scope. */
const spinLineSchema = z.strictObject({
  $schema: z.string(),
  scope: z.string(),
  engine: z.string(),
  states: count,
  transitions: count,
  seconds: z.number().nonnegative(),
  statesPerSecond: z
    .number()
    .nonnegative()
    .nullable()
    .describe("null when the run was too fast for pan's clock"),
  bytesPerState: z.number().nonnegative(),
  totalMiB: z.number().nonnegative(),
  complete: z.boolean(),
  note: z.string(),
});
export type BenchSpinLine = z.infer<typeof spinLineSchema>;

/** The schema of every line `npm run bench -- --json` prints (schemas/bench.schema.json). */
export const benchLineSchema = z.union([caseLineSchema, spinLineSchema]).meta({
  title: 'nsmodel bench line',
  description:
    'One line of npm run bench -- --json: a measured case (explorer, subject and figures) or, with --spin, a row of SPIN beside verify.',
});

/** A measured case's line. */
export function benchCaseLine(
  environment: string,
  result: CaseResult & { medianStatesPerSecond: number; runs: number },
): BenchCaseLine {
  return { $schema: schemaRef('bench'), environment, ...result };
}

/** A SPIN row's line; a rate pan could not measure (NaN) is null. */
export function benchSpinLine(
  row: Omit<BenchSpinLine, '$schema' | 'statesPerSecond'> & { statesPerSecond: number },
): BenchSpinLine {
  return {
    $schema: schemaRef('bench'),
    ...row,
    statesPerSecond: Number.isFinite(row.statesPerSecond) ? row.statesPerSecond : null,
  };
}
