import type { ScenarioReport } from './replay.ts';

/**
 * The replay report as people read it: each step with its outcome, a mark, and under a mismatch
 * what was expected, what came back and the state facts that explain it.
 */

const marks = { ok: '✓', mismatch: '✗' } as const;

export function formatReport(report: ScenarioReport, options: { verbose?: boolean } = {}): string[] {
  if (report.status === 'malformed') return [`MALFORMED ${report.error}`];
  const variant = report.variant && report.variant !== 'model' ? ` [variant ${report.variant}]` : '';
  const lines = [`${report.file}: ${report.title}${variant} (${report.requirements.join(', ')})`];
  if (report.error) lines.push(`  ${marks.mismatch} ${report.error}`);
  for (const problem of report.setup) lines.push(`  ${marks.mismatch} given, ${problem}`);
  const width = String(report.steps.length).length;
  for (const step of report.steps) {
    const number = String(step.index + 1).padStart(width);
    lines.push(`  ${step.ok ? marks.ok : marks.mismatch} ${number}. ${step.text} → ${step.outcome}`);
    if (options.verbose || !step.ok)
      for (const action of step.actions) lines.push(`  ${' '.repeat(width + 4)}· ${action}`);
    for (const line of step.mismatch) lines.push(`  ${' '.repeat(width + 4)}${line}`);
    if (!step.ok) lines.push(`  ${' '.repeat(width + 4)}(${report.file}:${step.line})`);
  }
  switch (report.status) {
    case 'passed':
      lines.push(`  PASSED: ${report.steps.length} steps match`);
      break;
    case 'pending':
      lines.push(
        `  PENDING (${report.mismatches} mismatch${report.mismatches === 1 ? '' : 'es'}, known gap): ${report.pending}`,
      );
      break;
    case 'failed':
      lines.push(
        report.pending && report.mismatches === 0
          ? `  FAILED: marked pending (${report.pending}) but every step now matches: remove \`pending\``
          : `  FAILED: ${report.mismatches} mismatch${report.mismatches === 1 ? '' : 'es'}`,
      );
      break;
  }
  return lines;
}

export function summary(reports: readonly ScenarioReport[]): string {
  const count = (status: ScenarioReport['status']) => reports.filter((r) => r.status === status).length;
  return `${reports.length} scenarios: ${count('passed')} passed, ${count('pending')} pending, ${count('failed')} failed, ${count('malformed')} malformed`;
}
