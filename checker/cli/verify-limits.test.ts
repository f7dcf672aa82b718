import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main as verifyMain } from '../../scripts/verify.ts';
import { runMainInProcess, thrownMessage } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { UsageError } from './cli.ts';
import { parseVerifyArgs } from './verify-args.ts';

interface JsonReport {
  states: number;
  complete: boolean;
  stopReason: string;
  properties: { id: string; status: string }[];
}

describe('verify --max-memory, --max-seconds and --bitstate', () => {
  const scratch = useTempDir('verify-limits');
  // verify's main as its entry runs it, writing under the scratch folder (the entry is spawned in verify.test.ts).
  const verify = (args: string[]) => runMainInProcess('verify', () => verifyMain(args, scratch()));

  it('parses both, and refuses values out of range with the accepted range', () => {
    expect(parseVerifyArgs(['--max-memory', '64', '--bitstate', '20'])).toMatchObject({
      maxMemoryMb: 64,
      bitstate: 20,
    });
    expect(thrownMessage(UsageError, () => parseVerifyArgs(['--bitstate', '40']))).toMatch(
      /^--bitstate needs a whole number from 10 to 35/,
    );
    expect(thrownMessage(UsageError, () => parseVerifyArgs(['--bitstate', '20', '--random']))).toMatch(
      /^--bitstate applies to the exhaustive search/,
    );
  });

  it('--workers is gone: it was slower than one thread on two cores', () => {
    expect(thrownMessage(UsageError, () => parseVerifyArgs(['--workers', '2']))).toMatch(/workers/);
  });

  it('a tiny --max-memory is refused before the search; with --force it ends at once with exit 10 and a partial report, no crash', async () => {
    // 1 MiB is less than the loaded model takes: no state fits, so the run is refused unless forced.
    const refused = await verify(['--scope', 'admin-finalize', '--max-memory', '1', '--quiet']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/more than this process holds .* or --force to search anyway/);
    const run = await verify([
      '--scope',
      'admin-finalize',
      '--max-memory',
      '1',
      '--force',
      '--json',
      '--quiet',
    ]);
    expect(run.stderr).not.toMatch(/heap out of memory|\n\s+at /);
    expect(run.code).toBe(10);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report).toMatchObject({ complete: false, stopReason: 'memory' });
    const written = JSON.parse(
      await readFile(join(scratch(), 'generated/runs/model-admin-finalize/report.json'), 'utf8'),
    ) as JsonReport;
    expect(written).toMatchObject({ complete: false, stopReason: 'memory' });
  }, 60_000);

  it('--max-seconds bounds liveness too: past it the judgement stops, its properties incomplete, exit 10', async () => {
    // The default scope's search takes several seconds anywhere: it stops at 1 s, and liveness after it at once.
    const run = await verify(['--max-seconds', '1', '--json', '--quiet']);
    expect(run.code).toBe(10);
    const report = JSON.parse(run.stdout) as JsonReport & {
      liveness: { stopped?: string; properties: { status: string }[] };
      outcome: { failed: { class: string }[] };
    };
    expect(report).toMatchObject({ complete: false, stopReason: 'time' });
    expect(report.liveness.stopped).toMatch(
      /^The time limit \(--max-seconds\) passed while liveness was judged: 0 of 8 properties judged/,
    );
    expect(new Set(report.liveness.properties.map((p) => p.status))).toEqual(new Set(['incomplete']));
    expect(report.outcome.failed.map((f) => f.class)).toEqual(['partial']);
    expect(run.stderr).toContain('verify: liveness: the time limit (--max-seconds 1) passed while judging');
  }, 60_000);

  it('a bitstate run finds the LC-9 finding with its shortest trace, yet reports itself partial', async () => {
    const run = await verify(['--scope', 'admin-finalize', '--bitstate', '20', '--json', '--quiet']);
    // admin-finalize is cut to its LC-9 finding (its golden figures in scopes/admin-finalize.yaml): violated, 6 and 3 steps.
    expect(run.code).toBe(12);
    const report = JSON.parse(run.stdout) as JsonReport & {
      properties: { id: string; status: string; counterexample?: { steps: unknown[] } }[];
    };
    expect(report).toMatchObject({ states: 376, complete: false, stopReason: 'bitstate' });
    const violated = report.properties.filter((p) => p.status === 'violated').map((p) => p.id);
    expect(violated.sort()).toEqual(['content-gone-before-finalize', 'no-orphans']);
    expect(report.properties.some((p) => p.status === 'holds')).toBe(false);
    expect(run.stderr).toMatch(
      /verify: bitstate: 0\.125 MiB filter \(2\^20 bits, 3 per state\), .* probability of any miss \d/,
    );
  }, 60_000);
});
