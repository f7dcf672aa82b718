import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  configurationRequestErrors,
  defaultFailurePolicy,
  defaultInitializerTimeoutSeconds,
  type MergeableConfiguration,
  mergeInitializerConfigurations,
  validateConfigurationUpdate,
  validateNewConfiguration,
} from './initializer-config.ts';
import type { NamespaceInitializerConfiguration } from './k8s-types.ts';

const configuration = (
  name: string,
  ...initializers: NamespaceInitializerConfiguration['initializers'] & object
): NamespaceInitializerConfiguration => ({
  apiVersion: 'admissionregistration.k8s.io/v1alpha1',
  kind: 'NamespaceInitializerConfiguration',
  metadata: { name },
  initializers,
});

describe('mergeInitializerConfigurations (IN-1, FP-1)', () => {
  it('IN-1 sorts configurations by name and keeps the order inside each', () => {
    const merged = mergeInitializerConfigurations([
      configuration('zz-quota', { name: 'quota.corp.com' }),
      configuration('aa-policy', { name: 'rbac.corp.com' }, { name: 'netpol.corp.com' }),
    ]);
    expect(merged.map((i) => i.name)).toEqual(['rbac.corp.com', 'netpol.corp.com', 'quota.corp.com']);
  });

  it('IN-1 keeps a name listed twice once, where it first appears', () => {
    const merged = mergeInitializerConfigurations([
      configuration(
        'b',
        { name: 'shared.corp.com', failurePolicy: 'Fail', timeoutSeconds: 9 },
        { name: 'b-only' },
      ),
      configuration('a', { name: 'a-only' }, { name: 'shared.corp.com' }),
    ]);
    expect(merged).toEqual([
      { name: 'a-only', failurePolicy: 'Ignore', timeoutSeconds: 5 },
      { name: 'shared.corp.com', failurePolicy: 'Ignore', timeoutSeconds: 5 },
      { name: 'b-only', failurePolicy: 'Ignore', timeoutSeconds: 5 },
    ]);
  });

  it('FP-1 defaults to fail open with a 5 s timeout, and keeps what an entry says', () => {
    expect(defaultFailurePolicy).toBe('Ignore');
    expect(defaultInitializerTimeoutSeconds).toBe(5);
    expect(
      mergeInitializerConfigurations([
        configuration('c', { name: 'x' }, { name: 'y', failurePolicy: 'Fail', timeoutSeconds: 30 }),
      ]),
    ).toEqual([
      { name: 'x', failurePolicy: 'Ignore', timeoutSeconds: 5 },
      { name: 'y', failurePolicy: 'Fail', timeoutSeconds: 30 },
    ]);
  });

  it('IN-1 no configurations, or empty ones, give an empty pending list', () => {
    expect(mergeInitializerConfigurations([])).toEqual([]);
    expect(mergeInitializerConfigurations([{ metadata: { name: 'empty' } }])).toEqual([]);
  });

  const initializerName = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
  const configurations = fc.uniqueArray(
    fc.record({
      metadata: fc.record({ name: fc.stringMatching(/^[a-z]{1,3}$/) }),
      initializers: fc.array(
        fc.record(
          {
            name: initializerName,
            failurePolicy: fc.constantFrom('Ignore' as const, 'Fail' as const),
            timeoutSeconds: fc.integer({ min: 1, max: 30 }),
          },
          { requiredKeys: ['name'] },
        ),
        { maxLength: 4 },
      ),
    }),
    { selector: (c) => c.metadata.name, maxLength: 5 },
  );

  test.prop([
    configurations.chain((cs) =>
      fc.tuple(fc.constant(cs), fc.shuffledSubarray(cs, { minLength: cs.length })),
    ),
  ])('IN-1 merging a shuffled list equals merging the sorted list', ([configs, shuffled]) => {
    const sorted = [...configs].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    expect(mergeInitializerConfigurations(shuffled)).toEqual(mergeInitializerConfigurations(sorted));
  });

  test.prop([configurations])('IN-1 every name appears once, and every listed name appears', (configs) => {
    const names = mergeInitializerConfigurations(configs).map((i) => i.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(names)).toEqual(new Set(configs.flatMap((c) => c.initializers.map((i) => i.name))));
  });

  test.prop([configurations])(
    'IN-1 names a configuration contributes keep its order, after earlier-named ones',
    (configs) => {
      const merged = mergeInitializerConfigurations(configs).map((i) => i.name);
      const sorted = [...configs].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
      let previousEnd = -1;
      sorted.forEach((config, index) => {
        const earlier = new Set(sorted.slice(0, index).flatMap((c) => c.initializers.map((i) => i.name)));
        const contributed = [...new Set(config.initializers.map((i) => i.name))].filter(
          (name) => !earlier.has(name),
        );
        const positions = contributed.map((name) => merged.indexOf(name));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        if (positions.length > 0) {
          expect(positions[0]).toBeGreaterThan(previousEnd);
          previousEnd = positions[positions.length - 1];
        }
      });
    },
  );
});

describe('configuration validation (FP-3)', () => {
  it('FP-3 a new configuration that is fail open is accepted', () => {
    expect(validateNewConfiguration(configuration('policy', { name: 'rbac.corp.com' }))).toEqual([]);
    expect(
      validateNewConfiguration(configuration('policy', { name: 'rbac.corp.com', failurePolicy: 'Ignore' })),
    ).toEqual([]);
  });

  it('FP-3 a new configuration with a fail-closed entry is refused', () => {
    const errors = validateNewConfiguration(
      configuration('policy', { name: 'rbac.corp.com', failurePolicy: 'Fail' }),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^initializers\[0\]\.failurePolicy: Forbidden/);
  });

  it('FP-3 an update may switch an entry to Fail', () => {
    const created = configuration('policy', { name: 'rbac.corp.com' });
    const failClosed = configuration('policy', { name: 'rbac.corp.com', failurePolicy: 'Fail' });
    expect(validateNewConfiguration(created)).toEqual([]);
    expect(validateConfigurationUpdate(created, failClosed)).toEqual([]);
  });

  it('FP-1 refuses malformed entries on create and update alike', () => {
    const bad: MergeableConfiguration = {
      metadata: { name: 'Bad_Name' },
      initializers: [{ name: '' }, { name: 'x', timeoutSeconds: 0 }, { name: 'x' }],
    };
    const expected = [
      expect.stringMatching(/^metadata\.name: Invalid value/),
      'initializers[0].name: Required value',
      expect.stringMatching(/^initializers\[1\]\.timeoutSeconds: Invalid value/),
      'initializers[2].name: Duplicate value: "x"',
    ];
    expect(validateNewConfiguration(bad)).toEqual(expected);
    expect(validateConfigurationUpdate(bad, bad)).toEqual(expected);
  });

  it('FP-3 an update cannot rename the configuration', () => {
    expect(validateConfigurationUpdate(configuration('a'), configuration('b'))).toEqual([
      'metadata.name: Invalid value: "b": field is immutable',
    ]);
  });
});

describe('configuration requests as the pipeline validates them (FP-3, AC-4, AC-5, D-32)', () => {
  const quota = { name: 'quota.example.com' };
  it('FP-3 (D-7): a create may not name Fail, an update may', () => {
    const failClosed = [{ ...quota, failurePolicy: 'Fail' }];
    expect(
      configurationRequestErrors('NamespaceInitializerConfiguration', 'quota', failClosed, 'create'),
    ).toEqual(['initializers[0].failurePolicy: Unsupported value: "Fail": supported values: "Ignore"']);
    expect(
      configurationRequestErrors('NamespaceInitializerConfiguration', 'quota', failClosed, 'update'),
    ).toEqual([]);
  });

  it('FP-1 (D-32): timeoutSeconds from 1 to 30; unknown policies, duplicate and unqualified names refused', () => {
    const errors = configurationRequestErrors(
      'NamespaceInitializerConfiguration',
      'quota',
      [
        { ...quota, timeoutSeconds: 31 },
        { ...quota, timeoutSeconds: 0, failurePolicy: 'Retry' },
        { name: 'short.name', timeoutSeconds: 30 },
      ],
      'update',
    );
    expect(errors).toEqual([
      'initializers[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'initializers[1].name: Duplicate value: "quota.example.com"',
      'initializers[1].failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"',
      'initializers[1].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds',
      'initializers[2].name: Invalid value: "short.name": should be a domain with at least three segments separated by dots',
    ]);
  });

  it('AC-4, AC-5: rules are validated under their entry; a webhook also checks its verbs', () => {
    const rule = { apiGroups: ['*', 'apps'], apiVersions: ['v1'], resources: ['pods'] };
    expect(
      configurationRequestErrors(
        'InitializerConfiguration',
        'image',
        [{ ...quota, rules: [rule] }],
        'create',
      ),
    ).toEqual([
      'initializers[0].rules[0].apiGroups: Invalid value: ["*","apps"]: if \'*\' is present, must not specify other apiGroups',
    ]);
    const hook = { ...quota, rules: [{ ...rule, apiGroups: [''], verbs: ['CREATE', '*'] }] };
    expect(
      configurationRequestErrors('ExternalAdmissionHookConfiguration', 'audit', [hook], 'create'),
    ).toEqual([
      'externalAdmissionHooks[0].rules[0].verbs: Invalid value: ["CREATE","*"]: if \'*\' is present, must not specify other verbs',
    ]);
  });
});
