import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { goalNotApplicable, goalProperties } from '../../properties/goals.ts';
import { alternativesScopes, designVariants } from '../../variants/design-variants.ts';
import { variantByName } from '../../variants/variants.ts';
import { check } from '../judging/check.ts';
import { systemModel } from '../model/system-model.ts';
import { replayFile } from '../scenario/replay.ts';
import {
  alternatives,
  alternativesFolder,
  alternativesJsonPath,
  alternativesMarkdown,
  alternativesMarkdownPath,
  alternativesStamp,
  columns,
  maskTimes,
  runAlternative,
  writeAlternatives,
} from './alternatives.ts';
import { sourceRoot, stampSources } from './stamp.ts';

const scenarioFolder = 'scenarios/alternatives';
const scenarioFiles = readdirSync(scenarioFolder).filter((f) => f.endsWith('.yaml'));

/** Alternatives whose scenario the model replays alike, and why (docs/alternatives.md). */
const sameOnTheModel: Record<string, string> = {
  // The model's cluster admin may finalize too: ALT-2 widens who may, which the scope option carries.
  'alt2-container-meta': 'who may edit finalizers',
  // Storage behaves alike; only the held response differs, which create-answered-in-time judges.
  'alt3-generic-initializers': 'the held response',
};

describe('the design variants', () => {
  it('are registered as variants of kind design, each citing a document section', () => {
    for (const v of designVariants) {
      expect(variantByName(v.name)?.kind).toBe('design');
      expect(v.source.length).toBeGreaterThan(5);
      expect(v.label).toMatch(/^(ALT-[1-6]|D-\d+)/);
    }
    for (const label of ['ALT-1', 'ALT-2', 'ALT-3', 'ALT-4', 'ALT-5', 'ALT-6'])
      expect(designVariants.map((v) => v.label)).toContain(label);
  });

  it('each have a scenario that passes on the variant, and differs on the model unless stated', () => {
    expect(scenarioFiles.map((f) => f.replace(/\.yaml$/, '')).sort()).toEqual(
      designVariants.map((v) => v.name).sort(),
    );
    for (const file of scenarioFiles) {
      const name = file.replace(/\.yaml$/, '');
      const own = replayFile(join(scenarioFolder, file));
      expect(own.variant, file).toBe(name);
      expect(own.status, `${file}: ${own.error ?? ''}`).toBe('passed');
      const onModel = replayFile(join(scenarioFolder, file), undefined, 'model');
      expect(onModel.status, file).toBe(name in sameOnTheModel ? 'passed' : 'failed');
    }
  });
});

describe('the goal properties', () => {
  it('hold on the model on both alternatives scopes, each with a witness or a stated reason', () => {
    for (const scope of alternativesScopes) {
      const result = check(systemModel(scope, defaultMachines), goalProperties);
      expect(result.complete).toBe(true);
      for (const p of result.properties) {
        expect(p.status, `${p.property.id} on ${scope.name}`).not.toBe('violated');
      }
    }
    // Every goal that applies is witnessed on one scope at least.
    const witnessed = new Set(
      alternativesScopes.flatMap((scope) =>
        check(systemModel(scope, defaultMachines), goalProperties)
          .properties.filter((p) => p.status === 'holds')
          .map((p) => p.property.id),
      ),
    );
    for (const p of goalProperties)
      expect(witnessed.has(p.id) || goalNotApplicable(p.id, alternativesScopes[0]) !== null, p.id).toBe(true);
  });
});

describe('the matrix', () => {
  const alt = alternatives.find((a) => a.name === 'alt4-no-initialize-check');
  if (!alt) throw new Error('alt4-no-initialize-check is not an alternative');
  const { row, files } = runAlternative(alt);

  it('fills every cell with a verdict and links each violation to a written counterexample', () => {
    expect(Object.keys(row.cells).sort()).toEqual(columns.map((c) => c.id).sort());
    for (const cell of Object.values(row.cells)) {
      expect(cell.verdict).toBeDefined();
      if (cell.verdict === 'violated') expect(files.map((f) => f.path)).toContain(cell.link);
    }
    expect(row.cells['consumers-wait-for-ready'].verdict).toBe('violated');
    expect(row.cells['no-access-before-ready'].verdict).toBe('violated');
    expect(row.cells['no-orphans'].verdict).toBe('holds');
  });

  it('renders no empty cell, and masks only the run times', () => {
    const markdown = alternativesMarkdown([row]);
    expect(markdown).not.toMatch(/\| *\|/);
    expect(maskTimes(alternativesMarkdownPath, markdown)).not.toMatch(/[0-9]\.[0-9] s \|/);
    expect(maskTimes(alternativesJsonPath, '"durationMs": 1234,')).toBe('"durationMs": 0,');
    expect(maskTimes('generated/other.md', '| 1.2 s |')).toBe('| 1.2 s |');
  });
});

describe('writeAlternatives', () => {
  it('removes a counterexample the matrix no longer links, and keeps the ones it writes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'alternatives-'));
    try {
      const folder = join(root, alternativesFolder);
      mkdirSync(join(folder, 'old-row'), { recursive: true });
      writeFileSync(join(folder, 'old-row', 'gone.md'), 'stale');
      const written = await writeAlternatives(
        root,
        {
          rows: [],
          files: [{ path: 'alternatives/new-row/kept.md', text: 'fresh' }],
        },
        stampSources(sourceRoot, alternativesStamp),
      );
      expect(written).toContain('generated/alternatives/new-row/kept.md');
      expect(written).toContain(alternativesStamp.file);
      expect(existsSync(join(folder, 'new-row', 'kept.md'))).toBe(true);
      expect(existsSync(join(folder, 'old-row', 'gone.md'))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
