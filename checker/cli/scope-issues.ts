import { z } from 'zod';
import { closest } from './request-line.ts';
import { manifestSchemas, scopeDocumentSchema } from './scope-format.ts';

/** What zod finds in a scope document, said as a Kubernetes user would fix it: one field, one problem, one fix. */

export type FieldPath = readonly (string | number)[];

/** One problem with a scope document: where, what, and how to fix it. */
export interface ScopeIssue {
  path: FieldPath;
  problem: string;
  fix: string;
}

/** Every field name the format knows, to guess what a misspelt one meant. */
function fieldNames(schema: z.core.$ZodType, into = new Set<string>()): Set<string> {
  if (schema instanceof z.ZodObject) {
    for (const [key, value] of Object.entries(schema.shape)) {
      into.add(key);
      fieldNames(value as z.core.$ZodType, into);
    }
  } else if (schema instanceof z.ZodArray) fieldNames(schema.element, into);
  else if (schema instanceof z.ZodOptional) fieldNames(schema.unwrap(), into);
  else if (schema instanceof z.ZodRecord) fieldNames(schema.valueType, into);
  return into;
}
const knownFields = [
  ...[scopeDocumentSchema, ...Object.values(manifestSchemas)].reduce(
    (all, s) => fieldNames(s, all),
    new Set<string>(),
  ),
];

// YAML's words for zod's types: a map, a list, a whole number.
const yamlWords: Record<string, string> = {
  object: 'map',
  array: 'list',
  record: 'map',
  int: 'whole number',
};
const article = (type: string) => {
  const what = yamlWords[type] ?? type;
  return `${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}`;
};
const typeOf = (value: unknown) =>
  Array.isArray(value)
    ? 'array'
    : Number.isInteger(value) || typeof value !== 'number'
      ? typeof value
      : 'fraction';

/** How to rename a value a pattern refused, by the pattern's message (scope-format.ts). */
const formatFixes: Record<string, string> = {
  'not a valid object name': 'use letters, digits and - . : @, starting and ending with a letter or digit',
  'not a finalizer name': 'write kubernetes, or DOMAIN/NAME such as example.com/cleanup',
  'not a fully qualified initializer name':
    'write a domain with at least two dots, such as quota.example.com',
  'a scope name is lowercase letters, digits and dashes':
    'rename it, e.g. my-scope (it names scopes/NAME.yaml)',
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  return value;
}

/** What zod found, as one scope issue: a misspelt key first (with its likely spelling), then the rest. */
export function issueOfZod(
  all: readonly z.core.$ZodIssue[],
  input: unknown,
  prefix: FieldPath = [],
): ScopeIssue {
  const at = (i: z.core.$ZodIssue) => [...prefix, ...(i.path as (string | number)[])];
  const unknown = all.find((i) => i.code === 'unrecognized_keys');
  if (unknown?.code === 'unrecognized_keys') {
    const key = unknown.keys[0];
    // A required field missing beside it is the likeliest meaning; else any field of the format.
    const absent = all
      .filter((i) => i.code === 'invalid_type' && valueAt(input, i.path) === undefined)
      .filter((i) => i.path.slice(0, -1).join('.') === unknown.path.join('.'))
      .map((i) => String(i.path.at(-1)));
    const guess = closest(key, absent) ?? closest(key, knownFields);
    return {
      path: [...at(unknown), key],
      problem: `unknown field "${key}"`,
      fix: guess ? `did you mean "${guess}"?` : 'remove it (the fields are in checker/cli/scope-format.ts)',
    };
  }
  const first = all[0];
  const value = valueAt(input, first.path);
  const field = String(first.path.at(-1) ?? 'it');
  switch (first.code) {
    case 'invalid_type':
      if (value === undefined)
        return { path: at(first), problem: 'missing', fix: `add ${field}: (${article(first.expected)})` };
      return {
        path: at(first),
        problem: `expected ${article(first.expected)}, got ${article(typeOf(value))}`,
        fix: `write ${article(first.expected)}`,
      };
    case 'invalid_value': {
      const allowed = first.values.map((v) => String(v));
      const guess = typeof value === 'string' ? closest(value, allowed) : undefined;
      return {
        path: at(first),
        problem: `${JSON.stringify(value)} is not allowed here`,
        fix:
          allowed.length === 1
            ? `write ${allowed[0]}`
            : `${guess ? `did you mean "${guess}"? ` : ''}use one of ${allowed.join(', ')}`,
      };
    }
    case 'invalid_format':
      return {
        path: at(first),
        problem: `${JSON.stringify(value)}: ${first.message}`,
        fix: formatFixes[first.message] ?? 'rename it',
      };
    case 'too_small':
      return {
        path: at(first),
        problem: first.origin === 'string' ? 'empty' : first.message.replace(/^Too small: /, 'too small: '),
        fix:
          first.origin === 'array'
            ? `list at least ${first.minimum}`
            : first.origin === 'string'
              ? 'write a value'
              : `use a number ${first.inclusive ? 'at least' : 'above'} ${first.minimum}`,
      };
    case 'too_big':
      return {
        path: at(first),
        // A bound with a reason (D-32, FP-4) says it; zod's own wording adds nothing.
        problem: `${JSON.stringify(value)} is too large${first.message.startsWith('Too big') ? '' : ` (${first.message})`}`,
        fix: `use at most ${first.maximum}`,
      };
    default:
      return {
        path: at(first),
        problem: first.message,
        fix: 'see the scope format (checker/cli/scope-format.ts)',
      };
  }
}
