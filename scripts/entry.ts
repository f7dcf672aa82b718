import {
  type CommandSpec,
  type ExitCode,
  exitCodes,
  helpText,
  type OptionSpec,
  parseCommandLine,
  runCommand,
  versionText,
} from '../checker/cli/cli.ts';
import { scopeNames } from '../checker/cli/scope-file.ts';
import { baseVariantName } from '../variants/variants.ts';

/** What `npm run SCRIPT -- --help` shows, and what the command line may hold. */
export interface Command<O extends Record<string, OptionSpec>> {
  /** The npm script's name: `site` runs as `npm run site --` and prefixes its error lines with `site:`. */
  script: string;
  summary: string;
  options?: O;
  positionals?: CommandSpec['positionals'];
  /** The exit codes beyond 0, 1 and 2 (which every command may return). */
  exits?: readonly ExitCode[];
  /** Not here: 0, 1 and 2 are implied, the others are `exits`. */
  exitCodes?: never;
  notes?: readonly string[];
}

/** The values read for options `O`: a boolean flag is true or absent, a string flag a string (a list when repeatable). */
export type OptionValuesOf<O extends Record<string, OptionSpec>> = {
  readonly [K in keyof O]?: O[K] extends { type: 'boolean' }
    ? boolean
    : O[K] extends { multiple: true }
      ? string[]
      : string;
};

/** What `main` receives: the options' values and the positional words. */
export interface CommandLine<O extends Record<string, OptionSpec> | undefined> {
  values: OptionValuesOf<O extends Record<string, OptionSpec> ? O : Record<never, OptionSpec>>;
  positionals: string[];
}

/** The help's spec of a command. */
export function commandSpec(command: Command<Record<string, OptionSpec>>): CommandSpec {
  return {
    name: `npm run ${command.script} --`,
    summary: command.summary,
    options: command.options ?? {},
    ...(command.positionals ? { positionals: command.positionals } : {}),
    exitCodes: [exitCodes.ok, exitCodes.internal, exitCodes.usage, ...(command.exits ?? [])],
    ...(command.notes ? { notes: command.notes } : {}),
  };
}

/**
 * A script's entry point: reads the command line by `command`, prints the help for --help and the version
 * for --version, otherwise runs `main` with the values read, typed by the options declared. Exit codes and
 * error lines are runCommand's (a bad flag is exit 2, one line; anything thrown is exit 1, one line).
 */
export function defineCommand<const O extends Record<string, OptionSpec> = Record<never, OptionSpec>>(
  command: Command<O>,
  main: (line: { values: OptionValuesOf<O>; positionals: string[] }) => Promise<number> | number,
): Promise<void> {
  const spec = commandSpec(command);
  return runCommand(command.script, () => {
    const line = parseCommandLine(spec, process.argv.slice(2));
    if (line.help) {
      console.log(helpText(spec));
      return exitCodes.ok;
    }
    if (line.version) {
      console.log(versionText());
      return exitCodes.ok;
    }
    return main({ values: line.values as OptionValuesOf<O>, positionals: line.positionals });
  });
}

/**
 * A command with no options that writes files under the working folder and names them:
 * `SCRIPT: wrote a, b, ...` on success.
 */
export function defineWritingCommand(
  command: Omit<Command<Record<never, OptionSpec>>, 'options'>,
  write: (root: string) => Promise<string[]>,
): Promise<void> {
  return defineCommand({ ...command, options: {} }, async () => {
    const written = await write(process.cwd());
    console.log(`${command.script}: wrote ${written.join(', ')}`);
    return exitCodes.ok;
  });
}

/** A count as the commands print it, with thousands separators: `1,234,567`. */
export const count = (n: number): string => countFormat.format(n);
const countFormat = new Intl.NumberFormat('en-US');

/** `--scope NAME|FILE`, as the commands that judge one scope take it (quick when absent). */
export function scopeOption(): { type: 'string'; value: string; description: string } {
  return {
    type: 'string',
    value: 'NAME|FILE',
    description: `a built-in scope (${scopeNames().join(', ')}) or a scope file (default: quick)`,
  };
}

/** `--variant NAME`: the model as written (when absent) or one of its seeded faults. */
export function variantOption(): { type: 'string'; value: string; description: string } {
  return {
    type: 'string',
    value: 'NAME',
    description: `${baseVariantName} (default) or a seeded fault of variants/variants.ts`,
  };
}
