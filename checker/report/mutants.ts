import { join } from 'node:path';
import { z } from 'zod';
import { sampleRandomScope } from '../../machines/random-scope.ts';
import type { Scope } from '../../machines/scope.ts';
import { defaultMachines } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { safetyProperties } from '../../properties/safety.ts';
import type { Property } from '../../properties/types.ts';
import { mutants, type Variant } from '../../variants/variants.ts';
import { writeFileAtomic } from '../cli/fs-atomic.ts';
import { schemaRef } from '../cli/schema-ref.ts';
import { faultScope, scopeByName } from '../cli/scope-file.ts';
import type { SearchLimits } from '../engine/explore.ts';
import { createProgressReporter, type ProgressOption } from '../engine/progress.ts';
import { check, type FirstViolation, type PropertyResult, type Trace } from '../judging/check.ts';
import { checkLivenessOnTheFly, LivenessCollector } from '../judging/liveness-fly.ts';
import { randomRun, type Violation } from '../judging/random.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import { type CounterexampleStep, traceSteps } from './counterexample.ts';
import type { Generator } from './generator.ts';
import { backTo, lassoSteps } from './liveness-report.ts';
import { type StampSources, type StampSpec, sourceRoot, stampSources, writeStamp } from './stamp.ts';

/**
 * Seeded faults must each be caught: every mutant of `variants/variants.ts` is explored breadth-first
 * on the default scope (or on its own scope, `sweepScope`) until the first property breaks, so its
 * counterexample is a shortest one. A mutant the default scope cannot reach is walked at random on
 * larger scopes. The result is the
 * table in generated/mutants.md and .json; a mutant nobody kills fails `npm run mutants`.
 */

/** What mutants are judged against: the same safety properties verify checks. */
export const mutantProperties: Property[] = safetyProperties;

export interface ShortestKill {
  /** Every property broken by the last step of the trace (or by the initial state). */
  violations: Violation[];
  trace: Trace;
  /** For every property broken within the horizon: the length of its shortest counterexample. */
  brokenWithin: Record<string, number>;
  /** Distinct states discovered before the search stopped. */
  statesExplored: number;
}

/** How many steps past the first violation the search goes on, to see what else the mutant breaks. */
export const defaultHorizonSteps = 3;

/**
 * Breadth-first search for the shortest violation: states are visited in order of distance, so the
 * first violation found has a shortest trace, and every property broken by that same step is
 * reported. The search then goes on through `horizonSteps` more steps, recording the shortest
 * counterexample length of every other property broken by then. Null when the search ends
 * (complete, or cut by the limits) with every property holding.
 */
export function shortestKill(
  model: CheckedSystemModel,
  properties: Property[],
  limits: SearchLimits & { horizonSteps?: number; recorder?: LivenessCollector } = {},
): {
  kill: ShortestKill | null;
  statesExplored: number;
  complete: boolean;
  /** Every property the search found broken, with its own shortest trace: what verify --variant writes. */
  violated: PropertyResult[];
} {
  const { horizonSteps = defaultHorizonSteps, recorder, ...search } = limits;
  // verify's own search and judging (compiled model, step classes), in discovery order of first violations.
  const found: FirstViolation[] = [];
  const result = check(model, properties, {
    ...search,
    ...(recorder ? { recorder } : {}),
    stopOnFirst: true,
    horizonLevels: horizonSteps,
    stopWhenAllViolated: true,
    onViolation: (v) => found.push(v),
  });
  const violated = result.properties.filter((p) => p.violation !== undefined);
  const first = found[0];
  if (!first) return { kill: null, statesExplored: result.states, complete: result.complete, violated };
  const trace = result.properties.find((p) => p.property.id === first.propertyId)?.violation?.trace;
  if (!trace) throw new Error(`shortestKill: ${first.propertyId} was reported violated without a trace`);
  const depthOf = new Map(found.map((v) => [v.propertyId, v.depth]));
  return {
    kill: {
      // Every property the same step broke: one trace, one kill.
      violations: found
        .filter((v) => v.step === first.step)
        .map((v) => ({ propertyId: v.propertyId, message: v.message })),
      trace,
      brokenWithin: Object.fromEntries(
        properties.filter((p) => depthOf.has(p.id)).map((p) => [p.id, depthOf.get(p.id) ?? 0]),
      ),
      statesExplored: result.states,
    },
    statesExplored: result.states,
    complete: false,
    violated,
  };
}

export interface MutantResult {
  mutant: string;
  description: string;
  requirements: string[];
  /** Ids of the properties the shortest counterexample breaks; empty when the mutant survived. */
  killedBy: string[];
  /** What each of them reports. */
  violations: Violation[];
  /**
   * Every property broken within a few steps more than the shortest counterexample (exhaustive
   * search only), with the length of its own shortest counterexample.
   */
  brokenWithin: Record<string, number>;
  counterexampleSteps: CounterexampleStep[];
  /** For a liveness kill: the index in `counterexampleSteps` where the cycle, repeated forever, starts. */
  loopStart?: number;
  /**
   * How the kill was found: `exhaustive` (breadth-first, shortest), `liveness` (a lasso on the whole
   * graph, when no safety property breaks) or `random` (shrunk walk).
   */
  search: 'exhaustive' | 'liveness' | 'random' | 'none';
  scope: string;
  /** Distinct states the breadth-first search discovered before the kill (or in all). */
  statesExplored: number;
  /** For random kills: fast-check's seed and path, which replay the walk. */
  replay?: { seed: number; path: string };
}

export interface MutantRunOptions {
  scope?: Scope;
  properties?: Property[];
  /** Bound on the exhaustive search per mutant. */
  maxStates?: number;
  /** Steps the search goes on past the first kill (default `defaultHorizonSteps`). */
  horizonSteps?: number;
  /** Live progress of each mutant's exhaustive search (see checker/engine/progress.ts). */
  progress?: (variant: Variant) => ProgressOption;
  /** Told after each liveness property is judged on a mutant's graph, the long silent part of its run. */
  livenessProgress?: (variant: Variant, judged: number, total: number, propertyId: string) => void;
  /** Seeds of the random scopes (machines/random-scope.ts) walked when the exhaustive search finds nothing. */
  randomScopeSeeds?: readonly number[];
  randomRuns?: number;
}

const defaultRandomScopeSeeds = [1, 2, 3];

/** Checks one mutant: the exhaustive search first, then random walks on larger scopes if it survives that. */
export function runMutant(variant: Variant, options: MutantRunOptions = {}): MutantResult {
  // A fault with a scope of its own is searched on it, unless the caller names the scope.
  const baseScope =
    options.scope ?? (variant.sweepScope ? faultScope(variant.sweepScope) : scopeByName('default'));
  // A data fault (a bootstrap role changed) applies to the scope it runs on; the name stays the scope's.
  const scope = variant.scope ? variant.scope(baseScope) : baseScope;
  const properties = options.properties ?? mutantProperties;
  const machines = variant.machines(defaultMachines, scope);
  const model = systemModel(scope, machines);
  const base = { mutant: variant.name, description: variant.description, requirements: variant.requirements };
  // The graph of a complete search with no kill is where the liveness properties look for a lasso.
  const recorder = options.properties ? undefined : new LivenessCollector(model, livenessProperties);
  const exhaustive = shortestKill(model, properties, {
    ...(recorder ? { recorder } : {}),
    ...(options.maxStates ? { maxStates: options.maxStates } : {}),
    ...(options.horizonSteps !== undefined ? { horizonSteps: options.horizonSteps } : {}),
    ...(options.progress ? { progress: options.progress(variant) } : {}),
  });
  if (exhaustive.kill) {
    return {
      ...base,
      killedBy: exhaustive.kill.violations.map((v) => v.propertyId),
      violations: exhaustive.kill.violations,
      brokenWithin: exhaustive.kill.brokenWithin,
      counterexampleSteps: traceSteps(model, exhaustive.kill.trace),
      search: 'exhaustive',
      scope: scope.name,
      statesExplored: exhaustive.statesExplored,
    };
  }
  // Nothing bad happens at any one step: a fault that only stops progress is killed by a lasso.
  if (exhaustive.complete && !options.properties) {
    const onJudged = options.livenessProgress
      ? (judged: number, total: number, id: string) => options.livenessProgress?.(variant, judged, total, id)
      : undefined;
    const run = recorder ? recorder.judge(onJudged) : checkLivenessOnTheFly(model, livenessProperties);
    const violated = run.properties.filter((r) => r.status === 'violated' && r.lasso);
    const first = violated[0];
    if (first?.lasso) {
      return {
        ...base,
        killedBy: [first.property.id],
        violations: violated.map((r) => ({
          propertyId: r.property.id,
          message: `${r.property.goal}: never, on ${r.namespace ?? 'the system'} (a lasso of ${r.lasso?.steps.length} steps, cycle from step ${(r.lasso?.loopStart ?? 0) + 1})`,
        })),
        brokenWithin: Object.fromEntries(violated.map((r) => [r.property.id, r.lasso?.steps.length ?? 0])),
        counterexampleSteps: lassoSteps(model, first.lasso),
        loopStart: first.lasso.loopStart,
        search: 'liveness',
        scope: scope.name,
        statesExplored: run.states,
      };
    }
  }
  for (const seed of options.randomScopeSeeds ?? defaultRandomScopeSeeds) {
    const sampled = sampleRandomScope(seed);
    const randomModel = systemModel(variant.scope ? variant.scope(sampled) : sampled, machines);
    const run = randomRun(randomModel, properties, { runs: options.randomRuns ?? 500, seed });
    if (run.failure) {
      return {
        ...base,
        killedBy: run.failure.violations.map((v) => v.propertyId),
        violations: run.failure.violations,
        brokenWithin: Object.fromEntries(
          run.failure.violations.map((v) => [v.propertyId, run.failure?.steps.length ?? 0]),
        ),
        counterexampleSteps: run.failure.steps,
        search: 'random',
        scope: randomModel.scope.name,
        statesExplored: exhaustive.statesExplored,
        replay: { seed: run.seed, path: run.failure.path },
      };
    }
  }
  return {
    ...base,
    killedBy: [],
    violations: [],
    brokenWithin: {},
    counterexampleSteps: [],
    search: 'none',
    scope: scope.name,
    statesExplored: exhaustive.statesExplored,
  };
}

export const mutantsMarkdownPath = 'generated/mutants.md';
export const mutantsJsonPath = 'generated/mutants.json';

const count = z.number().int().nonnegative();
const stepSchema = z.strictObject({ actor: z.string(), event: z.string(), summary: z.string() });

/** One mutant's entry in mutants.json: a MutantResult, field for field. */
const mutantResultSchema = z.strictObject({
  mutant: z.string(),
  description: z.string(),
  requirements: z.array(z.string()),
  killedBy: z.array(z.string()),
  violations: z.array(z.strictObject({ propertyId: z.string(), message: z.string() })),
  brokenWithin: z.record(z.string(), z.number().int().positive()),
  counterexampleSteps: z.array(stepSchema),
  loopStart: count.optional(),
  search: z.enum(['exhaustive', 'liveness', 'random', 'none']),
  scope: z.string(),
  statesExplored: count,
  replay: z.strictObject({ seed: z.number().int(), path: z.string() }).optional(),
});

/** mutants.json: `$schema`, then one entry per mutant in registry order. */
export interface MutantsFile {
  $schema: string;
  mutants: MutantResult[];
}

/** The schema of mutants.json (schemas/mutants.schema.json is generated from it). */
export const mutantsFileSchema = z
  .strictObject({ $schema: z.string(), mutants: z.array(mutantResultSchema) })
  .meta({
    title: 'nsmodel seeded faults',
    description:
      'mutants.json as npm run mutants writes it: every seeded fault (mutant), the properties that kill it and its shortest counterexample.',
  }) as unknown as z.ZodType<MutantsFile>;

/** The JSON file: its `$schema`, then one entry per mutant, in registry order. */
export function mutantsJson(results: readonly MutantResult[]): string {
  const file: MutantsFile = { $schema: schemaRef('mutants', mutantsJsonPath), mutants: [...results] };
  return `${JSON.stringify(file, null, 2)}\n`;
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** A line naming the properties no mutant breaks: each still lacks a fault that shows it can fail. */
function unbroken(results: readonly MutantResult[], properties: readonly { id: string }[]): string[] {
  const ids = properties
    .filter((p) => results.every((r) => r.brokenWithin[p.id] === undefined))
    .map((p) => `\`${p.id}\``);
  return ids.length === 0
    ? ['', 'Every property is broken by at least one mutant.']
    : ['', `No mutant breaks ${ids.join(', ')} yet.`];
}

const cell = (r: MutantResult, propertyId: string): string => {
  const length = r.brokenWithin[propertyId];
  if (length === undefined) return '';
  return r.killedBy.includes(propertyId) ? `**${length}**` : String(length);
};

/** The Markdown file: which property killed which mutant, then each shortest counterexample. */
export function mutantsMarkdown(
  results: readonly MutantResult[],
  properties: readonly Property[] = mutantProperties,
): string {
  const killed = results.filter((r) => r.killedBy.length > 0).length;
  const lines = [
    '# Seeded faults (mutants)',
    '',
    'Generated by `npm run mutants` from `variants/variants.ts`; do not edit. Each mutant is one deliberate',
    'defect in a machine. The exhaustive search runs breadth-first on the default scope (a mutant with a',
    'scope of its own, under `scopes/faults/`, on that one) and stops at the',
    'first broken property, so each counterexample below is a shortest one; "killed by" lists every',
    'property that its last step breaks. `npm run verify -- --variant <mutant>` runs one mutant.',
    '',
    `**${killed} of ${results.length} mutants killed.**`,
    '',
    '| mutant | breaks | killed by | search | steps |',
    '| --- | --- | --- | --- | --- |',
    ...results.map(
      (r) =>
        `| [\`${r.mutant}\`](#${r.mutant}) | ${r.requirements.join(', ')} | ${r.killedBy.length > 0 ? r.killedBy.map((id) => `\`${id}\``).join(', ') : '**survived**'} | ${r.search === 'none' ? '-' : `${r.search} (${r.scope})`} | ${r.search === 'none' ? '-' : r.counterexampleSteps.length} |`,
    ),
    '',
    '## Which property catches which mutant',
    '',
    `| property | ${results.map((_, i) => `${i + 1}`).join(' | ')} |`,
    `| --- | ${results.map(() => '---').join(' | ')} |`,
    ...[...properties, ...livenessProperties].map(
      (p) => `| \`${p.id}\` | ${results.map((r) => cell(r, p.id)).join(' | ')} |`,
    ),
    '',
    `Columns: ${results.map((r, i) => `${i + 1} \`${r.mutant}\``).join(', ')}.`,
    '',
    `A number is the length of the property's shortest counterexample on that mutant, in bold for the`,
    `properties that kill it first; the search looks ${defaultHorizonSteps} steps past the first kill, so an empty cell`,
    'means "not broken that early", not "holds". A mutant that breaks no safety property is judged by the',
    'liveness properties (`search: liveness`): its numbers are lasso lengths, prefix and cycle together.',
    ...unbroken(results, [...properties, ...livenessProperties]),
    '',
  ];
  for (const r of results) {
    lines.push(`## ${r.mutant}`, '', `${r.description} (${r.requirements.join(', ')})`, '');
    if (r.search === 'none') {
      lines.push(
        `**Survived**: no property broke on scope \`${r.scope}\` (${r.statesExplored} states) nor in random walks.`,
        '',
      );
      continue;
    }
    const how =
      r.search === 'exhaustive'
        ? `exhaustive search on scope \`${r.scope}\`, ${r.statesExplored} states discovered`
        : r.search === 'liveness'
          ? `no safety property breaks; a lasso on the whole graph of scope \`${r.scope}\`, ${r.statesExplored} states`
          : `random walk on scope \`${r.scope}\`, replay with \`--seed ${r.replay?.seed} --path ${r.replay?.path}\``;
    lines.push(`Killed after ${r.counterexampleSteps.length} steps (${how}).`, '');
    for (const v of r.violations) lines.push(`- \`${v.propertyId}\`: ${escapeCell(v.message)}`);
    const step = (s: CounterexampleStep, i: number) => `${i + 1}. **${s.actor}**: ${s.event} — ${s.summary}`;
    const loop = r.loopStart;
    lines.push(
      '',
      ...(loop === undefined
        ? r.counterexampleSteps.map(step)
        : [
            ...r.counterexampleSteps.slice(0, loop).map(step),
            '',
            '*-- cycle, repeated forever --*',
            '',
            ...r.counterexampleSteps.slice(loop).map((s, i) => step(s, loop + i)),
            '',
            `*${backTo(loop)}*`,
          ]),
      '',
    );
  }
  return lines.join('\n');
}

/** Runs every mutant; `onResult` sees each as it finishes (the script prints timings from it). */
export function runMutants(
  options: MutantRunOptions = {},
  onResult?: (result: MutantResult, elapsedMs: number) => void,
  selected: readonly Variant[] = mutants,
): MutantResult[] {
  return selected.map((variant) => {
    const started = performance.now();
    const result = runMutant(variant, options);
    onResult?.(result, performance.now() - started);
    return result;
  });
}

/** What the mutants table is made of: everything `npm run mutants` can read. */
export const mutantsStamp: StampSpec = {
  file: 'generated/mutants.stamp.json',
  command: 'npm run mutants',
  entry: 'scripts/mutants.ts',
};

/** Writes both files and their stamp under `rootDir`, each atomically; returns the paths written, relative to it. */
export async function writeMutants(
  rootDir: string,
  results: readonly MutantResult[],
  sources: StampSources,
): Promise<string[]> {
  await writeFileAtomic(join(rootDir, mutantsJsonPath), mutantsJson(results));
  await writeFileAtomic(join(rootDir, mutantsMarkdownPath), mutantsMarkdown(results));
  const stamp = await writeStamp(rootDir, mutantsStamp, [mutantsJsonPath, mutantsMarkdownPath], { sources });
  return [mutantsJsonPath, mutantsMarkdownPath, stamp];
}

/** The line printed after each liveness property judged on a mutant's graph. */
export function livenessProgressLine(
  label: string,
  judged: number,
  total: number,
  propertyId: string,
): string {
  return `${label}: liveness ${judged} of ${total} judged on the graph (${propertyId})`;
}

/** The quick `check:generated` judges the table by its stamp; `--full` runs every mutant again (minutes). */
export const mutantsGenerator: Generator = {
  name: 'mutants',
  owns: [mutantsMarkdownPath, mutantsJsonPath, mutantsStamp.file],
  stamp: mutantsStamp,
  generate(rootDir) {
    const sources = stampSources(sourceRoot, mutantsStamp);
    const label = (variant: Variant) =>
      `mutant ${mutants.indexOf(variant) + 1}/${mutants.length} ${variant.name}`;
    const progress = (variant: Variant) => createProgressReporter({ label: label(variant) });
    const livenessProgress = (variant: Variant, judged: number, total: number, id: string) =>
      console.error(livenessProgressLine(label(variant), judged, total, id));
    return writeMutants(rootDir, runMutants({ progress, livenessProgress }), sources);
  },
};
