import { scopeFileByName, scopeNames } from '../cli/scope-file.ts';
import type { ScopeDocument } from '../cli/scope-format.ts';

/**
 * What a scope declares it does not exercise, with the reason: properties expected to stay vacuous (no
 * witness) and machine transitions expected never to be taken. Anything vacuous or untaken that is not
 * declared fails `verify` (exit 18), so a thinning scope or a dead rule is never a silent pass. The
 * declarations live in the scope file, under `expectations:` (checker/cli/scope-format.ts).
 */
export interface ScopeExpectations {
  /** Property id → why the scope never reaches its premise. */
  vacuous: Readonly<Record<string, string>>;
  /** Transition id (`machine:state:EVENT#n`) → why the scope never takes it, and where it is taken. */
  untaken: Readonly<Record<string, string>>;
}

export const noExpectations: ScopeExpectations = { vacuous: {}, untaken: {} };

/** Where a scope's declarations live, as the report names it. */
export function expectationsFileOf(scopeName: string): string {
  return scopeNames().includes(scopeName) ? `scopes/${scopeName}.yaml` : 'the scope file';
}

type Declared = NonNullable<ScopeDocument['expectations']>;

/** A scope file's `expectations:` as id → reason (the loader refuses an id declared twice). */
export function expectationsOf(declared: Declared | undefined): ScopeExpectations {
  if (!declared) return noExpectations;
  const byId = (groups: readonly { reason: string; ids: readonly string[] }[]) =>
    Object.fromEntries(groups.flatMap(({ reason, ids }) => ids.map((id) => [id, reason])));
  return {
    vacuous: byId((declared.vacuous ?? []).map((g) => ({ reason: g.reason, ids: g.properties }))),
    untaken: byId((declared.untaken ?? []).map((g) => ({ reason: g.reason, ids: g.transitions }))),
  };
}

/** The declarations of a built-in scope (its file's own, never its base's); a scope that declares nothing must exercise everything. */
export function expectationsFor(scopeName: string): ScopeExpectations {
  if (!scopeNames().includes(scopeName)) return noExpectations;
  return expectationsOf(scopeFileByName(scopeName).expectations);
}
