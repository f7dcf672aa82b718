import type { FieldPath, ScopeIssue } from './scope-issues.ts';

/**
 * `extends: BASE` in a scope file: the file is its base plus changes, merged as `kubectl patch` merges
 * a strategic merge patch.
 *
 * - A map is merged key by key, recursively; `KEY: null` removes the key.
 * - A list of named entries (below) is merged by the entry's key: an entry whose key the base has is
 *   merged into that entry (recursively, by these same rules); `$patch: delete` beside the key removes it;
 *   any other entry is added at the end, in the file's order. Entries the file does not name stay as
 *   the base has them, in the base's order.
 * - Any other list (groups, requests, finalizers...) and any scalar is replaced whole.
 * - `name`, `description`, `expectations` and `golden` are the file's own: they say what this scope
 *   is, what it leaves out and what its search finds, so they are never taken from the base.
 */

/** The key of an entry of a list of named entries, by the list's path (numbers dropped). */
const entryKeys: Readonly<
  Record<string, { fields: string; of: (entry: Record<string, unknown>) => unknown }>
> = {
  namespaces: { fields: 'name', of: (e) => e.name },
  'namespaces.initialObjects': { fields: 'kind and name', of: (e) => [e.kind, e.name] },
  // A user may be listed once per set of namespaces it addresses (checker/cli/scope-format.ts).
  users: { fields: 'name and namespaces', of: (e) => [e.name, e.namespaces ?? null] },
  manifests: {
    fields: 'kind and metadata.name',
    of: (e) => [e.kind, (e.metadata as Record<string, unknown> | undefined)?.name],
  },
  content: { fields: 'kind and name', of: (e) => [e.kind, e.name] },
};

/** Fields of a scope file that are never inherited. */
export const ownFields = ['name', 'description', 'expectations', 'golden'] as const;

/** A merge problem, at a path of the file that extends (not of the merged document). */
export class ExtendsIssue extends Error {
  constructor(readonly issue: ScopeIssue) {
    super(issue.problem);
  }
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const keyText = (key: unknown) => JSON.stringify(key);

/** Where each entry of a merged list came from: its index in the extending file, when it wrote or changed it. */
export type Origins = WeakMap<object, number>;

function mergeList(
  listPath: string,
  base: unknown[],
  patch: unknown[],
  at: FieldPath,
  origins: Origins,
): unknown[] {
  const rule = entryKeys[listPath];
  if (!rule) {
    patch.forEach((entry, i) => {
      if (isMap(entry) && Object.hasOwn(entry, '$patch'))
        throw new ExtendsIssue({
          path: [...at, i, '$patch'],
          problem: 'this list is replaced whole, its entries have no key to patch by',
          fix: `write the whole list; only ${Object.keys(entryKeys).join(', ')} merge entry by entry`,
        });
    });
    return patch;
  }
  const merged = [...base];
  const keyOf = (entry: unknown) => (isMap(entry) ? keyText(rule.of(entry)) : undefined);
  patch.forEach((entry, i) => {
    if (!isMap(entry))
      throw new ExtendsIssue({
        path: [...at, i],
        problem: 'an entry of a list merged by key is a map',
        fix: `write the entry as a map with its ${rule.fields}`,
      });
    const key = keyOf(entry);
    // As server-side apply refuses a patch with duplicate entries for one key: the second is no change of the first.
    const earlier = patch.findIndex((other) => keyOf(other) === key);
    if (earlier < i)
      throw new ExtendsIssue({
        path: [...at, i],
        problem: `a second entry ${key} (entries are matched by ${rule.fields}; the first is entry ${earlier})`,
        fix: 'write each entry once, with every change to it',
      });
    const found = merged.findIndex((b) => keyOf(b) === key);
    const { $patch, ...rest } = entry;
    if ($patch !== undefined && $patch !== 'delete')
      throw new ExtendsIssue({
        path: [...at, i, '$patch'],
        problem: `unknown ${keyText($patch)}`,
        fix: 'write `$patch: delete` to remove the entry, or leave $patch out to add or change it',
      });
    if ($patch === 'delete') {
      if (found < 0)
        throw new ExtendsIssue({
          path: [...at, i],
          problem: `the base has no entry ${keyText(rule.of(entry))} to delete (entries are matched by ${rule.fields})`,
          fix: `copy the ${rule.fields} of the base's entry exactly, or drop this entry`,
        });
      merged.splice(found, 1);
      return;
    }
    const next = found < 0 ? rest : mergeValue(listPath, merged[found], rest, [...at, i], origins);
    if (isMap(next)) origins.set(next, i);
    if (found < 0) merged.push(next);
    else merged[found] = next;
  });
  return merged;
}

function mergeValue(path: string, base: unknown, patch: unknown, at: FieldPath, origins: Origins): unknown {
  if (Array.isArray(patch)) return mergeList(path, Array.isArray(base) ? base : [], patch, at, origins);
  if (!isMap(patch) || !isMap(base)) return patch;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const childPath = path === '' ? key : `${path}.${key}`;
    if (value === null) delete merged[key];
    else
      merged[key] = Object.hasOwn(base, key)
        ? mergeValue(childPath, base[key], value, [...at, key], origins)
        : value;
  }
  return merged;
}

/**
 * The document a file that extends `base` stands for: the base with the file's changes, and the
 * file's own name, description, expectations and golden figures. Throws an ExtendsIssue at the file's path.
 */
export function mergeScopeDocuments(
  base: Record<string, unknown>,
  patch: Record<string, unknown>,
  origins: Origins,
): Record<string, unknown> {
  const { extends: _extends, ...changes } = patch;
  const inherited: Record<string, unknown> = { ...base };
  for (const field of ownFields) delete inherited[field];
  const merged = mergeValue('', inherited, changes, [], origins) as Record<string, unknown>;
  for (const field of ['name', 'description'] as const)
    if (!Object.hasOwn(patch, field))
      throw new ExtendsIssue({
        path: [field],
        problem: `missing: a scope that extends another has its own ${field}`,
        fix: `write the ${field} of this scope; ${ownFields.join(', ')} are never taken from the base`,
      });
  return merged;
}

/**
 * A path of the merged document as a path of the file that extends: list indices of entries the file
 * wrote become theirs; null when the path leads into what the base alone wrote.
 */
export function pathInPatch(
  merged: unknown,
  patch: unknown,
  path: FieldPath,
  origins: Origins,
): FieldPath | null {
  const out: (string | number)[] = [];
  let node: unknown = merged;
  let own: unknown = patch;
  for (const part of path) {
    if (typeof part === 'number' && Array.isArray(node)) {
      const entry = node[part];
      // A list the file wrote whole is its own; a list merged by key maps each entry to where the file wrote it.
      const index = node === own ? part : isMap(entry) ? origins.get(entry) : undefined;
      if (index === undefined) return null;
      out.push(index);
      node = entry;
      own = Array.isArray(own) ? own[index] : undefined;
    } else {
      out.push(part);
      node = isMap(node) ? node[part as string] : undefined;
      own = isMap(own) ? own[part as string] : undefined;
    }
  }
  return out;
}
