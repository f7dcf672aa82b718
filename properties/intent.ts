import { memoByPair } from '../checker/engine/memo.ts';
import {
  type ConfigurationSpec,
  configurationAdministrator,
  configurationEntries,
  finalizerOwnerAccount,
  type InitializerSpec,
  initializerAccount,
  namespaceControllerAccount,
  type Scope,
  type ScopeIntent,
} from '../machines/scope.ts';

/**
 * The oracle's side of a scope: what the documents intend, as the scope declares it (`scope.intent`),
 * or, for a scope that declares none, read off its declarations (creators, the built-in accounts, the
 * initializers' numbers). Never computed by RBAC, admission, timer or configuration code.
 */
export interface Intent extends ScopeIntent {
  /** Every principal that is some namespace's tenant, or that the scope marks as one (RB-5). */
  tenantPrincipals: ReadonlySet<string>;
}

/** AC-2 (document 005): no successful configuration read for 5 s and admission refuses writes. */
const documentedStalenessSeconds = 5;

const resolved = new WeakMap<Scope, Intent>();

export function intentOf(scope: Scope): Intent {
  const cached = resolved.get(scope);
  if (cached) return cached;
  const declared = scope.intent ?? readOffDeclarations(scope);
  // Every scope's configurations are registered by the cluster administrator (004): cluster-wide by definition.
  const clusterWide = [...new Set([...declared.clusterWide, configurationAdministrator.name])];
  const tenantPrincipals = new Set([
    ...Object.values(declared.tenants).flat(),
    ...scope.principals.filter((p) => p.tenant === true).map((p) => p.name),
  ]);
  const intent = { ...declared, clusterWide, tenantPrincipals };
  resolved.set(scope, intent);
  return intent;
}

/** Document 000's reading of a scope that states no intent: creators own their namespaces, masters and the initializer account hold `initialize`. */
function readOffDeclarations(scope: Scope): ScopeIntent {
  const initializers = scope.configurations.flatMap((c) => c.initializers);
  const masters = scope.principals.filter((p) => p.groups.includes('system:masters')).map((p) => p.name);
  const tenants: Record<string, string[]> = {};
  for (const ns of scope.namespaces) if (ns.creator !== undefined) tenants[ns.name] = [ns.creator];
  const finalizerOwners: Record<string, string> = { kubernetes: namespaceControllerAccount };
  for (const owner of scope.finalizerOwners) finalizerOwners[owner] = finalizerOwnerAccount(owner);
  return {
    initializeHolders: [initializerAccount, ...masters],
    initializerAccounts: Object.fromEntries(initializers.map((i) => [i.name, initializerAccount])),
    tenants,
    clusterWide: [
      namespaceControllerAccount,
      ...scope.finalizerOwners.map(finalizerOwnerAccount),
      ...masters,
      ...scope.clusterRoleBindings.flatMap((b) =>
        b.subjects.filter((s) => s.kind === 'User').map((s) => s.name),
      ),
    ],
    finalizerOwners,
    tenantsMayGetNamespaceObjects: true,
    timeouts: {
      configurationStaleAfterSeconds: documentedStalenessSeconds,
      readRepairSeconds: scope.clock.readRepairTimeoutSeconds,
      initializers: Object.fromEntries(initializers.map((i) => [i.name, i.timeoutSeconds])),
    },
  };
}

/** RB-3, D-17: the principal is meant to hold `initialize`. */
export function meantToInitialize(intent: Intent, principal: string): boolean {
  return intent.initializeHolders.includes(principal);
}

/** RB-5: the principal is a tenant and the namespace belongs to others only (by default, its declared tenants). */
export function foreignTo(
  intent: Intent,
  principal: string,
  namespace: string,
  owners: readonly string[] | undefined = intent.tenants[namespace],
): boolean {
  if (!intent.tenantPrincipals.has(principal)) return false;
  return owners !== undefined && !owners.includes(principal);
}

/** IN-1 restated from document 004: configurations sorted by name, entries in order, a name listed twice kept once. */
export function documentedPendingList(
  scope: Scope,
  configurations: readonly string[],
  versions: Readonly<Record<string, number>> = {},
): string[] {
  const out: string[] = [];
  for (const i of documentedEntries(scope, configurations, versions))
    if (!out.includes(i.name)) out.push(i.name);
  return out;
}

/**
 * FP-3, D-32: the entries the named configurations give a namespace create, at the versions updates
 * gave them, configurations by name: every entry of 000's kind, an InitializerConfiguration entry with
 * a rule naming core v1 namespaces (AC-4), never a webhook's (AC-5).
 */
function documentedEntries(
  scope: Scope,
  configurations: readonly string[],
  versions: Readonly<Record<string, number>>,
): InitializerSpec[] {
  // Judged on every step with the copy's own (interned) arrays: computed once per copy.
  const memo = entriesByVersions(scope, configurations);
  let entries = memo.get(versions);
  if (!entries) {
    const named = scope.configurations
      .filter((c) => configurations.includes(c.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    entries = named.flatMap((c) =>
      configurationEntries(c, versions[c.name] ?? 0).filter((i) => addsToNamespaces(c, i)),
    );
    memo.set(versions, entries);
  }
  return entries;
}

const entriesByVersions = memoByPair(
  (_scope: Scope, _configurations: readonly string[]) =>
    new WeakMap<Readonly<Record<string, number>>, InitializerSpec[]>(),
);

const holdsOrStar = (items: readonly string[], item: string) => items.includes(item) || items.includes('*');
function addsToNamespaces(c: ConfigurationSpec, i: InitializerSpec): boolean {
  const kind = c.kind ?? 'NamespaceInitializerConfiguration';
  if (kind !== 'InitializerConfiguration') return kind === 'NamespaceInitializerConfiguration';
  return (i.rules ?? []).some(
    (r) =>
      holdsOrStar(r.apiGroups, '') &&
      holdsOrStar(r.apiVersions, 'v1') &&
      r.resources.some((x) => ['namespaces', '*', 'namespaces/*', '*/*'].includes(x)),
  );
}

/**
 * D-32: the failure policy and timeout the documents give an initializer now: its entry in the copy
 * admission read (the versions it read), else its declaration in the scope, else none.
 */
export function declaredInitializer(
  scope: Scope,
  read: readonly string[],
  versions: Readonly<Record<string, number>>,
  name: string,
): InitializerSpec | undefined {
  return (
    documentedEntries(scope, read, versions).find((i) => i.name === name) ??
    scope.configurations.flatMap((c) => c.initializers).find((i) => i.name === name) ??
    scope.configurations
      .flatMap((c) => (c.updates ?? []).flatMap((u) => u.initializers))
      .find((i) => i.name === name)
  );
}

/** NS-1 (D-1): a DNS label, 1–63 characters of `[a-z0-9]([-a-z0-9]*[a-z0-9])?`. */
export function isDnsLabelName(name: string): boolean {
  return name.length >= 1 && name.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name);
}

/** LC-2 (D-13): `kubernetes`, `orphan`, `foregroundDeletion`, or `prefix/name` with a DNS-subdomain prefix. */
export function isFinalizerName(name: string): boolean {
  let known = finalizerNames.get(name);
  if (known === undefined) {
    known = qualifiedFinalizerName(name);
    finalizerNames.set(name, known);
  }
  return known;
}

// Judged on every state: a name's verdict is computed once.
const finalizerNames = new Map<string, boolean>();
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function qualifiedFinalizerName(name: string): boolean {
  const parts = name.split('/');
  if (parts.length === 1) return ['kubernetes', 'orphan', 'foregroundDeletion'].includes(name);
  if (parts.length !== 2) return false;
  const [prefix, part] = parts;
  return (
    prefix.length <= 253 &&
    dnsSubdomain.test(prefix) &&
    part.length <= 63 &&
    /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(part)
  );
}
