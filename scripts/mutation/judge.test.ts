import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayVerdict, verifyVerdict } from './judge.ts';

/**
 * The in-process judge of `npm run mutation` must decide as `verify --scope quick --stop-on-first`
 * and `replay scenarios` do: the machines as written pass, a seeded fault that breaks a safety rule
 * fails (it would otherwise let every mutant live).
 */
describe('the mutation judge', () => {
  it('passes the machines as written on the quick scope', async () => {
    expect(await verifyVerdict('quick')).toEqual([]);
  });

  it('fails a seeded fault, naming the class and the property it breaks', async () => {
    const failures = await verifyVerdict('quick', 'create-in-terminating');
    expect(failures.some((f) => f.startsWith('safety: ') && f.includes('no-create-in-terminating'))).toBe(
      true,
    );
  });

  it('replays every committed scenario as it expects', () => {
    expect(replayVerdict('scenarios')).toEqual([]);
  });

  it('names a scenario whose expected answer the model does not give', () => {
    const folder = mkdtempSync(join(tmpdir(), 'nsmodel-judge-'));
    try {
      const text = readFileSync('scenarios/fp-read-repair.yaml', 'utf8');
      // Root may create the namespace (201): expecting 403 must fail.
      const wrong = text.replace(
        'do: create namespaces/team-a\n    expect: 201',
        'do: create namespaces/team-a\n    expect: 403',
      );
      expect(wrong).not.toBe(text);
      writeFileSync(join(folder, 'wrong.yaml'), wrong);
      const verdict = replayVerdict(folder);
      expect(verdict).toHaveLength(1);
      expect(verdict[0]).toMatch(/wrong\.yaml: failed/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
