import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { systemModel } from '../checker/model/system-model.ts';
import { randomScopeArbitrary, sampleRandomScope, tenants } from './random-scope.ts';

describe('random scopes', () => {
  test.prop([randomScopeArbitrary])(
    'reach past the exhaustive bound: 5+ namespaces, 4 initializers in 3 configurations, 3 tenants, every fault',
    (scope) => {
      expect(scope.namespaces.filter((ns) => !ns.system).length).toBeGreaterThanOrEqual(5);
      expect(scope.configurations).toHaveLength(3);
      expect(scope.configurations.every((c) => c.initializers.length > 0)).toBe(true);
      const initializers = scope.configurations.flatMap((c) => c.initializers.map((i) => i.name));
      expect(new Set(initializers).size).toBe(4);
      expect(scope.principals.filter((p) => p.tenant).map((p) => p.name)).toEqual([...tenants]);
      expect(scope.faults).toEqual({
        initializerCrash: true,
        configReadFailure: true,
        apiserverRestart: true,
      });
    },
  );

  test.prop([randomScopeArbitrary])(
    'grant tenants nothing cluster-wide beyond creating namespaces (RB-1, RB-5)',
    (scope) => {
      const tenantNames = new Set<string>(tenants);
      for (const binding of scope.clusterRoleBindings) {
        if (binding.subjects.some((s) => tenantNames.has(s.name) || s.name === 'teams@corp.com')) {
          expect(binding.clusterRole).toBe('namespace-creator');
        }
      }
      for (const slot of scope.content) {
        if (slot.roleBinding) expect(tenantNames.has(slot.roleBinding.subject)).toBe(false);
      }
    },
  );

  test.prop([randomScopeArbitrary], { numRuns: 20 })(
    'build a system model with something enabled from the start',
    (scope) => {
      const model = systemModel(scope);
      const [initial] = model.initialStates();
      expect(model.enabled(initial).length).toBeGreaterThan(0);
    },
  );

  it('are the same for the same seed', () => {
    expect(sampleRandomScope(5)).toEqual(sampleRandomScope(5));
    expect(sampleRandomScope(5).name).toBe('random-5');
    expect(fc.sample(randomScopeArbitrary, { seed: 9, numRuns: 3 })).toEqual(
      fc.sample(randomScopeArbitrary, { seed: 9, numRuns: 3 }),
    );
  });
});
