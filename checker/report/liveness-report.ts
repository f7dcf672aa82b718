import { posix } from 'node:path';
import { z } from 'zod';
import type { SystemEvent, SystemState } from '../../machines/system.ts';
import { escapeMarkdownHtml } from '../cli/text-safety.ts';
import type { Lasso } from '../engine/liveness.ts';
import { type LivenessRun, type LivenessStatus, needsTime } from '../model/liveness-system.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import { stateFacts } from '../scenario/describe.ts';
import { type CounterexampleStep, sequenceDiagram, traceSteps } from './counterexample.ts';

/**
 * The liveness and deadlock part of the verification report: report.json's `liveness` object, the
 * report.md sections, the lines `verify` prints, and one lasso file per violated or inconclusive property.
 */

export interface LivenessReportProperty {
  id: string;
  kind: 'leads-to' | 'always-eventually';
  requirements: string[];
  status: LivenessStatus;
  /** States where the premise held with the goal pending. */
  triggers: number;
  /** The fairness assumed, one line per condition. */
  fairness: string[];
  lasso?: { namespace?: string; steps: CounterexampleStep[]; loopStart: number; file: string };
}

export interface LivenessReport {
  /** False when the search stopped at a limit: then no liveness verdict is complete. */
  complete: boolean;
  deadlock: { count: number; atHorizon: number; steps?: CounterexampleStep[] };
  properties: LivenessReportProperty[];
  /** How liveness was judged when not on every state (under symmetry reduction), in one sentence. */
  judgedOn?: string;
  /** Why the judgement stopped before every property was judged (the time limit), in one sentence. */
  stopped?: string;
}

const step = z.strictObject({ actor: z.string(), event: z.string(), summary: z.string() });
const count = z.number().int().nonnegative();

export const livenessReportSchema: z.ZodType<LivenessReport> = z.strictObject({
  complete: z.boolean(),
  deadlock: z.strictObject({ count, atHorizon: count, steps: z.array(step).optional() }),
  properties: z.array(
    z.strictObject({
      id: z.string(),
      kind: z.enum(['leads-to', 'always-eventually']),
      requirements: z.array(z.string()),
      status: z.enum(['holds', 'violated', 'vacuous', 'needs-relative-time', 'incomplete']),
      triggers: count,
      fairness: z.array(z.string()),
      lasso: z
        .strictObject({
          namespace: z.string().optional(),
          steps: z.array(step).min(1),
          loopStart: count,
          file: z.string(),
        })
        .optional(),
    }),
  ),
  judgedOn: z.string().optional(),
  stopped: z.string().optional(),
});

export const stutterStep: CounterexampleStep = {
  actor: '(nobody)',
  event: 'stutters',
  summary: 'nothing happens, forever: no step the fairness assumed is enabled',
};

/** Lasso steps as the report shows them; a stutter is its own step. */
export function lassoSteps(
  model: CheckedSystemModel,
  lasso: Lasso<SystemState, SystemEvent>,
): CounterexampleStep[] {
  const out: CounterexampleStep[] = [];
  let before = lasso.initial;
  for (const s of lasso.steps) {
    if (s.event === null) out.push(stutterStep);
    else out.push(...traceSteps(model, { initial: before, steps: [{ event: s.event, state: s.state }] }));
    before = s.state;
  }
  return out;
}

/** Where the cycle returns to, in the words TLC uses ("Back to state k"). */
export function backTo(loopStart: number): string {
  return loopStart === 0 ? 'back to the initial state' : `back to the state after step ${loopStart}`;
}

/** Numbered steps with the loop marked: the cycle starts after `loopStart` steps and returns there. */
export function lassoLines(steps: CounterexampleStep[], loopStart: number, indent = ''): string[] {
  const lines: string[] = [];
  steps.forEach((s, i) => {
    if (i === loopStart) lines.push(`${indent}-- cycle, repeated forever --`);
    lines.push(`${indent}${i + 1}. ${s.actor}: ${s.event} — ${s.summary}`);
  });
  lines.push(`${indent}${backTo(loopStart)}`);
  return lines;
}

/** The lasso as a Mermaid sequence diagram: the prefix, then the cycle in a `loop` block. */
export function lassoDiagram(model: CheckedSystemModel, lasso: Lasso<SystemState, SystemEvent>): string {
  const real = (steps: Lasso<SystemState, SystemEvent>['steps']) =>
    steps.flatMap((s) => (s.event === null ? [] : [{ event: s.event, state: s.state }]));
  const prefix = sequenceDiagram(model, {
    initial: lasso.initial,
    steps: real(lasso.steps.slice(0, lasso.loopStart)),
  });
  const full = sequenceDiagram(model, { initial: lasso.initial, steps: real(lasso.steps) }).split('\n');
  const isHeader = (line: string) => line === 'sequenceDiagram' || line.startsWith('  participant ');
  const header = full.filter(isHeader);
  const prefixBody = prefix.split('\n').filter((l) => !isHeader(l));
  const cycleBody = full.filter((l) => !isHeader(l)).slice(prefixBody.length);
  const stutters = lasso.steps.slice(lasso.loopStart).some((s) => s.event === null);
  return [
    ...header,
    ...prefixBody,
    `  loop forever (${backTo(lasso.loopStart)})`,
    ...cycleBody.map((l) => `  ${l}`),
    ...(stutters ? ['    Note over Admission,Store: stutters, nothing happens'] : []),
    '  end',
  ].join('\n');
}

/** The report.json part, counterexample file paths under `outDir`. */
export function livenessReport(run: LivenessRun, model: CheckedSystemModel, outDir: string): LivenessReport {
  return {
    complete: run.complete,
    ...(run.judgedOn ? { judgedOn: judgedOnText(run.judgedOn) } : {}),
    ...(run.stoppedAt ? { stopped: stoppedText(run.stoppedAt.judged, run.properties.length) } : {}),
    deadlock: {
      count: run.deadlock.count,
      atHorizon: run.deadlock.atHorizon,
      ...(run.deadlock.trace ? { steps: traceSteps(model, run.deadlock.trace) } : {}),
    },
    properties: run.properties.map((r) => ({
      id: r.property.id,
      kind: r.property.kind,
      requirements: [...r.property.requirements],
      status: r.status,
      triggers: r.triggers,
      fairness: r.fairness,
      ...(r.lasso
        ? {
            lasso: {
              ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
              steps: lassoSteps(model, r.lasso),
              loopStart: r.lasso.loopStart,
              file: posix.join(outDir, 'counterexamples', `${r.property.id}.md`),
            },
          }
        : {}),
    })),
  };
}

/** Why a judgement that passed its deadline left properties unjudged, in one sentence. */
export function stoppedText(judged: number, total: number): string {
  return `The time limit (--max-seconds) passed while liveness was judged: ${judged} of ${total} properties judged, the others reported \`incomplete\`, never \`holds\` (deadlock was judged in full).`;
}

/** How a run under symmetry judged liveness, in one sentence. */
export function judgedOnText(on: NonNullable<LivenessRun['judgedOn']>): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `under symmetry reduction (a group of ${on.order}): each property on the ${n(on.orbits)} orbit representatives paired with the namespace slot it follows (${n(on.pairs)} pending pairs walked), per-namespace fairness followed slot by slot through each cycle's permutations; trigger and deadlock counts are of concrete states, lassos replayed concretely (docs/liveness.md)`;
}

const statusText: Record<LivenessStatus, string> = {
  holds: 'holds',
  violated: '**violated**',
  vacuous: '**vacuous**',
  'needs-relative-time': 'needs relative time',
  incomplete: '**incomplete**',
};

export const incompleteWarning =
  'The search stopped at a limit: a liveness verdict needs the whole graph, so a property without a lasso among the states explored is reported `incomplete`, never `holds`.';

export const horizonNote =
  '`needs relative time`: every run that never reaches the goal passes through states where the bounded clock has stopped at its horizon; there a run waiting for time (staleness, timeouts) and a stuck run look alike, so the verdict waits for relative time. The lasso shown is such a run.';

/** States that stop only because the clock ran out are terminal by the model's declaration, not deadlocks. */
export function horizonStopsNote(count: number): string {
  return `${count} reachable states have no successor only because the clock reached its horizon (nothing else could happen there); the bounded clock declares them terminal, so they are not deadlocks.`;
}

/** report.md's liveness and deadlock sections. */
export function livenessMarkdown(report: LivenessReport, run: LivenessRun, outDir: string): string[] {
  const lines = ['## Liveness', ''];
  if (!report.complete) lines.push(`**Warning.** ${incompleteWarning}`, '');
  if (report.stopped) lines.push(`**Warning.** ${report.stopped}`, '');
  if (report.judgedOn) lines.push(`Judged ${report.judgedOn}.`, '');
  lines.push(
    'Each property holds on every run its fairness allows; runs may stutter, so what a property does not assume fair may stop forever. A violation is a lasso: a shortest prefix, then a cycle repeated forever.',
    '',
    horizonNote,
    '',
    '| property | form | status | triggers | requirements | statement | fairness assumed |',
    '| --- | --- | --- | ---: | --- | --- | --- |',
  );
  report.properties.forEach((p, i) => {
    const property = run.properties[i].property;
    const form = `${property.premise} ~> ${property.goal}`;
    const status = p.lasso
      ? `${statusText[p.status]} ([lasso](${posix.relative(outDir, p.lasso.file)}))`
      : statusText[p.status];
    const fairness = p.fairness.length > 0 ? p.fairness.join('<br>') : 'none';
    const cell = (t: string) => t.replace(/\|/g, '\\|');
    lines.push(
      `| \`${p.id}\` | ${cell(form)} | ${status} | ${p.triggers} | ${p.requirements.join(', ')} | ${cell(property.statement)} | ${cell(fairness)} |`,
    );
  });
  lines.push('', '## Deadlock', '');
  if (!report.complete) lines.push(`**Warning.** ${incompleteWarning}`, '');
  if (report.deadlock.count === 0) {
    lines.push(
      'No reachable state is without a successor: something (a request, a controller step, a fault or a tick) can always happen.',
      '',
    );
  }
  if (report.deadlock.atHorizon > 0) lines.push(`${horizonStopsNote(report.deadlock.atHorizon)}`, '');
  if (report.deadlock.count > 0) {
    lines.push(`${report.deadlock.count} reachable states have no successor. The shortest trace to one:`, '');
    report.deadlock.steps?.forEach((s, i) => {
      lines.push(`${i + 1}. **${s.actor}**: ${s.event} — ${s.summary}`);
    });
    lines.push('');
  }
  return lines;
}

/** The lines `verify` prints after the safety summary. */
export function livenessSummary(report: LivenessReport, written: boolean): string[] {
  const lines = ['', 'Liveness (fairness as stated per property; runs may stutter):'];
  if (!report.complete) lines.push(`  warning: ${incompleteWarning}`);
  if (report.stopped) lines.push(`  warning: ${report.stopped}`);
  if (report.judgedOn) lines.push(`  judged ${report.judgedOn}`);
  const width = Math.max(8, ...report.properties.map((p) => p.id.length));
  for (const p of report.properties) {
    lines.push(`  ${p.id.padEnd(width)}  ${p.status.padEnd(19)}  ${p.requirements.join(', ')}`);
  }
  lines.push(
    report.deadlock.count > 0
      ? `Deadlock: ${report.deadlock.count} reachable states have no successor.`
      : report.complete
        ? 'Deadlock: none (every reachable state has a successor).'
        : 'Deadlock: none among the states explored (the search is incomplete).',
  );
  if (report.deadlock.atHorizon > 0) lines.push(`  ${horizonStopsNote(report.deadlock.atHorizon)}`);
  if (report.deadlock.steps)
    lines.push(...report.deadlock.steps.map((s, i) => `  ${i + 1}. ${s.actor}: ${s.event} — ${s.summary}`));
  for (const p of report.properties) {
    if (!p.lasso || p.status !== 'violated') continue;
    lines.push(
      '',
      `Lasso for ${p.id}${p.lasso.namespace ? ` (${p.lasso.namespace})` : ''}: ${p.lasso.loopStart} steps, then a cycle of ${p.lasso.steps.length - p.lasso.loopStart}${written ? `: ${p.lasso.file}` : ''}`,
      ...lassoLines(p.lasso.steps, p.lasso.loopStart, '  '),
    );
  }
  return lines;
}

/** One lasso file: the property, its fairness, the numbered steps with the loop, the diagram, the loop state. */
export function lassoMarkdown(
  model: CheckedSystemModel,
  run: LivenessRun,
  id: string,
  variant: string,
): string {
  const result = run.properties.find((r) => r.property.id === id);
  const lasso = result?.lasso;
  if (!result || !lasso) throw new Error(`liveness property ${id} has no lasso`);
  const steps = lassoSteps(model, lasso);
  const entry = lasso.loopStart === 0 ? lasso.initial : lasso.steps[lasso.loopStart - 1].state;
  const verdict =
    result.status === 'violated'
      ? 'violated: this run never reaches the goal, and is fair for every condition assumed.'
      : `inconclusive (${statusText[result.status]}): ${horizonNote}`;
  const lines = [
    `# Lasso: \`${id}\``,
    '',
    `**Property.** ${result.property.statement} (${result.property.requirements.join(', ')})`,
    '',
    `**Form.** ${result.property.premise} ~> ${result.property.goal}${result.namespace ? `, for namespace \`${result.namespace}\`` : ''}`,
    '',
    `**Fairness assumed.** ${result.fairness.length > 0 ? result.fairness.join('; ') : 'none'}${needsTime(result.property) ? ' (relies on time passing)' : ''}`,
    '',
    `**Variant.** \`${variant}\` · **Scope.** \`${model.scope.name}\` · **Prefix.** ${lasso.loopStart} steps (shortest) · **Cycle.** ${steps.length - lasso.loopStart} steps`,
    '',
    `**Verdict.** ${verdict}`,
    '',
    '## Steps',
    '',
    ...steps.map(
      (s, i) =>
        `${i === lasso.loopStart ? '\n**Cycle, repeated forever:**\n\n' : ''}${i + 1}. **${s.actor}**: ${s.event} — ${s.summary}`,
    ),
    '',
    `*${backTo(lasso.loopStart)}.*`,
    '',
    '## Sequence',
    '',
    '```mermaid',
    lassoDiagram(model, lasso),
    '```',
    '',
    '## State where the cycle starts',
    '',
    '| fact | value |',
    '| --- | --- |',
    ...[...stateFacts(model, entry)].map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`),
    '',
  ];
  // Names come from the scope file: none may open an HTML tag in a rendered page.
  return escapeMarkdownHtml(lines.join('\n'));
}
