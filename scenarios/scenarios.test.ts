import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compiledScenarios,
  requirementCoverage,
  scenarioFiles,
  scenariosDoc,
  scenariosDocPath,
} from '../checker/report/scenario-docs.ts';
import { projectRoot } from '../checker/scenario/catalog.ts';
import { formatReport } from '../checker/scenario/format.ts';
import { replayFile } from '../checker/scenario/replay.ts';

/** Every scenario of `scenarios/` replays on the model as it says: passed, or pending on its named gap. */

const files = scenarioFiles();
const source = (file: string) => readFileSync(join(projectRoot, file), 'utf8');

describe('scenarios', () => {
  it('there are at least 30 of them', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  for (const file of files) {
    const pending = /^pending:/m.test(source(file));
    it(`${pending ? '[pending] ' : ''}${file}`, () => {
      const report = replayFile(file, source(file));
      const text = formatReport(report).join('\n');
      // A pending scenario must still show its gap: once the model is fixed, `pending` has to go.
      expect(report.status, text).toBe(pending ? 'pending' : 'passed');
    });
  }
});

describe('requirement coverage', () => {
  const coverage = requirementCoverage(compiledScenarios());

  it('every requirement of the catalog is exercised, pending on a named gap, or shown in contrast', () => {
    const missing = coverage
      .filter((c) => c.exercised.length + c.pending.length + c.contrasted.length === 0)
      .map((c) => c.id);
    expect(missing).toEqual([]);
  });

  it('only design alternatives are covered by contrast alone', () => {
    const contrastOnly = coverage.filter((c) => c.exercised.length + c.pending.length === 0).map((c) => c.id);
    expect(contrastOnly.filter((id) => !id.startsWith('ALT-') && id !== 'AC-6')).toEqual([]);
  });

  it(`${scenariosDocPath} is generated from the scenarios as they are`, () => {
    expect(readFileSync(join(projectRoot, scenariosDocPath), 'utf8')).toBe(scenariosDoc(compiledScenarios()));
  });
});
