import { readFileSync } from 'node:fs';
import { isMap, isScalar, LineCounter, type Node, parseDocument } from 'yaml';
import { z } from 'zod';
import type { Scope } from '../machines/scope.ts';
import { scopes } from '../machines/scopes.ts';
import { UsageError } from './cli.ts';

/**
 * `--scope NAME|FILE`: a built-in scope, or a JSON scope file checked field by field. Every error is one
 * UsageError line naming the file, the line and the field.
 */
export type ScopeSource = { kind: 'named'; name: string } | { kind: 'file'; path: string };

/** A built-in scope by name, else a JSON file; anything else names the valid choices. */
export function resolveScope(text: string): { scopeSource: ScopeSource; scope: Scope } {
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
    const message = (error as Error).message.replace(/\s+/g, ' ');
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    const line = text.slice(0, position).split('\n').length;
    throw new UsageError(`--scope: ${path}:${line}: not JSON (${message.slice(0, 120)})`);
  }
  const parsed = scopeSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const line = lineOfPath(text, issue.path);
    throw new UsageError(
      `--scope: ${path}:${line}: not a valid scope: ${describeIssues(parsed.error.issues)}`,
    );
  }
  return parsed.data;
}

/** The line of the field at `path` in a JSON text (JSON is YAML, whose parser keeps positions). */
function lineOfPath(text: string, path: readonly PropertyKey[]): number {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  for (let length = path.length; length >= 0; length--) {
    const keys = path.slice(0, length) as (string | number)[];
    const parent = length === 0 ? null : doc.getIn(keys.slice(0, -1), true);
    // An unknown or missing key: the key's own line when it is there.
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === keys.at(-1));
      const node = pair?.key as Node | undefined;
      if (node?.range) return lines.linePos(node.range[0]).line;
    }
    const node = (length === 0 ? doc.contents : doc.getIn(keys, true)) as Node | null | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range)
      return lines.linePos(node.range[0]).line;
  }
  return 1;
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
  'list-content',
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
      readRepairTimeoutSeconds: z.number().int().positive(),
    }),
    // What the documents intend (machines/scope.ts ScopeIntent): the properties judge against it.
    intent: z
      .strictObject({
        initializeHolders: z.array(nonEmpty),
        initializerAccounts: z.record(nonEmpty, nonEmpty),
        tenants: z.record(nonEmpty, z.array(nonEmpty)),
        clusterWide: z.array(nonEmpty),
        finalizerOwners: z.record(nonEmpty, nonEmpty),
        tenantsMayGetNamespaceObjects: z.boolean(),
        timeouts: z.strictObject({
          configurationStaleAfterSeconds: z.number().int().positive(),
          readRepairSeconds: z.number().int().positive(),
          initializers: z.record(nonEmpty, z.number().int().positive()),
        }),
      })
      .optional(),
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
