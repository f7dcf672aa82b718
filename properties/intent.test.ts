import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInScopes, scopeByName } from '../checker/cli/scope-file.ts';
import { mergeInitializerConfigurations } from '../machines/initializer-config.ts';
import { isDnsLabel, isQualifiedFinalizerName } from '../machines/names.ts';
import { initializerAccount } from '../machines/scope.ts';
import {
  documentedPendingList,
  foreignTo,
  intentOf,
  isDnsLabelName,
  isFinalizerName,
  meantToInitialize,
} from './intent.ts';

const quickScope = scopeByName('quick');
const scopes = builtInScopes();

// Names near the rules' edges: case, dots, slashes, dashes and length.
const nameChars = fc.constantFrom(...'abzAZ09-_./'.split(''));
const names = fc.oneof(
  fc.string({ unit: nameChars, maxLength: 12 }),
  fc.constantFrom('kubernetes', 'orphan', 'openshift.com/origin', 'a'.repeat(64), `${'a'.repeat(63)}`),
);

describe('the declared intent', () => {
  it('restates the name rules as the model validates them (a disagreement is a finding either way)', () => {
    fc.assert(
      fc.property(names, (name) => {
        expect(isDnsLabelName(name)).toBe(isDnsLabel(name) && name.length > 0);
        expect(isFinalizerName(name)).toBe(isQualifiedFinalizerName(name));
      }),
    );
  });

  it('restates IN-1 as the merge the model implements, on the default configurations', () => {
    const all = quickScope.configurations.map((c) => c.name);
    const merged = mergeInitializerConfigurations(
      quickScope.configurations.map((c) => ({ metadata: { name: c.name }, initializers: c.initializers })),
    ).map((i) => i.name);
    expect(documentedPendingList(quickScope, all)).toEqual(merged);
    expect(documentedPendingList(quickScope, [])).toEqual([]);
  });

  it('sorts configurations by name and keeps a name listed twice once', () => {
    const init = (name: string) => ({
      name,
      failurePolicy: 'Ignore' as const,
      timeoutSeconds: 5,
      populates: { resource: 'configmaps', name: 'x' },
      canFail: false,
    });
    const scope = {
      ...quickScope,
      configurations: [
        { name: 'b', initializers: [init('y'), init('x')], registered: 'initially' as const },
        { name: 'a', initializers: [init('x'), init('z')], registered: 'initially' as const },
      ],
    };
    expect(documentedPendingList(scope, ['a', 'b'])).toEqual(['x', 'z', 'y']);
  });

  it('names the quick scope tenants, holders of initialize and the foreign namespaces', () => {
    const intent = intentOf(quickScope);
    expect(meantToInitialize(intent, initializerAccount)).toBe(true);
    expect(meantToInitialize(intent, 'alice')).toBe(false);
    expect(foreignTo(intent, 'alice', 'team-b')).toBe(true);
    expect(foreignTo(intent, 'alice', 'team-a')).toBe(false);
    expect(foreignTo(intent, 'carol', 'team-b')).toBe(false);
    expect(foreignTo(intent, 'alice', 'default')).toBe(false);
  });

  it('reads a scope that declares no intent off its creators and accounts', () => {
    const { intent: _declared, ...undeclared } = scopes['admin-finalize'];
    const intent = intentOf(undeclared);
    expect(intent.tenants['team-a']).toEqual(['alice']);
    expect(intent.initializeHolders).toEqual([initializerAccount, 'carol']);
    expect(intent.timeouts.initializers['quota.example.com']).toBe(3);
  });
});
