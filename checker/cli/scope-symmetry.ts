import { validateNamespaceName } from '../../machines/names.ts';
import { immortalNamespaces, type Scope } from '../../machines/scope.ts';
import { canonicalJson } from '../../machines/stepper.ts';
import { intentOf } from '../../properties/intent.ts';
import type { FieldPath, ScopeIssue } from './scope-issues.ts';

/**
 * A scope's declared symmetry, checked when the scope file is read: every declared set of namespaces or
 * users must be interchangeable, or the file is refused naming the field (why this makes the reduction
 * sound: checker/model/symmetry.ts, which acts on states with the group found here).
 */

export interface ScopeSymmetry {
  /** Slot permutations acting on states, identity first: `slotPermutations[g][i]` is where slot i goes. */
  slotPermutations: number[][];
  /** For each element g, the users it exchanges (recorded creators are renamed so); empty when none. */
  userRenamings: Record<string, string>[];
  /** The declared sets, by name, for messages and warnings. */
  namespaces: string[][];
  users: string[][];
}

/** The most name permutations tried at load: beyond it a scope must declare smaller sets. */
const maxCandidates = 40_320;

/** Lists of the scope that are sets: their order carries no meaning to the model. */
const sortedBy = <T>(items: readonly T[], map: (item: T) => unknown = (x) => x): unknown[] =>
  items.map(map).sort((a, b) => {
    const x = canonicalJson(a);
    const y = canonicalJson(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });

/** A scope as the model sees it: set-like lists sorted, documentation dropped, intent resolved. */
function normalForm(scope: Scope): unknown {
  const intent = intentOf(scope);
  return {
    namespaces: Object.fromEntries(scope.namespaces.map((n) => [n.name, n])),
    configurations: scope.configurations,
    principals: sortedBy(scope.principals, (p) => ({
      ...p,
      groups: sortedBy(p.groups),
      ...(p.namespaces ? { namespaces: sortedBy(p.namespaces) } : {}),
    })),
    clusterRoleBindings: sortedBy(scope.clusterRoleBindings, (b) => ({
      ...b,
      subjects: sortedBy(b.subjects),
    })),
    clusterRoles: sortedBy(scope.clusterRoles ?? []),
    content: scope.content,
    finalizerOwners: scope.finalizerOwners,
    faults: scope.faults,
    clock: scope.clock,
    intent: {
      ...intent,
      tenantPrincipals: sortedBy([...intent.tenantPrincipals]),
      initializeHolders: sortedBy(intent.initializeHolders),
      clusterWide: sortedBy(intent.clusterWide),
      tenants: Object.fromEntries(Object.entries(intent.tenants).map(([k, v]) => [k, sortedBy(v)])),
    },
  };
}

/** Every string of the data (values and record keys) renamed by `names`. */
function renamed(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return names.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => renamed(v, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [names.get(k) ?? k, renamed(v, names)]));
}

/** Every field where two normal forms differ, as dotted paths in key order. */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (canonicalJson(a) === canonicalJson(b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((key) =>
      differences(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        path === '' ? key : `${path}.${key}`,
      ),
    );
  }
  return [path || '(whole scope)'];
}

/** Every permutation of `items`, identity first. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  const out: T[][] = [];
  items.forEach((first, i) => {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)]))
      out.push([first, ...rest]);
  });
  return out;
}

/** n! (the renamings of a set of n). */
export const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/**
 * The scope's symmetry group, checked: every declared set must be interchangeable (each member reached
 * from the first by some renaming that leaves the scope as it is). An issue names the field to fix.
 */
export function scopeSymmetry(scope: Scope): { symmetry: ScopeSymmetry } | { issue: ScopeIssue } {
  const declared = { namespaces: scope.symmetry?.namespaces ?? [], users: scope.symmetry?.users ?? [] };
  const issue = (path: FieldPath, problem: string, fix: string) => ({ issue: { path, problem, fix } });
  const sets = [
    ...declared.namespaces.map((set, i) => ({ key: 'namespaces' as const, i, set })),
    ...declared.users.map((set, i) => ({ key: 'users' as const, i, set })),
  ];
  const seen = new Set<string>();
  for (const { key, i, set } of sets) {
    for (const [k, member] of set.entries()) {
      const path = ['symmetry', key, i, k];
      if (seen.has(`${key}:${member}`))
        return issue(path, `"${member}" is in two symmetry sets`, 'list each name in one set only');
      seen.add(`${key}:${member}`);
      if (key === 'namespaces') {
        const spec = scope.namespaces.find((n) => n.name === member);
        if (spec?.system || immortalNamespaces.includes(member))
          return issue(
            path,
            `"${member}" is a system namespace, never interchangeable`,
            'drop it from the set',
          );
        const valid = validateNamespaceName(member).length === 0;
        const firstValid = validateNamespaceName(set[0]).length === 0;
        if (valid !== firstValid)
          return issue(
            path,
            `"${member}" is ${valid ? 'a valid' : 'an invalid'} namespace name and "${set[0]}" is not: storage tells them apart`,
            'put only names storage treats alike in one set',
          );
      } else if (member.startsWith('system:'))
        return issue(
          path,
          `"${member}" is a system identity whose name the model reads`,
          'declare only ordinary users symmetric',
        );
    }
  }
  // A name that occurs inside another string (a service account's namespace) is out of renaming's reach.
  const members = new Set(sets.flatMap(({ set }) => set));
  const inside = insideOtherStrings({ ...scope, name: '', description: '', symmetry: {} }, members);
  if (inside) {
    const at = sets.find(({ set }) => set.includes(inside.name));
    return issue(
      ['symmetry', at?.key ?? 'namespaces', at?.i ?? 0, at?.set.indexOf(inside.name) ?? 0],
      `"${inside.name}" occurs inside "${inside.within}", which renaming cannot reach`,
      'drop it from the set',
    );
  }
  const candidates = sets.reduce((n, { set }) => n * factorial(set.length), 1);
  if (candidates > maxCandidates)
    return issue(
      ['symmetry'],
      `the declared sets allow ${candidates} renamings, more than the ${maxCandidates} checked`,
      'declare smaller sets',
    );

  const normal = normalForm(scope);
  const original = canonicalJson(normal);
  const slotOf = new Map(scope.namespaces.map((n, i) => [n.name, i]));
  const valid: Map<string, string>[] = [];
  let maps: Map<string, string>[] = [new Map()];
  for (const { set } of sets)
    maps = maps.flatMap((m) =>
      permutations(set).map((p) => new Map([...m, ...set.map((x, k) => [x, p[k]] as const)])),
    );
  const renamedScope = (names: Map<string, string>) => {
    const r = renamed(scope, names) as Scope;
    // intentOf caches by object: a renamed copy gets its own resolution.
    return { ...r, namespaces: r.namespaces };
  };
  for (const names of maps)
    if (canonicalJson(normalForm(renamedScope(names))) === original) valid.push(names);

  for (const { key, i, set } of sets) {
    for (const [k, member] of set.entries()) {
      if (valid.some((names) => names.get(set[0]) === member)) continue;
      // The closest attempt: of the renamings that send the first member to this one, the one that changes least.
      const attempts = maps
        .filter((names) => names.get(set[0]) === member)
        .map((names) => differences(normal, normalForm(renamed(scope, names) as Scope)));
      const where = attempts.sort((a, b) => a.length - b.length)[0]?.[0] ?? '(whole scope)';
      return issue(
        ['symmetry', key, i, k],
        `"${member}" is not interchangeable with "${set[0]}": exchanging them changes ${where}`,
        key === 'namespaces'
          ? 'give both the same specs, requests, bindings and intent up to renaming, and declare their creators as a users set'
          : 'give both the same groups, requests, bindings and intent up to renaming, and declare the namespaces they own as a namespaces set',
      );
    }
  }
  const userMembers = new Set(declared.users.flat());
  const elements = new Map<string, { perm: number[]; users: Record<string, string> }>();
  for (const names of valid) {
    const perm = scope.namespaces.map((n) => slotOf.get(names.get(n.name) ?? n.name) ?? -1);
    const users = Object.fromEntries([...names].filter(([from, to]) => from !== to && userMembers.has(from)));
    elements.set(`${perm.join(',')}|${canonicalJson(users)}`, { perm, users });
  }
  return {
    symmetry: {
      slotPermutations: [...elements.values()].map((e) => e.perm),
      userRenamings: [...elements.values()].map((e) => e.users),
      namespaces: declared.namespaces,
      users: declared.users,
    },
  };
}

/** A member name found as a `:`- or `/`-separated part of another string of the scope. */
function insideOtherStrings(
  value: unknown,
  members: ReadonlySet<string>,
): { name: string; within: string } | undefined {
  const check = (text: string) => {
    if (members.has(text)) return undefined;
    const part = text.split(/[:/]/).find((p) => members.has(p));
    return part === undefined ? undefined : { name: part, within: text };
  };
  if (typeof value === 'string') return check(value);
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = insideOtherStrings(v, members);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = check(k) ?? insideOtherStrings(v, members);
    if (found) return found;
  }
  return undefined;
}

/** The scope's symmetry, or an error of one line; for scopes built in code (tests, variants). */
export function symmetryOf(scope: Scope): ScopeSymmetry {
  const result = scopeSymmetry(scope);
  if ('issue' in result)
    throw new Error(
      `scope ${scope.name}: ${result.issue.path.join('.')}: ${result.issue.problem}; fix: ${result.issue.fix}`,
    );
  return result.symmetry;
}
