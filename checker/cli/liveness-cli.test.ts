import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main as verifyMain } from '../../scripts/verify.ts';
import { runMainInProcess } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { removalScope } from '../judging/liveness-fixtures.ts';
import { scopeToYaml } from './scope-yaml.ts';

/** verify's main as its entry runs it, writing under `cwd` (the entry itself is spawned in verify.test.ts). */
const verify = (args: string[], cwd: string) => runMainInProcess('verify', () => verifyMain(args, cwd));

describe('verify exit codes for liveness and deadlock (TLC: 13 and 11)', () => {
  const scratch = useTempDir('liveness');

  it('exits 13 with a lasso when a finalizer owner may not finalize: removal waits forever', async () => {
    const scope = {
      ...removalScope,
      name: 'owner-without-rbac',
      clusterRoleBindings: removalScope.clusterRoleBindings.filter(
        (b) => b.name !== 'origin-namespace-finalizer',
      ),
    };
    await writeFile(join(scratch(), 'owner.yaml'), scopeToYaml(scope));
    const run = await verify(['--scope', join(scratch(), 'owner.yaml')], scratch());
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(13);
    expect(run.stdout).toMatch(/terminating-namespace-is-removed +violated/);
    expect(run.stdout).toContain('-- cycle, repeated forever --');
    expect(run.stdout).toMatch(/back to the state after step \d+/);
    const file =
      'generated/runs/model-owner-without-rbac/counterexamples/terminating-namespace-is-removed.md';
    const text = await readFile(join(scratch(), file), 'utf8');
    expect(text).toContain('openshift.com/origin');
    expect(text).toMatch(/ {2}loop forever \(back to the state after step \d+\)/);
    const report = JSON.parse(
      await readFile(join(scratch(), 'generated/runs/model-owner-without-rbac/report.json'), 'utf8'),
    );
    const lasso = report.liveness.properties.find(
      (p: { id: string }) => p.id === 'terminating-namespace-is-removed',
    ).lasso;
    expect(lasso.loopStart).toBeGreaterThan(0);
    expect(lasso.steps.length).toBeGreaterThan(lasso.loopStart);
  });

  it('finds no deadlock where nobody acts: relative time never runs out, the clock still ticks', async () => {
    const scope = {
      ...removalScope,
      name: 'frozen',
      // Its users exist (creators, intents name them) but send nothing.
      principals: removalScope.principals.map((p) => ({ ...p, requests: [] })),
      faults: { initializerCrash: false, configReadFailure: false, apiserverRestart: false },
    };
    await writeFile(join(scratch(), 'frozen.yaml'), scopeToYaml(scope));
    const run = await verify(['--scope', join(scratch(), 'frozen.yaml')], scratch());
    expect(run.stderr).not.toContain('internal error');
    // Not 11: no deadlock. With no requests most properties are never exercised, which is exit 18.
    expect(run.code).toBe(18);
    expect(run.stdout).toContain('Deadlock: none (every reachable state has a successor).');
    expect(run.stdout).not.toContain('horizon');
  });
});
