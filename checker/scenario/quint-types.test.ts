import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultMachines } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { command as exportCommand, main as exportMain } from '../../scripts/export.ts';
import { command as replayCommand, main as replayMain } from '../../scripts/replay.ts';
import { main as verifyMain } from '../../scripts/verify.ts';
import { escalationCounterexampleItf } from '../../test-support/escalation-itf.ts';
import { quintTypecheck, traceModule } from '../../test-support/quint.ts';
import { runCommandInProcess, runMainInProcess } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { variantByName } from '../../variants/variants.ts';
import { removalScope } from '../judging/liveness-fixtures.ts';
import { checkLiveness } from '../model/liveness-system.ts';
import { systemModel } from '../model/system-model.ts';
import { lassoItf } from './counterexample-itf.ts';

/**
 * Typed ITF, both ways, judged by Quint itself (its ITF loader and typechecker, not this project's code):
 * the Quint module `export --quint-types` writes for the quick scope typechecks; a counterexample
 * `verify` writes is of its type, state by state, action by action; a trace with one namespace's
 * phase written as a plain string (the shape before typing) is not; and a trace written as Quint
 * writes one (its own #meta, no per-state action, fields in another order, integers plain or
 * `#bigint`) replays with `npm run replay -- --trace`. Quint runs once for the whole file.
 */

const fixture = join('checker', 'fixtures', 'itf', 'quint-written.itf.json');
const phaseOf =
  /"phase": \{\s*"tag": "(Initializing|Active|Terminating)",\s*"value": \{\s*"#tup": \[\]\s*\}\s*\}/;

const tempDir = useTempDir('quint-types');
let exported = { code: -1, stdout: '', stderr: '' };
let verified = { code: -1, stdout: '', stderr: '' };
let trace: {
  params?: string[];
  vars: string[];
  states: Record<string, unknown>[];
  '#meta': Record<string, unknown>;
};
let lasso: { loop: number; params?: string[]; vars: string[]; states: Record<string, unknown>[] };
let cluster: { vars: string[]; states: Record<string, unknown>[] };
let clusterTypes = { code: -1, stdout: '', stderr: '' };
let clusterChecked = { code: -1, output: '' };
let checked = { code: -1, output: '' };
const lines: Record<string, [number, number]> = {};

beforeAll(async () => {
  const dir = tempDir();
  const typesFile = join(dir, 'nsmodel_quick.qnt');
  const clusterTypesFile = join(dir, 'nsmodel_cluster_rbac.qnt');
  // The commands' mains as their entries run them, one after the other (each captures the console).
  exported = await runCommandInProcess(exportCommand, exportMain, [
    '--quint-types',
    '--scope',
    'quick',
    '--out',
    typesFile,
  ]);
  verified = await runMainInProcess('verify', () =>
    verifyMain([
      '--variant',
      'create-in-terminating',
      '--scope',
      'quick',
      '--stop-on-first',
      '--out',
      join(dir, 'run'),
    ]),
  );
  // D-23: a scope with cluster RBAC objects has one more state variable, clusterObjects.
  clusterTypes = await runCommandInProcess(exportCommand, exportMain, [
    '--quint-types',
    '--scope',
    'cluster-rbac',
    '--out',
    clusterTypesFile,
  ]);
  const written = await readFile(
    join(dir, 'run', 'counterexamples', 'no-create-in-terminating.itf.json'),
    'utf8',
  );
  trace = JSON.parse(written);
  // The same trace with the first existing namespace's phase a plain string, as traces were written before.
  const untyped = JSON.parse(written.replace(phaseOf, (_, phase: string) => `"phase": "${phase}"`));
  const quintTrace = JSON.parse(readFileSync(fixture, 'utf8'));
  // A lasso of a liveness property (controller-never-finalizes leaves team-a Terminating forever).
  const fault = variantByName('controller-never-finalizes');
  if (!fault) throw new Error('no variant controller-never-finalizes');
  const lassoModel = systemModel(removalScope, fault.machines(defaultMachines, removalScope));
  const removal = livenessProperties.filter((p) => p.id === 'terminating-namespace-is-removed');
  lasso = JSON.parse(
    lassoItf(lassoModel, checkLiveness(lassoModel, removal).properties[0], 'controller-never-finalizes'),
  );
  // A counterexample whose last state stores a ClusterRoleBinding (quick with the seeded fault's manager),
  // and the same with the stored version written as a string.
  const clusterText = escalationCounterexampleItf();
  cluster = JSON.parse(clusterText);
  const clusterUntyped = JSON.parse(clusterText.replace(/\{\s*"#bigint": "0"\s*\}\s*\]\s*\]/, '"0"]]'));
  // One file: the types module, then one module per trace; quint names the line of every error.
  const modules: [string, string][] = [
    ['types', await readFile(typesFile, 'utf8')],
    ['verify', traceModule(trace, 'verifyTrace', 'nsmodel_quick', './nsmodel_quick')],
    ['quint', traceModule(quintTrace, 'quintTrace', 'nsmodel_quick', './nsmodel_quick')],
    ['lasso', traceModule(lasso, 'lassoTrace', 'nsmodel_quick', './nsmodel_quick')],
    // Before the broken module: quint stops at the first module that fails.
    ['clusterTypes', await readFile(clusterTypesFile, 'utf8')],
    ['cluster', traceModule(cluster, 'clusterTrace', 'nsmodel_cluster_rbac', './nsmodel_cluster_rbac')],
    ['untyped', traceModule(untyped, 'untypedTrace', 'nsmodel_quick', './nsmodel_quick')],
  ];
  let text = '';
  for (const [name, body] of modules) {
    const module = body.replace(/ from "\.\/nsmodel_(quick|cluster_rbac)"/, '');
    const first = text.split('\n').length;
    text += module;
    lines[name] = [first, text.split('\n').length - 1];
  }
  await writeFile(join(dir, 'all.qnt'), text);
  // Quint reports the first module that fails: the mistyped cluster trace is judged in a file of its own.
  const clusterBad = [
    await readFile(clusterTypesFile, 'utf8'),
    traceModule(clusterUntyped, 'clusterUntypedTrace', 'nsmodel_cluster_rbac', './nsmodel_cluster_rbac'),
  ]
    .join('')
    .replace(/ from "\.\/nsmodel_cluster_rbac"/, '');
  await writeFile(join(dir, 'cluster-bad.qnt'), clusterBad);
  [checked, clusterChecked] = await Promise.all([
    quintTypecheck(join(dir, 'all.qnt')),
    quintTypecheck(join(dir, 'cluster-bad.qnt')),
  ]);
}, 240_000);

/** The lines quint reports an error at (`at FILE:LINE:COL`). */
const errorLines = () => [...checked.output.matchAll(/all\.qnt:(\d+):\d+/g)].map((m) => Number(m[1]));
const inModule = (name: string) => (line: number) => line >= lines[name][0] && line <= lines[name][1];

describe('typed ITF and the Quint types of a scope', () => {
  it('export --quint-types writes the module, and verify writes a typed counterexample', () => {
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/module nsmodel_quick/);
    expect(verified.code, verified.stderr).toBe(12);
    expect(trace.params).toEqual(['scope', 'scopeDocument']);
    expect(trace.vars).toEqual(expect.arrayContaining(['mbt::actionTaken', 'mbt::nondetPicks']));
    const varTypes = trace['#meta'].varTypes as Record<string, string>;
    // Apalache's syntax: a namespace is one of three variants, each a record.
    expect(varTypes.namespaces).toMatch(/^\(Str -> \(Absent\(\{ content: Set\(Str\) \}\) \| Removed\(/);
    expect(varTypes['mbt::actionTaken']).toBe('Str');
    expect(Object.keys(varTypes).sort()).toEqual([...trace.vars, ...(trace.params ?? [])].sort());
    expect(trace.states.map((s) => s['mbt::actionTaken'])).toEqual([
      'init',
      ...trace.states.slice(1).map(() => 'principalRequest'),
    ]);
  });

  it('quint typechecks the module and the traces of its type, and refuses the untyped one', () => {
    // The broken module is the only one quint complains of: the others typecheck.
    expect(checked.code, checked.output).not.toBe(0);
    const at = errorLines();
    expect(at.length, checked.output).toBeGreaterThan(0);
    expect(
      at.filter((line) => !inModule('untyped')(line)),
      checked.output,
    ).toEqual([]);
    // D-23: the cluster-rbac module declares clusterObjects, the trace storing a binding is of its type,
    // and a version written as a string is not.
    expect(clusterTypes.code, clusterTypes.stderr).toBe(0);
    expect(cluster.vars).toContain('clusterObjects');
    expect(JSON.stringify(cluster.states.at(-1))).toMatch(
      /clusterrolebindings\/rbac-manager-is-cluster-admin/,
    );
    expect(clusterChecked.code, clusterChecked.output).not.toBe(0);
    expect(clusterChecked.output).toMatch(/Couldn't unify (int and str|str and int)/);
    expect(checked.output).toMatch(/Couldn't unify (sum and str|str and sum)/);
    // Every module was there to be judged: the lasso's states, its cycle included.
    expect(lasso.loop).toBeGreaterThanOrEqual(0);
    expect(lines.lasso[1] - lines.lasso[0]).toBeGreaterThan(lasso.states.length * 3);
  });

  it('a trace written as Quint writes one replays: confirmed on its variant, not a run of the model', async () => {
    const args = ['--trace', fixture, '--scope', 'quick', '--property', 'no-create-in-terminating'];
    // replay's main in this process (its entry point is spawned in checker/cli/input-file.test.ts).
    const replay = (argv: string[]) => runCommandInProcess(replayCommand, replayMain, argv);
    const variant = await replay([...args, '--variant', 'create-in-terminating']);
    const model = await replay(args);
    expect(variant.code, variant.stdout + variant.stderr).toBe(12);
    expect(variant.stdout).toMatch(
      /3\. ci-robot: create namespaces\/team-a\/configmaps\/app -> 201 Created {3}<- no-create-in-terminating breaks here/,
    );
    expect(model.code, model.stdout + model.stderr).toBe(14);
    expect(model.stdout).toMatch(/NOT REPLAYED at step 3/);
  }, 120_000);
});
