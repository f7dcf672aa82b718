import type { Scope } from '../../machines/scope.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { baseVariantName, variants } from '../../variants/variants.ts';
import {
  type CommandSpec,
  exitCodes,
  integerOption,
  listOption,
  parseCommandLine,
  stringOption,
  UsageError,
} from './cli.ts';
import { resolveScope, type ScopeSource, scopeNames } from './scope-file.ts';

/** `npm run verify`'s options, parsed by the shared parser (checker/cli/cli.ts) and checked against the model. */
export interface VerifyArgs {
  /** The scope as given: a built-in name, or the file it was read from. */
  scopeSource: ScopeSource;
  scope: Scope;
  variant: string;
  /** Property ids to check; empty means all of them. */
  properties: string[];
  maxStates?: number;
  maxSeconds?: number;
  /** Memory guard in MiB of heap plus array buffers (default: 75% of the usable heap). */
  maxMemoryMb?: number;
  /** Bitstate search with a filter of 2^bitstate bits instead of the exact visited set. */
  bitstate?: number;
  /** Hash compaction: a 64-bit fingerprint per state instead of its lanes. */
  hashCompact?: boolean;
  /** Where the report goes instead of the default folder. */
  out?: string;
  json: boolean;
  /** End the search after the breadth-first level of the first violation (default for a seeded fault). */
  stopOnFirst: boolean;
  /** No progress output. */
  quiet: boolean;
  /** Search even when the estimate is past what this process can hold. */
  force: boolean;
  /** Keep one state per orbit of the scope's declared symmetry (on by default when the scope declares one). */
  symmetry: boolean;
  random?: { runs: number; seed?: number; path?: string };
  help: boolean;
  version: boolean;
}

const defaultRandomRuns = 100;
const variantNames = () => [baseVariantName, ...variants.map((v) => v.name)];

export const verifySpec: CommandSpec = {
  name: 'npm run verify --',
  summary:
    'Explores every reachable state of the system model and judges every safety property (TLC-like summary and report).',
  options: {
    scope: {
      type: 'string',
      value: 'NAME|FILE',
      description: `a built-in scope (scopes/NAME.yaml: ${scopeNames().join(', ')}) or a scope file (default: default)`,
    },
    variant: {
      type: 'string',
      value: 'NAME',
      description: `${baseVariantName} (the machines as written, default) or a seeded fault: ${variants.map((v) => v.name).join(', ')}`,
    },
    property: {
      type: 'string',
      value: 'ID',
      multiple: true,
      description: 'check only this property (default: every safety property)',
    },
    'max-states': {
      type: 'string',
      value: 'N',
      description: 'stop after N distinct states (a partial run: exit 10)',
    },
    'max-seconds': {
      type: 'string',
      value: 'S',
      description:
        "stop the search, and liveness's judgement after it, S seconds after the search starts (a partial run: exit 10)",
    },
    'max-memory': {
      type: 'string',
      value: 'MB',
      description: 'stop once heap and array buffers exceed MB MiB (a partial run: exit 10)',
    },
    bitstate: {
      type: 'string',
      value: 'LOG2',
      description:
        "SPIN's bitstate search: a filter of 2^LOG2 bits (27 = 16 MiB) instead of the visited set, for scopes that do not fit; may miss states, so always a partial run (exit 10), with the estimated chance of a miss; no liveness",
    },
    'hash-compact': {
      type: 'boolean',
      description:
        "SPIN's hash compaction: a 64-bit fingerprint per state instead of the state, for scopes that do not fit; two states sharing one would hide the second, so a run without violation is never a proof (exit 21), with the chance of a miss; no liveness",
    },
    out: {
      type: 'string',
      value: 'DIR',
      description:
        'write the report here (default: generated/ for the full default run, else generated/runs/<variant>-<scope>/)',
    },
    json: { type: 'boolean', description: 'print the JSON report on stdout instead of the summary' },
    'stop-on-first': {
      type: 'boolean',
      description:
        'end the search once the breadth-first level of the first violation is done, with its shortest trace (default with a seeded-fault --variant; a partial run)',
    },
    exhaustive: {
      type: 'boolean',
      description:
        'with a seeded-fault --variant: search every reachable state instead of stopping at the first violation',
    },
    symmetry: {
      type: 'string',
      value: 'on|off',
      description:
        "on (default): keep one state per orbit of the scope's declared symmetry sets (TLC's SYMMETRY); off: search every state",
    },
    force: {
      type: 'boolean',
      description:
        'search even when the state estimate printed before the search is past what this process holds (the memory guard then ends it: exit 10)',
    },
    quiet: {
      type: 'boolean',
      short: 'q',
      description: 'print no progress (the summary and the first-violation lines stay)',
    },
    random: {
      type: 'boolean',
      description: 'random walks (checker/judging/random.ts) instead of the exhaustive search',
    },
    runs: { type: 'string', value: 'N', description: 'with --random: number of walks (default 100)' },
    seed: {
      type: 'string',
      value: 'S',
      description: 'with --random: the seed that replays them (negative: --seed=-7)',
    },
    path: {
      type: 'string',
      value: 'P',
      description: 'with --seed: replay one reported random failure (its fast-check path)',
    },
  },
  exitCodes: [
    exitCodes.ok,
    exitCodes.internal,
    exitCodes.usage,
    exitCodes.partial,
    exitCodes.deadlock,
    exitCodes.violated,
    exitCodes.liveness,
    exitCodes.undeclared,
    exitCodes.goldenMoved,
    exitCodes.unproven,
  ],
  notes: [
    'Progress: a bar redrawn in place on a terminal, a plain line every 5 s otherwise (CI); NO_COLOR turns colour off.',
    "Each property's first violation is printed on stderr at once (property, depth, states so far).",
    'Only the full default run (no flag but --json) writes the committed generated/report.json, report.md,',
    'counterexamples/ and traceability.md; any other run writes generated/runs/<variant>-<scope>/, which git ignores.',
    'SIGINT or SIGTERM stops the search, writes the partial report (complete: false) and exits 10.',
    'Several causes at once: each is printed and recorded in the report (outcome); the exit code is the first in 12 > 11 > 13 > 10 > 18 > 19.',
    'Before the search: the estimated state count (each namespace searched alone, multiplied); past what the process holds, an unbounded search is refused (exit 2) unless --force, --max-states, --max-seconds, --bitstate or --hash-compact.',
    '--out refuses /, the project, a non-folder (/dev/null), the committed generated/ and a folder holding files no run of this tool wrote (sources, /dev, a home folder) before the search.',
  ],
};

export function parseVerifyArgs(argv: readonly string[]): VerifyArgs {
  const { values, help, version } = parseCommandLine(verifySpec, argv);
  if (help || version) {
    return {
      ...resolveScope('default'),
      variant: baseVariantName,
      properties: [],
      json: false,
      stopOnFirst: false,
      quiet: false,
      force: false,
      symmetry: true,
      help,
      version,
    };
  }
  const variant = stringOption(values, 'variant') ?? baseVariantName;
  if (!variantNames().includes(variant)) {
    throw new UsageError(
      `--variant: unknown variant ${JSON.stringify(variant)}; use one of ${variantNames().join(', ')}`,
    );
  }
  const propertyIds = safetyProperties.map((p) => p.id);
  const properties = [...new Set(listOption(values, 'property'))];
  for (const id of properties) {
    if (!propertyIds.includes(id)) {
      throw new UsageError(
        `--property: unknown property ${JSON.stringify(id)}; use one of ${propertyIds.join(', ')}`,
      );
    }
  }
  const maxStates = integerOption(values, 'max-states', { example: '50000' });
  const maxSeconds = integerOption(values, 'max-seconds', { max: 7 * 24 * 3600, example: '600' });
  const maxMemoryMb = integerOption(values, 'max-memory', { example: '512' });
  const bitstate = integerOption(values, 'bitstate', { min: 10, max: 35, example: '27' });
  const random = values.random === true;
  const hashCompact = values['hash-compact'] === true;
  if (hashCompact && (random || bitstate !== undefined))
    throw new UsageError(
      `--hash-compact applies to the exhaustive search with the visited set; drop it or drop --${random ? 'random' : 'bitstate'}`,
    );
  if (random && (maxMemoryMb !== undefined || bitstate !== undefined))
    throw new UsageError(
      `--${bitstate !== undefined ? 'bitstate' : 'max-memory'} applies to the exhaustive search; drop it or drop --random`,
    );
  const randomOnly = (['runs', 'seed', 'path'] as const).find((flag) => values[flag] !== undefined);
  if (!random && randomOnly)
    throw new UsageError(`--${randomOnly} only applies to random runs; add --random`);
  if (values.path !== undefined && values.seed === undefined) {
    throw new UsageError(
      '--path replays a failure only together with its seed; add the --seed it was reported with',
    );
  }
  if (random && values.json === true)
    throw new UsageError('--json prints the exhaustive report; drop it or drop --random');
  if (random && (maxStates !== undefined || maxSeconds !== undefined))
    throw new UsageError(
      '--max-states and --max-seconds apply to the exhaustive search; drop them or drop --random',
    );
  const seed = integerOption(values, 'seed', { min: Number.MIN_SAFE_INTEGER, example: '42' });
  const runs = integerOption(values, 'runs', { max: 1_000_000, example: '2000' });
  const out = stringOption(values, 'out');
  if (values['stop-on-first'] === true && values.exhaustive === true)
    throw new UsageError('--stop-on-first and --exhaustive contradict each other; give one');
  if (random && (values['stop-on-first'] === true || values.exhaustive === true))
    throw new UsageError(
      `--${values.exhaustive === true ? 'exhaustive' : 'stop-on-first'} applies to the exhaustive search; drop it or drop --random`,
    );
  const symmetry = stringOption(values, 'symmetry') ?? 'on';
  if (symmetry !== 'on' && symmetry !== 'off')
    throw new UsageError(
      `--symmetry: ${JSON.stringify(symmetry)} is neither on nor off; write --symmetry on or --symmetry off`,
    );
  // A seeded fault is run to see it caught: its first violation is the answer, the rest of the space is not.
  const stopOnFirst =
    values['stop-on-first'] === true || (variant !== baseVariantName && values.exhaustive !== true);
  return {
    ...resolveScope(stringOption(values, 'scope') ?? 'default'),
    variant,
    properties,
    ...(maxStates !== undefined ? { maxStates } : {}),
    ...(maxSeconds !== undefined ? { maxSeconds } : {}),
    ...(maxMemoryMb !== undefined ? { maxMemoryMb } : {}),
    ...(bitstate !== undefined ? { bitstate } : {}),
    ...(hashCompact ? { hashCompact } : {}),
    ...(out !== undefined ? { out } : {}),
    json: values.json === true,
    stopOnFirst: !random && stopOnFirst,
    quiet: values.quiet === true,
    force: values.force === true,
    symmetry: symmetry === 'on',
    ...(random
      ? {
          random: {
            runs: runs ?? defaultRandomRuns,
            ...(seed !== undefined ? { seed } : {}),
            ...(values.path !== undefined ? { path: stringOption(values, 'path') } : {}),
          },
        }
      : {}),
    help: false,
    version: false,
  };
}
