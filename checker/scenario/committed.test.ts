import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './catalog.ts';
import { replayFile } from './replay.ts';

/**
 * Every committed scenario replays on the model as written: none is malformed and none fails. Pending
 * ones are known gaps, each named in its file; their list is pinned so a new one is a visible choice.
 */
const folder = join(projectRoot, 'scenarios');
// Kubernetes' own test cases live one folder down (scenarios/upstream/).
const files = ['', 'upstream/'].flatMap((sub) =>
  readdirSync(join(folder, sub))
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => `${sub}${name}`),
);

const knownPending = ['ac-rule-based-configurations.yaml'];

describe('the committed scenarios', () => {
  const reports = files.map((name) => ({ name, report: replayFile(join(folder, name)) }));

  it('exist', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it.each(reports.map((r) => [r.name, r.report] as const))(
    '%s is well formed and does not fail',
    (_, report) => {
      expect(['passed', 'pending']).toContain(report.status);
    },
  );

  it('leave pending only the known gaps', () => {
    const pending = reports.filter((r) => r.report.status === 'pending').map((r) => r.name);
    expect(pending.filter((name) => !knownPending.includes(name))).toEqual([]);
  });
});
