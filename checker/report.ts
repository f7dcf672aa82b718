import { readdir, readFile, rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { z } from 'zod';
import { scopes } from '../machines/scopes.ts';
import { type SystemEvent, SystemModel, type SystemState } from '../machines/system.ts';
import { baseVariantName, machinesFor } from '../machines/variants.ts';
import { livenessProperties } from '../properties/liveness.ts';
import { safetyProperties } from '../properties/safety.ts';
import { type CheckResult, check } from './check.ts';
import { type CounterexampleStep, counterexampleMarkdown, traceSteps } from './counterexample.ts';
import { counterexampleItf, counterexampleItfPath } from './counterexample-itf.ts';
import { writeFileAtomic } from './fs-atomic.ts';
import {
  type LivenessReport,
  lassoMarkdown,
  livenessMarkdown,
  livenessReport,
  livenessReportSchema,
  livenessSummary,
} from './liveness-report.ts';
import { checkLiveness, type LivenessRun } from './liveness-system.ts';
import { createProgressReporter } from './progress.ts';
import { GraphRecorder } from './state-graph.ts';

/**
 * The verification report: `generated/report.json` for tools, `generated/report.md` for people, one
 * `counterexamples/<property>.md` per violated property. Only the canonical run (default scope, the
 * machines as written, every property, no state limit) writes into `generated/`; every other run writes
 * into `generated/runs/<variant>-<scope>/`, which is not committed.
 */

export interface ReportProperty {
  id: string;
  requirements: string[];
  kind: 'invariant' | 'step';
  /** `holds (partial)`: no violation among the states explored by a search that did not finish. */
  status: ReportStatus;
  witnesses: number;
  counterexample?: { steps: CounterexampleStep[]; file: string };
}

export type ReportStatus = 'holds' | 'holds (partial)' | 'violated' | 'vacuous';

export const stopReasons = ['max-states', 'memory', 'time', 'interrupted', 'stopped'] as const;

export interface UncoveredTransition {
  id: string;
  explanation: string;
}

export interface VerifyReport {
  scope: string;
  variant: string;
  states: number;
  transitions: number;
  depth: number;
  durationMs: number;
  /** False when the search stopped before every reachable state was explored; `stopReason` says why. */
  complete: boolean;
  stopReason?: (typeof stopReasons)[number];
  properties: ReportProperty[];
  coverage: { transitions: { covered: number; total: number; uncovered: UncoveredTransition[] } };
  liveness?: LivenessReport;
}

const step = z.strictObject({ actor: z.string(), event: z.string(), summary: z.string() });
const count = z.number().int().nonnegative();

/** The schema of report.json (issue 3), checked by the tests against the committed file. */
export const reportSchema: z.ZodType<VerifyReport> = z.strictObject({
  scope: z.string(),
  variant: z.string(),
  states: count,
  transitions: count,
  depth: count,
  durationMs: count,
  complete: z.boolean(),
  stopReason: z.enum(stopReasons).optional(),
  properties: z.array(
    z.strictObject({
      id: z.string(),
      requirements: z.array(z.string()),
      kind: z.enum(['invariant', 'step']),
      status: z.enum(['holds', 'holds (partial)', 'violated', 'vacuous']),
      witnesses: count,
      counterexample: z.strictObject({ steps: z.array(step).min(1), file: z.string() }).optional(),
    }),
  ),
  coverage: z.strictObject({
    transitions: z.strictObject({
      covered: count,
      total: count,
      uncovered: z.array(z.strictObject({ id: z.string(), explanation: z.string() })),
    }),
  }),
  liveness: livenessReportSchema.optional(),
});

/**
 * Why a machine transition is never taken in the default scope, by transition id. Each one is reached
 * only by a larger scope or a variant, named in the text; an uncovered transition missing here is
 * reported as unexplained and fails the golden test.
 */
export const explanations: Record<string, string> = {
  'namespace:initializing:FINALIZE#0':
    'LC-6 finalize of a namespace that is still initializing: the namespace controller finalizes only terminating namespaces and no principal of the default scope may finalize a live one, because shipped Kubernetes then lets content outlive its namespace (LC-9). Reached by the `admin-finalize` scope (`npm run verify -- --scope admin-finalize`), which shows that violation of `no-orphans`.',
  'namespace:active:FINALIZE#0':
    'LC-6 finalize of an Active namespace: not reached for the reason given for `namespace:initializing:FINALIZE#0`; reached by the `admin-finalize` scope.',
  'admission:namespaceInitializers:always#1':
    'IN-3 refusal of a pending-list change by a caller whom RBAC lets update namespaces but who lacks `initialize`: the ClusterRoles a scope can bind grant both (`cluster-admin`) or neither (`admin`, `edit`, `view`, `namespace-creator`, `namespace-initializer`), so RBAC refuses such a caller first. Reached only with a custom ClusterRole granting `update` on namespaces without `initialize`, which no scope binds yet: the rule is defence in depth for custom RBAC (D-17).',
};

export const unexplainedNote =
  'not taken and not explained: add the reason to `explanations` in checker/report.ts, or widen the default scope';

export interface ReportContext {
  model: SystemModel;
  variant: string;
  /** Folder (relative to the project root, POSIX) the report and counterexamples go to. */
  outDir: string;
  /** Liveness and deadlock verdicts, when the run judged them. */
  liveness?: LivenessRun;
}

export const counterexampleFolder = 'counterexamples';

export function counterexamplePath(outDir: string, propertyId: string): string {
  return posix.join(outDir, counterexampleFolder, `${propertyId}.md`);
}

export function buildReport(result: CheckResult, context: ReportContext): VerifyReport {
  const { model, outDir } = context;
  return {
    scope: model.scope.name,
    variant: context.variant,
    states: result.states,
    transitions: result.transitions,
    depth: result.depth,
    durationMs: Math.round(result.durationMs),
    complete: result.complete,
    ...(result.stopReason ? { stopReason: result.stopReason } : {}),
    properties: result.properties.map((p) => ({
      id: p.property.id,
      requirements: [...p.property.requirements],
      kind: p.property.kind,
      // A search that did not finish proves nothing about the states it never reached.
      status: p.status === 'holds' && !result.complete ? 'holds (partial)' : p.status,
      witnesses: p.witnesses,
      ...(p.violation
        ? {
            counterexample: {
              steps: traceSteps(model, p.violation.trace),
              file: counterexamplePath(outDir, p.property.id),
            },
          }
        : {}),
    })),
    coverage: {
      transitions: {
        covered: result.coverage.covered.length,
        total: result.coverage.total,
        uncovered: result.coverage.uncovered.map((t) => ({
          id: t.id,
          explanation: explanations[t.id] ?? unexplainedNote,
        })),
      },
    },
    ...(context.liveness ? { liveness: livenessReport(context.liveness, model, outDir) } : {}),
  };
}

const numbers = new Intl.NumberFormat('en-US');
const format = (n: number) => numbers.format(n);
const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.floor((part / whole) * 1000) / 10);

/** How the search ended, in words: complete, or why it stopped. */
export function completion(result: Pick<CheckResult, 'complete' | 'stopReason'>): string {
  if (result.complete) return 'complete: every reachable state was explored';
  switch (result.stopReason) {
    case 'max-states':
      return 'incomplete: stopped at the --max-states limit, so the verdicts cover only the states explored';
    case 'memory':
      return 'incomplete: stopped by the memory guard, so the verdicts cover only the states explored';
    case 'time':
      return 'incomplete: stopped at the --max-seconds limit, so the verdicts cover only the states explored';
    case 'interrupted':
      return 'incomplete: interrupted (SIGINT/SIGTERM), so the verdicts cover only the states explored';
    case 'stopped':
      return 'stopped early: every checked property was already violated';
    default:
      return 'incomplete';
  }
}

export const timingLinePrefix = '**Time.**';
const reportHeader =
  '> Generated by `npm run verify` from the machines; do not edit. The run time (`durationMs`, states/s) differs from run to run: `npm run check:generated` masks it and compares everything else byte for byte, and a rerun that changes nothing else keeps these files as they are.';

/** report.md: the same facts as report.json, for people. */
export function reportMarkdown(
  report: VerifyReport,
  result: CheckResult,
  model: SystemModel,
  outDir: string,
  liveness?: LivenessRun,
): string {
  const lines: string[] = [
    `# Verification report: scope \`${report.scope}\`, variant \`${report.variant}\``,
    '',
    reportHeader,
    '',
    `**Scope.** ${model.scope.description}`,
    '',
    `**Search.** ${format(report.states)} distinct states, ${format(report.transitions)} transitions, depth ${report.depth}; ${completion(result)}.`,
    '',
    `${timingLinePrefix} ${(report.durationMs / 1000).toFixed(1)} s (${format(Math.round(result.statesPerSecond))} states/s).`,
    '',
    `**Verdict.** ${verdict(report)}`,
    '',
    '## Properties',
    '',
    'A property is `vacuous` when its witness (a state or step where its premise holds) was never reached: it had nothing to check, which is not the same as holding.',
    '',
    '| property | kind | status | witnesses | requirements | statement |',
    '| --- | --- | --- | ---: | --- | --- |',
    ...report.properties.map((p, i) => {
      const statement = result.properties[i].property.statement.replace(/\|/g, '\\|');
      const status = p.counterexample
        ? `**violated** ([trace](${posix.relative(outDir, p.counterexample.file)}))`
        : p.status === 'vacuous'
          ? '**vacuous**'
          : p.status;
      return `| \`${p.id}\` | ${p.kind} | ${status} | ${format(p.witnesses)} | ${p.requirements.join(', ')} | ${statement} |`;
    }),
    '',
  ];
  const violated = report.properties.filter((p) => p.counterexample);
  if (violated.length > 0) {
    lines.push(
      '## Counterexamples',
      '',
      'Shortest traces (breadth-first search); each file also holds the sequence diagram and the state at the violation.',
      '',
    );
    for (const p of violated) {
      const ce = p.counterexample;
      if (!ce) continue;
      lines.push(
        `### \`${p.id}\` (${ce.steps.length} steps): [${posix.basename(ce.file)}](${posix.relative(outDir, ce.file)})`,
        '',
      );
      lines.push(...ce.steps.map((s, i) => `${i + 1}. **${s.actor}**: ${s.event} — ${s.summary}`));
      lines.push('');
    }
  }
  const coverage = report.coverage.transitions;
  lines.push(
    '## Coverage',
    '',
    `${coverage.covered} of ${coverage.total} machine transitions taken (${percent(coverage.covered, coverage.total)}%).`,
    '',
  );
  if (coverage.uncovered.length > 0) {
    lines.push(
      'Not taken in this run, and why:',
      '',
      '| transition | why it is not reached |',
      '| --- | --- |',
    );
    for (const u of coverage.uncovered)
      lines.push(`| \`${u.id}\` | ${u.explanation.replace(/\|/g, '\\|')} |`);
    lines.push('');
  }
  if (report.liveness && liveness) lines.push(...livenessMarkdown(report.liveness, liveness, outDir));
  return lines.join('\n');
}

function verdict(report: VerifyReport): string {
  const violated = report.properties.filter((p) => p.status === 'violated').map((p) => `\`${p.id}\``);
  const vacuous = report.properties.filter((p) => p.status === 'vacuous').map((p) => `\`${p.id}\``);
  const parts = [
    violated.length > 0
      ? `${violated.length} of ${report.properties.length} properties violated: ${violated.join(', ')}.`
      : `no property is violated (${report.properties.length} checked)${report.complete ? '' : ' among the states explored; the search did not finish, so nothing is proved'}.`,
  ];
  if (vacuous.length > 0) parts.push(`Vacuous, never exercised: ${vacuous.join(', ')}.`);
  return parts.join(' ');
}

/** The TLC-like summary `verify` prints: figures, the properties table, coverage and each counterexample. */
export function summaryText(
  report: VerifyReport,
  result: CheckResult,
  outDir: string,
  written: boolean,
): string {
  const lines = [
    `nsmodel verify: scope ${report.scope}, variant ${report.variant}, ${report.properties.length} properties`,
    `Search ${completion(result)}.`,
    `${format(report.states)} distinct states found, ${format(report.transitions)} transitions, depth ${report.depth}.`,
    `Finished in ${(report.durationMs / 1000).toFixed(1)} s (${format(Math.round(result.statesPerSecond))} states/s).`,
    '',
  ];
  const width = Math.max(8, ...report.properties.map((p) => p.id.length));
  lines.push(
    `${'property'.padEnd(width)}  ${'status'.padEnd(15)}  ${'witnesses'.padStart(10)}  requirements`,
  );
  for (const p of report.properties) {
    lines.push(
      `${p.id.padEnd(width)}  ${p.status.padEnd(15)}  ${format(p.witnesses).padStart(10)}  ${p.requirements.join(', ')}`,
    );
  }
  lines.push('');
  const vacuous = report.properties.filter((p) => p.status === 'vacuous');
  if (vacuous.length > 0) {
    lines.push(
      `Vacuous (premise never reached, so nothing was checked; not a violation): ${vacuous.map((p) => p.id).join(', ')}`,
      '',
    );
  }
  const coverage = report.coverage.transitions;
  const unexplained = coverage.uncovered.filter((u) => u.explanation === unexplainedNote);
  lines.push(
    `Coverage: ${coverage.covered} of ${coverage.total} machine transitions taken (${percent(coverage.covered, coverage.total)}%); ${coverage.uncovered.length} not taken, ${coverage.uncovered.length - unexplained.length} of them explained${written ? ` in ${posix.join(outDir, 'report.md')}` : ''}.`,
  );
  for (const u of unexplained) lines.push(`  not taken, unexplained: ${u.id}`);
  for (const p of report.properties) {
    const ce = p.counterexample;
    if (!ce) continue;
    lines.push(
      '',
      `Counterexample for ${p.id} (${ce.steps.length} steps, shortest)${written ? `: ${ce.file}` : ''}`,
    );
    lines.push(...ce.steps.map((s, i) => `  ${i + 1}. ${s.actor}: ${s.event} — ${s.summary}`));
  }
  if (report.liveness) lines.push(...livenessSummary(report.liveness, written));
  if (written)
    lines.push('', `Report: ${posix.join(outDir, 'report.md')}, ${posix.join(outDir, 'report.json')}`);
  return lines.join('\n');
}

/**
 * Writes report.json, report.md and one counterexample per violation under `rootDir/outDir`, and
 * deletes counterexample files a previous run left for properties that hold now. Returns the paths
 * of the report (written, or kept when only the run time differs), relative to `rootDir`.
 */
export async function writeReport(
  rootDir: string,
  report: VerifyReport,
  result: CheckResult,
  context: ReportContext,
): Promise<string[]> {
  const { model, outDir, variant } = context;
  const written: string[] = [];
  const put = async (path: string, text: string) => {
    const target = join(rootDir, path);
    // A file that differs only in the run time is kept, so a rerun of unchanged machines leaves git clean.
    const existing = await readFile(target, 'utf8').catch(() => null);
    if (existing === null || maskVolatile(path, existing) !== maskVolatile(path, text))
      await writeFileAtomic(target, text);
    written.push(path);
  };
  await put(posix.join(outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  await put(posix.join(outDir, 'report.md'), reportMarkdown(report, result, model, outDir, context.liveness));
  const fresh = new Set<string>();
  for (const p of result.properties) {
    if (!p.violation) continue;
    const path = counterexamplePath(outDir, p.property.id);
    fresh.add(posix.basename(path));
    await put(path, counterexampleMarkdown(model, p, variant));
    // The same trace as data (ITF), for other tools, replay and the HTML report.
    const itfPath = counterexampleItfPath(outDir, p.property.id);
    fresh.add(posix.basename(itfPath));
    await put(itfPath, counterexampleItf(model, p, variant));
  }
  for (const p of report.liveness?.properties ?? []) {
    if (!p.lasso || !context.liveness) continue;
    fresh.add(posix.basename(p.lasso.file));
    await put(p.lasso.file, lassoMarkdown(model, context.liveness, p.id, variant));
  }
  const folder = join(rootDir, outDir, counterexampleFolder);
  const existing = await readdir(folder).catch(() => [] as string[]);
  for (const name of existing) {
    if ((name.endsWith('.md') || name.endsWith('.itf.json')) && !fresh.has(name))
      await rm(join(folder, name), { force: true });
  }
  return written;
}

/** Where a run's report goes: `generated/` for the canonical run, `generated/runs/<variant>-<scope>/` otherwise. */
export function reportFolder(canonical: boolean, variant: string, scopeName: string): string {
  if (canonical) return 'generated';
  return posix.join('generated', 'runs', `${variant}-${scopeName}`.replace(/[^A-Za-z0-9._-]/g, '_'));
}

/** Replaces the run time in report.json and report.md, so two runs of the same machines compare equal. */
export function maskVolatile(path: string, text: string): string {
  if (path.endsWith('.json')) return text.replace(/^( {2}"durationMs": )\d+,$/m, '$10,');
  if (path.endsWith('.md')) {
    return text
      .split('\n')
      .map((line) => (line.startsWith(timingLinePrefix) ? `${timingLinePrefix} (masked)` : line))
      .join('\n');
  }
  return text;
}

/** The canonical run: default scope, the machines as written, every safety property. */
export function canonicalModel(): SystemModel {
  const machines = machinesFor(baseVariantName);
  if (!machines) throw new Error(`no machines for ${baseVariantName}`);
  return new SystemModel(scopes.default, machines);
}

export const reportGenerator = {
  name: 'report',
  owns: ['generated/report.json', 'generated/report.md', `generated/${counterexampleFolder}`],
  normalize: maskVolatile,
  async generate(rootDir: string): Promise<string[]> {
    const model = canonicalModel();
    const reporter = createProgressReporter({ label: 'report (default scope)' });
    const recorder = new GraphRecorder<SystemState, SystemEvent>();
    const result = check(model, safetyProperties, { progress: (p) => reporter.update(p), recorder });
    reporter.finish({
      states: result.states,
      queue: 0,
      transitions: result.transitions,
      depth: result.depth,
      elapsedMs: result.durationMs,
      statesPerSecond: result.statesPerSecond,
    });
    if (!result.complete)
      throw new Error(`report: the default scope's search did not complete (${completion(result)})`);
    const liveness = checkLiveness(model, livenessProperties, { graph: recorder.graph() });
    const context = { model, variant: baseVariantName, outDir: 'generated', liveness };
    return writeReport(rootDir, buildReport(result, context), result, context);
  },
};
