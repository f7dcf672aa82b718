import { describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import { parseScope, parseScopeText, scopeNames } from '../cli/scope-file.ts';
import { expectationsFileOf, expectationsFor, noExpectations } from './expectations.ts';

describe('declared expectations', () => {
  it('name real properties and give a reason for each, in the scope file', () => {
    const propertyIds = safetyProperties.map((p) => p.id);
    const declaring = scopeNames().filter((name) => expectationsFor(name) !== noExpectations);
    expect(declaring).toEqual(expect.arrayContaining(['admin-finalize', 'large', 'xl']));
    for (const scope of declaring) {
      const expected = expectationsFor(scope);
      for (const id of Object.keys(expected.vacuous)) expect(propertyIds, scope).toContain(id);
      for (const reason of [...Object.values(expected.vacuous), ...Object.values(expected.untaken)])
        expect(reason.length, `${scope}: a reason says why, in a sentence`).toBeGreaterThan(40);
      expect(expectationsFileOf(scope)).toBe(`scopes/${scope}.yaml`);
    }
  });

  it('are empty for a scope that declares nothing, even one named like an object property', () => {
    expect(expectationsFor('a-scope-file')).toBe(noExpectations);
    expect(expectationsFor('constructor')).toBe(noExpectations);
  });

  it('are the file own: a scope that extends one that declares some declares none', () => {
    expect(Object.keys(expectationsFor('admin-finalize').untaken).length).toBeGreaterThan(20);
    const derived = ['extends: admin-finalize', 'name: derived', 'description: admin-finalize as it is.'];
    const loaded = parseScopeText(derived.join('\n'), 'derived.yaml');
    expect(loaded.scope.name).toBe('derived');
    expect(loaded.expectations).toBeUndefined();
    expect(loaded.golden).toBeUndefined();
  });

  it('refuse a transition declared under two reasons, at its line', () => {
    const text = [
      'extends: quick',
      'name: twice',
      'description: quick, declaring one transition twice.',
      'expectations:',
      '  untaken:',
      '    - reason: the first reason, long enough to say why in a sentence.',
      '      transitions: [timer:armed:LOSE#0]',
      '    - reason: the second reason, long enough to say why in a sentence.',
      '      transitions: [timer:armed:LOSE#0]',
    ].join('\n');
    expect(() => parseScope(text, 'twice.yaml')).toThrow(
      'twice.yaml:9: expectations.untaken[1].transitions[0]: timer:armed:LOSE#0 is declared twice; fix: keep it under one reason',
    );
  });
});
