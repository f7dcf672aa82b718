import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { readSlice } from '../../scripts/swarm.ts';
import { main as verifyMain } from '../../scripts/verify.ts';
import { expectNamesItsSchema, expectValidOutput } from '../../test-support/output-schema.ts';
import { runMainInProcess, runScript, thrownMessage } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { baseVariantName, mutants, type Variant, variantByName } from '../../variants/variants.ts';
import { UsageError } from '../cli/cli.ts';
import { type OutputSchemaName, outputSchemaNames, schemaPath } from '../cli/schema-ref.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { benchCaseLine, caseResultSchema } from '../judging/bench-format.ts';
import { check } from '../judging/check.ts';
import { removalScope } from '../judging/liveness-fixtures.ts';
import { modelOf, promelaModel } from '../judging/promela.ts';
import { spinAvailable } from '../judging/spin.ts';
import { runSwarm, sliceRuns, swarmSlice } from '../judging/swarm.ts';
import { checkLiveness } from '../model/liveness-system.ts';
import { systemModel } from '../model/system-model.ts';
import { counterexampleItf, lassoItf } from '../scenario/counterexample-itf.ts';
import { alternativesJson, alternativesStamp, modelRow, runAlternatives } from './alternatives.ts';
import { mutantsJson, mutantsJsonPath, mutantsStamp, runMutant } from './mutants.ts';
import { jsonSchemaText } from './output-schemas.ts';
import { reportStamp } from './report.ts';
import { screenshotsStamp } from './site/screenshots.ts';
import { sourceRoot, stampSources, writeStamp } from './stamp.ts';

/**
 * Every JSON the project writes validates against its committed schema (schemas/*.schema.json), judged
 * by Ajv, a validator that shares no code with the zod types the schemas are generated from; and every
 * written file names that schema in `$schema`, as a path that leads to it from where the file lies.
 */

const ajv = new Ajv2020({ strict: true, allErrors: true });
const committed = new Map<OutputSchemaName, object>();

beforeAll(async () => {
  for (const name of outputSchemaNames)
    committed.set(name, JSON.parse(await readFile(resolve(schemaPath(name)), 'utf8')) as object);
});

const validate = expectValidOutput;
const namesItsSchema = expectNamesItsSchema;

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as { $schema?: unknown };

describe('the JSON Schemas of what the project writes', () => {
  it('are committed under schemas/, one per kind of output, as npm run schemas writes them', async () => {
    expect((await readdir(resolve('schemas'))).sort()).toEqual(
      outputSchemaNames.map((name) => `${name}.schema.json`).sort(),
    );
    for (const name of outputSchemaNames)
      expect(
        await readFile(resolve(schemaPath(name)), 'utf8'),
        `${schemaPath(name)}: run npm run schemas`,
      ).toBe(jsonSchemaText(name));
  });

  it('are JSON Schema 2020-12 that a validator compiles, and refuse what no writer writes', () => {
    for (const name of outputSchemaNames) {
      const schema = committed.get(name) as { $schema?: string; title?: string };
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.title, name).toMatch(/^nsmodel /);
      const check = ajv.compile(schema);
      // Nothing passes by default: an empty object, a list and a number are refused by every schema.
      for (const wrong of [{}, [], 42])
        expect(check(wrong), `${name} accepts ${JSON.stringify(wrong)}`).toBe(false);
    }
    const manifest = ajv.compile(committed.get('written') as object);
    expect(manifest({ $schema: 'x', files: ['report.json'] })).toBe(true);
    expect(manifest({ files: ['report.json'] })).toBe(false);
    expect(manifest({ $schema: 'x', files: ['report.json'], extra: 1 })).toBe(false);
    expect(manifest({ $schema: 'x', files: [1] })).toBe(false);
  });
});

describe('every writer', () => {
  const scratch = useTempDir('schemas');

  it('verify: report.json, the output folder manifest and --json validate', async () => {
    const out = join(scratch(), 'run');
    // The smallest built-in scope: its two pinned violations put counterexamples and whatBroke in the report too.
    // verify's main as its entry runs it (the entry itself is spawned in checker/cli/verify.test.ts).
    const run = await runMainInProcess('verify', () =>
      verifyMain(['--scope', 'admin-finalize', '--quiet', '--json', '--out', out]),
    );
    expect(run.code, run.stderr).toBe(12);
    const report = await readJson(join(out, 'report.json'));
    validate('report', report);
    namesItsSchema('report', report, join(out, 'report.json'));
    const printed = JSON.parse(run.stdout) as {
      $schema?: unknown;
      properties: { counterexample?: unknown }[];
    };
    expect(printed.properties.some((p) => p.counterexample !== undefined)).toBe(true);
    validate('report', printed);
    namesItsSchema('report', printed, 'stdout');
    const manifest = await readJson(join(out, '.nsmodel-written.json'));
    validate('written', manifest);
    namesItsSchema('written', manifest, join(out, '.nsmodel-written.json'));
  }, 180_000);

  it('ITF: a counterexample and a lasso, as verify writes them, validate', () => {
    const model = variantModel('create-in-terminating', scopeByName('quick'));
    const [violated] = check(
      model,
      safetyProperties.filter((p) => p.id === 'no-create-in-terminating'),
      { stopOnFirst: true },
    ).properties;
    validate('itf', JSON.parse(counterexampleItf(model, violated, 'create-in-terminating')));
    const fault = variantByName('controller-never-finalizes') as Variant;
    const lassoModel = systemModel(removalScope, fault.machines(defaultMachines, removalScope));
    const removal = livenessProperties.filter((p) => p.id === 'terminating-namespace-is-removed');
    const [lasso] = checkLiveness(lassoModel, removal).properties;
    const written = JSON.parse(lassoItf(lassoModel, lasso, 'controller-never-finalizes')) as {
      loop?: number;
    };
    expect(written.loop).toBeTypeOf('number');
    validate('itf', written);
    // A value ITF does not know (a float where integers are written) is refused.
    const bad = JSON.parse(counterexampleItf(model, violated, 'create-in-terminating')) as {
      states: Record<string, unknown>[];
    };
    const variable = Object.keys(bad.states[0]).find((k) => k !== '#meta') as string;
    bad.states[0][variable] = 1.5;
    const checkItf = ajv.compile(committed.get('itf') as object);
    expect(checkItf(bad)).toBe(false);
  }, 120_000);

  it('mutants: mutants.json validates, and names its schema from generated/', () => {
    const json = JSON.parse(
      mutantsJson([
        runMutant(mutants.find((m) => m.name === 'pending-grows-after-active') as Variant, {
          horizonSteps: 0,
        }),
      ]),
    ) as { $schema?: unknown };
    validate('mutants', json);
    namesItsSchema('mutants', json, mutantsJsonPath);
  }, 120_000);

  it('alternatives: alternatives.json validates', () => {
    const { rows } = runAlternatives({ maxStates: 2_000 }, undefined, [modelRow]);
    const json = JSON.parse(alternativesJson(rows)) as { $schema?: unknown };
    validate('alternatives', json);
    namesItsSchema('alternatives', json, 'generated/alternatives.json');
  }, 120_000);

  it('the stamps validate, each naming the schema from its own folder', async () => {
    const sources = stampSources(sourceRoot, mutantsStamp);
    for (const spec of [reportStamp, mutantsStamp, alternativesStamp, screenshotsStamp]) {
      await writeStamp(scratch(), spec, [], { sources });
      const stamp = await readJson(join(scratch(), spec.file));
      validate('stamp', stamp);
      namesItsSchema('stamp', stamp, spec.file);
    }
  }, 60_000);

  it('bench --json: a measured case validates', async () => {
    // One case measured by the bench's own child process, printed as --json prints every case.
    const run = await runScript('scripts/bench.ts', [
      '--case',
      JSON.stringify({ engine: 'dense', subject: 2 }),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const marked = run.stdout.split('\n').find((line) => line.startsWith('BENCH_RESULT '));
    expect(marked, run.stdout).toBeDefined();
    const result = caseResultSchema.parse(JSON.parse((marked as string).slice('BENCH_RESULT '.length)));
    const line = JSON.parse(
      JSON.stringify(
        benchCaseLine('Node', { ...result, medianStatesPerSecond: result.statesPerSecond, runs: 1 }),
      ),
    ) as { $schema?: unknown };
    validate('bench', line);
    namesItsSchema('bench', line, 'stdout');
  }, 120_000);

  // crosscheck --json prints crossCheckLine of each cross-check: checker/judging/promela.test.ts validates
  // the line of the cross-check it runs on admin-finalize, so the SPIN search is not run twice.
  it.skipIf(!spinAvailable())(
    'a swarm slice validates, and --merge reads it back',
    async () => {
      // As swarm --scope admin-finalize --runs 1 --log2 20 --out FILE writes its slice.
      const model = modelOf(baseVariantName, 'admin-finalize');
      const runs = runSwarm(promelaModel(model, { variant: baseVariantName }).text, sliceRuns(1, 0, 1), {
        log2Bits: 20,
        maxDepth: 2_000_000,
      });
      const slice = join(scratch(), 'slice.json');
      const json = swarmSlice(model.scope.name, baseVariantName, runs, relative(process.cwd(), slice));
      await writeFile(slice, `${JSON.stringify(json, null, 2)}\n`);
      const written = await readJson(slice);
      validate('swarm', written);
      namesItsSchema('swarm', written, slice);
      // --merge reads it back through the same type, and names the field of a slice that is not one.
      expect(readSlice(slice)).toEqual(written);
      const wrong = join(scratch(), 'wrong.json');
      await writeFile(wrong, JSON.stringify({ ...written, runs: [{ run: 'one' }] }));
      expect(thrownMessage(UsageError, () => readSlice(wrong))).toMatch(
        /^--merge: .*wrong\.json: runs\.0\.run: .*fix: /,
      );
    },
    120_000,
  );
});
