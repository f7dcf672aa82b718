import {
  type CommandSpec,
  exitCodes,
  helpText,
  type ParsedCommandLine,
  parseCommandLine,
  runCommand,
  versionText,
} from '../checker/cli/cli.ts';

/**
 * A script's entry point: reads the command line by `spec`, prints the help for --help, otherwise runs
 * `main` with what it read. Exit codes and error lines are runCommand's (a bad flag is exit 2).
 */
export function runEntry(
  spec: CommandSpec,
  command: string,
  main: (line: ParsedCommandLine) => Promise<number> | number,
): Promise<void> {
  return runCommand(command, () => {
    const line = parseCommandLine(spec, process.argv.slice(2));
    if (line.help) {
      console.log(helpText(spec));
      return exitCodes.ok;
    }
    if (line.version) {
      console.log(versionText());
      return exitCodes.ok;
    }
    return main(line);
  });
}
