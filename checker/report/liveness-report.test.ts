import { describe, expect, it } from 'vitest';
import { terminatingNamespaceIsRemoved } from '../../properties/liveness.ts';
import { removalScope } from '../judging/liveness-fixtures.ts';
import { checkLiveness } from '../model/liveness-system.ts';
import { systemModel } from '../model/system-model.ts';
import {
  backTo,
  lassoDiagram,
  lassoLines,
  lassoMarkdown,
  lassoSteps,
  livenessReport,
  livenessReportSchema,
} from './liveness-report.ts';

describe('liveness report', () => {
  const step = (n: number) => ({ actor: `a${n}`, event: `e${n}`, summary: `s${n}` });

  it('numbers the steps, marks where the cycle starts and says where it returns', () => {
    expect(lassoLines([step(1), step(2), step(3)], 1)).toEqual([
      '1. a1: e1 — s1',
      '-- cycle, repeated forever --',
      '2. a2: e2 — s2',
      '3. a3: e3 — s3',
      'back to the state after step 1',
    ]);
    expect(backTo(0)).toBe('back to the initial state');
  });

  const model = systemModel(removalScope);
  const run = checkLiveness(model, [{ ...terminatingNamespaceIsRemoved, fairness: [] }]);
  const lasso = run.properties[0].lasso;

  it('shows a stuttering cycle as its own step and as a loop in the sequence diagram', () => {
    if (!lasso) throw new Error('expected a lasso');
    const steps = lassoSteps(model, lasso);
    expect(steps.at(-1)).toMatchObject({ actor: '(nobody)', event: 'stutters' });
    const diagram = lassoDiagram(model, lasso).split('\n');
    expect(diagram[0]).toBe('sequenceDiagram');
    const loop = diagram.indexOf('  loop forever (back to the state after step 1)');
    expect(loop).toBeGreaterThan(0);
    expect(diagram.slice(loop + 1)).toEqual([
      '    Note over Admission,Store: stutters, nothing happens',
      '  end',
    ]);
  });

  it('fills report.json by its schema, with loopStart and the fairness assumed', () => {
    const report = livenessReport(run, model, 'out');
    expect(livenessReportSchema.parse(report)).toEqual(report);
    expect(report.properties[0]).toMatchObject({
      id: 'terminating-namespace-is-removed',
      status: 'violated',
      fairness: [],
      lasso: { loopStart: 1, file: 'out/counterexamples/terminating-namespace-is-removed.md' },
    });
    const text = lassoMarkdown(model, run, 'terminating-namespace-is-removed', 'model');
    expect(text).toContain('**Fairness assumed.** none');
    expect(text).toContain('*back to the state after step 1.*');
  });
});
