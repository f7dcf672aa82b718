import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { CheckResult } from './check.ts';

/**
 * The golden figures of every named scope as data, in the manner of tlaplus/Examples' manifest.json:
 * distinct states, transitions, depth and each safety property's verdict for the scopes the test suite
 * explores, and for the others why they are not explored. `checker/manifest.test.ts` explores and compares.
 */

export const manifestPath = 'checker/manifest.json';

const verdictSchema = z.strictObject({
  verdict: z.enum(['holds', 'violated', 'vacuous']),
  /** Steps of the shortest counterexample, for a violated property. */
  counterexampleSteps: z.number().int().positive().optional(),
});

const figures = {
  states: z.number().int().positive(),
  transitions: z.number().int().nonnegative(),
  depth: z.number().int().nonnegative(),
};

/** The search under the scope's symmetry: orbits kept, and the states and transitions they stand for. */
const symmetryFiguresSchema = z.strictObject({
  ...figures,
  represented: z.strictObject({ states: figures.states, transitions: figures.transitions }),
});

const exploredScopeSchema = z.strictObject({
  name: z.string().min(1),
  explored: z.literal(true),
  /**
   * Who compares a full search with these figures: the test suite (default), or `npm run verify` alone,
   * for a scope too large for the suite's budget but the one CI's main job searches anyway.
   */
  pinnedBy: z.enum(['suite', 'verify']).optional(),
  ...figures,
  properties: z.record(z.string(), verdictSchema),
});

const unexploredScopeSchema = z.strictObject({
  name: z.string().min(1),
  explored: z.literal(false),
  /** Why the test suite does not explore it, and how to. */
  reason: z.string().min(1),
  /**
   * Figures of a scope that completes but too slowly for every test run: checked when
   * NSMODEL_SLOW_SCOPES=1, with and without symmetry reduction.
   */
  measured: z.strictObject({ ...figures, symmetry: symmetryFiguresSchema.optional() }).optional(),
});

export const manifestSchema = z.strictObject({
  $comment: z.string().optional(),
  scopes: z.array(z.discriminatedUnion('explored', [exploredScopeSchema, unexploredScopeSchema])),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestScope = Manifest['scopes'][number];
export type PropertyVerdict = z.infer<typeof verdictSchema>;

/** Parses a manifest's text; a malformed one throws one line naming the file, the field and the fix. */
export function parseManifest(text: string, file = manifestPath): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message}); fix the syntax.`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    throw new Error(`${file}: field ${field}: ${issue.message}; see checker/manifest.ts for the shape.`);
  }
  const names = parsed.data.scopes.map((scope) => scope.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new Error(`${file}: scope "${twice}" is listed twice; keep one entry.`);
  return parsed.data;
}

/** What a finished search gave, in the manifest's terms: figures and each property's verdict. */
export interface SearchFigures {
  states: number;
  transitions: number;
  depth: number;
  properties: Record<string, PropertyVerdict>;
}

/** Each property's verdict in a search's result, with its counterexample's length when violated. */
export function manifestVerdicts(result: Pick<CheckResult, 'properties'>): Record<string, PropertyVerdict> {
  return Object.fromEntries(
    result.properties.map((p) => {
      const steps = p.violation?.trace.steps.length;
      return [
        p.property.id,
        steps === undefined ? { verdict: p.status } : { verdict: p.status, counterexampleSteps: steps },
      ];
    }),
  );
}

/** Each way a search's figures differ from a scope's pinned ones, as one line a reader can act on. */
export function goldenDifferences(pinned: ManifestScope, found: SearchFigures): string[] {
  if (!pinned.explored) return [];
  const number = (n: number) => new Intl.NumberFormat('en-US').format(n);
  const out: string[] = [];
  for (const figure of ['states', 'transitions', 'depth'] as const)
    if (pinned[figure] !== found[figure])
      out.push(`${figure}: ${number(found[figure])}, pinned ${number(pinned[figure])}`);
  const ids = new Set([...Object.keys(pinned.properties), ...Object.keys(found.properties)]);
  for (const id of ids) {
    const was = pinned.properties[id];
    const now = found.properties[id];
    const text = (v: PropertyVerdict | undefined) =>
      v === undefined
        ? 'absent'
        : v.counterexampleSteps === undefined
          ? v.verdict
          : `${v.verdict} in ${v.counterexampleSteps} steps`;
    if (text(was) !== text(now)) out.push(`${id}: ${text(now)}, pinned ${text(was)}`);
  }
  return out;
}

export function loadManifest(file = manifestPath): Manifest {
  return parseManifest(readFileSync(file, 'utf8'), file);
}
