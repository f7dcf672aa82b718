import { beforeAll, describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import { machinesFor } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { escapeMarkdownHtml, terminalText } from '../cli/text-safety.ts';
import { systemModel } from '../model/system-model.ts';
import { buildReport, judgedReport, reportMarkdown, reportSchema } from '../report/report.ts';
import { type CheckResult, check } from './check.ts';
import { failure, outcomeLines, outcomeOf } from './outcome.ts';

/** One verdict from every cause: a run that fails for several reasons says each, and its exit code follows the precedence. */
describe('the outcome of a verify run', () => {
  it('lists every failed class in precedence order and exits with the first', () => {
    const outcome = outcomeOf([
      failure('coverage', 'transition x untaken'),
      failure('scenarios', 'scenarios/a.yaml:3 no-orphans'),
      failure('partial', 'stopped at 10 states'),
    ]);
    expect(outcome.exitCode).toBe(12);
    expect(outcome.failed.map((f) => [f.class, f.exitCode])).toEqual([
      ['scenarios', 12],
      ['partial', 10],
      ['coverage', 18],
    ]);
    expect(outcomeLines(outcome)).toEqual([
      'verify: failed: scenarios: scenarios/a.yaml:3 no-orphans (exit 12)',
      'verify: failed: partial: stopped at 10 states (exit 10)',
      'verify: failed: coverage: transition x untaken (exit 18)',
      'verify: exit 12: the first failed class in the precedence 12 > 11 > 13 > 10 > 21 > 18 > 19',
    ]);
    expect(outcomeOf([failure('golden', 'states moved'), failure('liveness', 'x')]).exitCode).toBe(13);
    expect(outcomeOf([])).toEqual({ exitCode: 0, failed: [] });
  });

  describe('in the report', () => {
    const scope = scopeByName('quick');
    const model = systemModel(scope, machinesFor('model', scope));
    let result: CheckResult;
    beforeAll(() => {
      result = check(
        model,
        safetyProperties.filter((p) => p.id === 'no-create-in-terminating'),
        {
          maxStates: 50,
        },
      );
    });
    const scenarios = {
      replayed: 3,
      skipped: 1,
      states: 40,
      violations: [
        {
          file: 'scenarios/x.yaml',
          line: 7,
          step: 'alice: <b>bold</b>',
          property: 'no-orphans',
          message: 'an orphan',
        },
      ],
    };

    it('report.json holds the scenario failure and the partial search beside the property verdicts', () => {
      const context = { model, variant: 'model', outDir: 'run' };
      const report = judgedReport(buildReport(result, context), result, { scenarios });
      expect(reportSchema.safeParse(report).success).toBe(true);
      expect(report.properties[0].status).toBe('holds (partial)');
      expect(report.scenarios).toEqual(scenarios);
      expect(report.outcome?.exitCode).toBe(12);
      expect(report.outcome?.failed.map((f) => f.class)).toEqual(['scenarios', 'partial']);
    });

    it('report.md says the scenarios and the outcome, with HTML from a scenario escaped', () => {
      const context = { model, variant: 'model', outDir: 'run' };
      const report = judgedReport(buildReport(result, context), result, { scenarios });
      const markdown = reportMarkdown(report, result, model, 'run');
      expect(markdown).toContain(
        '**Scenarios.** 3 scenarios replayed (1 of seeded faults or variants skipped), 40 states judged: 1 invariant violation: scenarios/x.yaml:7 "alice: &lt;b>bold&lt;/b>" breaks `no-orphans` (an orphan).',
      );
      expect(markdown).toMatch(
        /\*\*Outcome\.\*\* exit 12 \(precedence 12 > 11 > 13 > 10 > 21 > 18 > 19\); failed: scenarios \(exit 12\): .*; partial \(exit 10\): /,
      );
      expect(markdown).not.toContain('<b>');
    });
  });
});

describe('text from files is made inert', () => {
  it('the terminal never sees a raw control character', () => {
    expect(terminalText('title \u001b[2J\u0007 end\n\tnext\u009b')).toBe(
      'title \\u{1b}[2J\\u{7} end\n\tnext\\u{9b}',
    );
  });

  it('Markdown escapes what would open a tag or entity, outside code, and keeps its own tags and arrows', () => {
    expect(escapeMarkdownHtml('| <img src=x onerror=alert(1)> | &amp; | a -> b ~> c |')).toBe(
      '| &lt;img src=x onerror=alert(1)> | &amp;amp; | a -> b ~> c |',
    );
    expect(escapeMarkdownHtml('<details><summary>x</summary> a<br>b </details>')).toBe(
      '<details><summary>x</summary> a<br>b </details>',
    );
    expect(escapeMarkdownHtml('`<script>` and <script>')).toBe('`<script>` and &lt;script>');
    expect(escapeMarkdownHtml('```mermaid\nA->>B: <x>\n```\n<x>')).toBe(
      '```mermaid\nA->>B: <x>\n```\n&lt;x>',
    );
  });
});
