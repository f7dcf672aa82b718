import type { z } from 'zod';
import { type LoadedScopeFile, scopeFileByName, scopeNames } from '../cli/scope-file.ts';
import type { goldenSchema, pinnedVerdictSchema } from '../cli/scope-format.ts';
import type { CheckResult } from './check.ts';

/**
 * The golden figures of every named scope, in the manner of tlaplus/Examples' manifest.json: distinct
 * states, transitions, depth and each safety property's verdict for the scopes the test suite explores,
 * and for the others why they are not explored. Each scope file holds its own, under `golden:`;
 * `checker/judging/manifest.test.ts` explores and compares.
 */

export type ManifestScope = { name: string } & z.infer<typeof goldenSchema>;
export type Manifest = { scopes: ManifestScope[] };
export type PropertyVerdict = z.infer<typeof pinnedVerdictSchema>;

/** Where a scope's golden figures live, as messages name it. */
export const goldenFileOf = (scopeName: string): string => `scopes/${scopeName}.yaml`;

/** A built-in scope's golden figures, from its file; none for a name no scope file has. */
export function goldenOf(name: string): ManifestScope | undefined {
  if (!scopeNames().includes(name)) return undefined;
  return goldenOfFile(name, scopeFileByName(name));
}

/** The golden figures of built-in scope `name` from its file already read. */
export function goldenOfFile(
  name: string,
  { golden }: Pick<LoadedScopeFile, 'golden'>,
): ManifestScope | undefined {
  return golden ? { name, ...golden } : undefined;
}

/** Every built-in scope's golden figures, from its file; a scope without them is an error naming the fix. */
export function loadManifest(): Manifest {
  return {
    scopes: scopeNames().map((name) => {
      const golden = goldenOf(name);
      if (!golden)
        throw new Error(
          `${goldenFileOf(name)}: no golden figures; fix: add \`golden:\` with the figures a complete search finds (npm run verify -- --scope ${name}), or \`explored: false\` and the reason`,
        );
      return golden;
    }),
  };
}

/** What a finished search gave, in the manifest's terms: figures and each property's verdict. */
export interface SearchFigures {
  states: number;
  transitions: number;
  depth: number;
  properties: Record<string, PropertyVerdict>;
  /** Under symmetry reduction: the states and transitions the orbits counted above stand for. */
  represented?: { states: number; transitions: number };
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
  const number = (n: number) => new Intl.NumberFormat('en-US').format(n);
  const out: string[] = [];
  /** One line per figure of `names` where `found` is not what `pinned` says, each named with `prefix`. */
  const differing = <F extends string>(
    prefix: string,
    names: readonly F[],
    was: Record<F, number>,
    now: Record<F, number>,
  ) => {
    for (const figure of names)
      if (was[figure] !== now[figure])
        out.push(`${prefix}${figure}: ${number(now[figure])}, pinned ${number(was[figure])}`);
  };
  const searched = ['states', 'transitions', 'depth'] as const;
  if (found.represented !== undefined) {
    // A reduced search is compared with the figures pinned under symmetry: its orbits and what they stand for.
    const figures = pinned.explored ? undefined : pinned.measured?.symmetry;
    if (figures === undefined) return [];
    differing("orbits' ", searched, figures, found);
    differing('represented ', ['states', 'transitions'] as const, figures.represented, found.represented);
    return out;
  }
  // A slow scope pins the figures of one complete search and no verdicts; a scope without figures pins nothing.
  const figures = pinned.explored ? pinned : pinned.measured;
  if (figures === undefined) return [];
  differing('', searched, figures, found);
  if (!pinned.explored) return out;
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
