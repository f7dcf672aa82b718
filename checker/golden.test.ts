import { beforeAll, describe, expect, it } from 'vitest';
import { safetyProperties } from '../properties/safety.ts';
import { type CheckResult, check, systemTransitions } from './check.ts';
import { buildReport, canonicalModel, explanations, reportSchema, unexplainedNote } from './report.ts';

/**
 * The default scope's figures, pinned. A change to a machine, the system model or the default scope
 * that moves them must update these numbers on purpose, in the same commit, saying why they moved.
 */
const golden = { states: 115_056, transitions: 2_988_868, depth: 20 };

describe('the default scope, explored once', () => {
  const model = canonicalModel();
  let result: CheckResult;
  beforeAll(() => {
    result = check(model, safetyProperties);
  });

  it('has the pinned distinct states, transitions and depth', () => {
    expect(result.complete).toBe(true);
    expect({ states: result.states, transitions: result.transitions, depth: result.depth }).toEqual(golden);
  });

  it('holds every safety property, each with witnesses', () => {
    const verdicts = result.properties.map((p) => ({
      id: p.property.id,
      status: p.status,
      witnessed: p.witnesses > 0,
    }));
    expect(verdicts).toEqual(safetyProperties.map((p) => ({ id: p.id, status: 'holds', witnessed: true })));
  });

  it('explains every machine transition it does not take, and explains nothing it takes', () => {
    expect(result.coverage.uncovered.map((t) => t.id).filter((id) => !(id in explanations))).toEqual([]);
    const known = new Set(systemTransitions(model).map((t) => t.id));
    const taken = new Set(result.coverage.covered);
    for (const id of Object.keys(explanations)) {
      expect(known.has(id), `${id} is not a transition of the machines`).toBe(true);
      expect(taken.has(id), `${id} is taken now: drop its explanation`).toBe(false);
    }
  });

  it('reports in the schema of report.json, with no unexplained transition', () => {
    const report = buildReport(result, { model, variant: 'model', outDir: 'generated' });
    expect(reportSchema.safeParse(report).success).toBe(true);
    expect(report.coverage.transitions.uncovered.filter((u) => u.explanation === unexplainedNote)).toEqual(
      [],
    );
    expect(report.properties.every((p) => p.counterexample === undefined)).toBe(true);
  });
});
