import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  dnsLabelErrors,
  generatedName,
  invalidObjectMessage,
  isDnsLabel,
  isDnsSubdomain,
  isQualifiedFinalizerName,
  isReservedNamespaceSubresource,
  qualifiedNameErrors,
  validateFinalizerName,
  validateFinalizerNames,
  validateGenerateName,
  validateMetadataFinalizers,
  validateNamespaceName,
} from './names.ts';

const alphanumeric = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
const labelInner = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-');

/** Valid DNS labels: alphanumeric ends, alphanumerics and '-' inside, at most 63 characters. */
const dnsLabel = fc
  .tuple(alphanumeric, fc.array(labelInner, { maxLength: 61 }), alphanumeric, fc.boolean())
  .map(([first, inner, last, single]) => (single ? first : `${first}${inner.join('')}${last}`));

const dnsSubdomain = fc
  .array(dnsLabel, { minLength: 1, maxLength: 4 })
  .map((labels) => labels.join('.'))
  .filter((s) => s.length <= 253);

interface NameRule {
  rule: string;
  isValid: (name: string) => boolean;
  validate: (name: string) => string[];
  accepts: string[];
  /** Each refused name with a part of the message that names the broken rule. */
  refuses: [name: string, message: string][];
}

/** A name rule's examples: an accepted name passes the predicate and the validator, a refused one neither. */
function nameRuleExamples({ rule, isValid, validate, accepts, refuses }: NameRule) {
  it.each(accepts)(`${rule} accepts %s`, (name) => {
    expect(isValid(name)).toBe(true);
    expect(validate(name)).toEqual([]);
  });
  it.each(refuses)(`${rule} refuses %j with a 422 message naming the rule`, (name, message) => {
    expect(isValid(name)).toBe(false);
    expect(validate(name).join('\n')).toContain(message);
  });
}

const refusedLabels: NameRule['refuses'] = [
  ['', 'Required value'],
  ['Team-A', 'a lowercase RFC 1123 label'],
  ['-team', 'a lowercase RFC 1123 label'],
  ['team-', 'a lowercase RFC 1123 label'],
  ['team_a', 'a lowercase RFC 1123 label'],
  ['team.a', 'must not contain dots'],
  ['x'.repeat(64), 'must be no more than 63 characters'],
];

describe('namespace names (NS-1)', () => {
  nameRuleExamples({
    rule: 'NS-1',
    isValid: isDnsLabel,
    validate: validateNamespaceName,
    accepts: ['a', 'team-a', '0', 'a1-b2', 'x'.repeat(63)],
    refuses: refusedLabels,
  });

  it.each(refusedLabels.map(([name]) => name))(
    'NS-1 names the field metadata.name in every message for %j',
    (name) => {
      const errors = validateNamespaceName(name);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e.startsWith('metadata.name: '))).toBe(true);
    },
  );

  it('NS-1 words the message as apimachinery does', () => {
    expect(dnsLabelErrors('Bad')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(invalidObjectMessage('Namespace', 'Bad', validateNamespaceName('Bad'))).toMatch(
      /^Namespace "Bad" is invalid: metadata\.name: Invalid value: "Bad": a lowercase RFC 1123 label/,
    );
  });

  test.prop([dnsLabel])('NS-1 every generated DNS label is accepted', (name) => {
    expect(isDnsLabel(name)).toBe(true);
    expect(validateNamespaceName(name)).toEqual([]);
  });

  test.prop([dnsLabel, fc.constantFrom('A', '_', '.', ' ', '/', 'é'), fc.nat()])(
    'NS-1 a label with a foreign character is refused',
    (name, bad, at) => {
      const position = at % (name.length + 1);
      const spoiled = `${name.slice(0, position)}${bad}${name.slice(position)}`;
      expect(isDnsLabel(spoiled)).toBe(false);
      expect(validateNamespaceName(spoiled).length).toBeGreaterThan(0);
    },
  );

  test.prop([fc.string({ maxLength: 80 })])('NS-1 validator and predicate agree on any string', (name) => {
    expect(validateNamespaceName(name).length === 0).toBe(isDnsLabel(name));
  });

  test.prop([dnsSubdomain])('every generated DNS subdomain is accepted', (name) => {
    expect(isDnsSubdomain(name)).toBe(true);
  });
});

describe('generated namespace names (NS-1, D-45)', () => {
  it('draws 5-character suffixes in a fixed order after the prefix, cut to 58 characters', () => {
    expect(generatedName('team-', 0)).toBe('team-bbbbb');
    expect(generatedName('team-', 1)).toBe('team-bbbbc');
    expect(generatedName('team-', 27)).toBe('team-bbbcb');
    const long = 'a'.repeat(70);
    expect(generatedName(long, 0)).toBe(`${'a'.repeat(58)}bbbbb`);
    expect(isDnsLabel(generatedName(long, 3))).toBe(true);
  });

  it('validates the prefix as a DNS label with one trailing dash masked, as ValidateNamespaceName(prefix, true)', () => {
    expect(validateGenerateName('team-')).toEqual([]);
    expect(validateGenerateName('team')).toEqual([]);
    expect(validateGenerateName('t-')).toEqual([]);
    // Shipped maskTrailingDash replaces the last two characters by `a`: the one before the dash goes unchecked.
    expect(validateGenerateName('team_-')).toEqual([]);
    expect(validateGenerateName('-team')).toHaveLength(1);
    expect(validateGenerateName('Team_')).toEqual(
      dnsLabelErrors('Team_').map((m) => `metadata.generateName: Invalid value: "Team_": ${m}`),
    );
  });
});

describe('finalizer names (LC-2)', () => {
  nameRuleExamples({
    rule: 'LC-2',
    isValid: isQualifiedFinalizerName,
    validate: validateFinalizerName,
    accepts: [
      'kubernetes',
      'openshift.com/origin',
      'example.com/My_Finalizer.v1',
      'a/b',
      // Shipped Kubernetes also accepts the garbage collector's standard names without a prefix.
      'orphan',
      'foregroundDeletion',
    ],
    refuses: [
      ['', 'name part must be non-empty'],
      ['origin', 'neither a standard finalizer name nor is it fully qualified'],
      ['/origin', 'prefix part must be non-empty'],
      ['openshift.com/', 'name part must be non-empty'],
      ['Openshift.com/origin', 'prefix part a lowercase RFC 1123 subdomain'],
      ['openshift.com/origin/x', 'a qualified name must consist'],
      ['openshift.com/-origin', 'name part must consist'],
      [`openshift.com/${'x'.repeat(64)}`, 'name part must be no more than 63 characters'],
    ],
  });

  it('LC-2 indexes errors by position in spec.finalizers', () => {
    expect(validateFinalizerNames(['kubernetes', 'bad'])).toEqual([
      'spec.finalizers[1]: Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  const namePart = fc
    .tuple(
      fc.constantFrom(...'abcXYZ019'),
      fc.array(fc.constantFrom(...'abcXYZ019-_.'), { maxLength: 20 }),
      fc.constantFrom(...'abcXYZ019'),
    )
    .map(([first, inner, last]) => `${first}${inner.join('')}${last}`);

  test.prop([dnsSubdomain, namePart])(
    'LC-2 every prefix/name with a DNS-subdomain prefix is accepted',
    (prefix, name) => {
      expect(qualifiedNameErrors(`${prefix}/${name}`)).toEqual([]);
      expect(isQualifiedFinalizerName(`${prefix}/${name}`)).toBe(true);
    },
  );

  test.prop([namePart.filter((n) => !['kubernetes', 'orphan', 'foregroundDeletion'].includes(n))])(
    'LC-2 a name without a prefix is refused unless standard',
    (name) => {
      expect(isQualifiedFinalizerName(name)).toBe(false);
    },
  );
});

describe('reserved namespace sub-resources (NS-5)', () => {
  it('NS-5 finalize (and, as shipped, status) address the namespace itself', () => {
    expect(isReservedNamespaceSubresource('finalize')).toBe(true);
    expect(isReservedNamespaceSubresource('status')).toBe(true);
  });

  it.each(['pods', 'configmaps', 'finalizers', 'initialize'])(
    'NS-5 %s is an ordinary path segment',
    (segment) => {
      expect(isReservedNamespaceSubresource(segment)).toBe(false);
    },
  );
});

describe('metadata.finalizers (D-46, shipped apimachinery ValidateFinalizers)', () => {
  it("accepts qualified names, the garbage collector's own among them", () => {
    expect(validateMetadataFinalizers(['orphan'])).toEqual([]);
    expect(validateMetadataFinalizers(['foregroundDeletion', 'example.com/foo'])).toEqual([]);
  });
  it('refuses a name that is not qualified, on the unindexed path', () => {
    const errors = validateMetadataFinalizers(['bad name']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^metadata\.finalizers: Invalid value: "bad name": /);
  });
  it('refuses orphan and foregroundDeletion together', () => {
    expect(validateMetadataFinalizers(['orphan', 'foregroundDeletion'])).toEqual([
      'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });
});
