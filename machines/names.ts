/**
 * Name rules, as shipped Kubernetes validates them (k8s.io/apimachinery/pkg/util/validation and
 * pkg/apis/core/validation). Each validator returns the messages a 422 Invalid response carries,
 * in Kubernetes' own wording, so the model's refusals read like a real API server's.
 */

export const dnsLabelMaxLength = 63;
export const dnsSubdomainMaxLength = 253;
export const qualifiedNamePartMaxLength = 63;

const dnsLabelFormat = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dnsSubdomainFormat = `${dnsLabelFormat}(\\.${dnsLabelFormat})*`;
const qualifiedNamePartFormat = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';

const dnsLabelPattern = new RegExp(`^${dnsLabelFormat}$`);
const dnsSubdomainPattern = new RegExp(`^${dnsSubdomainFormat}$`);
const qualifiedNamePartPattern = new RegExp(`^${qualifiedNamePartFormat}$`);

// Same text as apimachinery's RegexError, so messages match a real server's.
const regexError = (message: string, format: string, ...examples: string[]): string =>
  `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${format}')`;

const maxLengthError = (length: number): string => `must be no more than ${length} characters`;

/** apimachinery's messages for a value of at most `maxLength` characters matching `pattern`: too long, then `mismatch`. */
function boundedPatternErrors(
  value: string,
  maxLength: number,
  pattern: RegExp,
  mismatch: () => string,
): string[] {
  const errors: string[] = [];
  if (value.length > maxLength) errors.push(maxLengthError(maxLength));
  if (!pattern.test(value)) errors.push(mismatch());
  return errors;
}

/** Messages of apimachinery's IsDNS1123Label; empty when `value` is a DNS label (NS-1). */
export function dnsLabelErrors(value: string): string[] {
  return boundedPatternErrors(value, dnsLabelMaxLength, dnsLabelPattern, () =>
    // A valid subdomain that is not a label can only be failing on its dots.
    dnsSubdomainPattern.test(value)
      ? 'must not contain dots'
      : regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          dnsLabelFormat,
          'my-name',
          '123-abc',
        ),
  );
}

/** Messages of apimachinery's IsDNS1123Subdomain; empty when `value` is a DNS subdomain. */
export function dnsSubdomainErrors(value: string): string[] {
  return boundedPatternErrors(value, dnsSubdomainMaxLength, dnsSubdomainPattern, () =>
    regexError(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
      dnsSubdomainFormat,
      'example.com',
    ),
  );
}

/** NS-1: 1–63 characters of `[a-z0-9]([-a-z0-9]*[a-z0-9])?`. */
export function isDnsLabel(value: string): boolean {
  return value.length <= dnsLabelMaxLength && dnsLabelPattern.test(value);
}

export function isDnsSubdomain(value: string): boolean {
  return value.length <= dnsSubdomainMaxLength && dnsSubdomainPattern.test(value);
}

/**
 * Messages of apimachinery's IsQualifiedName: `name` or `prefix/name`, the prefix a DNS subdomain,
 * the name 1–63 characters of alphanumerics, `-`, `_`, `.`, starting and ending alphanumeric.
 */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  const errors: string[] = [];
  if (parts.length > 2)
    return [
      `a qualified name ${regexError(
        "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        qualifiedNamePartFormat,
        'MyName',
        'my.name',
        '123-abc',
      )} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const name = parts.length === 2 ? parts[1] : parts[0];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dnsSubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > qualifiedNamePartMaxLength)
    errors.push(`name part ${maxLengthError(qualifiedNamePartMaxLength)}`);
  if (!qualifiedNamePartPattern.test(name))
    errors.push(
      `name part ${regexError(
        "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        qualifiedNamePartFormat,
        'MyName',
        'my.name',
        '123-abc',
      )}`,
    );
  return errors;
}

/** The namespace finalizer every new namespace carries (LC-2). */
export const kubernetesFinalizerName = 'kubernetes';

/**
 * Finalizer names shipped Kubernetes accepts without a `/` prefix (helper.IsStandardFinalizerName):
 * `kubernetes`, plus the garbage collector's `orphan` and `foregroundDeletion`.
 */
export const standardFinalizerNames: readonly string[] = [
  kubernetesFinalizerName,
  'orphan',
  'foregroundDeletion',
];

/** Renders one field error the way a 422 response's message lists it. */
export function invalidValue(fieldPath: string, value: string, message: string): string {
  return `${fieldPath}: Invalid value: ${JSON.stringify(value)}: ${message}`;
}

/** Field errors for a namespace name, as ValidateObjectMeta with ValidateNamespaceName reports them (NS-1). */
export function validateNamespaceName(name: string): string[] {
  if (name.length === 0) return ['metadata.name: Required value: name or generateName is required'];
  return dnsLabelErrors(name).map((message) => invalidValue('metadata.name', name, message));
}

/** The characters shipped names.SimpleNameGenerator draws a suffix from (utilrand.String: no vowels, no 0, 1, 3). */
export const generatedSuffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The name a namespace create with metadata.generateName gets (D-45): the prefix cut to 58 characters
 * (63 less the suffix), then a 5-character suffix. The model draws suffixes in a fixed order: the k-th
 * draw for a prefix (from 0) is the k-th string of 5 characters in the alphabet's order (bbbbb, bbbbc, ...).
 */
export function generatedName(prefix: string, draw: number): string {
  const n = generatedSuffixAlphabet.length;
  let suffix = '';
  for (let k = 0, rest = draw; k < 5; k++, rest = Math.floor(rest / n))
    suffix = generatedSuffixAlphabet[rest % n] + suffix;
  return `${prefix.slice(0, 63 - 5)}${suffix}`;
}

/**
 * Field errors for metadata.generateName of a namespace (NS-1): ValidateObjectMeta validates the prefix
 * with ValidateNamespaceName(prefix, true), which masks a trailing dash before the DNS-label check
 * (maskTrailingDash replaces the last two characters by `a`, so `team-` passes, and `team_-` too).
 */
export function validateGenerateName(prefix: string): string[] {
  const masked = prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -2)}a` : prefix;
  return dnsLabelErrors(masked).map((message) => invalidValue('metadata.generateName', prefix, message));
}

/**
 * Field errors for one `spec.finalizers` entry (LC-2): a qualified name, and when it has no prefix,
 * one of the standard names (core validation's validateFinalizerName).
 */
export function validateFinalizerName(name: string, fieldPath = 'spec.finalizers'): string[] {
  const errors = qualifiedNameErrors(name).map((message) => invalidValue(fieldPath, name, message));
  if (!name.includes('/') && !standardFinalizerNames.includes(name))
    errors.push(
      invalidValue(fieldPath, name, 'name is neither a standard finalizer name nor is it fully qualified'),
    );
  return errors;
}

/**
 * Field errors for an initializer name (D-7, D-17): shipped IsFullyQualifiedName, a DNS subdomain of at
 * least three dot-separated segments; one error, the first that applies.
 */
export function validateInitializerName(name: string, fieldPath: string): string[] {
  if (name.length === 0) return [`${fieldPath}: Required value`];
  const subdomain = dnsSubdomainErrors(name);
  if (subdomain.length > 0) return [invalidValue(fieldPath, name, subdomain.join(','))];
  if (name.split('.').length < 3)
    return [
      invalidValue(fieldPath, name, 'should be a domain with at least three segments separated by dots'),
    ];
  return [];
}

/** LC-2: `kubernetes` (or another standard name) or a qualified `prefix/name` with a DNS-subdomain prefix. */
export function isQualifiedFinalizerName(name: string): boolean {
  return validateFinalizerName(name).length === 0;
}

/** Field errors for a whole finalizer list, indexed as a 422 response indexes them (LC-2). */
export function validateFinalizerNames(names: readonly string[]): string[] {
  return names.flatMap((name, index) => validateFinalizerName(name, `spec.finalizers[${index}]`));
}

/**
 * The message of a 422 Invalid response, e.g.
 * `Namespace "Team_A" is invalid: metadata.name: Invalid value: "Team_A": ...`.
 */
export function invalidObjectMessage(kind: string, name: string, fieldErrors: readonly string[]): string {
  const listed = fieldErrors.length === 1 ? fieldErrors[0] : `[${fieldErrors.join(', ')}]`;
  return `${kind} ${JSON.stringify(name)} is invalid: ${listed}`;
}

/**
 * Path segments after /api/v1/namespaces/NAME that address the namespace itself rather than a kind
 * inside it: shipped Kubernetes reserves `status` and `finalize` (requestinfo.go namespaceSubresources).
 */
export const namespaceSubresources: readonly string[] = ['status', 'finalize'];

/** NS-5: `finalize` (and `status`) name sub-resources of a namespace, never a kind of content inside it. */
export function isReservedNamespaceSubresource(segment: string): boolean {
  return namespaceSubresources.includes(segment);
}

export const labelValueMaxLength = 63;
const labelValuePattern = new RegExp(`^(${qualifiedNamePartFormat})?$`);

/** Messages of apimachinery's IsValidLabelValue: empty, or up to 63 characters of a qualified name part. */
export function labelValueErrors(value: string): string[] {
  return boundedPatternErrors(value, labelValueMaxLength, labelValuePattern, () =>
    regexError(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
      `(${qualifiedNamePartFormat})?`,
      'MyValue',
      'my_value',
      '12345',
    ),
  );
}

/** Field errors of metav1 validation's ValidateLabels: each key a qualified name, each value a label value. */
export function validateLabels(
  labels: Readonly<Record<string, string>>,
  fieldPath = 'metadata.labels',
): string[] {
  return Object.entries(labels).flatMap(([key, value]) => [
    ...qualifiedNameErrors(key).map((message) => invalidValue(fieldPath, key, message)),
    ...labelValueErrors(value).map((message) => invalidValue(fieldPath, value, message)),
  ]);
}

/** Field errors of ValidateAnnotations: each key a qualified name once lowercased (values are free). */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>>,
  fieldPath = 'metadata.annotations',
): string[] {
  return Object.keys(annotations).flatMap((key) =>
    qualifiedNameErrors(key.toLowerCase()).map((message) => invalidValue(fieldPath, key, message)),
  );
}

/** Labels and annotations as ValidateObjectMeta and ValidateObjectMetaUpdate check them on every object. */
export function validateMetadataMaps(metadata: {
  labels?: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
}): string[] {
  return [...validateLabels(metadata.labels ?? {}), ...validateAnnotations(metadata.annotations ?? {})];
}

/**
 * Field errors of ValidateNamespaceStatusUpdate for the phase a status update sends (NS-5, D-30):
 * `Active` unless the namespace has a deletion timestamp, `Terminating` once it has one. The model's
 * own `Initializing` (D-22) is accepted while the namespace initializes.
 */
export function validateNamespaceStatusPhase(
  phase: string,
  deleting: boolean,
  initializing: boolean,
): string[] {
  if (deleting)
    return phase === 'Terminating'
      ? []
      : [
          invalidValue(
            'status.Phase',
            phase,
            "may only be 'Terminating' if `deletionTimestamp` is not empty",
          ),
        ];
  if (phase === 'Active' || (initializing && phase === 'Initializing')) return [];
  return [invalidValue('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
}

/**
 * Field errors for metadata.finalizers (D-46), as shipped apimachinery ValidateFinalizers reports them:
 * each name a qualified name (unindexed path), and `orphan` with `foregroundDeletion` refused together.
 */
export function validateMetadataFinalizers(names: readonly string[]): string[] {
  const errors = names.flatMap((name) =>
    qualifiedNameErrors(name).map((message) => invalidValue('metadata.finalizers', name, message)),
  );
  if (names.includes('orphan') && names.includes('foregroundDeletion'))
    errors.push(
      `metadata.finalizers: Invalid value: []string{${names.map((n) => JSON.stringify(n)).join(', ')}}: finalizer orphan and foregroundDeletion cannot be both set`,
    );
  return errors;
}
