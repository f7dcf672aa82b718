// @vitest-environment happy-dom

import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import mermaid from 'mermaid';
import { beforeAll, describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { machinesFor } from '../../variants/variants.ts';
import { builtInScopes } from '../cli/scope-file.ts';
import { type CheckResult, check } from '../judging/check.ts';
import { systemModel } from '../model/system-model.ts';
import { sequenceDiagram } from './counterexample.ts';
import {
  buildReport,
  expectationsVerdict,
  hasUndeclared,
  maskVolatile,
  reportFileSchema,
  reportFolder,
  reportMarkdown,
  reportSchema,
  summaryText,
  unexplainedNote,
  writeReport,
} from './report.ts';

const scopes = builtInScopes();

const variant = 'create-in-terminating';
const propertyId = 'no-create-in-terminating';

describe(`the ${variant} mutant`, () => {
  const model = systemModel(scopes.default, machinesFor(variant, scopes.default));
  const outDir = reportFolder(false, variant, 'default');
  let result: CheckResult;
  beforeAll(() => {
    // One property, stopped at its first (shortest) violation: a few dozen states.
    result = check(
      model,
      safetyProperties.filter((p) => p.id === propertyId),
      { stopWhenAllViolated: true },
    );
    mermaid.initialize({ startOnLoad: false });
  });

  it(`violates ${propertyId} with a shortest counterexample a reviewer can follow`, () => {
    const report = buildReport(result, { model, variant, outDir });
    const [property] = report.properties;
    expect(property).toMatchObject({ id: propertyId, status: 'violated', requirements: ['LC-4'] });
    const steps = property.counterexample?.steps ?? [];
    // The namespace must have been initialized: content of one deleted while initializing stays closed (D-19).
    expect(steps.map((s) => [s.actor, s.event])).toEqual([
      ['carol', 'POST /api/v1/namespaces (team-a)'],
      ['carol', 'DELETE /api/v1/namespaces/team-a'],
      ['ci-robot', 'POST /api/v1/namespaces/team-a/configmaps (app)'],
    ]);
    expect(steps[0].summary).toMatch(/^201 Created — .*team-a\.phase: - → Active/);
    expect(steps[1].summary).toMatch(/^200 OK — team-a\.phase: Active → Terminating/);
    expect(steps[2].summary).toBe('201 Created — team-a.content: [] → ["configmaps/app"]');
    expect(property.counterexample?.file).toBe(
      `generated/runs/${variant}-default/counterexamples/${propertyId}.md`,
    );
  });

  it('draws the trace as a sequence diagram that Mermaid parses', async () => {
    const violation = result.properties[0].violation;
    if (!violation) throw new Error('expected a violation');
    const diagram = sequenceDiagram(model, violation.trace, propertyId);
    await expect(mermaid.parse(diagram)).resolves.toMatchObject({ diagramType: 'sequence' });
    // The parser does reject a broken sequence diagram, so the check above means something.
    await expect(mermaid.parse('sequenceDiagram\n  A->>')).rejects.toThrow();
    expect(diagram).toContain('->>Admission: POST /api/v1/namespaces/team-a/configmaps (app)');
    // The breaking step stands out: a red box with a note naming the property.
    expect(diagram).toMatch(
      /rect rgb\(255, 221, 221\)\n.*POST \/api\/v1\/namespaces\/team-a\/configmaps[\s\S]*no-create-in-terminating breaks here\n {2}end$/,
    );
  });

  it('reports in the schema of report.json and names the violation in the summary', () => {
    const report = buildReport(result, { model, variant, outDir });
    expect(reportSchema.safeParse(report).success).toBe(true);
    const summary = summaryText(report, result, outDir, true);
    expect(summary).toContain(`${propertyId}  violated`);
    expect(summary).toContain(
      `Counterexample for ${propertyId} (3 steps, shortest): ${outDir}/counterexamples/${propertyId}.md`,
    );
    expect(summary).toContain('stopped early: every checked property was already violated');
  });

  it('lists a vacuous property apart, as neither holding nor violated', () => {
    const vacuous: CheckResult = {
      ...result,
      properties: result.properties.map((p) => ({ property: p.property, status: 'vacuous', witnesses: 0 })),
    };
    const report = buildReport(vacuous, { model, variant, outDir });
    expect(summaryText(report, vacuous, outDir, false)).toContain(
      `Vacuous (premise never reached, so nothing was checked): ${propertyId}`,
    );
    expect(reportMarkdown(report, vacuous, model, outDir)).toContain('Vacuous, never exercised');
  });

  describe('no silent vacuity: a finished search judges what it never exercised', () => {
    // The same figures as a finished search, so vacuity and coverage are judged.
    const finished = (over: Partial<CheckResult>): CheckResult => {
      const { stopReason: _, ...rest } = result;
      return { ...rest, complete: true, ...over };
    };
    const allTaken = (r: CheckResult): CheckResult['coverage'] => ({
      covered: [...r.coverage.covered, ...r.coverage.uncovered.map((t) => t.id)],
      uncovered: [],
      total: r.coverage.total,
    });
    const holding = () =>
      result.properties.map((p) => ({ property: p.property, status: 'holds' as const, witnesses: 3 }));

    it('passes when every property is witnessed and every transition taken', () => {
      const clean = finished({ properties: holding(), coverage: allTaken(result) });
      const report = buildReport(clean, {
        model,
        variant,
        outDir,
        expectations: { vacuous: {}, untaken: {} },
      });
      expect(report.undeclared).toEqual({ vacuous: [], uncovered: [] });
      expect(hasUndeclared(report)).toBe(false);
      expect(expectationsVerdict(report)).toMatch(/^passed: every property was exercised/);
    });

    it('fails on an undeclared vacuous property, and passes when the scope declares it with a reason', () => {
      const vacuous = finished({
        properties: holding().map((p) => ({ ...p, status: 'vacuous' as const, witnesses: 0 })),
        coverage: allTaken(result),
      });
      const undeclared = buildReport(vacuous, {
        model,
        variant,
        outDir,
        expectations: { vacuous: {}, untaken: {} },
      });
      expect(undeclared.undeclared).toEqual({ vacuous: [propertyId], uncovered: [] });
      expect(hasUndeclared(undeclared)).toBe(true);
      expect(expectationsVerdict(undeclared)).toContain(
        `**failed** (exit 18): never exercised and not declared expected-vacuous: \`${propertyId}\``,
      );
      expect(summaryText(undeclared, vacuous, outDir, false)).toContain(
        'Vacuity and coverage: FAILED (exit 18)',
      );
      const reason = 'no namespace is ever deleted in this scope';
      const declared = buildReport(vacuous, {
        model,
        variant,
        outDir,
        expectations: { vacuous: { [propertyId]: reason }, untaken: {} },
      });
      expect(hasUndeclared(declared)).toBe(false);
      expect(declared.declarations).toEqual({
        file: 'scopes/default.yaml',
        vacuous: [propertyId],
        untaken: [],
        unused: [],
      });
      expect(declared.properties[0]).toMatchObject({ status: 'vacuous', expectedVacuous: reason });
      expect(reportMarkdown(declared, vacuous, model, outDir)).toContain(`vacuous (expected: ${reason})`);
      expect(reportSchema.safeParse(declared).success).toBe(true);
    });

    it('fails on an undeclared untaken transition, and names a declaration the run contradicts', () => {
      const covered = allTaken(result);
      const [missed, ...rest] = covered.covered;
      const gap = finished({
        properties: holding(),
        coverage: {
          covered: rest,
          uncovered: [{ id: missed } as CheckResult['coverage']['uncovered'][number]],
          total: covered.total,
        },
      });
      const report = buildReport(gap, {
        model,
        variant,
        outDir,
        expectations: { vacuous: {}, untaken: { [rest[0]]: 'stale: it is taken' } },
      });
      expect(report.undeclared).toEqual({ vacuous: [], uncovered: [missed] });
      expect(report.coverage.transitions.uncovered).toEqual([
        { id: missed, explanation: unexplainedNote, declared: false },
      ]);
      expect(report.declarations.unused).toEqual([rest[0]]);
      expect(hasUndeclared(report)).toBe(true);
      expect(summaryText(report, gap, outDir, false)).toContain(`  not taken, undeclared: ${missed}`);
      expect(reportMarkdown(report, gap, model, outDir)).toContain(
        `**Vacuity and coverage.** **failed** (exit 18): never taken and not declared: \`${missed}\``,
      );
    });

    it('does not judge a search that did not finish: a later state could still exercise it', () => {
      const report = buildReport(result, {
        model,
        variant,
        outDir,
        expectations: { vacuous: {}, untaken: {} },
      });
      expect(result.complete).toBe(false);
      expect(report.undeclared).toBeUndefined();
      expect(hasUndeclared(report)).toBe(false);
      expect(expectationsVerdict(report)).toMatch(/^not judged/);
    });
  });

  describe('writing the report', () => {
    const scratch = useTempDir('report');

    it('writes report.json, report.md and the counterexample, and keeps files of a side folder it did not write', async () => {
      const folder = join(scratch(), outDir, 'counterexamples');
      await writeReport(scratch(), buildReport(result, { model, variant, outDir }), result, {
        model,
        variant,
        outDir,
      });
      await writeFile(join(folder, 'no-longer-violated.md'), 'stale');
      await writeFile(join(folder, 'no-longer-violated.itf.json'), 'stale');
      const written = await writeReport(scratch(), buildReport(result, { model, variant, outDir }), result, {
        model,
        variant,
        outDir,
      });
      expect(written).toEqual([
        `${outDir}/report.json`,
        `${outDir}/report.md`,
        `${outDir}/counterexamples/${propertyId}.md`,
        `${outDir}/counterexamples/${propertyId}.itf.json`,
      ]);
      expect((await readdir(folder)).sort()).toEqual([
        `${propertyId}.itf.json`,
        `${propertyId}.md`,
        'no-longer-violated.itf.json',
        'no-longer-violated.md',
      ]);
      const counterexample = await readFile(join(folder, `${propertyId}.md`), 'utf8');
      // What broke first, who is who, the initial state, one line per step, the full state one click away.
      expect(counterexample).toMatch(
        /^# Counterexample: .*\n\n\*\*What broke\.\*\* no-create-in-terminating \(LC-4\) is violated at step 3 of 3 /,
      );
      expect(counterexample).toContain(
        '| ci-robot | system:authenticated | ClusterRoleBinding/ci-robot-edit → ClusterRole edit |',
      );
      expect(counterexample).toContain('## Initial state\n\n- **team-a**: does not exist\n');
      expect(counterexample).toContain(
        '3. `ci-robot: POST /api/v1/namespaces/team-a/configmaps (app) -> 201 Created` **← no-create-in-terminating breaks here**\n   - team-a.content: [] → ["configmaps/app"]\n   - *Rule:* RBAC allowed it',
      );
      expect(counterexample).toContain('<details><summary>The full state after every step</summary>');
      const json: unknown = JSON.parse(await readFile(join(scratch(), outDir, 'report.json'), 'utf8'));
      // The file is the report with its $schema, the path to schemas/ from its folder.
      expect(reportFileSchema.safeParse(json).success).toBe(true);
      expect((json as { $schema: string }).$schema).toBe(
        posix.relative(outDir, 'schemas/report.schema.json'),
      );
    });

    it('removes stale counterexamples from the committed folder, which the report generator owns whole', async () => {
      const context = { model, variant, outDir: 'generated' };
      const folder = join(scratch(), 'generated', 'counterexamples');
      await writeReport(scratch(), buildReport(result, context), result, context);
      await writeFile(join(folder, 'no-longer-violated.md'), 'stale');
      await writeReport(scratch(), buildReport(result, context), result, context);
      expect((await readdir(folder)).sort()).toEqual([`${propertyId}.itf.json`, `${propertyId}.md`]);
    });

    it('keeps a report that differs only in the run time, so a rerun leaves git clean', async () => {
      const path = join(scratch(), outDir, 'report.json');
      const before = await readFile(path, 'utf8');
      const slower = { ...buildReport(result, { model, variant, outDir }), durationMs: 999_999 };
      await writeReport(scratch(), slower, result, { model, variant, outDir });
      expect(await readFile(path, 'utf8')).toBe(before);
      const different = { ...slower, states: slower.states + 1 };
      await writeReport(scratch(), different, result, { model, variant, outDir });
      expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({
        durationMs: 999_999,
        states: different.states,
      });
    });
  });
});

describe('maskVolatile', () => {
  it('masks the run time and nothing else', () => {
    const a = '{\n  "states": 10,\n  "durationMs": 1234,\n  "depth": 2\n}\n';
    const b = '{\n  "states": 10,\n  "durationMs": 98,\n  "depth": 2\n}\n';
    expect(maskVolatile('generated/report.json', a)).toBe(maskVolatile('generated/report.json', b));
    expect(maskVolatile('generated/report.json', a)).not.toBe(
      maskVolatile('generated/report.json', a.replace('10', '11')),
    );
    const md = (time: string, states: string) =>
      `# r\n\n**Search.** ${states} distinct states\n\n**Time.** ${time}\n`;
    expect(maskVolatile('generated/report.md', md('1.0 s (5 states/s).', '3'))).toBe(
      maskVolatile('generated/report.md', md('9.9 s (1 states/s).', '3')),
    );
    expect(maskVolatile('generated/report.md', md('1.0 s', '3'))).not.toBe(
      maskVolatile('generated/report.md', md('1.0 s', '4')),
    );
  });
});

describe('the committed generated/report.json', () => {
  const report: unknown = JSON.parse(readFileSync('generated/report.json', 'utf8'));

  it('follows the schema: the default scope, the machines as written, every property holding', () => {
    // The committed file is what verify writes: the report with its $schema.
    const parsed = reportFileSchema.safeParse(report);
    expect(parsed.error?.issues ?? []).toEqual([]);
    if (!parsed.success) return;
    expect(parsed.data).toMatchObject({ scope: 'default', variant: 'model' });
    expect(parsed.data.properties.map((p) => p.id)).toEqual(safetyProperties.map((p) => p.id));
    expect(parsed.data.properties.filter((p) => p.status !== 'holds' || p.witnesses === 0)).toEqual([]);
    expect(parsed.data.coverage.transitions.uncovered.filter((u) => !u.declared)).toEqual([]);
    expect(parsed.data.undeclared).toEqual({ vacuous: [], uncovered: [] });
  });
});
