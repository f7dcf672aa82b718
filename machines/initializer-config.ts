import type {
  FailurePolicy,
  NamespaceInitializerConfiguration,
  NamespaceInitializerEntry,
  OperationType,
} from './k8s-types.ts';
import { failurePolicies } from './k8s-types.ts';
import { dnsSubdomainErrors, invalidValue, validateInitializerName } from './names.ts';
import { validateRule, validateRuleWithVerbs } from './rules.ts';

/**
 * NamespaceInitializerConfiguration rules: how admission merges every configuration into the pending
 * list of a new namespace (IN-1), the defaults of each entry (FP-1) and the fail-open-at-creation
 * rule (FP-3).
 */

/**
 * Doc 004 only lets configurations be created fail open, so an entry that names no policy is fail
 * open too: a freshly registered initializer that never starts must not block the cluster (FP-5).
 */
export const defaultFailurePolicy: FailurePolicy = 'Ignore';

/** Doc 004: "The default timeout for each initializer is 5s." */
export const defaultInitializerTimeoutSeconds = 5;

/** An entry with its defaults filled in. */
export interface EffectiveInitializer {
  name: string;
  failurePolicy: FailurePolicy;
  timeoutSeconds: number;
}

/** What the merge reads of a configuration: its name and its entries (apiVersion/kind may be absent). */
export type MergeableConfiguration = Pick<NamespaceInitializerConfiguration, 'initializers'> & {
  metadata: { name: string };
};

// Go's sort.Strings order (bytewise), which is JS's code-unit order for the ASCII names allowed.
const byName = (a: MergeableConfiguration, b: MergeableConfiguration): number =>
  a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;

/** FP-1: the entry with failurePolicy Ignore and a 5 s timeout unless it says otherwise. */
export function withDefaults(entry: NamespaceInitializerEntry): EffectiveInitializer {
  return {
    name: entry.name,
    failurePolicy: entry.failurePolicy ?? defaultFailurePolicy,
    timeoutSeconds: entry.timeoutSeconds ?? defaultInitializerTimeoutSeconds,
  };
}

/**
 * IN-1, FP-1: the pending list admission injects into a new namespace. Configurations sorted by
 * name, entries of one configuration in their order, a name listed twice kept once (first wins).
 */
export function mergeInitializerConfigurations(
  configs: readonly MergeableConfiguration[],
): EffectiveInitializer[] {
  const merged: EffectiveInitializer[] = [];
  const seen = new Set<string>();
  for (const config of [...configs].sort(byName)) {
    for (const entry of config.initializers ?? []) {
      if (seen.has(entry.name)) continue;
      seen.add(entry.name);
      merged.push(withDefaults(entry));
    }
  }
  return merged;
}

/** Shape errors any configuration must be free of, on create and on update (FP-1). */
export function validateConfiguration(config: MergeableConfiguration): string[] {
  const errors: string[] = [];
  const name = config.metadata.name;
  if (name.length === 0) errors.push('metadata.name: Required value: name or generateName is required');
  else errors.push(...dnsSubdomainErrors(name).map((m) => invalidValue('metadata.name', name, m)));
  const names = new Set<string>();
  (config.initializers ?? []).forEach((entry, index) => {
    const path = `initializers[${index}]`;
    if (entry.name.length === 0) errors.push(`${path}.name: Required value`);
    else if (names.has(entry.name))
      errors.push(`${path}.name: Duplicate value: ${JSON.stringify(entry.name)}`);
    names.add(entry.name);
    if (entry.failurePolicy !== undefined && !failurePolicies.includes(entry.failurePolicy))
      errors.push(
        `${path}.failurePolicy: Unsupported value: ${JSON.stringify(entry.failurePolicy)}: supported values: "Fail", "Ignore"`,
      );
    if (
      entry.timeoutSeconds !== undefined &&
      !(Number.isInteger(entry.timeoutSeconds) && entry.timeoutSeconds > 0)
    )
      errors.push(
        `${path}.timeoutSeconds: Invalid value: ${entry.timeoutSeconds}: must be a positive integer`,
      );
  });
  return errors;
}

/** FP-3: a configuration is created fail open only; any `Fail` entry is refused (422). */
export function validateNewConfiguration(config: MergeableConfiguration): string[] {
  const errors = validateConfiguration(config);
  (config.initializers ?? []).forEach((entry, index) => {
    if (entry.failurePolicy === 'Fail')
      errors.push(
        `initializers[${index}].failurePolicy: Forbidden: new configurations must be created fail open (Ignore); update to Fail afterwards`,
      );
  });
  return errors;
}

/** FP-3: an update may switch entries to `Fail` (the initializer, or a human, upgrades it later). */
export function validateConfigurationUpdate(
  previous: MergeableConfiguration,
  next: MergeableConfiguration,
): string[] {
  const errors = validateConfiguration(next);
  if (previous.metadata.name !== next.metadata.name)
    errors.push(`metadata.name: Invalid value: ${JSON.stringify(next.metadata.name)}: field is immutable`);
  return errors;
}

/** Shipped webhook validation's bound on `timeoutSeconds` (D-32): 004 names only the 5 s default. */
export const maxInitializerTimeoutSeconds = 30;

/** One entry of a configuration request, as the request pipeline validates it (D-7, D-24, D-32). */
export interface ConfigurationEntry {
  name: string;
  failurePolicy?: string;
  timeoutSeconds?: number;
  rules?: { apiGroups: string[]; apiVersions: string[]; resources: string[]; verbs?: string[] }[];
}

/** The field that lists a configuration's entries: a webhook configuration's `externalAdmissionHooks`, else `initializers`. */
export const entriesField = (
  kind:
    | 'NamespaceInitializerConfiguration'
    | 'InitializerConfiguration'
    | 'ExternalAdmissionHookConfiguration',
): 'externalAdmissionHooks' | 'initializers' =>
  kind === 'ExternalAdmissionHookConfiguration' ? 'externalAdmissionHooks' : 'initializers';

/**
 * FP-1, FP-3, AC-4, AC-5: the 422 field errors of a configuration a create or update sends. Entries
 * live under `initializers` or, for a webhook configuration, `externalAdmissionHooks`; a create may
 * not name a fail-closed entry (D-7), an update may.
 */
export function configurationRequestErrors(
  kind:
    | 'NamespaceInitializerConfiguration'
    | 'InitializerConfiguration'
    | 'ExternalAdmissionHookConfiguration',
  name: string,
  entries: readonly ConfigurationEntry[],
  operation: 'create' | 'update',
): string[] {
  const errors: string[] = [];
  if (name.length === 0) errors.push('metadata.name: Required value: name or generateName is required');
  else errors.push(...dnsSubdomainErrors(name).map((m) => invalidValue('metadata.name', name, m)));
  const list = entriesField(kind);
  const seen = new Set<string>();
  entries.forEach((entry, k) => {
    const path = `${list}[${k}]`;
    errors.push(...validateInitializerName(entry.name, `${path}.name`));
    if (entry.name.length > 0 && seen.has(entry.name))
      errors.push(`${path}.name: Duplicate value: ${JSON.stringify(entry.name)}`);
    seen.add(entry.name);
    const policy = entry.failurePolicy;
    if (policy !== undefined && !failurePolicies.includes(policy as FailurePolicy))
      errors.push(
        `${path}.failurePolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Fail", "Ignore"`,
      );
    else if (policy === 'Fail' && operation === 'create')
      errors.push(`${path}.failurePolicy: Unsupported value: "Fail": supported values: "Ignore"`);
    const timeout = entry.timeoutSeconds;
    if (
      timeout !== undefined &&
      !(Number.isInteger(timeout) && timeout >= 1 && timeout <= maxInitializerTimeoutSeconds)
    )
      errors.push(
        `${path}.timeoutSeconds: Invalid value: ${timeout}: the timeout value must be between 1 and ${maxInitializerTimeoutSeconds} seconds`,
      );
    (entry.rules ?? []).forEach((rule, j) => {
      const prefix = `${path}.rules[${j}].`;
      const ruleErrors =
        kind === 'ExternalAdmissionHookConfiguration'
          ? validateRuleWithVerbs({ ...rule, verbs: (rule.verbs ?? []) as OperationType[] })
          : validateRule(rule);
      errors.push(...ruleErrors.map((e) => `${prefix}${e}`));
    });
  });
  return errors;
}
