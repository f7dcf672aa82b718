import fc from 'fast-check';
import { exitCodes, integerOption, isEntryPoint } from '../checker/cli/cli.ts';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { check } from '../checker/judging/check.ts';
import { fuzzInputs, judgeInput } from '../checker/judging/fuzz.ts';
import { systemModel } from '../checker/model/system-model.ts';
import { counterexampleItf } from '../checker/scenario/counterexample-itf.ts';
import { safetyProperties } from '../properties/safety.ts';
import { machinesFor } from '../variants/variants.ts';
import { defineCommand } from './entry.ts';

/**
 * `npm run fuzz`: generated scopes, scenarios and ITF traces (checker/judging/fuzz.ts), each judged by its
 * loader: accepted, or refused in one line naming the file, within 10 s. Exit 1 on the first defect,
 * with the seed and the input that shows it.
 */
export const command = {
  script: 'fuzz',
  summary: 'Runs the generated fuzz suite: scopes, scenarios and ITF traces from the formats’ own schemas.',
  options: {
    runs: { type: 'string', value: 'N', description: 'how many inputs (default 10000)' },
    seed: { type: 'string', value: 'N', description: 'the seed (default: a new one, printed)' },
  },
} as const;

if (isEntryPoint(import.meta.url))
  await defineCommand(command, ({ values }) => {
    const runs = integerOption(values, 'runs', { max: 1_000_000, example: '10000' }) ?? 10_000;
    const seed =
      integerOption(values, 'seed', { min: 0, max: 2 ** 31 - 1, example: '42' }) ?? Date.now() % 2 ** 31;
    const variant = 'create-in-terminating';
    const scope = scopeByName('quick');
    const model = systemModel(scope, machinesFor(variant, scope));
    const property = safetyProperties.filter((p) => p.id === 'no-create-in-terminating');
    const trace = JSON.parse(
      counterexampleItf(model, check(model, property, { stopOnFirst: true }).properties[0], variant),
    );
    const counts = new Map<string, number>();
    const started = performance.now();
    const result = fc.check(
      fc.property(fuzzInputs(trace), (input) => {
        const judgement = judgeInput(input);
        if ('defect' in judgement) return false;
        const key = `${input.kind} ${judgement.outcome}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return true;
      }),
      { seed, numRuns: runs },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.failed) {
      const input = result.counterexample?.[0];
      const judgement = input ? judgeInput(input) : undefined;
      console.error(
        `fuzz: defect after ${result.numRuns} inputs (seed ${seed}): ${input?.kind}: ${judgement && 'defect' in judgement ? judgement.defect : String(result.errorInstance)}`,
      );
      if (input) console.error(Buffer.from(input.bytes).toString('utf8').slice(0, 4000));
      return exitCodes.internal;
    }
    const table = [...counts]
      .sort()
      .map(([key, n]) => `${key}: ${n}`)
      .join(', ');
    console.log(`fuzz: ${result.numRuns} generated inputs clean in ${seconds} s (seed ${seed}): ${table}`);
    return exitCodes.ok;
  });
