import { readFileSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMap, isSeq, parseDocument } from 'yaml';
import { mutants, scopeFor } from '../machines/variants.ts';
import { safetyProperties } from '../properties/safety.ts';
import { runScript } from '../test-support/run-command.ts';
import { useTempDir } from '../test-support/temp-dir.ts';
import { variantModel } from '../test-support/variant-model.ts';
import { check } from './check.ts';
import { counterexampleItf } from './counterexample-itf.ts';
import { parseItf } from './itf.ts';
import type { MutantResult } from './mutants.ts';
import { projectRoot } from './scenario/catalog.ts';
import { replayFile } from './scenario/replay.ts';
import { scopeByName } from './scope-file.ts';
import { replayTrace } from './trace-replay.ts';
import { traceToScenario } from './trace-scenario.ts';

/**
 * `replay --trace FILE --to-scenario OUT`: the written scenario is a regression test of the trace it
 * came from: it passes on the model and fails on the seeded fault that broke the property.
 */

/** The README's tour for spec authors, as its text writes it: the scope edit, then its commands in order. */
function specAuthorTour(): { section: string; commands: string[][] } {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('### For a spec author');
  const end = readme.indexOf('\n## ', start);
  if (start < 0 || end < 0) throw new Error('README.md has no "For a spec author" tour');
  const section = readme.slice(start, end);
  // Commands with arguments are the tour's steps; a bare `npm run verify` is prose about machine rules.
  const commands = [...section.matchAll(/`(npm run \S+ -- [^`]+)`/g)].map((m) => m[1].split(/\s+/));
  return { section, commands };
}

/** `npm run NAME -- ARGS` as the script package.json runs for NAME, and its arguments. */
function scriptOf(command: string[]): { script: string; args: string[] } {
  const [npm, run, name, dashes, ...args] = command;
  if (npm !== 'npm' || run !== 'run' || dashes !== '--') throw new Error(`not npm run X -- …: ${command}`);
  const scripts = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >;
  const script = scripts[name]?.split(/\s+/).find((word) => word.startsWith('scripts/'));
  if (!script) throw new Error(`package.json runs no scripts/*.ts for ${name}`);
  return { script, args };
}

describe("the README's tour for spec authors", () => {
  const scratch = useTempDir('tour');

  it('ends with the written scenario passing on the model', async () => {
    const { section, commands } = specAuthorTour();
    // Step 1: copy scopes/default.yaml to my-scope.yaml, name it my-scope, let carol finalize team-a.
    expect(section).toContain('Copy\n   `scopes/default.yaml` to `my-scope.yaml`');
    expect(section).toContain('`finalize-remove-kubernetes` to the `requests` of carol');
    const cwd = scratch();
    await copyFile(join(projectRoot, 'scopes/default.yaml'), join(cwd, 'my-scope.yaml'));
    const doc = parseDocument(await readFile(join(cwd, 'my-scope.yaml'), 'utf8'));
    doc.set('name', 'my-scope');
    const users = doc.get('users');
    if (!isSeq(users)) throw new Error('scopes/default.yaml has no users list');
    const carol = users.items.filter(
      (u) => isMap(u) && u.get('name') === 'carol' && String(u.toJSON().namespaces) === 'team-a',
    );
    expect(carol).toHaveLength(1);
    const requests = isMap(carol[0]) ? carol[0].get('requests') : null;
    if (!isSeq(requests)) throw new Error("carol's entry for team-a has no requests list");
    requests.add('finalize-remove-kubernetes');
    await writeFile(join(cwd, 'my-scope.yaml'), doc.toString());

    // Steps 2 to 4, the commands as the README spells them.
    expect(commands.map((c) => c.slice(0, 3).join(' '))).toEqual([
      'npm run verify',
      'npm run replay',
      'npm run replay',
    ]);
    const [verify, toScenario, replay] = commands.map(scriptOf);
    const found = await runScript(verify.script, verify.args, { cwd });
    expect(found.code, found.stderr).toBe(12);
    const broke = section.match(/What broke: [^\n]+/)?.[0];
    expect(broke).toBeDefined();
    expect(found.stdout + found.stderr).toContain(broke);
    const written = await runScript(toScenario.script, toScenario.args, { cwd });
    expect(written.code, written.stderr).toBe(12);
    expect(written.stdout).toMatch(/^CONFIRMED: content-gone-before-finalize/m);
    const scenario = toScenario.args[toScenario.args.indexOf('--to-scenario') + 1];
    expect(replay.args).toEqual([scenario]);
    // The finalize sent what the model sent: the stored finalizers without kubernetes (LC-6).
    expect(await readFile(join(cwd, scenario), 'utf8')).toMatch(
      /do: update namespaces\/team-a\/finalize\n\s+body:\n\s+spec:\n\s+finalizers:\n\s+- openshift\.com\/origin\n/,
    );
    const replayed = await runScript(replay.script, replay.args, { cwd });
    expect(replayed.code, replayed.stdout).toBe(0);
    expect(replayed.stdout).toContain('1 scenarios: 1 passed, 0 pending, 0 failed, 0 malformed');
  });
});

/**
 * The faults `npm run mutants` kills with a safety property, each searched as `verify --variant` does on
 * the quick scope (where each is caught); every counterexample it writes becomes a scenario. The faults
 * it kills with a liveness lasso have no ITF counterexample (`replay --trace` replays safety traces).
 */
const table = JSON.parse(readFileSync(join(projectRoot, 'generated/mutants.json'), 'utf8')) as MutantResult[];
const bySafety = mutants.filter((m) => table.find((r) => r.mutant === m.name)?.search === 'exhaustive');
const byLiveness = mutants.filter((m) => table.find((r) => r.mutant === m.name)?.search === 'liveness');

describe('every seeded fault, as a scenario from its counterexample', () => {
  it('covers every fault of npm run mutants', () => {
    expect([...bySafety, ...byLiveness].map((m) => m.name).sort()).toEqual(mutants.map((m) => m.name).sort());
    expect(bySafety.length).toBeGreaterThan(byLiveness.length);
  });

  it.each(bySafety.map((m) => m.name))('%s: passes on the model, fails on the fault', (name) => {
    const given = scopeByName('quick');
    const model = variantModel(name, scopeFor(name, given));
    const result = check(model, safetyProperties, { stopOnFirst: true, stopWhenAllViolated: true });
    const violated = result.properties.filter((p) => p.violation);
    expect(violated.length).toBeGreaterThan(0);
    for (const p of violated) {
      const file = `${p.property.id}.itf.json`;
      const trace = replayTrace(parseItf(counterexampleItf(model, p, name, undefined, given), file), file);
      if (!trace.replayed) throw new Error(`${file} does not replay on ${name}: ${trace.problem}`);
      expect(trace.violatedAt).toBe(trace.steps.length);
      const text = traceToScenario(trace, file);
      const onModel = replayFile(`${p.property.id}.yaml`, text, 'model');
      expect(onModel.status, JSON.stringify(onModel.steps.filter((s) => !s.ok))).toBe('passed');
      const onFault = replayFile(`${p.property.id}.yaml`, text);
      expect(onFault.variant).toBe(name);
      expect(onFault.status, p.property.id).toBe('failed');
    }
  });
});
