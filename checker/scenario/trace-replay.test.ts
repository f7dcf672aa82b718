import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { safetyProperties } from '../../properties/safety.ts';
import { command as replayCommand, main as replayMain } from '../../scripts/replay.ts';
import { runCommandInProcess, thrownMessage } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { UsageError } from '../cli/cli.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { modelRun } from '../fixtures/model-run.ts';
import { check } from '../judging/check.ts';
import { systemModel } from '../model/system-model.ts';
import { counterexampleItf } from './counterexample-itf.ts';
import { itfTraceSchema, parseItf } from './itf.ts';
import { replayFile } from './replay.ts';
import { checkScenarioTarget } from './trace-command.ts';
import { replayTrace } from './trace-replay.ts';
import { traceToScenario } from './trace-scenario.ts';

/** replay's main in this process, on the command line given (its entry point is spawned in checker/cli/input-file.test.ts). */
const replay = (argv: string[]) => runCommandInProcess(replayCommand, replayMain, argv);

/**
 * Traces as data, on a seeded fault (create-in-terminating lets content be created in a terminating
 * namespace): its ITF counterexample replays on its variant and confirms the violation, does not
 * replay on the model, and becomes a scenario that fails on the variant and passes on the model.
 */
const variant = 'create-in-terminating';
const propertyId = 'no-create-in-terminating';
let itf = '';

beforeAll(() => {
  const model = variantModel(variant, scopeByName('quick'));
  const property = safetyProperties.filter((p) => p.id === propertyId);
  const result = check(model, property, { stopOnFirst: true }).properties[0];
  itf = counterexampleItf(model, result, variant);
});

describe('replay --trace', () => {
  it('reads an ITF trace whose actions carry the request as data', () => {
    const trace = parseItf(itf, 'trace.itf.json');
    expect(itfTraceSchema.safeParse(JSON.parse(itf)).success).toBe(true);
    expect(trace.states[1]['#meta'].action?.details?.data).toMatchObject({
      request: { user: 'carol', verb: 'create', target: 'namespace', namespace: 'team-a' },
    });
  });

  it('confirms the violation on its variant, at the step where the property breaks', () => {
    const result = replayTrace(parseItf(itf, 't'), 't');
    expect(result.replayed).toBe(true);
    if (!result.replayed) return;
    expect(result.steps.map((s) => s.label)).toEqual([
      'carol: create namespaces/team-a with initializers set -> 201 Created',
      'carol: delete namespaces/team-a -> 200 OK',
      'ci-robot: create namespaces/team-a/configmaps/app -> 201 Created',
    ]);
    expect(result.violatedAt).toBe(3);
    expect(result.verdict).toContain('terminating namespace team-a');
  });

  it('does not confirm a trace whose mbt::actionTaken was edited away from the step it records', () => {
    const edited = JSON.parse(itf) as { states: Record<string, unknown>[] };
    edited.states[2]['mbt::actionTaken'] = 'tick';
    const result = replayTrace(parseItf(JSON.stringify(edited), 'e.itf.json'), 'e.itf.json');
    expect(result).toMatchObject({ replayed: false, step: 2 });
  });

  it('says where the machines as written leave the trace', () => {
    const result = replayTrace(parseItf(itf, 't'), 't', { variant: 'model' });
    expect(result).toMatchObject({ replayed: false, step: 3 });
  });
});

describe('the command', () => {
  const scratch = useTempDir('trace');

  it('exits 12 when it confirms the violation, 14 when the trace is not a run of the variant, 2 on a bad file', async () => {
    const file = join(scratch(), `${propertyId}.itf.json`);
    await writeFile(file, itf);
    const confirmed = await replay(['--trace', file]);
    expect(confirmed.code, confirmed.stderr).toBe(12);
    expect(confirmed.stdout).toContain('<- no-create-in-terminating breaks here');
    expect(confirmed.stdout).toMatch(/^CONFIRMED: no-create-in-terminating is violated at step 3/m);
    const onModel = await replay(['--trace', file, '--variant', 'model']);
    expect(onModel.code).toBe(14);
    expect(onModel.stdout).toMatch(/^NOT REPLAYED at step 3: /m);
    await writeFile(join(scratch(), 'bad.itf.json'), '{"states": []}');
    const bad = await replay(['--trace', join(scratch(), 'bad.itf.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('replay --trace --to-scenario', () => {
  const scratch = useTempDir('to-scenario');

  it('writes only a new .yaml path or a scenario an earlier --to-scenario wrote: never a committed scenario or another file', async () => {
    const refusal = (out: string) => thrownMessage(UsageError, () => checkScenarioTarget(out));
    expect(refusal('scenarios/rb-tenant-isolation.yaml')).toMatch(
      /^--to-scenario: scenarios\/rb-tenant-isolation\.yaml exists and is no scenario an earlier --to-scenario wrote .*; fix: give a new path/,
    );
    expect(refusal(join(scratch(), 'passwd'))).toMatch(/is not a \.yaml file.*fix: name it OUT\.yaml$/);
    expect(refusal(join(scratch(), 'new.yaml'))).toBeNull();
    const earlier = join(scratch(), 'earlier.yaml');
    await writeFile(earlier, '# x\ntitle: t\nsource: npm run replay -- --trace t.itf.json --to-scenario\n');
    expect(refusal(earlier)).toBeNull();
  });

  it('writes a scenario that fails on the variant and passes on the model', async () => {
    const result = replayTrace(parseItf(itf, 't'), 't');
    if (!result.replayed) throw new Error('the trace did not replay');
    const onVariant = join(scratch(), 'on-variant.yaml');
    const text = traceToScenario(result, 't.itf.json');
    await writeFile(onVariant, text);
    const failing = replayFile(onVariant);
    expect(failing.status, failing.error).toBe('failed');
    expect(failing.steps[2]).toMatchObject({ ok: false, outcome: '201 Created' });
    const onModel = join(scratch(), 'on-model.yaml');
    await writeFile(onModel, (await readFile(onVariant, 'utf8')).replace(`variant: ${variant}\n`, ''));
    const passing = replayFile(onModel);
    expect(passing.status, JSON.stringify(passing.steps.filter((s) => !s.ok))).toBe('passed');
    expect(passing.steps.length).toBeGreaterThan(3);
  });
});

describe('replay --trace --to-scenario with configuration requests', () => {
  const scratch = useTempDir('to-scenario-configuration');

  it("writes the cluster admin's configuration create as a request the scenario replays (D-32)", async () => {
    // The RoleBinding that leaks exists only once the later-registered policy configuration is created.
    const leak = 'rolebinding-grants-cluster-wide';
    const model = variantModel(leak, scopeByName('quick'));
    const property = safetyProperties.filter((p) => p.id === 'tenant-isolation');
    const found = check(model, property, { stopOnFirst: true }).properties[0];
    const result = replayTrace(parseItf(counterexampleItf(model, found, leak), 't'), 't');
    if (!result.replayed) throw new Error('the trace did not replay');
    const text = traceToScenario(result, 't.itf.json');
    expect(text).toMatch(/do: create namespaceinitializerconfigurations\/\S+/);
    expect(text).not.toMatch(/step: cluster-admin/);
    const onVariant = join(scratch(), 'on-variant.yaml');
    await writeFile(onVariant, text);
    expect(replayFile(onVariant).status).toBe('failed');
    const onModel = join(scratch(), 'on-model.yaml');
    await writeFile(onModel, text.replace(`variant: ${leak}\n`, ''));
    const passing = replayFile(onModel);
    expect(passing.status, JSON.stringify(passing.steps.filter((s) => !s.ok))).toBe('passed');
  });
});

describe('replay --trace --to-scenario with a body naming another object', () => {
  const scratch = useTempDir('to-scenario-body-names');

  it.each([
    ['name (D-38)', 'name'],
    ['namespace (D-14)', 'namespace'],
  ] as const)(
    'keeps the %s the body carries, so the scenario gets the answer the step got',
    async (_what, field) => {
      const model = systemModel(scopeByName('quick'));
      const [initial] = model.initialStates();
      // Carol's update naming team-b, ci-robot's create with team-b's namespace: both refused with 400.
      const taken = model
        .enabled(initial)
        .find((e) => e.event.request?.body?.[field] !== undefined && e.event.response?.code === 400);
      if (!taken) throw new Error(`no request with a body ${field} in the quick scope's first state`);
      const file = join(scratch(), `${field}.yaml`);
      const step = { label: taken.event.label, event: taken.event, before: initial, after: taken.next };
      await writeFile(file, traceToScenario(modelRun(model, initial, [step]), 't.itf.json'));
      const replayed = replayFile(file);
      expect(replayed.status, JSON.stringify(replayed.steps.filter((s) => !s.ok))).toBe('passed');
      expect(replayed.steps.map((s) => s.outcome)).toContain('400 BadRequest');
    },
  );
});
