import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main as verifyMain } from '../../scripts/verify.ts';
import { runMainInProcess } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { compiledFor } from '../model/compiled.ts';
import { exploreCompiled } from '../model/compiled-explore.ts';
import {
  estimateLine,
  estimateStates,
  leastKept,
  machineCapacity,
  moreMemoryHint,
  neededHeapMb,
} from './estimate.ts';
import { goldenOf } from './manifest.ts';
import { modelOf } from './promela.ts';

/** The golden count a complete search found, from the scope's own file: the oracle the estimate is judged by. */
const goldenStates = (name: string): number => {
  const golden = goldenOf(name);
  if (!golden?.explored) throw new Error(`scope ${name} has no explored golden figures`);
  return golden.states;
};

describe('the state estimate before a search', () => {
  it.each(['admin-finalize'])(
    'estimates %s within a quarter of its golden count',
    (name) => {
      const estimate = estimateStates(scopeByName(name));
      const golden = goldenStates(name);
      expect(estimate.lowerBound).toBe(false);
      expect(estimate.states).toBeGreaterThanOrEqual(golden * 0.75);
      expect(estimate.states).toBeLessThanOrEqual(golden * 1.25);
    },
    30_000,
  );

  it('multiplies: a namespace added to a scope multiplies the estimate by its own factor', () => {
    const base = scopeByName('admin-finalize');
    const one = estimateStates(base);
    const teamA = base.namespaces.find((n) => n.name === 'team-a');
    if (!teamA) throw new Error('admin-finalize has no team-a');
    const twice = estimateStates({
      ...base,
      namespaces: [...base.namespaces, { ...teamA, name: 'team-z' }],
      principals: base.principals.map((p) =>
        p.namespaces?.includes('team-a') ? { ...p, namespaces: [...p.namespaces, 'team-z'] } : p,
      ),
    });
    // team-z is a copy of team-a: the same factor again.
    const factor = one.states / one.global;
    expect(twice.states).toBeGreaterThan(one.states * factor * 0.5);
  }, 30_000);

  it('says a capped one-namespace search makes it a lower bound, and divides by the symmetry order', () => {
    const estimate = estimateStates(scopeByName('admin-finalize'), undefined, { cap: 50, symmetryOrder: 4 });
    expect(estimate.lowerBound).toBe(true);
    expect(leastKept(estimate)).toBe(Math.ceil(estimate.states / 4));
    expect(estimateLine(estimate, machineCapacity(1024 * 1024 * 1024))).toMatch(
      /^estimated at least [\d,]+ states, at least [\d,]+ orbits under its symmetry \(order 4\) \(.* without namespaces, × each namespace alone: team-a ×[\d.]+\+\); this process holds about 13,747,996 \(72 B\/state past 80 MiB\)$/,
    );
  });
});

describe('the estimate of a scope past its budget', () => {
  it('counts a namespace the shared budget did not reach as a factor of 1, and says the figure is a lower bound', () => {
    const estimate = estimateStates(scopeByName('admin-finalize'), undefined, { budget: 1 });
    expect(estimate.lowerBound).toBe(true);
    expect(estimate.namespaces.find((n) => n.name === 'team-a')).toMatchObject({
      states: estimate.global,
      capped: true,
    });
    expect(estimate.states).toBe(estimate.global);
  });
});

describe('verify with a scope estimated past the process', () => {
  const scratch = useTempDir('verify-estimate');
  // verify's main as its entry runs it, writing under the scratch folder (the entry is spawned in verify.test.ts).
  const verify = (args: string[]) => runMainInProcess('verify', () => verifyMain(args, scratch()));
  // admin-finalize with two more namespaces like team-a: about 376^3 states.
  const scopeFile = resolve('checker/fixtures/estimate/three-tenants.yaml');

  it('refuses before the search, naming the file, the estimate and --force; --force searches (and the guard stops it)', async () => {
    const refused = await verify(['--scope', scopeFile, '--max-memory', '64', '--quiet']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /nsmodel verify: scope three-tenants, variant model: estimated ~[\d,]+ states/,
    );
    expect(refused.stderr).toContain(`verify: --scope: ${scopeFile}: scope three-tenants is estimated at`);
    expect(refused.stderr).toMatch(/or --force to search anyway/);
    expect(refused.stdout).not.toMatch(/Search complete/);
    const forced = await verify(['--scope', scopeFile, '--max-memory', '1', '--quiet', '--force', '--json']);
    expect(forced.code).toBe(10);
    expect(JSON.parse(forced.stdout)).toMatchObject({ complete: false, stopReason: 'memory' });
  }, 120_000);

  it('a built-in scope takes its count from its golden figures, with no projection', async () => {
    const run = await verify(['--scope', 'admin-finalize', '--max-states', '10', '--quiet', '--json']);
    expect(run.stderr).toContain(
      `nsmodel verify: scope admin-finalize, variant model: ${goldenStates('admin-finalize')} states by its golden figures`,
    );
  }, 60_000);

  it('refuses a built-in scope whose golden count is more than the process holds, naming the heap that would', async () => {
    const golden = goldenOf('creators-delete');
    const states = golden?.explored === false ? golden.measured?.states : undefined;
    if (states === undefined) throw new Error('creators-delete pins measured figures');
    const refused = await verify(['--scope', 'creators-delete', '--max-memory', '256', '--quiet']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `scope creators-delete has ${new Intl.NumberFormat('en-US').format(states)} states by its golden figures, 1.8 times what this process holds`,
    );
    // The guard was set by --max-memory, so that is what the refusal says to raise, to what holds them.
    expect(refused.stderr).toContain(`more memory (--max-memory 400)`);
    expect(machineCapacity(400 * 1024 * 1024)).toBeGreaterThanOrEqual(states);
  }, 60_000);

  it('names the heap whose default guard holds a refused run, when no --max-memory set the guard', () => {
    const states = 150_812_379;
    expect(moreMemoryHint(states)).toBe(`NODE_OPTIONS=--max-old-space-size=${neededHeapMb(states)}`);
    // The heap named holds them: its guard (three quarters of it) takes the fixed part and every state.
    expect(machineCapacity(neededHeapMb(states) * 0.75 * 1024 * 1024)).toBeGreaterThanOrEqual(states);
    expect(machineCapacity((neededHeapMb(states) - 1000) * 0.75 * 1024 * 1024)).toBeLessThan(states);
  }, 60_000);

  it("a seeded fault on a built-in scope is estimated on its own model, never given the scope's golden count", async () => {
    const variant = 'removal-with-finalizers-left';
    // The fault's own count, by a complete search of its model (admin-finalize has one namespace, so
    // the estimate, global states times that namespace's factor, is exact there).
    const searched = exploreCompiled(compiledFor(modelOf(variant, 'admin-finalize')));
    expect(searched.complete).toBe(true);
    expect(searched.states).not.toBe(goldenStates('admin-finalize'));
    const run = await verify([
      '--scope',
      'admin-finalize',
      '--variant',
      variant,
      '--max-states',
      '10',
      '--quiet',
      '--json',
    ]);
    expect(run.stderr).not.toContain('by its golden figures');
    expect(run.stderr).toContain(
      `nsmodel verify: scope admin-finalize, variant ${variant}: estimated ~${searched.states} states`,
    );
  }, 60_000);
});
