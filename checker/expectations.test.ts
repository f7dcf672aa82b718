import { describe, expect, it } from 'vitest';
import { safetyProperties } from '../properties/safety.ts';
import { expectationsFor, noExpectations, scopeExpectations } from './expectations.ts';
import { builtInScopes } from './scope-file.ts';

const scopes = builtInScopes();

describe('declared expectations', () => {
  it('belong to named scopes, name real properties and give a reason for each', () => {
    const propertyIds = safetyProperties.map((p) => p.id);
    for (const [scope, expected] of Object.entries(scopeExpectations)) {
      expect(Object.keys(scopes), scope).toContain(scope);
      for (const id of Object.keys(expected.vacuous)) expect(propertyIds, scope).toContain(id);
      for (const reason of [...Object.values(expected.vacuous), ...Object.values(expected.untaken)])
        expect(reason.length, `${scope}: a reason says why, in a sentence`).toBeGreaterThan(40);
    }
  });

  it('are empty for a scope that declares nothing, even one named like an object property', () => {
    expect(expectationsFor('a-scope-file')).toBe(noExpectations);
    expect(expectationsFor('constructor')).toBe(noExpectations);
  });
});
