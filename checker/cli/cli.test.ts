import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { command as replayCommand, main as replayMain } from '../../scripts/replay.ts';
import { runCommandInProcess, thrownMessage } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { type CommandSpec, exitCodes, helpText, parseCommandLine, UsageError } from './cli.ts';

const spec: CommandSpec = {
  name: 'demo',
  summary: 'A command for the tests.',
  positionals: { usage: '[FILE]...', description: 'files' },
  options: {
    count: { type: 'string', value: 'N', description: 'how many' },
    tag: { type: 'string', value: 'T', multiple: true, description: 'a tag' },
    loud: { type: 'boolean', short: 'l', description: 'louder' },
  },
  exitCodes: [exitCodes.ok, exitCodes.usage, exitCodes.partial],
};

const refusal = (argv: string[]) => thrownMessage(UsageError, () => parseCommandLine(spec, argv));

describe('the shared argument parser', () => {
  it('reads flags in both forms, repeatable ones as lists, and positionals', () => {
    expect(parseCommandLine(spec, ['--count=3', '--tag', 'a', '--tag=b', '-l', 'x.yaml'])).toEqual({
      values: { count: '3', tag: ['a', 'b'], loud: true },
      positionals: ['x.yaml'],
      help: false,
      version: false,
    });
    expect(parseCommandLine(spec, ['-h']).help).toBe(true);
  });

  it('refuses what it does not understand, in one line with the fix', () => {
    expect(refusal(['--cout', '3'])).toMatch(/^unknown option --cout; did you mean --count\? options: /);
    expect(refusal(['--count'])).toMatch(/^--count needs a value/);
    expect(refusal(['--count', '--loud'])).toMatch(
      /^--count needs a value; write a value that starts with a dash/,
    );
    expect(refusal(['--count', '1', '--count', '2'])).toBe('--count given twice; give it once');
    expect(refusal(['--loud=yes'])).toBe('--loud takes no value; write it alone');
    expect(refusal(['--count='])).toMatch(/^--count needs a value/);
  });

  it('prints every option and the meaning of each exit code in --help', () => {
    const text = helpText(spec);
    for (const part of [
      'usage: demo [options] [FILE]...',
      '--count N',
      '-l, --loud',
      '-h, --help',
      '(repeatable)',
      'Exit codes:',
      ' 10  the search stopped early',
    ])
      expect(text).toContain(part);
  });
});

describe('the commands', () => {
  const scratch = useTempDir('cli');
  const yamlOf = (value: unknown) => stringify(value);
  const base = () => ({
    title: 'Base story',
    requirements: ['NS-1'],
    given: { namespaces: [{ name: 'team-a' }], users: [{ name: 'alice', groups: [] }] },
  });

  it('replay: no input, a failed expectation and a pending scenario have their own exit codes', async () => {
    const passing = resolve('scenarios/lc-repeated-delete.yaml');
    const failing = join(scratch(), 'failing.yaml');
    await writeFile(
      failing,
      yamlOf({ ...base(), steps: [{ as: 'alice', do: 'get namespaces/team-a', expect: 200 }] }),
    );
    // No committed scenario is pending: a known gap is one whose steps still fail, with its note.
    const pending = join(scratch(), 'pending.yaml');
    await writeFile(
      pending,
      yamlOf({
        ...base(),
        pending: 'a known gap, named here',
        steps: [{ as: 'alice', do: 'get namespaces/team-a', expect: 200 }],
      }),
    );
    // The exit codes are replay's main's; its entry point (one line per refusal) is spawned elsewhere.
    const replay = (argv: string[]) => runCommandInProcess(replayCommand, replayMain, argv);
    const none = await replay([]);
    const ok = await replay([passing]);
    const failed = await replay([failing]);
    const pend = await replay([pending]);
    const both = await replay([pending, failing]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^replay: no scenario given/);
    expect(ok.code).toBe(0);
    expect(failed.code).toBe(14);
    expect(pend.code).toBe(15);
    expect(both.code).toBe(14);
  });
});
