import { describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import { baseVariantName, machinesFor } from '../../variants/variants.ts';
import { builtInScopes } from '../cli/scope-file.ts';
import { systemModel } from '../model/system-model.ts';
import { check, type FirstViolation } from './check.ts';

const scopes = builtInScopes();

const variant = 'create-in-terminating';
const model = systemModel(scopes.default, machinesFor(variant, scopes.default));

describe('fail fast on a seeded fault', () => {
  it('announces each first violation while the search runs, and stops at the end of its level', () => {
    const seen: FirstViolation[] = [];
    const result = check(model, safetyProperties, { stopOnFirst: true, onViolation: (v) => seen.push(v) });
    expect(seen.map((v) => [v.propertyId, v.depth])).toEqual([['no-create-in-terminating', 3]]);
    // Announced before the level was done: fewer states than the search ended with.
    expect(seen[0].states).toBeGreaterThan(0);
    expect(seen[0].states).toBeLessThan(result.states);
    expect(result).toMatchObject({ complete: false, stopReason: 'first-violation', depth: 3 });
    const violated = result.properties.filter((p) => p.status === 'violated');
    expect(violated.map((p) => [p.property.id, p.violation?.trace.steps.length])).toEqual([
      ['no-create-in-terminating', 3],
    ]);
  });

  it('reports the same trace on every run: the first in breadth-first discovery order', () => {
    const trace = () =>
      check(model, safetyProperties, { stopOnFirst: true })
        .properties.find((p) => p.violation)
        ?.violation?.trace.steps.map((s) => s.event);
    expect(trace()).toEqual(trace());
    // The one-property run that stops when it is violated finds the same shortest trace.
    const alone = check(
      model,
      safetyProperties.filter((p) => p.id === 'no-create-in-terminating'),
      { stopWhenAllViolated: true },
    );
    expect(alone.properties[0].violation?.trace.steps.map((s) => s.event)).toEqual(trace());
  });

  it('does not stop on a model that breaks nothing, and then judges everything', () => {
    const tiny = systemModel(
      { ...scopes.default, name: 'tiny', principals: [] },
      machinesFor('model', scopes.default),
    );
    const seen: FirstViolation[] = [];
    const result = check(tiny, safetyProperties, { stopOnFirst: true, onViolation: (v) => seen.push(v) });
    expect(seen).toEqual([]);
    expect(result.complete).toBe(true);
    expect(result.stopReason).toBeUndefined();
  });
});

describe('a search with nothing to judge', () => {
  it('explores what a judged search explores, with no step memo to settle', () => {
    const quick = systemModel(scopes.quick, machinesFor(baseVariantName, scopes.quick));
    const bare = check(quick, []);
    const judged = check(quick, safetyProperties);
    expect(bare.properties).toEqual([]);
    expect([bare.states, bare.transitions, bare.depth, bare.complete]).toEqual([
      judged.states,
      judged.transitions,
      judged.depth,
      true,
    ]);
  });
});
