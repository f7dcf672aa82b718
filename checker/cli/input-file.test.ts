import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainInProcess, runScript, thrownMessage } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { loadScenario, ScenarioFileError } from '../scenario/load.ts';
import { UsageError } from './cli.ts';
import { decodeInput, InputFileError, readInputBytes, readInputText } from './input-file.ts';
import { loadScopeFile } from './scope-file.ts';
import { terminalText } from './text-safety.ts';
import { parseVerifyArgs } from './verify-args.ts';

const refusal = (run: () => unknown) => thrownMessage(InputFileError, run);

describe('input files are regular files, capped before reading', () => {
  const scratch = useTempDir('input', { fresh: true });

  it('refuses a FIFO without opening it (no hang)', () => {
    const fifo = join(scratch(), 'scope.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(() => readInputBytes(fifo, 1000))).toBe(
      `${fifo}:1: is a FIFO (named pipe): reading it may wait forever; fix: save the content to a regular file first`,
    );
  });

  it('refuses /dev/zero, whose content never ends', () => {
    expect(refusal(() => readInputBytes('/dev/zero', 1000))).toMatch(
      /^\/dev\/zero:1: is a character device, whose content may never end; fix: /,
    );
  });

  it('refuses a folder', async () => {
    await mkdir(join(scratch(), 'scenarios'));
    expect(refusal(() => readInputBytes(join(scratch(), 'scenarios'), 1000))).toMatch(
      /scenarios:1: is a folder, not a file; fix: name a file inside it$/,
    );
  });

  it('names a symbolic link loop and a dangling link, not "no file"', async () => {
    const loop = join(scratch(), 'loop.yaml');
    await symlink(loop, loop);
    expect(refusal(() => readInputBytes(loop, 1000))).toMatch(/loop\.yaml:1: is a symbolic link loop/);
    const dangling = join(scratch(), 'dangling.yaml');
    await symlink('gone.yaml', dangling);
    expect(refusal(() => readInputBytes(dangling, 1000))).toMatch(
      /dangling\.yaml:1: is a symbolic link to gone\.yaml, which does not exist/,
    );
    expect(refusal(() => readInputBytes(join(scratch(), 'absent.yaml'), 1000))).toMatch(/:1: no such file;/);
  });

  it('refuses a 29 MB file by its size, before reading it', async () => {
    const big = join(scratch(), 'big.yaml');
    await writeFile(big, '');
    // A sparse file: its size is 29 MB though no byte was written, so only the size check can catch it fast.
    await truncate(big, 29_000_000);
    expect(refusal(() => readInputBytes(big, 1_000_000))).toBe(
      `${big}:1: is 29 MB, more than the 1.0 MB an input may hold; fix: give a smaller file; is it the right one?`,
    );
  });

  it('reads a file that reports no size (a /proc file) to its end, and still refuses it past the cap', () => {
    // /proc/self/status is a regular file of size 0 to stat, yet holds a page of text.
    const whole = readInputBytes('/proc/self/status', 1_000_000).toString('utf8');
    expect(whole).toMatch(/^Name:\t/);
    expect(whole.split('\n').length).toBeGreaterThan(10);
    expect(refusal(() => readInputBytes('/proc/self/status', 20))).toBe(
      '/proc/self/status:1: is over 0.0 MB, more than the 0.0 MB an input may hold; fix: give a smaller file; is it the right one?',
    );
  });

  it('reads a regular file whole', async () => {
    const path = join(scratch(), 'ok.yaml');
    await writeFile(path, 'name: ok\n');
    expect(readInputText(path, 100)).toBe('name: ok\n');
  });
});

describe('encodings are detected and named', () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  const decode = (data: Uint8Array) => refusal(() => decodeInput('f.yaml', data));

  it('names UTF-16 by its byte order mark, either endianness, and without one', () => {
    expect(decode(bytes(0xff, 0xfe, 0x61, 0))).toBe(
      'f.yaml:1: the file is UTF-16 (little-endian byte order mark); fix: save it as UTF-8',
    );
    expect(decode(bytes(0xfe, 0xff, 0, 0x61))).toMatch(/UTF-16 \(big-endian byte order mark\)/);
    expect(decode(new Uint8Array(Buffer.from('name: x\n', 'utf16le')))).toMatch(
      /looks like UTF-16 without a byte order mark/,
    );
  });

  it('names latin-1 bytes with their line and value', () => {
    expect(decode(new Uint8Array(Buffer.from('a: 1\ntitle: caf\xe9\n', 'latin1')))).toBe(
      'f.yaml:2: byte 0xE9 at byte 15 is not UTF-8 (latin-1 or Windows-1252 text?); fix: save the file as UTF-8',
    );
  });

  it('names CR-only line ends and a lone CR, and takes CRLF', () => {
    expect(decode(new Uint8Array(Buffer.from('a: 1\rb: 2\r')))).toMatch(
      /^f\.yaml:1: the lines end with CR alone \(classic Mac line ends\)/,
    );
    expect(decode(new Uint8Array(Buffer.from('a: 1\nb: 2\rc: 3\n')))).toMatch(
      /^f\.yaml:2: a line ends with CR alone/,
    );
    expect(decodeInput('f.yaml', new Uint8Array(Buffer.from('a: 1\r\nb: 2\r\n')))).toBe('a: 1\r\nb: 2\r\n');
  });

  it('names a NUL byte and a control character with their line', () => {
    expect(decode(new Uint8Array(Buffer.from('a: 1\ntitle: "x\0y"\n')))).toBe(
      'f.yaml:2: a NUL byte (at byte 14): this is not a text file; fix: remove the NUL byte, or give the text file meant',
    );
    expect(decode(new Uint8Array(Buffer.from('title: "\x1b[2Jgone"\n')))).toMatch(
      /^f\.yaml:1: control character U\+001B in the text/,
    );
  });

  it('names a bidirectional override with its line, and the terminal shows it escaped', () => {
    expect(decode(new Uint8Array(Buffer.from('a: 1\ntitle: "admin \u202e nimda"\n')))).toBe(
      'f.yaml:2: bidirectional control character U+202E in the text (it shows the text in another order than it is read); fix: remove it; write the text in the order it is meant',
    );
    expect(decode(new Uint8Array(Buffer.from('title: "\u2066x\u2069"\n')))).toMatch(
      /^f\.yaml:1: bidirectional control character U\+2066/,
    );
    expect(terminalText('a\u202eb')).toBe('a\\u{202e}b');
  });

  it('shows invisible characters escaped on the terminal: a name with a zero-width space looks like another', () => {
    expect(terminalText('readRepair\u200bTimeoutSeconds')).toBe('readRepair\\u{200b}TimeoutSeconds');
    expect(terminalText('soft\u00adhyphen, word\u2060joiner, \ufeffmark')).toBe(
      'soft\\u{ad}hyphen, word\\u{2060}joiner, \\u{feff}mark',
    );
  });

  it('refuses a control character a YAML escape writes in a scenario, with its field', () => {
    const source = 'title: "\\e[31mred"\nrequirements: [LC-1]\nsteps: []\n';
    expect(thrownMessage(ScenarioFileError, () => loadScenario('esc.yaml', source))).toMatch(
      /^esc\.yaml:1: title: control character U\+001B written by a YAML escape/,
    );
  });

  it('drops a UTF-8 byte order mark', () => {
    expect(decodeInput('f.yaml', bytes(0xef, 0xbb, 0xbf, 0x61))).toBe('a');
  });
});

describe('.inf and .nan are named as such', () => {
  const scratch = useTempDir('non-finite');

  it('in a scope file, with the field and its line', async () => {
    const text = (await readFile('scopes/default.yaml', 'utf8')).replace(
      /timeoutSeconds: \d+/,
      'timeoutSeconds: .inf',
    );
    const line = text.split('\n').findIndex((l) => l.includes('.inf')) + 1;
    const path = join(scratch(), 'inf.yaml');
    await writeFile(path, text);
    const message = thrownMessage(UsageError, () => loadScopeFile(path));
    expect(message).toMatch(
      new RegExp(
        `^--scope: .*inf\\.yaml:${line}: .*timeoutSeconds: \\.inf \\(infinity\\) is not a number the model can take; fix: write a finite whole number$`,
      ),
    );
  });

  it('in a scenario, with the field', () => {
    const source = [
      'title: a tick of not a number',
      'requirements: [LC-1]',
      'steps:',
      '  - tick: .nan',
      '',
    ].join('\n');
    const message = thrownMessage(ScenarioFileError, () => loadScenario('nan.yaml', source));
    expect(message).toMatch(
      /^nan\.yaml:4: steps\[0\]\.tick: \.nan \(not a number\) is not a number the model can take/,
    );
  });
});

describe('the commands refuse such files in one line', () => {
  const scratch = useTempDir('input-cli');
  // verify reads the scope while it reads its command line, before anything else (scripts/verify.ts main).
  const verify = (argv: string[]) =>
    runMainInProcess('verify', () => {
      parseVerifyArgs(argv);
      return 0;
    });

  it('verify --scope FIFO and replay --trace /dev/zero exit 2 at once', async () => {
    const fifo = join(scratch(), 'scope.yaml');
    execFileSync('mkfifo', [fifo]);
    const refused = await verify(['--scope', fifo]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `verify: --scope: ${fifo}:1: is a FIFO (named pipe): reading it may wait forever; fix: save the content to a regular file first`,
    );
    const replay = await runScript('scripts/replay.ts', ['--trace', '/dev/zero']);
    expect(replay.code).toBe(2);
    expect(replay.stderr.trim()).toMatch(/^replay: --trace: \/dev\/zero:1: is a character device/);
  });

  it("verify's one line shows a key's invisible character escaped, so the unknown field is told apart from its fix", async () => {
    const path = join(scratch(), 'zero-width.yaml');
    await writeFile(
      path,
      'extends: quick\nname: zw\ndescription: x\nclock:\n  "readRepair\u200bTimeoutSeconds": 3\n',
    );
    const run = await verify(['--scope', path]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `verify: --scope: ${path}:5: clock.readRepair\\u{200b}TimeoutSeconds: unknown field "readRepair\\u{200b}TimeoutSeconds"; fix: did you mean "readRepairTimeoutSeconds"?`,
    );
  });

  it('replay of a latin-1 scenario is malformed, naming the byte', async () => {
    const path = join(scratch(), 'latin.yaml');
    await writeFile(path, Buffer.from('title: caf\xe9\nrequirements: [LC-1]\nsteps: []\n', 'latin1'));
    const run = await runScript('scripts/replay.ts', [path]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${path}:1: byte 0xE9 at byte 10 is not UTF-8`);
  });
});
