import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { safetyProperties } from '../../properties/safety.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { scopeDocumentSchema } from '../cli/scope-format.ts';
import { counterexampleItf } from '../scenario/counterexample-itf.ts';
import { replayFile } from '../scenario/replay.ts';
import { check } from './check.ts';
import { arbitraryOf, baseScenario, fuzzInputs, judgeInput } from './fuzz.ts';

/**
 * The generated fuzz suite, at a fixed seed: scopes, scenarios and traces from the formats' own
 * schemas, mutated and damaged; every one is accepted or refused in one line naming the file, in time.
 * `npm run fuzz` runs the same generator over 10,000 inputs.
 */
let trace: unknown;

beforeAll(() => {
  const model = variantModel('create-in-terminating', scopeByName('quick'));
  const property = safetyProperties.filter((p) => p.id === 'no-create-in-terminating');
  trace = JSON.parse(
    counterexampleItf(
      model,
      check(model, property, { stopOnFirst: true }).properties[0],
      'create-in-terminating',
    ),
  );
});

describe('schema-driven generators', () => {
  it('draw documents of the scope schema shape: every required field present', () => {
    const samples = fc.sample(arbitraryOf(scopeDocumentSchema), { numRuns: 20, seed: 7 }) as Record<
      string,
      unknown
    >[];
    for (const doc of samples)
      for (const field of ['name', 'description', 'namespaces', 'users', 'manifests', 'faults', 'clock'])
        expect(doc).toHaveProperty(field);
  });
});

describe('the generated scenarios reach request data', () => {
  it('the base scenario replays as passed, and a mutation of its Secret data gets the apiserver answer', () => {
    const base = baseScenario as { steps: Record<string, unknown>[] };
    const passed = replayFile('base.yaml', stringify(base));
    expect(passed.status, JSON.stringify(passed.steps.map((s) => s.outcome))).toBe('passed');
    expect(passed.steps.map((s) => s.outcome).slice(2)).toEqual([
      '201 Created',
      '201 Created',
      '201 Created',
    ]);
    const steps = structuredClone(base.steps);
    (steps[2].body as { data: Record<string, string> }).data['tls.key'] = 'not base64!';
    const mutated = replayFile('mutated.yaml', stringify({ ...base, steps }));
    expect(mutated.steps[2].outcome).toBe('400 BadRequest');
  });
});

describe('generated inputs never crash, hang or pass unlocated', () => {
  it('200 inputs at a fixed seed', () => {
    const outcomes = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(fuzzInputs(trace as never), (input) => {
        const judgement = judgeInput(input, 10_000);
        if ('defect' in judgement)
          throw new Error(
            `${input.kind}: ${judgement.defect}\n${Buffer.from(input.bytes).toString('utf8').slice(0, 2000)}`,
          );
        outcomes[judgement.outcome]++;
      }),
      { seed: 20_251_126, numRuns: 200 },
    );
    // The generator reaches both sides: not only refusals (a generator that only breaks things tests little).
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.accepted).toBeGreaterThan(0);
  });
});
