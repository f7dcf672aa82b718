import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type CommandSpec,
  helpText,
  type OptionSpec,
  parseCommandLine,
  UsageError,
} from '../checker/cli/cli.ts';
import { runScript, thrownMessage } from '../test-support/run-command.ts';
import { useTempDir } from '../test-support/temp-dir.ts';
import { type Command, commandSpec } from './entry.ts';
import { command as siteCommand } from './site.ts';

/**
 * The README's exit-code table from the commands' --help texts: per code, the commands whose --help lists
 * it (by their npm name, as each usage line gives it) and the meaning every --help prints for it.
 */
function exitCodeTable(helps: ReadonlyMap<string, string>): string {
  const rows = new Map<number, { meaning: string; commands: string[] }>();
  for (const text of helps.values()) {
    const command = /^usage: npm run (\S+) --/m.exec(text)?.[1] ?? '?';
    const codes = text.slice(text.indexOf('Exit codes:')).split('\n').slice(1);
    for (const line of codes) {
      const m = /^\s+(\d+) {2}(.*)$/.exec(line);
      if (!m) continue;
      const row = rows.get(Number(m[1])) ?? { meaning: m[2], commands: [] };
      expect(row.meaning, `exit ${m[1]} of ${command}`).toBe(m[2]);
      row.commands.push(command);
      rows.set(Number(m[1]), row);
    }
  }
  return [
    '| code | commands | meaning |',
    '| ---: | --- | --- |',
    ...[...rows.entries()]
      .sort(([a], [b]) => a - b)
      .map(
        ([code, r]) =>
          `| ${code} | ${
            r.commands.length === helps.size
              ? 'all'
              : r.commands
                  .sort()
                  .map((c) => `\`${c}\``)
                  .join(', ')
          } | ${r.meaning} |`,
      ),
  ].join('\n');
}

describe('the commands', () => {
  const scratch = useTempDir('commands');
  const run = (script: string, args: string[]) => runScript(script, args, { cwd: scratch() });

  /** Every script of scripts/ by name (entry.ts and named.ts are its shared code, no commands). */
  const scriptNames = async () =>
    (await readdir(resolve('scripts')))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !['entry.ts', 'named.ts'].includes(f))
      .map((f) => f.replace(/\.ts$/, ''));

  it('every command refuses an unknown flag in one line, lists its exit codes in --help, and has --version', async () => {
    const scripts = await scriptNames();
    const pkg = JSON.parse(await readFile(resolve('package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // Every npm command runs one of these scripts, and every script is an npm command (verify's through
    // scripts/verify-bundled.mjs, which runs scripts/verify.ts from its bundle).
    expect(
      Object.values(pkg.scripts)
        .map((line) => /scripts\/([\w-]+?)(?:-bundled\.mjs|\.ts)/.exec(line)?.[1])
        .filter((s) => s !== undefined)
        .sort(),
    ).toEqual([...scripts].sort());
    // Each script's command line as it reads it: a script imported runs nothing (isEntryPoint), and
    // exports either the command it hands to defineCommand or, reading its own, the spec it parses by.
    const helps = new Map<string, string>();
    for (const script of scripts) {
      const module = (await import(
        /* @vite-ignore */ pathToFileURL(resolve('scripts', `${script}.ts`)).href
      )) as {
        command?: Command<Record<string, OptionSpec>>;
        spec?: CommandSpec;
      };
      expect(module.command === undefined, `${script} exports both a command and a spec`).not.toBe(
        module.spec === undefined,
      );
      const read = module.spec ?? commandSpec(module.command as Command<Record<string, OptionSpec>>);
      const refused = thrownMessage(UsageError, () => parseCommandLine(read, ['--nosuch']));
      expect(refused, script).toMatch(/^unknown option --nosuch/);
      expect(refused?.split('\n'), script).toHaveLength(1);
      expect(parseCommandLine(read, ['--help']).help, script).toBe(true);
      expect(parseCommandLine(read, ['--version']).version, script).toBe(true);
      const help = helpText(read);
      expect(help, script).toContain('Exit codes:');
      expect(help, script).toMatch(/^ {2}--version +print the version and exit$/m);
      helps.set(script, help);
    }
    // Each runs, as the entry point only, through runCommand (defineCommand calls it): its exit codes,
    // its one-line errors and its guard against a closed pipe are those tested once per way below.
    for (const script of scripts)
      expect(await readFile(resolve('scripts', `${script}.ts`), 'utf8'), script).toMatch(
        /^if \(isEntryPoint\(import\.meta\.url\)\)\s+await (defineCommand\(command,|defineWritingCommand\(command,|runCommand\()/m,
      );
    // The README's exit-code table is the one --help prints: each code's meaning and the commands that use it.
    const readme = await readFile(resolve('README.md'), 'utf8');
    const table = exitCodeTable(helps);
    expect(readme, `README.md's exit-code table must read:\n${table}`).toContain(table);
  });

  it('as started from the command line: exit 2 and one line for an unknown flag, --help and --version', async () => {
    const pkg = JSON.parse(await readFile(resolve('package.json'), 'utf8')) as { version: string };
    // Once per way a script reads its command line: the shared entry of every other script (site), and
    // verify's and check:generated's own (their --help prints the spec the test above judged).
    const readers = [
      { script: 'site', name: 'site', flags: ['--nosuch', '--help', '--version'] },
      { script: 'verify', name: 'verify', flags: ['--nosuch', '--version'] },
      { script: 'check-generated', name: 'check:generated', flags: ['--nosuch', '--version'] },
    ];
    const runs = await Promise.all(
      readers.map(({ script, flags }) =>
        Promise.all(flags.map((flag) => run(`scripts/${script}.ts`, [flag]))),
      ),
    );
    readers.forEach(({ script, name }, i) => {
      const [refused, ...others] = runs[i];
      expect(refused.code, script).toBe(2);
      expect(refused.stderr, script).toMatch(new RegExp(`^${name}: unknown option --nosuch[^\\n]*\\n$`));
      const version = others[others.length - 1];
      expect(version.code, script).toBe(0);
      expect(version.stdout, script).toBe(`nsmodel ${pkg.version}\n`);
    });
    const siteHelp = runs[0][1];
    expect(siteHelp.code).toBe(0);
    expect(siteHelp.stdout).toBe(`${helpText(commandSpec(siteCommand))}\n`);
  });
});
