import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomScopeArbitrary, sampleRandomScope } from '../../machines/random-scope.ts';
import { onStep, stepProperty } from '../../properties/declare.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { systemModel } from '../model/system-model.ts';
import { walk, walkArb } from './random.ts';

/**
 * Random scopes exercise the vocabulary the exhaustive scopes leave to their own small scopes: watches of
 * content (D-16, D-47) and cluster RBAC objects written during the run (D-23). Read off the walks'
 * steps, not the scope: a template no walk sends would be a vocabulary the random runs never try.
 */
describe('random scopes send watches and write cluster RBAC objects', () => {
  it('every scope declares cluster objects and an RBAC manager, and some watch content', () => {
    const scopes = fc.sample(randomScopeArbitrary, { seed: 3, numRuns: 30 });
    for (const scope of scopes) {
      expect(scope.clusterObjects?.length ?? 0).toBeGreaterThan(0);
      expect(scope.principals.find((p) => p.name === 'rbac-manager')?.requests).toContain(
        'create-cluster-object',
      );
    }
    expect(scopes.some((s) => s.principals.some((p) => p.requests.includes('watch-content')))).toBe(true);
  });

  it('walks store and replace cluster objects, judge watches and refused escalations, and keep every property', () => {
    // Every step a walk judges (the enabled ones at each state it reaches, the one it takes among them)
    // is seen here; a read or a refusal changes no state, so only the judged steps show it.
    const judged = { watches: 0, escalationsRefused: 0 };
    const spy = stepProperty('judged-steps', [], {
      statement: 'records the steps the walk judges',
      predicate: (_model, _before, event) => {
        const r = event.request;
        if (r?.watch) judged.watches++;
        if (r?.target === 'cluster-object' && event.response?.code === 403) judged.escalationsRefused++;
        return true;
      },
      witness: onStep('every step', () => true),
    });
    const taken = { stored: 0, replaced: 0 };
    for (const seed of [1, 2, 3, 4]) {
      const model = systemModel(sampleRandomScope(seed));
      for (const steps of fc.sample(walkArb(model, 60), { seed, numRuns: 25 })) {
        const w = walk(model, [...safetyProperties, spy], steps);
        expect(w.violations).toEqual([]);
        for (const { event } of w.trace.steps) {
          const r = event.request;
          if (r?.target !== 'cluster-object') continue;
          if (event.response?.code === 201) taken.stored++;
          // A 200 update in a trace changed the state: another version replaced the stored one.
          if (r.verb === 'update' && event.response?.code === 200) taken.replaced++;
        }
      }
    }
    expect(taken.stored).toBeGreaterThan(0);
    expect(taken.replaced).toBeGreaterThan(0);
    expect(judged.watches).toBeGreaterThan(0);
    expect(judged.escalationsRefused).toBeGreaterThan(0);
  });
});
