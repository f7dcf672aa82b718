import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { expect, vi } from 'vitest';
import { type OptionSpec, parseCommandLine, runCommand } from '../checker/cli/cli.ts';
import { type Command, commandSpec, type OptionValuesOf } from '../scripts/entry.ts';

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Where the command runs; a scratch folder keeps its outputs out of the working tree. */
  cwd?: string;
  /** Added to the environment (NSMODEL_DEBUG is cleared so errors print as a user sees them). */
  env?: Record<string, string>;
}

/**
 * Runs an entry point as a user would (a TypeScript one through tsx, a JavaScript one such as
 * scripts/verify-bundled.mjs through node), and resolves with its exit code and output.
 */
export function runScript(
  script: string,
  args: string[],
  { cwd, env = {} }: RunOptions = {},
): Promise<CommandRun> {
  const command = isJavaScript(script) ? process.execPath : resolve('node_modules/.bin/tsx');
  return new Promise((done) => {
    execFile(
      command,
      [resolve(script), ...args],
      { cwd, env: { ...process.env, NSMODEL_DEBUG: '', ...env }, maxBuffer: 1 << 26 },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * A command's `main` run in this process as its entry point runs it (runCommand: a UsageError becomes one
 * line on stderr and exit 2): the exit code and what went to stdout and stderr, through console or written
 * to the streams (a progress line). For what main decides: refusals, exit codes, printed verdicts and the
 * files it writes; a test of the entry point itself (a missing file, a signal, a closed pipe) spawns it.
 */
export async function runMainInProcess(
  command: string,
  main: () => Promise<number> | number,
): Promise<CommandRun> {
  const out: string[] = [];
  const err: string[] = [];
  const line = (args: unknown[]) => `${args.map(String).join(' ')}\n`;
  const printed = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    out.push(line(args));
  });
  const complained = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    err.push(line(args));
  });
  const written = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const wroteOut = vi.spyOn(process.stdout, 'write').mockImplementation(written(out));
  const wroteErr = vi.spyOn(process.stderr, 'write').mockImplementation(written(err));
  // Piped, as a spawned command's streams are: plain progress lines, no colour, whatever runs the tests.
  const terminals = [process.stdout.isTTY, process.stderr.isTTY];
  process.stdout.isTTY = false;
  process.stderr.isTTY = false;
  const saved = process.exitCode;
  try {
    await runCommand(command, main);
    return { code: Number(process.exitCode ?? 0), stdout: out.join(''), stderr: err.join('') };
  } finally {
    printed.mockRestore();
    complained.mockRestore();
    wroteOut.mockRestore();
    wroteErr.mockRestore();
    [process.stdout.isTTY, process.stderr.isTTY] = terminals;
    process.exitCode = saved;
  }
}

/**
 * A script's `main` run in this process on `argv`, as its entry point (defineCommand) runs it after reading
 * the command line by the script's `command`: for what main decides (exit codes, printed verdicts).
 */
export function runCommandInProcess<const O extends Record<string, OptionSpec>>(
  command: Command<O>,
  main: (line: { values: OptionValuesOf<O>; positionals: string[] }) => Promise<number> | number,
  argv: readonly string[],
): Promise<CommandRun> {
  return runMainInProcess(command.script, () => {
    const line = parseCommandLine(commandSpec(command as Command<Record<string, OptionSpec>>), argv);
    return main({ values: line.values as OptionValuesOf<O>, positionals: line.positionals });
  });
}

/**
 * The command and arguments that run an entry point in one node process: a TypeScript one with tsx's loader,
 * a JavaScript one as it is. Tests that signal a command use it: the tsx command relays a signal to its child and SIGKILLs the child when
 * it does not acknowledge within 30 ms (a busy search under load), so the test would judge tsx's relay.
 */
export function oneProcessCommand(script: string, args: string[]): [string, string[]] {
  if (isJavaScript(script)) return [process.execPath, [resolve(script), ...args]];
  const loader = createRequire(import.meta.url).resolve('tsx');
  return [process.execPath, ['--import', loader, resolve(script), ...args]];
}

/** An entry point node runs itself, with no loader (scripts/verify-bundled.mjs). */
function isJavaScript(script: string): boolean {
  return script.endsWith('.mjs');
}

/** The message of the error of class `kind` that `run` throws, or null when it returns; other errors escape. */
export function thrownMessage(kind: new (...args: never[]) => Error, run: () => unknown): string | null {
  try {
    run();
  } catch (error) {
    if (error instanceof kind) return error.message;
    throw error;
  }
  return null;
}

/**
 * A search under a small heap that the memory guard stopped: no V8 abort, exit `code`, and on stdout a
 * partial JSON result that still holds the states found so far.
 */
export function expectStoppedByMemoryGuard(run: CommandRun, code: number, atLeast = 100_000): void {
  expect(run.stderr).not.toContain('heap out of memory');
  expect(run.code).toBe(code);
  const result = JSON.parse(run.stdout) as { states: number; complete: boolean; stopReason: string };
  expect(result).toMatchObject({ complete: false, stopReason: 'memory' });
  expect(result.states).toBeGreaterThan(atLeast);
}
