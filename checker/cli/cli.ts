import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closest } from './request-line.ts';
import { terminalText } from './text-safety.ts';

/**
 * The one argument parser of every npm command (`verify`, `replay`, `mutants`, `diagrams`, `bench`,
 * `check:generated`, `site`, `scopes`, `alternatives`): Node's `util.parseArgs` in strict mode, with
 * one-line errors, a "did you mean" for misspelt flags, a `--help` that lists the options and the exit
 * codes, and a `--version`.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Exit codes shared by every command, after TLC's (0 ok, 1x for what a check found). */
export const exitCodes = {
  ok: 0,
  internal: 1,
  usage: 2,
  /** The search stopped before the end (state limit, time, memory guard, signal): nothing is proved. */
  partial: 10,
  /** A deadlock: a reachable state with no successor that the model does not declare terminal. */
  deadlock: 11,
  violated: 12,
  /** A liveness property is violated: a fair lasso never reaches its goal. */
  liveness: 13,
  /** A scenario step returned something other than what it expects. */
  expectationFailed: 14,
  /** Every scenario matched or is malformed-free, but some are pending (known gaps, not yet matching). */
  pending: 15,
  /** A seeded fault (mutant) that no property kills. */
  survived: 16,
  /** A generated file is stale, missing or unexpected. */
  stale: 17,
  /** A finished search left a property vacuous or a machine transition untaken that its scope does not declare. */
  undeclared: 18,
  /** A complete search of a pinned scope gave other figures or verdicts than its file's `golden:`. */
  goldenMoved: 19,
  /** SPIN and verify found different figures on the same model (npm run crosscheck). */
  crossCheckDiffers: 20,
  /** A hash-compacted search found no violation: not a proof, since a state may have been missed. */
  unproven: 21,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

const exitCodeMeaning: Record<ExitCode, string> = {
  0: 'success',
  1: 'internal error (a bug: set NSMODEL_DEBUG=1 for the stack trace)',
  2: 'bad arguments or malformed input (one line: file, line, field, fix); nothing was run',
  10: 'the search stopped early (--max-states, --max-seconds, memory guard or --max-memory, SIGINT/SIGTERM) or was a --bitstate search, which may miss states; the report says complete: false. Also: --max-seconds passed while liveness was judged (report.json liveness.stopped)',
  11: 'a deadlock: a reachable state where nothing can happen',
  12: 'a safety property is violated (a violation found by a partial search is still one)',
  13: 'a liveness property is violated (a lasso counterexample)',
  14: 'a scenario step did not return what it expects',
  15: 'a scenario is pending (a known gap) and none failed',
  16: 'a mutant survived: no property kills it',
  17: 'a generated file is stale, missing or unexpected',
  18: 'a property was never exercised (vacuous) or a machine transition never taken, and the scope does not declare it with a reason (`expectations` in the scope file)',
  19: 'a complete search of a scope whose file pins its figures (`golden:`) found other states, transitions, depth or verdicts: update them in a commit that says why they moved',
  20: 'SPIN and verify disagree on the same model (states, transitions, deadlocks, or a safety or liveness verdict), a SPIN trail is not a run of the model or does not break its property there, or the SPIN search did not complete',
  21: 'no property is violated among the states a hash-compacted search (--hash-compact) explored, but it is not a proof: a state may have been missed (the chance is printed)',
};

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's placeholder in the help, e.g. N or FILE. */
  value?: string;
  description: string;
}

export interface CommandSpec {
  /** As typed: `npm run verify --`. */
  name: string;
  summary: string;
  options: Record<string, OptionSpec>;
  /** Positional arguments, as shown in the usage line (e.g. `[FILE|FOLDER]...`); none when absent. */
  positionals?: { usage: string; description: string };
  exitCodes: readonly ExitCode[];
  notes?: readonly string[];
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export interface ParsedCommandLine {
  values: OptionValues;
  positionals: string[];
  help: boolean;
  version: boolean;
}

const helpOption: OptionSpec = { type: 'boolean', short: 'h', description: 'print this help and exit' };
const versionOption: OptionSpec = { type: 'boolean', description: 'print the version and exit' };
const builtInOptions = { help: helpOption, version: versionOption };

/** `--version`: the project's name and version, from package.json, as `nsmodel 0.1.0`. */
export function versionText(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
  };
  return `${pkg.name} ${pkg.version}`;
}

/** The `--help` text: usage, options, positionals, notes and exit codes. */
export function helpText(spec: CommandSpec): string {
  const options: Record<string, OptionSpec> = { ...spec.options, ...builtInOptions };
  const label = (name: string, option: OptionSpec) =>
    `${option.short ? `-${option.short}, ` : ''}--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`;
  const rows: [string, string][] = Object.entries(options).map(([name, option]) => [
    label(name, option),
    `${option.description}${option.multiple ? ' (repeatable)' : ''}`,
  ]);
  if (spec.positionals) rows.unshift([spec.positionals.usage, spec.positionals.description]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `usage: ${spec.name} [options]${spec.positionals ? ` ${spec.positionals.usage}` : ''}`,
    '',
    spec.summary,
    '',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    ...(spec.notes && spec.notes.length > 0 ? ['', ...spec.notes] : []),
    '',
    'Exit codes:',
    ...spec.exitCodes.map((code) => `  ${String(code).padStart(2)}  ${exitCodeMeaning[code]}`),
  ].join('\n');
}

/** Parses `argv` strictly: unknown flags, missing values, repeated single flags and stray words are UsageErrors. */
export function parseCommandLine(spec: CommandSpec, argv: readonly string[]): ParsedCommandLine {
  const options: Record<string, OptionSpec> = { ...spec.options, ...builtInOptions };
  const config = Object.fromEntries(
    Object.entries(options).map(([name, option]) => [
      name,
      {
        type: option.type,
        ...(option.short ? { short: option.short } : {}),
        multiple: option.multiple ?? false,
      },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: config,
      strict: true,
      allowPositionals: spec.positionals !== undefined,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(parseErrorText(error, Object.keys(options)));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (option.type === 'string' && (token.value === undefined || token.value === '')) {
      throw new UsageError(`--${token.name} needs a value: --${token.name} ${option.value ?? 'VALUE'}`);
    }
    if (!option.multiple && seen.has(token.name))
      throw new UsageError(`--${token.name} given twice; give it once`);
    seen.add(token.name);
  }
  const values = parsed.values as OptionValues;
  return {
    values,
    positionals: parsed.positionals,
    help: values.help === true,
    version: values.version === true,
  };
}

function parseErrorText(error: unknown, known: readonly string[]): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const flags = known.map((name) => `--${name}`);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']+)'/.exec(message)?.[1] ?? message;
    const guess = closest(flag.replace(/=.*/, ''), flags);
    return `unknown option ${flag}; ${guess ? `did you mean ${guess}? ` : ''}options: ${flags.join(', ')}`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']*)'/.exec(message)?.[1] ?? '';
    return `unexpected argument ${JSON.stringify(word)}: this command takes only options (${flags.join(', ')})`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /(--[\w-]+)/.exec(message)?.[1] ?? 'an option';
    if (message.includes('does not take')) return `${flag} takes no value; write it alone`;
    if (message.includes('ambiguous'))
      return `${flag} needs a value; write a value that starts with a dash as ${flag}=-VALUE`;
    return `${flag} needs a value`;
  }
  return message.split('\n')[0];
}

/** A flag's single string value (parseCommandLine already refused repeats). */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function listOption(values: OptionValues, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** A whole number in [min, max], or a UsageError naming the flag and an example. */
export function integerOption(
  values: OptionValues,
  name: string,
  { min = 1, max = Number.MAX_SAFE_INTEGER, example }: { min?: number; max?: number; example: string },
): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(
      `--${name} needs a whole number ${range}, got ${JSON.stringify(text)}: --${name} ${example}`,
    );
  }
  return value;
}

/**
 * Runs a command's `main` and sets the exit code: its result, 2 for a UsageError (one line), 1 for
 * anything else (one line; the stack trace only with NSMODEL_DEBUG=1).
 */
export async function runCommand(command: string, main: () => Promise<number> | number): Promise<void> {
  quietOnClosedPipe();
  try {
    process.exitCode = await main();
  } catch (error) {
    if (error instanceof UsageError) {
      // The message may quote the file (a key, a name): its control characters are shown, never sent raw.
      console.error(terminalText(`${command}: ${error.message}`));
      process.exitCode = exitCodes.usage;
      return;
    }
    const debug = process.env.NSMODEL_DEBUG === '1';
    const message = error instanceof Error ? error.message : String(error);
    console.error(
      terminalText(
        `${command}: internal error: ${message.split('\n')[0]}${debug ? '' : ' (set NSMODEL_DEBUG=1 for the stack trace)'}`,
      ),
    );
    if (debug) console.error(error);
    process.exitCode = exitCodes.internal;
  }
}

/**
 * Whether the module at `moduleUrl` (its `import.meta.url`) is the script node was started with. A script
 * runs its command only then, so a test may import it for its command line (options, --help) alone.
 */
export function isEntryPoint(moduleUrl: string): boolean {
  const started = process.argv[1];
  if (started === undefined) return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

let pipeGuarded = false;

/**
 * A reader that stops early (`| head`) closes the pipe: the command then ends at once with the code it
 * has so far, instead of an EPIPE stack trace. Any other stream error is still thrown.
 */
export function quietOnClosedPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : exitCodes.ok);
    });
}
