import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { machineCatalog } from '../../machines/catalog.ts';
import { listTransitions, type TransitionInfo } from '../../machines/stepper.ts';
import { genericInitializationProperties } from '../../properties/generic-initialization.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { designVariants } from '../../variants/design-variants.ts';
import { writeFileAtomic } from '../cli/fs-atomic.ts';

/**
 * Requirement → machine transitions and guards → properties, computed from the machines'
 * `meta.requirements` and the properties' `requirements`, for every ID of the catalog. Nothing here is
 * written by hand, so a rule no machine implements and no property checks shows up at once, and so
 * does an ID the code cites that the catalog does not define.
 */

export const catalogPath = 'docs/requirements.md';
export const traceabilityPath = 'generated/traceability.md';
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface CatalogEntry {
  id: string;
  /** The catalog heading the ID sits under, e.g. `LC — lifecycle and finalizers (001)`. */
  section: string;
  text: string;
}

/** Every `**XX-N**` entry of the catalog, in catalog order. */
export function parseCatalog(markdown: string): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      section = heading[1];
      continue;
    }
    const entry = /^\s*[-*]\s+\*\*([A-Z]+-\d+)\*\*\s*(.*)$/.exec(line);
    if (entry) entries.push({ id: entry[1], section, text: entry[2].trim() });
  }
  return entries;
}

export interface TraceSources {
  machines: readonly { id: string; machine: AnyStateMachine }[];
  properties: readonly { id: string; requirements: readonly string[] }[];
  /**
   * The design variants (`variants/design-variants.ts`): each is a changed model that `npm run
   * alternatives` explores against every property, so it checks the `ALT-n` rows it names. Only
   * those: the other IDs a variant cites are what its change touches, not what it implements.
   */
  designVariants?: readonly { name: string; requirements: readonly string[] }[];
}

/** The catalog rows a design variant can check: the design alternatives, `ALT-n`. */
const isAlternative = (id: string) => id.startsWith('ALT-');

export interface TraceRow {
  entry: CatalogEntry;
  transitions: TransitionInfo[];
  /** `machine.guardName` of the guarded transitions that cite the ID. */
  guards: string[];
  properties: string[];
  /** The design variants that implement this `ALT-n` row and are checked by `npm run alternatives`. */
  variants: string[];
}

export interface Traceability {
  rows: TraceRow[];
  /** Catalog IDs no transition implements and no property checks. */
  neither: TraceRow[];
  /** IDs cited by transitions or properties that the catalog does not define. */
  unknown: { id: string; citedBy: string[] }[];
}

export function computeTraceability(catalog: readonly CatalogEntry[], sources: TraceSources): Traceability {
  const transitions = sources.machines.flatMap(({ machine }) => listTransitions(machine));
  const known = new Set(catalog.map((e) => e.id));
  const citations = new Map<string, string[]>();
  const cite = (id: string, by: string) => {
    if (known.has(id)) return;
    citations.set(id, [...(citations.get(id) ?? []), by]);
  };
  for (const t of transitions) for (const id of t.requirements) cite(id, `transition ${t.id}`);
  for (const p of sources.properties) for (const id of p.requirements) cite(id, `property ${p.id}`);
  const variants = sources.designVariants ?? [];
  for (const v of variants) for (const id of v.requirements) cite(id, `design variant ${v.name}`);

  const rows = catalog.map((entry): TraceRow => {
    const implementing = transitions.filter((t) => t.requirements.includes(entry.id));
    return {
      entry,
      transitions: implementing,
      guards: [
        ...new Set(implementing.filter((t) => t.guard !== null).map((t) => `${t.machine}.${t.guard}`)),
      ],
      properties: sources.properties.filter((p) => p.requirements.includes(entry.id)).map((p) => p.id),
      variants: isAlternative(entry.id)
        ? variants.filter((v) => v.requirements.includes(entry.id)).map((v) => v.name)
        : [],
    };
  });
  return {
    rows,
    neither: rows.filter((r) => r.transitions.length === 0 && !isChecked(r)),
    unknown: [...citations.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, citedBy]) => ({ id, citedBy })),
  };
}

/** Checked by a property, or (an `ALT-n` row) by a design variant the alternatives run explores. */
const isChecked = (r: TraceRow) => r.properties.length > 0 || r.variants.length > 0;
/** Implemented by a transition, or (an `ALT-n` row) by the changed machines of a design variant. */
const isImplemented = (r: TraceRow) => r.transitions.length > 0 || r.variants.length > 0;

const cell = (text: string) => text.replace(/\|/g, '\\|');
const codeList = (items: readonly string[]) =>
  items.length === 0 ? '—' : items.map((i) => `\`${i}\``).join('<br>');

export function traceabilityMarkdown(t: Traceability): string {
  const implementedAndChecked = t.rows.filter((r) => isImplemented(r) && isChecked(r)).length;
  const onlyImplemented = t.rows.filter((r) => isImplemented(r) && !isChecked(r)).length;
  const onlyChecked = t.rows.filter((r) => !isImplemented(r) && isChecked(r)).length;
  const lines = [
    '# Traceability: requirement → machine → property',
    '',
    `> Generated from the machines' \`meta.requirements\`, the properties' \`requirements\`, and \`${catalogPath}\`; do not edit. \`npm run verify\` rewrites it; \`npm run check:generated\` checks it is current.`,
    '',
    `${t.rows.length} requirements in the catalog: ${implementedAndChecked} implemented (by a transition, or for \`ALT-n\` by a design variant) and checked (by a property, or by the alternatives run that explores that variant), ${onlyImplemented} implemented only, ${onlyChecked} checked only, ${t.neither.length} neither.`,
    '',
    '## Neither implemented nor checked',
    '',
  ];
  if (t.neither.length === 0) lines.push('None.', '');
  else {
    lines.push(
      'No machine transition cites these, no property checks them and no design variant implements them.',
      '',
      '| id | requirement |',
      '| --- | --- |',
    );
    for (const r of t.neither) lines.push(`| ${r.entry.id} | ${cell(r.entry.text)} |`);
    lines.push('');
  }
  lines.push('## Cited but not in the catalog', '');
  if (t.unknown.length === 0)
    lines.push('None: every ID the machines and properties cite is in the catalog.', '');
  else {
    lines.push('| id | cited by |', '| --- | --- |');
    for (const u of t.unknown) lines.push(`| ${u.id} | ${cell(u.citedBy.join(', '))} |`);
    lines.push('');
  }
  lines.push('## Every requirement', '');
  let section: string | null = null;
  for (const r of t.rows) {
    if (r.entry.section !== section) {
      section = r.entry.section;
      lines.push(
        `### ${section}`,
        '',
        '| id | requirement | transitions | guards | properties | design variants |',
        '| --- | --- | --- | --- | --- | --- |',
      );
    }
    lines.push(
      `| ${r.entry.id} | ${cell(r.entry.text)} | ${codeList(r.transitions.map((x) => x.id))} | ${codeList(r.guards)} | ${codeList(r.properties)} | ${codeList(r.variants)} |`,
    );
    const next = t.rows[t.rows.indexOf(r) + 1];
    if (!next || next.entry.section !== section) lines.push('');
  }
  return lines.join('\n');
}

/** The project's own sources: the catalog in docs/, the machine catalog, the safety properties and the design variants. */
export function projectTraceability(): Traceability {
  const catalog = parseCatalog(readFileSync(join(projectRoot, catalogPath), 'utf8'));
  return computeTraceability(catalog, {
    machines: machineCatalog,
    // IN-9 and IN-10 are judged on the generic-initialization machine alone (checker/judging/generic-initialization.ts).
    properties: [...safetyProperties, ...genericInitializationProperties],
    designVariants,
  });
}

export async function writeTraceability(rootDir: string): Promise<string[]> {
  await writeFileAtomic(join(rootDir, traceabilityPath), traceabilityMarkdown(projectTraceability()));
  return [traceabilityPath];
}

export const traceabilityGenerator = {
  name: 'traceability',
  owns: [traceabilityPath],
  generate: (rootDir: string) => writeTraceability(rootDir),
};
