import { readdir, readFile, rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { z } from 'zod';
import type { Scope } from '../../machines/scope.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { safetyProperties } from '../../properties/safety.ts';
import type { Property } from '../../properties/types.ts';
import { baseVariantName, machinesFor } from '../../variants/variants.ts';
import { writeFileAtomic } from '../cli/fs-atomic.ts';
import { schemaRef } from '../cli/schema-ref.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { escapeMarkdownHtml } from '../cli/text-safety.ts';
import type { Progress } from '../engine/model.ts';
import { createProgressReporter } from '../engine/progress.ts';
import { type CheckResult, check } from '../judging/check.ts';
import { expectationsFileOf, expectationsFor, type ScopeExpectations } from '../judging/expectations.ts';
import { LivenessCollector } from '../judging/liveness-fly.ts';
import { goldenDifferences, goldenOf, manifestVerdicts } from '../judging/manifest.ts';
import {
  type Failure,
  failure,
  type Outcome,
  outcomeOf,
  precedenceText,
  type ScenarioSummary,
  scenarioSummary,
} from '../judging/outcome.ts';
import { checkScenarioInvariants, committedScenarioFiles } from '../judging/scenario-invariants.ts';
import type { LivenessRun } from '../model/liveness-system.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import { counterexampleItf, counterexampleItfPath, lassoItf } from '../scenario/counterexample-itf.ts';
import { stepCount } from '../scenario/counterexample-story.ts';
import { type CounterexampleStep, counterexampleMarkdown, traceSteps, whatBroke } from './counterexample.ts';
import type { Generator } from './generator.ts';
import {
  type LivenessReport,
  lassoMarkdown,
  livenessMarkdown,
  livenessReport,
  livenessReportSchema,
  livenessSummary,
} from './liveness-report.ts';
import { type StampSources, type StampSpec, sourceRoot, stampSources, writeStamp } from './stamp.ts';

/**
 * The verification report: `generated/report.json` for tools, `generated/report.md` for people, one
 * `counterexamples/<property>.md` per violated property. Only the canonical run (default scope, the
 * machines as written, every property, no state limit) writes into `generated/`; every other run writes
 * into `generated/runs/<variant>-<scope>/`, which is not committed.
 */

/** The last progress line of a finished search: everything explored, nothing queued. */
export const finalProgress = (result: CheckResult): Progress => ({
  states: result.states,
  queue: 0,
  transitions: result.transitions,
  depth: result.depth,
  elapsedMs: result.durationMs,
  statesPerSecond: result.statesPerSecond,
});

export interface ReportProperty {
  id: string;
  requirements: string[];
  kind: 'invariant' | 'step';
  /** `holds (partial)`: no violation among the states explored by a search that did not finish. */
  status: ReportStatus;
  witnesses: number;
  /** The declared reason, when the property is vacuous and its scope expects that. */
  expectedVacuous?: string;
  /** `whatBroke`: the one plain line the console, report.md and this file open with. */
  counterexample?: { whatBroke: string; steps: CounterexampleStep[]; file: string };
}

export type ReportStatus = 'holds' | 'holds (partial)' | 'violated' | 'vacuous';

export const stopReasons = [
  'max-states',
  'memory',
  'time',
  'interrupted',
  'stopped',
  'first-violation',
  'bitstate',
  'hash-compact',
] as const;

export interface UncoveredTransition {
  id: string;
  explanation: string;
  /** True when the scope declares it untaken (the explanation is that reason). */
  declared: boolean;
}

/** The scope's declarations this run relied on; each reason is at its property or uncovered transition. */
export interface Declarations {
  file: string;
  /** Vacuous properties the scope declares expected-vacuous. */
  vacuous: string[];
  /** Transitions not taken that the scope declares untaken. */
  untaken: string[];
  /** Declarations this run contradicts (the property was witnessed, the transition taken): drop them. */
  unused: string[];
}

export interface VerifyReport {
  /** One plain line per violated property, first so that a reader of the JSON sees it first. */
  whatBroke?: string[];
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
  declarations: Declarations;
  /**
   * Vacuous properties and untaken transitions the scope does not declare: each fails `verify` (exit 18).
   * Absent when the search did not finish, since a later state could still exercise them.
   */
  undeclared?: { vacuous: string[]; uncovered: string[] };
  /** Under symmetry reduction: `states` counts orbits; these are the states and transitions they stand for. */
  symmetry?: { order: number; represented: { states: number; transitions: number } };
  /** The committed scenarios, every invariant judged along each replay (runs of the machines as written). */
  scenarios?: ScenarioSummary;
  /** Every class of failure of the run and the exit code they give, by the documented precedence. */
  outcome?: Outcome;
}

const step = z.strictObject({ actor: z.string(), event: z.string(), summary: z.string() });
const count = z.number().int().nonnegative();

/** The report as `verify` builds it (issue 3); the file adds `$schema` (reportFileSchema). */
const reportObject = z.strictObject({
  whatBroke: z.array(z.string()).optional(),
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
      expectedVacuous: z.string().optional(),
      counterexample: z
        .strictObject({ whatBroke: z.string(), steps: z.array(step), file: z.string() })
        .optional(),
    }),
  ),
  coverage: z.strictObject({
    transitions: z.strictObject({
      covered: count,
      total: count,
      uncovered: z.array(z.strictObject({ id: z.string(), explanation: z.string(), declared: z.boolean() })),
    }),
  }),
  liveness: livenessReportSchema.optional(),
  declarations: z.strictObject({
    file: z.string(),
    vacuous: z.array(z.string()),
    untaken: z.array(z.string()),
    unused: z.array(z.string()),
  }),
  undeclared: z.strictObject({ vacuous: z.array(z.string()), uncovered: z.array(z.string()) }).optional(),
  symmetry: z
    .strictObject({
      order: z.number().int().positive(),
      represented: z.strictObject({ states: count, transitions: count }),
    })
    .optional(),
  scenarios: z
    .strictObject({
      replayed: count,
      skipped: count,
      states: count,
      violations: z.array(
        z.strictObject({
          file: z.string(),
          line: count,
          step: z.string(),
          property: z.string(),
          message: z.string(),
        }),
      ),
    })
    .optional(),
  outcome: z
    .strictObject({
      exitCode: z.number().int().nonnegative(),
      failed: z.array(
        z.strictObject({
          class: z.enum([
            'safety',
            'scenarios',
            'deadlock',
            'liveness',
            'partial',
            'unproven',
            'coverage',
            'golden',
          ]),
          exitCode: z.number().int().positive(),
          what: z.string(),
        }),
      ),
    })
    .optional(),
});

/** The schema of a report `verify` builds, checked by the tests against what it builds. */
export const reportSchema = reportObject as z.ZodType<VerifyReport>;

/** report.json, and what `verify --json` prints: the report with its `$schema` first. */
export type ReportFile = { $schema: string } & VerifyReport;

/** The schema of report.json (schemas/report.schema.json is generated from it). */
export const reportFileSchema = z.strictObject({ $schema: z.string(), ...reportObject.shape }).meta({
  title: 'nsmodel verification report',
  description:
    'report.json as npm run verify writes it (and prints with --json): the search figures, every property verdict, coverage, liveness and the outcome.',
}) as unknown as z.ZodType<ReportFile>;

/** The report as written: `$schema` names the schema relative to `file` (stdout: to the project root). */
export function reportFile(report: VerifyReport, file?: string): ReportFile {
  return { $schema: schemaRef('report', file), ...report };
}

export const unexplainedNote =
  'not taken and not declared: add it with its reason under `expectations.untaken` in the scope file, or widen the scope';

export interface ReportContext {
  model: CheckedSystemModel;
  variant: string;
  /** Folder (relative to the project root, POSIX) the report and counterexamples go to. */
  outDir: string;
  /** Liveness and deadlock verdicts, when the run judged them. */
  liveness?: LivenessRun;
  /** What the scope declares it does not exercise; by default its file's `expectations`. */
  expectations?: ScopeExpectations;
  /** The scope as given, before a seeded fault in its data (variants' `scope`); by default the model's. */
  givenScope?: Scope;
}

export const counterexampleFolder = 'counterexamples';
/** The committed report's folder, written only by the full default run. */
export const committedFolder = 'generated';

export function counterexamplePath(outDir: string, propertyId: string): string {
  return posix.join(outDir, counterexampleFolder, `${propertyId}.md`);
}

export function buildReport(result: CheckResult, context: ReportContext): VerifyReport {
  const { model, outDir } = context;
  const expected = context.expectations ?? expectationsFor(model.scope.name);
  const declaredVacuous = (id: string) =>
    Object.hasOwn(expected.vacuous, id) ? expected.vacuous[id] : undefined;
  const declaredUntaken = (id: string) =>
    Object.hasOwn(expected.untaken, id) ? expected.untaken[id] : undefined;
  const vacuous = result.properties.filter((p) => p.status === 'vacuous').map((p) => p.property.id);
  const uncovered = result.coverage.uncovered.map((t) => t.id);
  const taken = new Set(result.coverage.covered);
  const witnessed = new Set(result.properties.filter((p) => p.witnesses > 0).map((p) => p.property.id));
  const declarations: Declarations = {
    file: expectationsFileOf(model.scope.name),
    vacuous: vacuous.filter((id) => declaredVacuous(id) !== undefined),
    untaken: uncovered.filter((id) => declaredUntaken(id) !== undefined),
    unused: [
      ...Object.keys(expected.vacuous).filter((id) => witnessed.has(id)),
      ...Object.keys(expected.untaken).filter((id) => taken.has(id)),
    ],
  };
  const broken = result.properties.filter((p) => p.violation).map((p) => whatBroke(model, p));
  return {
    ...(broken.length > 0 ? { whatBroke: broken } : {}),
    scope: model.scope.name,
    variant: context.variant,
    states: result.states,
    transitions: result.transitions,
    depth: result.depth,
    durationMs: Math.round(result.durationMs),
    complete: result.complete,
    ...(result.stopReason ? { stopReason: result.stopReason } : {}),
    ...(result.symmetry ? { symmetry: result.symmetry } : {}),
    properties: result.properties.map((p) => ({
      id: p.property.id,
      requirements: [...p.property.requirements],
      kind: p.property.kind,
      // A search that did not finish proves nothing about the states it never reached.
      status: p.status === 'holds' && !result.complete ? 'holds (partial)' : p.status,
      witnesses: p.witnesses,
      ...(p.status === 'vacuous' && declaredVacuous(p.property.id) !== undefined
        ? { expectedVacuous: declaredVacuous(p.property.id) }
        : {}),
      ...(p.violation
        ? {
            counterexample: {
              whatBroke: whatBroke(model, p),
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
        uncovered: uncovered.map((id) => {
          const reason = declaredUntaken(id);
          return { id, explanation: reason ?? unexplainedNote, declared: reason !== undefined };
        }),
      },
    },
    ...(context.liveness ? { liveness: livenessReport(context.liveness, model, outDir) } : {}),
    declarations,
    // Only a finished search can say a premise or a transition is never reached.
    ...(result.complete
      ? {
          undeclared: {
            vacuous: vacuous.filter((id) => declaredVacuous(id) === undefined),
            uncovered: uncovered.filter((id) => declaredUntaken(id) === undefined),
          },
        }
      : {}),
  };
}

/** True when a finished search left a property vacuous or a transition untaken that its scope does not declare. */
export function hasUndeclared(report: VerifyReport): boolean {
  return (
    report.undeclared !== undefined &&
    report.undeclared.vacuous.length + report.undeclared.uncovered.length > 0
  );
}

/** Vacuity and coverage in one sentence: passed with the declarations used, failed with what is undeclared, or not judged. */
export function expectationsVerdict(report: VerifyReport, markdown = true): string {
  const code = (s: string) => (markdown ? `\`${s}\`` : s);
  const where = `${code(report.declarations.file)} (scope ${code(report.scope)})`;
  const { undeclared, declarations } = report;
  if (undeclared === undefined)
    return 'not judged: the search did not finish, so a later state could still exercise what was not reached.';
  const used = [
    declarations.vacuous.length > 0
      ? `${declarations.vacuous.length} expected-vacuous ${plural(declarations.vacuous.length, 'property', 'properties')}`
      : '',
    declarations.untaken.length > 0
      ? `${declarations.untaken.length} untaken ${plural(declarations.untaken.length, 'transition', 'transitions')}`
      : '',
  ].filter((part) => part !== '');
  const stale =
    declarations.unused.length > 0
      ? ` Declarations this run contradicts (drop them): ${declarations.unused.map(code).join(', ')}.`
      : '';
  if (undeclared.vacuous.length + undeclared.uncovered.length === 0) {
    return `${used.length > 0 ? `passed, using the declarations of ${used.join(' and ')} in ${where}` : 'passed: every property was exercised and every machine transition taken'}.${stale}`;
  }
  const failures = [
    undeclared.vacuous.length > 0
      ? `never exercised and not declared expected-vacuous: ${undeclared.vacuous.map(code).join(', ')}`
      : '',
    undeclared.uncovered.length > 0
      ? `never taken and not declared: ${undeclared.uncovered.map(code).join(', ')}`
      : '',
  ].filter((part) => part !== '');
  return `${markdown ? '**failed**' : 'FAILED'} (exit 18): ${failures.join('; ')}. Declare each with a reason in ${where}, or widen the scope.${stale}`;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

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
    case 'first-violation':
      return 'stopped at the end of the breadth-first level of the first violation (--stop-on-first), so the properties not violated hold only for the states explored';
    case 'bitstate':
      return 'incomplete: a bitstate search (--bitstate) may have missed states, so the verdicts cover only the states explored';
    case 'hash-compact':
      return 'not a proof: a hash-compacted search (--hash-compact) explored every state it told apart by a 64-bit fingerprint, but two states sharing one would hide the second and what follows it, so the verdicts cover only the states explored';
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
  model: CheckedSystemModel,
  outDir: string,
  liveness?: LivenessRun,
): string {
  const broken = brokenLines(report);
  const lines: string[] = [
    `# Verification report: scope \`${report.scope}\`, variant \`${report.variant}\``,
    '',
    ...(broken.length > 0 ? [`**${broken.join(' ')}**`, ''] : []),
    reportHeader,
    '',
    `**Scope.** ${model.scope.description}`,
    '',
    `**Search.** ${format(report.states)} distinct states, ${format(report.transitions)} transitions, depth ${report.depth}; ${completion(result)}.${symmetryText(report)}`,
    '',
    `${timingLinePrefix} ${(report.durationMs / 1000).toFixed(1)} s (${format(Math.round(result.statesPerSecond))} states/s).`,
    '',
    `**Verdict.** ${verdict(report)}`,
    '',
    `**Vacuity and coverage.** ${expectationsVerdict(report)}`,
    '',
    ...(report.scenarios ? [`**Scenarios.** ${scenariosVerdict(report.scenarios)}`, ''] : []),
    ...(report.outcome ? [`**Outcome.** ${outcomeVerdict(report.outcome)}`, ''] : []),
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
          ? p.expectedVacuous !== undefined
            ? `vacuous (expected: ${p.expectedVacuous.replace(/\|/g, '\\|')})`
            : '**vacuous**'
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
  // Scenario steps and messages come from files: none may open an HTML tag in a rendered page.
  return escapeMarkdownHtml(lines.join('\n'));
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
/** `What broke: ...`, one line per violated property, that every form of the report opens with. */
function brokenLines(report: VerifyReport): string[] {
  return report.properties.flatMap((p) =>
    p.counterexample ? [`What broke: ${p.counterexample.whatBroke}`] : [],
  );
}

export function summaryText(
  report: VerifyReport,
  result: CheckResult,
  outDir: string,
  written: boolean,
): string {
  const lines = [
    ...brokenLines(report),
    `nsmodel verify: scope ${report.scope}, variant ${report.variant}, ${report.properties.length} properties`,
    `Search ${completion(result)}.`,
    `${format(report.states)} distinct states found, ${format(report.transitions)} transitions, depth ${report.depth}.${symmetryText(report)}`,
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
      `Vacuous (premise never reached, so nothing was checked): ${vacuous.map((p) => `${p.id}${p.expectedVacuous !== undefined ? ' (expected)' : ''}`).join(', ')}`,
      '',
    );
  }
  const coverage = report.coverage.transitions;
  const undeclared = coverage.uncovered.filter((u) => !u.declared);
  lines.push(
    `Coverage: ${coverage.covered} of ${coverage.total} machine transitions taken (${percent(coverage.covered, coverage.total)}%); ${coverage.uncovered.length} not taken, ${coverage.uncovered.length - undeclared.length} of them declared with a reason${written ? ` in ${posix.join(outDir, 'report.md')}` : ''}.`,
  );
  // A partial search has not judged coverage: listing what it did not reach yet would only be noise.
  if (report.undeclared !== undefined)
    for (const u of undeclared) lines.push(`  not taken, undeclared: ${u.id}`);
  lines.push(`Vacuity and coverage: ${expectationsVerdict(report, false)}`);
  for (const p of report.properties) {
    const ce = p.counterexample;
    if (!ce) continue;
    lines.push(
      '',
      `Counterexample for ${p.id} (${stepCount(ce.steps.length)}, shortest)${written ? `: ${ce.file}` : ''}`,
    );
    // A request's answer follows an arrow, as in the Markdown; a controller's changes a dash.
    lines.push(
      ...ce.steps.map(
        (s, i) =>
          `  ${i + 1}. ${s.actor}: ${s.event}${/^\d{3} /.test(s.summary) ? ' -> ' : ' — '}${s.summary}`,
      ),
    );
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
  const jsonPath = posix.join(outDir, 'report.json');
  await put(jsonPath, `${JSON.stringify(reportFile(report, jsonPath), null, 2)}\n`);
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
    await put(itfPath, counterexampleItf(model, p, variant, undefined, context.givenScope));
  }
  for (const p of report.liveness?.properties ?? []) {
    if (!p.lasso || !context.liveness) continue;
    fresh.add(posix.basename(p.lasso.file));
    await put(p.lasso.file, lassoMarkdown(model, context.liveness, p.id, variant));
    // The lasso as data too, with ITF's loop, so replay --trace can check it.
    const judged = context.liveness.properties.find((r) => r.property.id === p.id);
    if (judged?.lasso) {
      const itfPath = counterexampleItfPath(outDir, p.id);
      fresh.add(posix.basename(itfPath));
      await put(itfPath, lassoItf(model, judged, variant));
    }
  }
  // Only the committed folder's counterexamples belong to this generator whole; elsewhere the manifest decides.
  if (outDir === committedFolder) {
    const folder = join(rootDir, outDir, counterexampleFolder);
    const existing = await readdir(folder).catch(() => [] as string[]);
    for (const name of existing) {
      if ((name.endsWith('.md') || name.endsWith('.itf.json')) && !fresh.has(name))
        await rm(join(folder, name), { force: true });
    }
  }
  return written;
}

/** Where a run's report goes: `generated/` for the canonical run, `generated/runs/<variant>-<scope>/` otherwise. */
export function reportFolder(canonical: boolean, variant: string, scopeName: string): string {
  if (canonical) return committedFolder;
  return posix.join(committedFolder, 'runs', `${variant}-${scopeName}`.replace(/[^A-Za-z0-9._-]/g, '_'));
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
export function canonicalModel(): CheckedSystemModel {
  const scope = scopeByName('default');
  const machines = machinesFor(baseVariantName, scope);
  if (!machines) throw new Error(`no machines for ${baseVariantName}`);
  return systemModel(scope, machines);
}

/** What the committed report is made of: everything its generator below can read (`npm run verify` writes the same bytes). */
export const reportStamp: StampSpec = {
  file: 'generated/report.stamp.json',
  command: 'npm run verify',
  entry: 'checker/report/report.ts',
};

/** The stamp of the committed report, written with it (run time masked). */
export const writeReportStamp = (
  rootDir: string,
  written: readonly string[],
  sources: StampSources,
): Promise<string> => writeStamp(rootDir, reportStamp, written, { normalize: maskVolatile, sources });

export const reportGenerator: Generator = {
  name: 'report',
  owns: [
    'generated/report.json',
    'generated/report.md',
    `generated/${counterexampleFolder}`,
    reportStamp.file,
  ],
  stamp: reportStamp,
  normalize: maskVolatile,
  async generate(rootDir: string): Promise<string[]> {
    const sources = stampSources(sourceRoot, reportStamp);
    const model = canonicalModel();
    const reporter = createProgressReporter({ label: 'report (default scope)' });
    const recorder = new LivenessCollector(model, livenessProperties);
    const result = check(model, safetyProperties, { progress: (p) => reporter.update(p), recorder });
    reporter.finish(finalProgress(result));
    if (!result.complete)
      throw new Error(`report: the default scope's search did not complete (${completion(result)})`);
    // On a plain log the liveness judgement of the whole graph would otherwise pass without a line.
    const liveness = recorder.judge((judged, total, id) =>
      console.error(`report (default scope): liveness ${judged} of ${total} judged on the graph (${id})`),
    );
    const context = { model, variant: baseVariantName, outDir: 'generated', liveness };
    // The same verdict as verify's canonical run: scenarios, golden figures and every class of failure.
    const scenarios = committedScenarios(safetyProperties);
    const pinned = goldenOf('default');
    const moved = pinned
      ? goldenDifferences(pinned, {
          states: result.states,
          transitions: result.transitions,
          depth: result.depth,
          properties: manifestVerdicts(result),
        })
      : [];
    const report = judgedReport(buildReport(result, context), result, { liveness, scenarios, moved });
    const written = await writeReport(rootDir, report, result, context);
    return [...written, await writeReportStamp(rootDir, written, sources)];
  },
};

/** The committed scenarios' verdict, each violation with its file, line and step. */
export function scenariosVerdict(s: ScenarioSummary): string {
  const judged = `${s.replayed} scenarios replayed (${s.skipped} of seeded faults or variants skipped), ${format(s.states)} states judged`;
  if (s.violations.length === 0) return `${judged}: every invariant holds along each.`;
  return `${judged}: ${s.violations.length} invariant violation${s.violations.length === 1 ? '' : 's'}: ${s.violations
    .map((v) => `${v.file}:${v.line} "${v.step}" breaks \`${v.property}\` (${v.message})`)
    .join('; ')}.`;
}

/** The run's exit code and every class that failed, as one sentence. */
export function outcomeVerdict(o: Outcome): string {
  if (o.failed.length === 0) return `exit ${o.exitCode}: nothing failed.`;
  return `exit ${o.exitCode} (precedence ${precedenceText}); failed: ${o.failed
    .map((f) => `${f.class} (exit ${f.exitCode}): ${f.what}`)
    .join('; ')}.`;
}

/** What the orbits of a symmetry-reduced search stand for; empty without reduction. */
function symmetryText(report: VerifyReport): string {
  const s = report.symmetry;
  if (!s) return '';
  return ` Symmetry reduction (group of ${s.order}): these ${format(report.states)} orbits stand for ${format(s.represented.states)} states and ${format(s.represented.transitions)} transitions without it.`;
}

/** Every invariant judged along each committed scenario's replay (the machines as written). */
export function committedScenarios(properties: readonly Property[]): ScenarioSummary {
  const run = checkScenarioInvariants(committedScenarioFiles(join(sourceRoot, 'scenarios')), properties);
  return scenarioSummary(run, sourceRoot);
}

/** Every class of failure of a verify run, each with its exit code (checker/judging/outcome.ts orders them). */
export function verifyFailures(
  report: VerifyReport,
  result: CheckResult,
  {
    liveness,
    scenarios,
    moved = [],
  }: { liveness?: LivenessRun; scenarios?: ScenarioSummary; moved?: readonly string[] },
): Failure[] {
  const failures: Failure[] = [];
  const violated = report.properties.filter((p) => p.status === 'violated').map((p) => p.id);
  if (violated.length > 0)
    failures.push(
      failure(
        'safety',
        `${violated.length} safety propert${violated.length === 1 ? 'y' : 'ies'} violated: ${violated.join(', ')}`,
      ),
    );
  if (scenarios && scenarios.violations.length > 0)
    failures.push(
      failure(
        'scenarios',
        `${scenarios.violations.length} invariant violation${scenarios.violations.length === 1 ? '' : 's'} along the committed scenarios: ${scenarios.violations.map((v) => `${v.file}:${v.line} ${v.property}`).join(', ')}`,
      ),
    );
  if (liveness && liveness.deadlock.count > 0)
    failures.push(
      failure('deadlock', `${liveness.deadlock.count} reachable states where nothing can happen`),
    );
  const stuck = liveness?.properties.filter((p) => p.status === 'violated').map((p) => p.property.id) ?? [];
  if (stuck.length > 0)
    failures.push(
      failure(
        'liveness',
        `${stuck.length} liveness propert${stuck.length === 1 ? 'y' : 'ies'} violated: ${stuck.join(', ')}`,
      ),
    );
  // A hash-compacted search ends without a proof by design: its own class, not a search cut short.
  if (result.stopReason === 'hash-compact')
    failures.push(
      failure(
        'unproven',
        `a hash-compacted search is not a proof (probability ${result.hashCompact?.missProbability.toPrecision(3) ?? 'unknown'} that a state was missed); for a proof, drop --hash-compact`,
      ),
    );
  else if (!result.complete) failures.push(failure('partial', `the search is ${completion(result)}`));
  // A judgement stopped at the time limit leaves the properties after it unjudged: a partial run too.
  if (liveness?.stoppedAt && result.complete)
    failures.push(
      failure(
        'partial',
        `liveness was judged for ${liveness.stoppedAt.judged} of ${liveness.properties.length} properties before the time limit (--max-seconds)`,
      ),
    );
  if (hasUndeclared(report)) failures.push(failure('coverage', expectationsVerdict(report, false)));
  if (moved.length > 0) failures.push(failure('golden', `golden figures moved: ${moved.join('; ')}`));
  return failures;
}

/** The report with its scenarios and its outcome: one verdict from every cause. */
export function judgedReport(
  report: VerifyReport,
  result: CheckResult,
  judged: { liveness?: LivenessRun; scenarios?: ScenarioSummary; moved?: readonly string[] },
): VerifyReport {
  const outcome = outcomeOf(verifyFailures(report, result, judged));
  return { ...report, ...(judged.scenarios ? { scenarios: judged.scenarios } : {}), outcome };
}
