import { readFileSync } from 'node:fs';
import { z } from 'zod';

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

export function loadManifest(file = manifestPath): Manifest {
  return parseManifest(readFileSync(file, 'utf8'), file);
}
