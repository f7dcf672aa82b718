import { readdir, rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { z } from 'zod';
import type { DesignScope } from '../../machines/design-options.ts';
import { defaultMachines } from '../../machines/system.ts';
import { goalNotApplicable, goalProperties } from '../../properties/goals.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import type { Property } from '../../properties/types.ts';
import { alternativesScopes, type DesignVariant, designVariants } from '../../variants/design-variants.ts';
import { writeFileAtomic } from '../cli/fs-atomic.ts';
import { schemaRef } from '../cli/schema-ref.ts';
import { check, type PropertyResult } from '../judging/check.ts';
import { LivenessCollector } from '../judging/liveness-fly.ts';
import type { LivenessRun } from '../model/liveness-system.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import { counterexampleMarkdown } from './counterexample.ts';
import type { Generator } from './generator.ts';
import { lassoMarkdown } from './liveness-report.ts';
import { mutantProperties } from './mutants.ts';
import { type StampSources, type StampSpec, sourceRoot, stampSources, writeStamp } from './stamp.ts';

/**
 * The verdict matrix of the design alternatives (issue: alternatives side by side): every design
 * variant of variants/design-variants.ts, and the model itself, explored on the alternatives' scopes
 * and judged by the documents' goals, the safety properties and the liveness properties. A cell is a
 * verdict, never blank: an incomplete search says so, and a violation links its shortest trace.
 */

export type CellVerdict =
  | 'holds'
  | 'violated'
  | 'vacuous'
  | 'not-applicable'
  | 'needs-relative-time'
  | 'incomplete';

export interface Cell {
  verdict: CellVerdict;
  /** Length of the shortest counterexample (the lasso's prefix plus cycle for liveness). */
  steps?: number;
  /** The scope the counterexample was found on. */
  scope?: string;
  /** The counterexample file, relative to generated/. */
  link?: string;
  /** What broke, or why the property does not apply. */
  note?: string;
}

export interface AlternativeRow {
  variant: string;
  label: string;
  description: string;
  source: string;
  states: number;
  transitions: number;
  complete: boolean;
  durationMs: number;
  cells: Record<string, Cell>;
}

export interface Column {
  id: string;
  group: 'goal' | 'safety' | 'liveness';
  statement: string;
  requirements: string[];
}

/** The rows: the model first, then every design variant in registry order. */
export type Alternative = Pick<
  DesignVariant,
  'name' | 'label' | 'description' | 'source' | 'machines' | 'scope'
>;

export const modelRow: Alternative = {
  name: 'model',
  label: 'model',
  description: 'The model as decided in docs/decisions.md.',
  source: 'docs/decisions.md',
  machines: (base) => base,
};

export const alternatives: Alternative[] = [modelRow, ...designVariants];

const safetyColumns: Property[] = mutantProperties.filter((p) => !goalProperties.some((g) => g.id === p.id));

export const columns: Column[] = [
  ...goalProperties.map((p) => ({ ...describe(p), group: 'goal' as const })),
  ...safetyColumns.map((p) => ({ ...describe(p), group: 'safety' as const })),
  ...livenessProperties.map((p) => ({ ...describe(p), group: 'liveness' as const })),
];

function describe(p: { id: string; statement: string; requirements: string[] }) {
  return { id: p.id, statement: p.statement, requirements: p.requirements };
}

export const alternativesMarkdownPath = 'generated/alternatives.md';
export const alternativesJsonPath = 'generated/alternatives.json';
export const alternativesFolder = 'generated/alternatives';

export interface AlternativesOptions {
  /** Bound on each search; beyond it a row's cells say `incomplete`. */
  maxStates?: number;
}

const defaultMaxStates = 100_000;

/** A file written for a cell: its path under generated/ and its text. */
interface Written {
  path: string;
  text: string;
}

/** How bad a verdict is, to merge the scopes' verdicts of one cell: the worst wins. */
const rank: Record<CellVerdict, number> = {
  'not-applicable': 0,
  vacuous: 1,
  holds: 2,
  'needs-relative-time': 3,
  incomplete: 4,
  violated: 5,
};

function merge(a: Cell | undefined, b: Cell): Cell {
  if (!a) return b;
  if (rank[b.verdict] !== rank[a.verdict]) return rank[b.verdict] > rank[a.verdict] ? b : a;
  // Two violations: the shorter counterexample is the one shown.
  return b.verdict === 'violated' && (b.steps ?? 0) < (a.steps ?? 0) ? b : a;
}

const fileName = (variant: string, property: string, scope: string) =>
  `alternatives/${variant}--${property}--${scope}.md`;

function safetyCell(
  model: CheckedSystemModel,
  result: PropertyResult,
  variant: string,
  complete: boolean,
  files: Written[],
): Cell {
  const scope = model.scope.name;
  if (result.status === 'violated' && result.violation) {
    const link = fileName(variant, result.property.id, scope);
    files.push({ path: link, text: counterexampleMarkdown(model, result, variant) });
    return {
      verdict: 'violated',
      steps: result.violation.trace.steps.length,
      scope,
      link,
      note: result.violation.message,
    };
  }
  if (!complete) return { verdict: 'incomplete', scope, note: 'the search stopped at its state bound' };
  return { verdict: result.status, scope };
}

function livenessCell(
  model: CheckedSystemModel,
  run: LivenessRun,
  id: string,
  variant: string,
  files: Written[],
): Cell {
  const scope = model.scope.name;
  const result = run.properties.find((r) => r.property.id === id);
  if (!result) throw new Error(`liveness property ${id} was not judged`);
  if (result.status === 'violated' && result.lasso) {
    const link = fileName(variant, id, scope);
    files.push({ path: link, text: lassoMarkdown(model, run, id, variant) });
    return {
      verdict: 'violated',
      steps: result.lasso.steps.length,
      scope,
      link,
      ...(result.namespace ? { note: `for namespace ${result.namespace}` } : {}),
    };
  }
  if (result.status === 'needs-relative-time')
    return {
      verdict: 'needs-relative-time',
      scope,
      note: 'its only lassos end where the bounded clock stops',
    };
  return { verdict: result.status, scope };
}

/** Checks one alternative on every scope; returns its row and the counterexample files its cells link. */
export function runAlternative(
  alt: Alternative,
  options: AlternativesOptions = {},
): { row: AlternativeRow; files: Written[] } {
  const started = performance.now();
  const files: Written[] = [];
  const cells: Record<string, Cell> = {};
  let states = 0;
  let transitions = 0;
  let complete = true;
  for (const base of alternativesScopes) {
    const scope: DesignScope = alt.scope ? alt.scope(base) : base;
    const model = systemModel(scope, alt.machines(defaultMachines));
    const recorder = new LivenessCollector(model, livenessProperties);
    const safety = check(model, [...goalProperties, ...safetyColumns], {
      recorder,
      maxStates: options.maxStates ?? defaultMaxStates,
    });
    const liveness = recorder.judge();
    states += safety.states;
    transitions += safety.transitions;
    complete &&= safety.complete;
    for (const result of safety.properties) {
      const id = result.property.id;
      const why = goalNotApplicable(id, scope);
      const cell: Cell = why
        ? { verdict: 'not-applicable', note: why }
        : safetyCell(model, result, alt.name, safety.complete, files);
      cells[id] = merge(cells[id], cell);
    }
    for (const p of livenessProperties)
      cells[p.id] = merge(cells[p.id], livenessCell(model, liveness, p.id, alt.name, files));
  }
  // Only the files of the cells shown are kept: one counterexample per cell.
  const shown = new Set(Object.values(cells).flatMap((c) => (c.link ? [c.link] : [])));
  return {
    row: {
      variant: alt.name,
      label: alt.label,
      description: alt.description,
      source: alt.source,
      states,
      transitions,
      complete,
      durationMs: Math.round(performance.now() - started),
      cells: Object.fromEntries(columns.map((c) => [c.id, cells[c.id]])),
    },
    files: files.filter((f) => shown.has(f.path)),
  };
}

/** Runs every alternative; `onRow` sees each as it finishes (the script prints it). */
export function runAlternatives(
  options: AlternativesOptions = {},
  onRow?: (row: AlternativeRow) => void,
  selected: readonly Alternative[] = alternatives,
): { rows: AlternativeRow[]; files: Written[] } {
  const rows: AlternativeRow[] = [];
  const files: Written[] = [];
  for (const alt of selected) {
    const result = runAlternative(alt, options);
    rows.push(result.row);
    files.push(...result.files);
    onRow?.(result.row);
  }
  return { rows, files };
}

const symbol: Record<CellVerdict, string> = {
  holds: 'holds',
  violated: '**violated**',
  vacuous: 'vacuous',
  'not-applicable': 'n/a',
  'needs-relative-time': 'needs relative time',
  incomplete: 'incomplete',
};

function cellText(cell: Cell): string {
  const text = symbol[cell.verdict];
  return cell.link ? `[${text} (${cell.steps})](${cell.link})` : text;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The Markdown matrix: one table per column group, then the rows' descriptions and the breaks in words. */
export function alternativesMarkdown(rows: readonly AlternativeRow[]): string {
  const groups: { group: Column['group']; title: string }[] = [
    { group: 'goal', title: "The documents' goals (properties/goals.ts)" },
    { group: 'safety', title: 'Safety properties (properties/safety.ts, properties/extra.ts)' },
    { group: 'liveness', title: 'Liveness properties (properties/liveness.ts)' },
  ];
  const lines = [
    '# Design alternatives: verdict matrix',
    '',
    'Generated by `npm run alternatives` from `variants/design-variants.ts`; do not edit. Each row is the',
    'model or one design alternative (docs/alternatives.md), explored exhaustively on the scopes',
    `${alternativesScopes.map((s) => `\`${s.name}\``).join(' and ')}; a cell is the worst verdict over both.`,
    'A violation links its shortest counterexample (length in steps). `n/a`: the property does not apply to',
    'that design (the reason is in the JSON). `needs relative time`: the only lassos end where the bounded',
    'clock stops, so the verdict waits for relative time. Times vary by machine.',
    '',
    '| row | alternative | source | states | time |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.label} | \`${r.variant}\` | ${r.source} | ${r.states}${r.complete ? '' : ' (bounded)'} | ${seconds(r.durationMs)} |`,
    ),
    '',
  ];
  for (const { group, title } of groups) {
    const cols = columns.filter((c) => c.group === group);
    lines.push(
      `## ${title}`,
      '',
      `| alternative | ${cols.map((c) => `\`${c.id}\``).join(' | ')} |`,
      `| --- | ${cols.map(() => '---').join(' | ')} |`,
      ...rows.map((r) => `| \`${r.variant}\` | ${cols.map((c) => cellText(r.cells[c.id])).join(' | ')} |`),
      '',
    );
  }
  lines.push('## What each alternative breaks', '');
  for (const r of rows) {
    const broken = columns.filter((c) => r.cells[c.id].verdict === 'violated');
    lines.push(`### ${r.label}: \`${r.variant}\``, '', `${r.description} (${r.source})`, '');
    if (broken.length === 0) lines.push('Breaks no property on these scopes.', '');
    for (const c of broken) {
      const cell = r.cells[c.id];
      lines.push(
        `- \`${c.id}\` in ${cell.steps} steps on \`${cell.scope}\`${cell.note ? `: ${cell.note.replace(/\|/g, '\\|')}` : ''}`,
      );
    }
    if (broken.length > 0) lines.push('');
  }
  return lines.join('\n');
}

const count = z.number().int().nonnegative();

/** alternatives.json: `$schema`, the scopes searched, the columns, then every row with its cells. */
export interface AlternativesFile {
  $schema: string;
  scopes: string[];
  columns: Column[];
  rows: AlternativeRow[];
}

const cellSchema = z.strictObject({
  verdict: z.enum(['holds', 'violated', 'vacuous', 'not-applicable', 'needs-relative-time', 'incomplete']),
  steps: count.optional(),
  scope: z.string().optional(),
  link: z.string().optional(),
  note: z.string().optional(),
});

/** The schema of alternatives.json (schemas/alternatives.schema.json is generated from it). */
export const alternativesFileSchema = z
  .strictObject({
    $schema: z.string(),
    scopes: z.array(z.string()),
    columns: z.array(
      z.strictObject({
        id: z.string(),
        statement: z.string(),
        requirements: z.array(z.string()),
        group: z.enum(['goal', 'safety', 'liveness']),
      }),
    ),
    rows: z.array(
      z.strictObject({
        variant: z.string(),
        label: z.string(),
        description: z.string(),
        source: z.string(),
        states: count,
        transitions: count,
        complete: z.boolean(),
        durationMs: count,
        cells: z.record(z.string(), cellSchema),
      }),
    ),
  })
  .meta({
    title: 'nsmodel design alternatives',
    description:
      "alternatives.json as npm run alternatives writes it: every design alternative's verdict on each goal, safety and liveness property.",
  }) as unknown as z.ZodType<AlternativesFile>;

/** The JSON file: its `$schema`, the scopes, the columns, then every row with its cells. */
export function alternativesJson(rows: readonly AlternativeRow[]): string {
  const file: AlternativesFile = {
    $schema: schemaRef('alternatives', alternativesJsonPath),
    scopes: alternativesScopes.map((s) => s.name),
    columns,
    rows: [...rows],
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Writes the matrix and every linked counterexample, each atomically; returns the paths, relative to rootDir. */
export async function writeAlternatives(
  rootDir: string,
  result: { rows: readonly AlternativeRow[]; files: readonly Written[] },
  sources: StampSources,
): Promise<string[]> {
  const written: string[] = [];
  for (const file of result.files) {
    const path = `generated/${file.path}`;
    await writeFileAtomic(join(rootDir, path), file.text);
    written.push(path);
  }
  await writeFileAtomic(join(rootDir, alternativesJsonPath), alternativesJson(result.rows));
  await writeFileAtomic(join(rootDir, alternativesMarkdownPath), alternativesMarkdown(result.rows));
  // A counterexample the matrix no longer links would otherwise linger and fail check:generated.
  const fresh = new Set(written.map((path) => posix.relative(alternativesFolder, path)));
  await removeUnlisted(join(rootDir, alternativesFolder), fresh);
  const outputs = [...written, alternativesJsonPath, alternativesMarkdownPath];
  return [
    ...outputs,
    await writeStamp(rootDir, alternativesStamp, outputs, { normalize: maskTimes, sources }),
  ];
}

/** What the matrix is made of: everything `npm run alternatives` can read. */
export const alternativesStamp: StampSpec = {
  file: 'generated/alternatives.stamp.json',
  command: 'npm run alternatives',
  entry: 'scripts/alternatives.ts',
};

/** Removes every file below `folder` whose relative path is not in `keep`. */
async function removeUnlisted(folder: string, keep: ReadonlySet<string>): Promise<void> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relative = posix.relative(folder, posix.join(entry.parentPath, entry.name));
    if (!keep.has(relative)) await rm(join(folder, relative), { force: true });
  }
}

/** Run times differ between runs and machines: masked before `check:generated` compares. */
export function maskTimes(path: string, text: string): string {
  if (path === alternativesJsonPath) return text.replace(/"durationMs": [0-9.e+-]+/g, '"durationMs": 0');
  if (path === alternativesMarkdownPath) return text.replace(/\| [0-9]+\.[0-9] s \|/g, '| - |');
  return text;
}

/** The quick `check:generated` judges the matrix by its stamp; `--full` runs it again and compares, times masked. */
export const alternativesGenerator: Generator = {
  name: 'alternatives',
  owns: [alternativesFolder, alternativesMarkdownPath, alternativesJsonPath, alternativesStamp.file],
  stamp: alternativesStamp,
  generate(rootDir) {
    const sources = stampSources(sourceRoot, alternativesStamp);
    const rows = runAlternatives({}, (row) =>
      console.error(`alternatives: ${row.variant} (${row.states} states)`),
    );
    return writeAlternatives(rootDir, rows, sources);
  },
  normalize: maskTimes,
};
