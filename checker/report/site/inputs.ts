import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { z } from 'zod';
import { actorOverview, machineCatalog } from '../../../machines/catalog.ts';
import { parseItf } from '../../scenario/itf.ts';
import { type DiagramView, diagramsFolder, diagramViews, overviewId, viewTransitions } from '../diagram.ts';
import { type Stepper, stepperOf } from './stepper.ts';

/**
 * What the HTML report is made of, read from generated files only (report.json, the diagram sources,
 * mutants.json, the ITF counterexamples), so the page shows exactly what was committed. The schemas are
 * lenient on purpose: fields a newer report adds (liveness, vacuity) are shown, not refused.
 */

const stepSchema = z.object({ actor: z.string(), event: z.string(), summary: z.string() }).passthrough();

const reportPropertySchema = z
  .object({
    id: z.string(),
    requirements: z.array(z.string()).default([]),
    kind: z.string().optional(),
    status: z.string(),
    witnesses: z.number().optional(),
    counterexample: z
      .object({ steps: z.array(stepSchema), file: z.string() })
      .passthrough()
      .optional(),
  })
  .passthrough();

export const siteReportSchema = z
  .object({
    scope: z.string(),
    variant: z.string(),
    states: z.number(),
    transitions: z.number(),
    depth: z.number(),
    properties: z.array(reportPropertySchema),
    coverage: z
      .object({
        transitions: z.object({
          covered: z.number(),
          total: z.number(),
          uncovered: z.array(z.object({ id: z.string(), explanation: z.string() }).passthrough()),
        }),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

export type SiteReport = z.infer<typeof siteReportSchema>;

const siteMutantList = z.array(
  z
    .object({
      mutant: z.string(),
      description: z.string(),
      requirements: z.array(z.string()).default([]),
      killedBy: z.array(z.string()),
      search: z.string(),
      scope: z.string(),
      statesExplored: z.number().optional(),
      counterexampleSteps: z.array(stepSchema).default([]),
    })
    .passthrough(),
);

/** mutants.json: `{ $schema, mutants: [...] }`, or the bare list an older file holds. */
export const siteMutantSchema = z.union([
  z
    .object({ mutants: siteMutantList })
    .passthrough()
    .transform((file) => file.mutants),
  siteMutantList,
]);

export type SiteMutant = z.infer<typeof siteMutantList>[number];

const alternativeCellSchema = z
  .object({ verdict: z.string(), steps: z.number().optional(), link: z.string().optional() })
  .passthrough();

/** generated/alternatives.json (checker/report/alternatives.ts): the design alternatives' verdict matrix. */
export const siteAlternativesSchema = z
  .object({
    columns: z.array(z.object({ id: z.string(), group: z.string() }).passthrough()),
    rows: z.array(
      z
        .object({
          variant: z.string(),
          label: z.string(),
          source: z.string(),
          states: z.number(),
          cells: z.record(z.string(), alternativeCellSchema),
        })
        .passthrough(),
    ),
  })
  .passthrough();

export type SiteAlternatives = z.infer<typeof siteAlternativesSchema>;

export interface SiteDiagram {
  id: string;
  title: string;
  legend: string;
  source: string;
  /** The diagram's text alternative: each transition it draws, one row each, in evaluation order. */
  transitions: SiteTransition[];
  /** The committed SVG, relative to the site folder. */
  svgHref: string;
  /** The committed Mermaid source, relative to the site folder. */
  sourceHref: string;
}

export interface SiteInput {
  report: SiteReport;
  diagrams: SiteDiagram[];
  mutants: SiteMutant[] | null;
  /** Only beside the canonical report, like the mutants. */
  alternatives?: SiteAlternatives | null;
  counterexamples: Stepper[];
}

/** A generated file the report cannot use: names the file, the field and how to fix it. */
export class SiteInputError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'SiteInputError';
  }
}

async function readJson<T>(rootDir: string, file: string, schema: z.ZodType<T>, fix: string): Promise<T> {
  const text = await readFile(join(rootDir, file), 'utf8').catch(() => null);
  if (text === null) throw new SiteInputError(file, `missing; ${fix}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SiteInputError(file, `not JSON (${(error as Error).message}); ${fix}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SiteInputError(file, `field ${issue.path.join('.') || '(top)'}: ${issue.message}; ${fix}`);
  }
  return parsed.data;
}

/** One row of a diagram's transition table. */
export interface SiteTransition {
  state: string;
  trigger: string;
  guard: string;
  outcome: string;
  requirements: string;
}

/** The rows of a view's transition table, as the machines doc lists them. */
function transitionRows(view: DiagramView): SiteTransition[] {
  return viewTransitions(view).map((t) => {
    const target = t.targets[0];
    const moves = target !== undefined && target !== t.source ? `→ ${target}` : '';
    const outcome = [moves, t.actions.join(', ')].filter((part) => part !== '').join(' / ');
    return {
      state: t.source,
      trigger: t.order === null ? t.trigger : `${t.order}. ${t.trigger}`,
      guard: t.guard ?? (t.fallback ? 'else' : ''),
      outcome: outcome || 'no change',
      requirements: t.requirements.join(', '),
    };
  });
}

/** The diagrams in catalog order, then any other `.mmd` in the folder by name. */
async function loadDiagrams(rootDir: string, siteDir: string): Promise<SiteDiagram[]> {
  const names = (await readdir(join(rootDir, diagramsFolder)).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.mmd'))
    .map((n) => n.slice(0, -'.mmd'.length))
    .sort();
  const views = diagramViews(machineCatalog);
  const order = (id: string) => {
    const i = views.findIndex((view) => view.id === id);
    return i < 0 ? views.length : i;
  };
  names.sort((a, b) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (id) => {
      const view = views.find((v) => v.id === id);
      return {
        id,
        title: view?.title ?? (id === overviewId ? 'Actors and the events they send' : id),
        legend: view?.legend ?? (id === overviewId ? (actorOverview.legend ?? '') : ''),
        transitions: view ? transitionRows(view) : [],
        source: await readFile(join(rootDir, diagramsFolder, `${id}.mmd`), 'utf8'),
        svgHref: posix.relative(siteDir, posix.join(diagramsFolder, `${id}.svg`)),
        sourceHref: posix.relative(siteDir, posix.join(diagramsFolder, `${id}.mmd`)),
      };
    }),
  );
}

/** Reads everything the page shows for the report in `reportDir` (relative to `rootDir`, POSIX). */
export async function loadSiteInput(rootDir: string, reportDir: string): Promise<SiteInput> {
  const siteDir = posix.join(reportDir, 'site');
  const report = await readJson(
    rootDir,
    posix.join(reportDir, 'report.json'),
    siteReportSchema,
    'run `npm run verify` to write it',
  );
  const mutantsFile = posix.join(reportDir, 'mutants.json');
  const hasMutants = await readFile(join(rootDir, mutantsFile)).then(
    () => true,
    () => false,
  );
  const mutants = hasMutants
    ? await readJson(rootDir, mutantsFile, siteMutantSchema, 'run `npm run mutants` to rewrite it')
    : null;
  const alternativesFile = posix.join(reportDir, 'alternatives.json');
  const hasAlternatives = await readFile(join(rootDir, alternativesFile)).then(
    () => true,
    () => false,
  );
  const alternatives = hasAlternatives
    ? await readJson(
        rootDir,
        alternativesFile,
        siteAlternativesSchema,
        'run `npm run alternatives` to rewrite it',
      )
    : null;
  const folder = posix.join(reportDir, 'counterexamples');
  const itfNames = (await readdir(join(rootDir, folder)).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.itf.json'))
    .sort();
  const counterexamples: Stepper[] = [];
  for (const name of itfNames) {
    const file = posix.join(folder, name);
    const text = await readFile(join(rootDir, file), 'utf8');
    try {
      counterexamples.push(stepperOf(parseItf(text, file)));
    } catch (error) {
      // parseItf's message already starts with the file name.
      throw new Error(`${(error as Error).message}; rerun \`npm run verify\``);
    }
  }
  return { report, diagrams: await loadDiagrams(rootDir, siteDir), mutants, alternatives, counterexamples };
}
