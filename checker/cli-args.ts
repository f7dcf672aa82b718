import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Scope } from '../machines/scope.ts';
import { scopes } from '../machines/scopes.ts';
import { baseVariantName, variants } from '../machines/variants.ts';
import { safetyProperties } from '../properties/safety.ts';

/**
 * Strict argument parsing for `npm run verify`. Every mistake becomes a `UsageError` whose message is
 * one line naming the flag and the fix; the CLI prints it and exits 2.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface VerifyArgs {
  /** The scope as given: a built-in name, or the file it was read from. */
  scopeSource: { kind: 'named'; name: string } | { kind: 'file'; path: string };
  scope: Scope;
  variant: string;
  /** Property ids to check; empty means all of them. */
  properties: string[];
  maxStates?: number;
  json: boolean;
  random?: { runs: number; seed?: number; path?: string };
  help: boolean;
}

export const verifyUsage = [
  'usage: npm run verify -- [--scope NAME|FILE] [--variant NAME] [--property ID]... [--max-states N] [--json]',
  '                         [--random [--runs N] [--seed S [--path P]]]',
  '',
  `  --scope NAME|FILE   a named scope (${Object.keys(scopes).join(', ')}) or a JSON scope file (default: default)`,
  `  --variant NAME      ${baseVariantName} (the machines as written, default) or one of: ${variants.map((v) => v.name).join(', ')}`,
  '  --property ID       check only this property (repeatable; default: every safety property)',
  '  --max-states N      stop after N distinct states (the verdicts then cover only what was explored)',
  '  --json              print the JSON report on stdout instead of the summary',
  '  --random            random runs (checker/random.ts) instead of the exhaustive search',
  '  --runs N, --seed S  number of random runs (default 100) and the seed that replays them',
  '  --path P            with --seed, replays one reported random failure (its fast-check path)',
  '',
  'The full default run (no flag but --json) writes generated/report.json, report.md, counterexamples/ and',
  'traceability.md; any other run writes generated/runs/<variant>-<scope>/, which is not committed.',
  'Exit codes: 0 every property holds, 12 a safety property is violated, 2 bad arguments or input, 1 internal error.',
].join('\n');

const defaultRandomRuns = 100;

type FlagName = '--scope' | '--variant' | '--property' | '--max-states' | '--runs' | '--seed' | '--path';
const valueFlags: readonly FlagName[] = [
  '--scope',
  '--variant',
  '--property',
  '--max-states',
  '--runs',
  '--seed',
  '--path',
];
const switches = ['--json', '--random', '--help', '-h'] as const;

const variantNames = () => [baseVariantName, ...variants.map((v) => v.name)];

export function parseVerifyArgs(argv: readonly string[]): VerifyArgs {
  const values = new Map<FlagName, string[]>();
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const equals = argument.startsWith('--') ? argument.indexOf('=') : -1;
    const flag = equals > 0 ? argument.slice(0, equals) : argument;
    if ((switches as readonly string[]).includes(flag)) {
      if (equals > 0) throw new UsageError(`${flag} takes no value; write it alone`);
      seen.add(flag);
      continue;
    }
    if (!(valueFlags as readonly string[]).includes(flag)) {
      const hint = argument.startsWith('-')
        ? `known flags: ${[...valueFlags, ...switches.slice(0, 3)].join(', ')}`
        : 'every value follows its flag, e.g. --scope default';
      throw new UsageError(`unknown argument ${JSON.stringify(argument)}; ${hint}`);
    }
    const name = flag as FlagName;
    let value: string | undefined;
    if (equals > 0) value = argument.slice(equals + 1);
    else {
      value = argv[i + 1];
      if (value?.startsWith('--')) value = undefined;
      else i++;
    }
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value: ${example(name)}`);
    if (name !== '--property' && values.has(name)) throw new UsageError(`${name} given twice; give it once`);
    values.set(name, [...(values.get(name) ?? []), value]);
  }

  const one = (name: FlagName) => values.get(name)?.[0];
  if (seen.has('--help') || seen.has('-h')) {
    return { ...resolveScope('default'), variant: baseVariantName, properties: [], json: false, help: true };
  }

  const variant = one('--variant') ?? baseVariantName;
  if (!variantNames().includes(variant)) {
    throw new UsageError(
      `--variant: unknown variant ${JSON.stringify(variant)}; use one of ${variantNames().join(', ')}`,
    );
  }

  const propertyIds = safetyProperties.map((p) => p.id);
  const properties = [...new Set(values.get('--property') ?? [])];
  for (const id of properties) {
    if (!propertyIds.includes(id)) {
      throw new UsageError(
        `--property: unknown property ${JSON.stringify(id)}; use one of ${propertyIds.join(', ')}`,
      );
    }
  }

  const maxStatesText = one('--max-states');
  const maxStates = maxStatesText === undefined ? undefined : positiveInteger('--max-states', maxStatesText);

  const random = seen.has('--random');
  const randomOnly = (['--runs', '--seed', '--path'] as const).find((flag) => values.has(flag));
  if (!random && randomOnly) throw new UsageError(`${randomOnly} only applies to random runs; add --random`);
  if (values.has('--path') && !values.has('--seed')) {
    throw new UsageError(
      '--path replays a failure only together with its seed; add the --seed it was reported with',
    );
  }
  if (random && seen.has('--json'))
    throw new UsageError('--json prints the exhaustive report; drop it or drop --random');
  if (random && maxStates !== undefined)
    throw new UsageError('--max-states applies to the exhaustive search; drop it or drop --random');
  const runsText = one('--runs');
  const seedText = one('--seed');
  const seed = seedText === undefined ? undefined : integer('--seed', seedText);

  const scopeText = one('--scope') ?? 'default';
  const { scopeSource, scope } = resolveScope(scopeText);

  return {
    scopeSource,
    scope,
    variant,
    properties,
    ...(maxStates !== undefined ? { maxStates } : {}),
    json: seen.has('--json'),
    ...(random
      ? {
          random: {
            runs: runsText === undefined ? defaultRandomRuns : positiveInteger('--runs', runsText),
            ...(seed !== undefined ? { seed } : {}),
            ...(values.has('--path') ? { path: one('--path') } : {}),
          },
        }
      : {}),
    help: false,
  };
}

function example(flag: FlagName): string {
  switch (flag) {
    case '--scope':
      return `--scope ${Object.keys(scopes).join('|')} or --scope path/to/scope.json`;
    case '--variant':
      return `--variant ${variantNames()[1] ?? baseVariantName}`;
    case '--property':
      return `--property ${safetyProperties[0].id}`;
    case '--max-states':
      return '--max-states 50000';
    case '--runs':
      return '--runs 2000';
    case '--seed':
      return '--seed 42';
    case '--path':
      return '--path 3:1:0';
  }
}

function positiveInteger(flag: FlagName, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(
      `${flag} needs a positive whole number, got ${JSON.stringify(text)}: ${example(flag)}`,
    );
  }
  return value;
}

function integer(flag: FlagName, text: string): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${flag} needs a whole number, got ${JSON.stringify(text)}: ${example(flag)}`);
  }
  return value;
}

/** A built-in scope by name, else a JSON file; anything else names the valid choices. */
export function resolveScope(text: string): Pick<VerifyArgs, 'scopeSource' | 'scope'> {
  const named = Object.hasOwn(scopes, text) ? scopes[text] : undefined;
  if (named) return { scopeSource: { kind: 'named', name: text }, scope: named };
  if (!text.endsWith('.json') && !text.includes('/')) {
    throw new UsageError(
      `--scope: unknown scope ${JSON.stringify(text)}; use one of ${Object.keys(scopes).join(', ')}, or a path to a JSON scope file`,
    );
  }
  return { scopeSource: { kind: 'file', path: text }, scope: loadScopeFile(text) };
}

export function loadScopeFile(path: string): Scope {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--scope: cannot read ${path} (${code ?? String(error)}); give an existing JSON file or a scope name`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--scope: ${path} is not JSON (${(error as Error).message.replace(/\s+/g, ' ')})`);
  }
  const parsed = scopeSchema.safeParse(data);
  if (!parsed.success)
    throw new UsageError(`--scope: ${path} is not a valid scope: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

/** `namespaces[0].name: expected string` for each issue, at most five, on one line. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues
    .slice(0, 5)
    .map((issue) => `${issuePath(issue.path) || '(top level)'}: ${issue.message}`);
  const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : '';
  return `${shown.join('; ')}${more}`;
}

function issuePath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

const requestTemplates = [
  'create-namespace',
  'create-namespace-with-initializers',
  'get-namespace',
  'delete-namespace',
  'complete-first-initializer',
  'update-finalizers',
  'finalize-remove-kubernetes',
  'create-content',
  'delete-content',
  'get-content',
  'list-content-all-namespaces',
] as const;

const nonEmpty = z.string().min(1);
const subjectKind = z.enum(['User', 'Group', 'ServiceAccount']);
const subjectSpec = z.strictObject({ kind: subjectKind, name: nonEmpty, namespace: nonEmpty.optional() });
const policyRule = z.strictObject({
  apiGroups: z.array(z.string()),
  resources: z.array(nonEmpty),
  verbs: z.array(nonEmpty),
  resourceNames: z.array(nonEmpty).optional(),
});
// What a Role or RoleBinding grants (machines/scope.ts ObjectSlot).
const rbacDefinition = {
  roleBinding: z
    .strictObject({
      clusterRole: nonEmpty,
      roleKind: z.enum(['ClusterRole', 'Role']).optional(),
      subject: nonEmpty,
      subjectKind: subjectKind.optional(),
      subjectNamespace: nonEmpty.optional(),
      moreSubjects: z.array(subjectSpec).optional(),
    })
    .optional(),
  role: z.strictObject({ rules: z.array(policyRule) }).optional(),
};
const objectSlot = z.strictObject({
  resource: nonEmpty,
  name: nonEmpty,
  ...rbacDefinition,
  byNamespace: z.record(nonEmpty, z.strictObject(rbacDefinition)).optional(),
});
const initializer = z.strictObject({
  name: nonEmpty,
  failurePolicy: z.enum(['Ignore', 'Fail']),
  timeoutSeconds: z.number().int().positive(),
  populates: objectSlot,
  canFail: z.boolean(),
});
// Slots are bits of a 32-bit mask in the system state, so each kind of slot stays below 31.
const slotLimit = 30;

/** The shape of `Scope` (machines/scope.ts), checked field by field, plus the references between fields. */
export const scopeSchema: z.ZodType<Scope> = z
  .strictObject({
    name: nonEmpty,
    description: z.string(),
    namespaces: z
      .array(
        z.strictObject({
          // Not validated as a DNS label here: invalid names are part of what a scope explores (NS-1).
          name: nonEmpty,
          creator: nonEmpty.optional(),
          extraFinalizers: z.array(nonEmpty).optional(),
          system: z.boolean().optional(),
          preexisting: z.boolean().optional(),
          initialFinalizers: z.array(nonEmpty).optional(),
          initialContent: z.array(nonEmpty).optional(),
        }),
      )
      .min(1)
      .max(slotLimit),
    configurations: z
      .array(
        z.strictObject({
          name: nonEmpty,
          initializers: z.array(initializer),
          registered: z.enum(['initially', 'later']),
        }),
      )
      .max(slotLimit),
    principals: z.array(
      z.strictObject({
        name: nonEmpty,
        groups: z.array(nonEmpty),
        requests: z.array(z.enum(requestTemplates)),
        namespaces: z.array(nonEmpty).optional(),
        tenant: z.boolean().optional(),
      }),
    ),
    clusterRoleBindings: z.array(
      z.strictObject({ name: nonEmpty, clusterRole: nonEmpty, subjects: z.array(subjectSpec) }),
    ),
    // Besides the bootstrap ClusterRoles (machines/bootstrap-rbac.ts); the same name replaces one.
    clusterRoles: z
      .array(z.strictObject({ metadata: z.strictObject({ name: nonEmpty }), rules: z.array(policyRule) }))
      .optional(),
    content: z.array(objectSlot).max(slotLimit),
    finalizerOwners: z.array(nonEmpty).max(slotLimit),
    faults: z.strictObject({
      initializerCrash: z.boolean(),
      configReadFailure: z.boolean(),
      apiserverRestart: z.boolean(),
    }),
    clock: z.strictObject({
      horizonSeconds: z.number().int().min(0).max(255),
      readRepairTimeoutSeconds: z.number().int().positive(),
    }),
  })
  .superRefine((scope, context) => {
    const namespaceNames = scope.namespaces.map((n) => n.name);
    const duplicate = (names: string[]) => names.find((name, i) => names.indexOf(name) !== i);
    const twice = duplicate(namespaceNames);
    if (twice)
      context.addIssue({
        code: 'custom',
        path: ['namespaces'],
        message: `namespace ${JSON.stringify(twice)} is listed twice`,
      });
    scope.principals.forEach((principal, i) => {
      principal.namespaces?.forEach((name, k) => {
        if (!namespaceNames.includes(name)) {
          context.addIssue({
            code: 'custom',
            path: ['principals', i, 'namespaces', k],
            message: `no namespace ${JSON.stringify(name)} in this scope (namespaces: ${namespaceNames.join(', ')})`,
          });
        }
      });
    });
    const slots = scope.content.length + scope.configurations.reduce((n, c) => n + c.initializers.length, 0);
    if (slots > slotLimit) {
      context.addIssue({
        code: 'custom',
        path: ['content'],
        message: `at most ${slotLimit} object slots (content plus initializers), got ${slots}`,
      });
    }
  });
