import { describe, expect, it } from 'vitest';
import { genericInitializationMachine } from '../../machines/generic-initialization.ts';
import { genericInitializationProperties } from '../../properties/generic-initialization.ts';
import { genericInitializationFaults } from '../../variants/generic-initialization.ts';
import { genericAlphabet, judgeGenericInitialization } from './generic-initialization.ts';

describe('seed 002 generic initializers, explored exhaustively and judged by IN-9 and IN-10', () => {
  const base = judgeGenericInitialization(genericInitializationMachine, genericInitializationProperties);

  it('the machine keeps both properties in every reachable state, and neither is vacuous', () => {
    expect(base.violations).toEqual({
      'generic-uninitialized-hidden': null,
      'generic-consumers-wait-for-initialization': null,
    });
    expect(base.witnesses['generic-uninitialized-hidden']).toBeGreaterThan(0);
    expect(base.witnesses['generic-consumers-wait-for-initialization']).toBeGreaterThan(0);
    // The search ends by exhaustion: the figures are those of the whole space.
    expect(base.states).toBe(438);
    expect(base.steps).toBe(base.states * genericAlphabet.length);
  });

  for (const fault of genericInitializationFaults)
    it(`the seeded fault ${fault.name} is killed by the ${fault.requirements.join(', ')} property and no other`, () => {
      const judged = judgeGenericInitialization(fault.machine, genericInitializationProperties);
      const killers = genericInitializationProperties
        .filter((p) => judged.violations[p.id] !== null)
        .flatMap((p) => p.requirements);
      expect(killers).toEqual(fault.requirements);
      const killed = genericInitializationProperties.find((p) => judged.violations[p.id] !== null);
      expect(killed && judged.violations[killed.id]?.path.length).toBeGreaterThan(0);
    });
});
