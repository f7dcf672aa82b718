import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../machines/scope.ts';
import { main as verifyMain } from '../../scripts/verify.ts';
import {
  expectStoppedByMemoryGuard,
  oneProcessCommand,
  runMainInProcess,
  runScript,
  thrownMessage,
} from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { UsageError } from './cli.ts';
import { scopeByName } from './scope-file.ts';
import { scopeToYaml } from './scope-yaml.ts';
import { parseVerifyArgs } from './verify-args.ts';

const quickScope = scopeByName('quick');
/** The scope's users, each sending nothing: they exist (creators, intents name them) but never act. */
const idle = (scope: Scope) => scope.principals.map((p) => ({ ...p, requests: [] }));

/** The nightly run's long checks (npm run ci:full sets it); every change runs the others. */
const slowScopes = process.env.NSMODEL_SLOW_SCOPES === '1';
// What npm run verify runs: the launcher of the bundled sources (scripts/verify-bundled.mjs).
const verifyScript = resolve('scripts/verify-bundled.mjs');

const usageError = (argv: string[]) => thrownMessage(UsageError, () => parseVerifyArgs(argv));

describe('parseVerifyArgs', () => {
  it('defaults to the default scope, the machines as written and every property', () => {
    expect(parseVerifyArgs([])).toMatchObject({
      scopeSource: { kind: 'named', name: 'default' },
      variant: 'model',
      properties: [],
      json: false,
      help: false,
    });
  });

  it('reads every flag, in both `--flag value` and `--flag=value` forms', () => {
    const args = parseVerifyArgs([
      '--scope=large',
      '--variant',
      'create-in-terminating',
      '--property',
      'no-orphans',
      '--property=unique-names',
      '--max-states',
      '500',
      '--json',
    ]);
    expect(args).toMatchObject({
      scopeSource: { kind: 'named', name: 'large' },
      variant: 'create-in-terminating',
      properties: ['no-orphans', 'unique-names'],
      maxStates: 500,
      json: true,
    });
    expect(parseVerifyArgs(['--random', '--runs', '20', '--seed=-7']).random).toEqual({
      runs: 20,
      seed: -7,
    });
  });

  it('names the flag and the fix for each mistake', () => {
    expect(usageError(['--scopes', 'default'])).toMatch(
      /^unknown option --scopes; did you mean --scope\? options: --scope, /,
    );
    expect(usageError(['--variant'])).toMatch(/^--variant needs a value/);
    expect(usageError(['--variant', '--json'])).toMatch(/^--variant needs a value/);
    expect(usageError(['--json=yes'])).toBe('--json takes no value; write it alone');
    expect(usageError(['--variant', 'nope'])).toMatch(
      /^--variant: unknown variant "nope"; use one of model, create-in-terminating/,
    );
    expect(usageError(['--property', 'nope'])).toMatch(
      /^--property: unknown property "nope"; use one of no-access-before-ready/,
    );
    expect(usageError(['--scope', 'nope'])).toMatch(
      /^--scope: unknown scope "nope"; use one of admin-finalize, cluster-rbac, creators-delete, declared-kinds, default, large, quick, wide/,
    );
    expect(usageError(['--max-states', '1e3'])).toMatch(
      /^--max-states needs a whole number at least 1, got "1e3"/,
    );
    expect(usageError(['--max-seconds', '0'])).toMatch(/^--max-seconds needs a whole number from 1 to /);
    expect(usageError(['--seed', '4'])).toBe('--seed only applies to random runs; add --random');
    expect(usageError(['--random', '--path', '1:0'])).toMatch(
      /^--path replays a failure only together with its seed/,
    );
    expect(usageError(['--scope', 'default', '--scope', 'large'])).toBe('--scope given twice; give it once');
    expect(usageError(['--stop-on-first', '--exhaustive'])).toBe(
      '--stop-on-first and --exhaustive contradict each other; give one',
    );
    expect(usageError(['--random', '--stop-on-first'])).toMatch(
      /^--stop-on-first applies to the exhaustive search/,
    );
    expect(usageError(['default'])).toMatch(
      /^unexpected argument "default": this command takes only options/,
    );
  });

  it('stops on the first violation by default for a seeded fault, never for the machines as written', () => {
    expect(parseVerifyArgs([]).stopOnFirst).toBe(false);
    expect(parseVerifyArgs(['--stop-on-first']).stopOnFirst).toBe(true);
    expect(parseVerifyArgs(['--variant', 'create-in-terminating']).stopOnFirst).toBe(true);
    expect(parseVerifyArgs(['--variant', 'create-in-terminating', '--exhaustive']).stopOnFirst).toBe(false);
    expect(parseVerifyArgs(['-q']).quiet).toBe(true);
  });

  describe('scope files', () => {
    const scratch = useTempDir('scope');

    it('loads a valid scope file', async () => {
      const path = join(scratch(), 'tiny.yaml');
      await writeFile(path, scopeToYaml({ ...quickScope, name: 'tiny', principals: idle(quickScope) }));
      expect(parseVerifyArgs(['--scope', path])).toMatchObject({
        scopeSource: { kind: 'file', path },
        scope: { name: 'tiny' },
      });
    });

    it('names the invalid field, its line and the fix', async () => {
      const path = join(scratch(), 'broken.yaml');
      const broken = scopeToYaml(quickScope).replace(
        `readRepairTimeoutSeconds: ${quickScope.clock.readRepairTimeoutSeconds}`,
        'readRepairTimeoutSeconds: -1',
      );
      expect(broken).toContain('readRepairTimeoutSeconds: -1');
      await writeFile(path, broken);
      const line = broken.split('\n').findIndex((l) => l.includes('readRepairTimeoutSeconds')) + 1;
      const message = usageError(['--scope', path]) ?? '';
      expect(message).toMatch(
        new RegExp(`^--scope: ${path}:${line}: clock\\.readRepairTimeoutSeconds: .*; fix: `),
      );
      expect(message).not.toContain('\n');
    });
  });
});

describe('npm run verify, as a command', () => {
  const scratch = useTempDir('verify');
  // Runs the CLI as a user would, in a scratch folder so nothing lands in the working tree.
  const spawnVerify = (args: string[], env?: Record<string, string>) =>
    runScript(verifyScript, args, { cwd: scratch(), env });
  // What main decides (exit code, output, the files it writes under the scratch folder), in this process;
  // the entry point itself is started for a missing scope file, a signal and a small heap.
  const verify = (args: string[]) => runMainInProcess('verify', () => verifyMain(args, scratch()));

  it('walks the scope at random with --random: every property holds on the machines as written', async () => {
    const run = await verify(['--scope', 'quick', '--random', '--runs', '3', '--seed', '7']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('nsmodel verify --random: scope quick, variant model, 3 walks');
    expect(run.stdout).toContain('3 random walks: every property held (seed 7).');
    expect(run.code).toBe(0);
  });

  it('refuses bad arguments with exit 2 and one line, no stack trace', async () => {
    // The command itself once; the other refusals as its entry runs main, which reads its command line first.
    const inProcess = (argv: string[]) =>
      runMainInProcess('verify', () => {
        parseVerifyArgs(argv);
        return 0;
      });
    const spawned = await spawnVerify(['--scope', 'missing.yaml']);
    expect(spawned.stdout).toBe('');
    const runs = [spawned, await inProcess(['--bogus']), await inProcess(['--variant', 'nope'])];
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^verify: /);
    }
    expect(runs[0].stderr).toContain('missing.yaml:1: no such file');
  });

  it(`exits 12 with the shortest counterexample when a mutant breaks a property`, async () => {
    const run = await verify([
      '--variant',
      'create-in-terminating',
      '--property',
      'no-create-in-terminating',
    ]);
    expect(run.code).toBe(12);
    expect(run.stdout).toContain('no-create-in-terminating  violated');
    expect(run.stdout).toMatch(/^What broke: no-create-in-terminating \(LC-4\) is violated at step 3 of 3 /);
    expect(run.stdout).toContain('Counterexample for no-create-in-terminating (3 steps, shortest)');
    expect(run.stdout).toContain(
      '  3. ci-robot: POST /api/v1/namespaces/team-a/configmaps (app) -> 201 Created — team-a.content',
    );
    const file = 'generated/runs/create-in-terminating-default/counterexamples/no-create-in-terminating.md';
    expect(run.stdout).toContain(file);
    expect(await readFile(join(scratch(), file), 'utf8')).toContain('```mermaid\nsequenceDiagram');
  });

  it('reports a depth-3 fault at once with --stop-on-first, ending the search at that level', async () => {
    const run = await verify(['--variant', 'create-in-terminating', '--stop-on-first', '--json']);
    expect(run.code).toBe(12);
    expect(run.stderr).toMatch(
      /^verify: violated no-create-in-terminating at depth 3 \(\d+ states so far\): new content/m,
    );
    const report = JSON.parse(run.stdout) as {
      durationMs: number;
      complete: boolean;
      stopReason: string;
      properties: { id: string; status: string }[];
    };
    expect(report).toMatchObject({ complete: false, stopReason: 'first-violation' });
    expect(report.properties.find((p) => p.id === 'unique-names')?.status).toBe('holds (partial)');
  });

  it('exits 18 when a finished search leaves properties vacuous and transitions untaken, undeclared', async () => {
    const path = join(scratch(), 'idle.yaml');
    // Nobody sends a request: the search finishes, nothing is violated, and almost nothing is exercised.
    await writeFile(path, scopeToYaml({ ...quickScope, name: 'idle', principals: idle(quickScope) }));
    const run = await verify(['--scope', path, '--quiet']);
    expect(run.code).toBe(18);
    expect(run.stderr).toMatch(
      /^verify: vacuity and coverage FAILED \(exit 18\): never exercised and not declared expected-vacuous: .*never taken and not declared: /m,
    );
    expect(run.stdout).toContain('  not taken, undeclared: ');
    const report = JSON.parse(
      await readFile(join(scratch(), 'generated/runs/model-idle/report.json'), 'utf8'),
    ) as {
      complete: boolean;
      undeclared: { vacuous: string[]; uncovered: string[] };
    };
    expect(report.complete).toBe(true);
    expect(report.undeclared.vacuous.length).toBeGreaterThan(0);
    expect(report.undeclared.uncovered.length).toBeGreaterThan(0);
  });

  it('prints the JSON report alone on stdout with --json; a state limit is a partial run (exit 10)', async () => {
    const run = await verify(['--max-states', '200', '--property', 'unique-names', '--json']);
    expect(run.code).toBe(10);
    const report = JSON.parse(run.stdout) as {
      states: number;
      complete: boolean;
      stopReason: string;
      properties: { id: string; status: string }[];
    };
    expect(report).toMatchObject({ states: 200, complete: false, stopReason: 'max-states' });
    expect(report.properties).toEqual([
      expect.objectContaining({ id: 'unique-names', status: 'holds (partial)' }),
    ]);
    const written = JSON.parse(
      await readFile(join(scratch(), 'generated/runs/model-default/report.json'), 'utf8'),
    ) as typeof report;
    expect(written).toMatchObject({ complete: false, stopReason: 'max-states' });
  });

  it('stops on SIGINT, writes the partial report and exits 10', async () => {
    const [command, args] = oneProcessCommand(verifyScript, ['--scope', 'large', '--out', 'interrupted']);
    const child = spawn(command, args, {
      cwd: scratch(),
      env: { ...process.env, NSMODEL_DEBUG: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      // The search has started once the progress line appears.
      if (/states/.test(stderr) && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).toContain('SIGINT');
    expect(code).toBe(10);
    expect(stdout).toContain('interrupted');
    const written = JSON.parse(await readFile(join(scratch(), 'interrupted/report.json'), 'utf8')) as {
      complete: boolean;
      stopReason: string;
    };
    expect(written).toMatchObject({ complete: false, stopReason: 'interrupted' });
  }, 60_000);

  // The large scope is one of the slow ones: the nightly run (npm run ci:full) searches it; every change has
  // the memory guard's own test at 128 MB (checker/engine/explore.test.ts) and verify --max-memory's.
  it.skipIf(!slowScopes)(
    'ends with a partial report, not a V8 abort, when the heap is 96 MB and the scope is large (NSMODEL_SLOW_SCOPES=1)',
    async () => {
      // Without symmetry the graph liveness needs is kept too; large's five namespaces and the compiled tables fill 96 MB by about 48,000 states alone (fewer beside other test files).
      const run = await spawnVerify(['--scope', 'large', '--symmetry', 'off', '--json'], {
        NODE_OPTIONS: '--max-old-space-size=96',
      });
      // Liveness may find a lasso inside the explored part of the graph: then exit 13.
      const liveness = (JSON.parse(run.stdout) as { liveness?: { properties: { status: string }[] } })
        .liveness;
      const lasso = liveness?.properties.some((p) => p.status === 'violated') ?? false;
      expectStoppedByMemoryGuard(run, lasso ? 13 : 10, 20_000);
    },
    240_000,
  );

  it('lists its options and exit codes with --help', async () => {
    const run = await verify(['--help']);
    expect(run.code).toBe(0);
    for (const text of [
      '--max-seconds S',
      '--out DIR',
      '--stop-on-first',
      '-q, --quiet',
      'NO_COLOR',
      'Exit codes:',
      ' 10  the search stopped early',
      ' 18  a property was never exercised',
    ])
      expect(run.stdout).toContain(text);
  });
});
