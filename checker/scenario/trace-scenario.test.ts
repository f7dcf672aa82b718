import { readFileSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMap, isSeq, parseDocument } from 'yaml';
import { expandTemplate } from '../../machines/requests.ts';
import type { ApiRequest, SystemEvent, SystemState } from '../../machines/system.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { runScript, thrownMessage } from '../../test-support/run-command.ts';
import { useTempDir } from '../../test-support/temp-dir.ts';
import { variantModel } from '../../test-support/variant-model.ts';
import { mutants } from '../../variants/variants.ts';
import { UsageError } from '../cli/cli.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { requestTemplates } from '../cli/scope-format.ts';
import { modelRun } from '../fixtures/model-run.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import type { MutantResult } from '../report/mutants.ts';
import { projectRoot } from './catalog.ts';
import { replayFile } from './replay.ts';
import type { TraceReplay } from './trace-replay.ts';
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

/** The nightly run's long checks (npm run ci:full sets it); every change runs the others. */
const slowScopes = process.env.NSMODEL_SLOW_SCOPES === '1';

// A search of a copy of the default scope (its estimate alone takes seconds) and three commands: the
// nightly run's. Every change still replays the counterexamples of every seeded fault as scenarios (below).
describe.skipIf(!slowScopes)("the README's tour for spec authors (NSMODEL_SLOW_SCOPES=1)", () => {
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
 * The faults `npm run mutants` kills, each searched as `verify --variant` does on the quick scope (where
 * each is caught): with the safety properties, every counterexample it writes becomes a scenario that
 * passes on the model and fails on the fault. That round trip runs in variants/variants.test.ts, beside
 * the tests of the same search's shortest kill (one search per fault for both). The faults caught by a
 * liveness property round-trip as lassos in lasso-scenario.test.ts.
 */
const written = JSON.parse(readFileSync(join(projectRoot, 'generated/mutants.json'), 'utf8')) as
  | { mutants: MutantResult[] }
  | MutantResult[];
// mutants.json is `{ $schema, mutants }`; a file written before it carried its schema is the bare list.
const table = Array.isArray(written) ? written : written.mutants;
const bySafety = mutants.filter((m) => table.find((r) => r.mutant === m.name)?.search === 'exhaustive');
const byLiveness = mutants.filter((m) => table.find((r) => r.mutant === m.name)?.search === 'liveness');

describe('every seeded fault, as a scenario from its counterexample', () => {
  it('covers every fault of npm run mutants', () => {
    expect([...bySafety, ...byLiveness].map((m) => m.name).sort()).toEqual(mutants.map((m) => m.name).sort());
    expect(bySafety.length).toBeGreaterThan(byLiveness.length);
  });
});

/** A removal of an initializer that is not pending while others are: no pending list says that. */
const inexpressible = (model: CheckedSystemModel, state: SystemState, e: SystemEvent): boolean => {
  const name = e.command?.kind === 'remove-pending' ? e.command.name : undefined;
  if (e.actorKind !== 'principal' || name === undefined) return false;
  const v = model.view(state, e.namespace);
  return v.value === 'initializing' && !v.pending.includes(name);
};

/**
 * Every request template on every verb it sends: carol (a cluster admin) may send each template to
 * team-a of the default scope. For each kind of request, the shortest path to a state where the model
 * serves it, then that request, becomes a scenario, and each passes on the model: the written body got
 * the answer and left the state the model's own request did.
 */
describe('every request template, written and replayed', () => {
  it('passes on the model for each kind of request, where the model serves it', () => {
    const base = scopeByName('default');
    const carol = base.principals.find((p) => p.name === 'carol');
    if (!carol) throw new Error('the default scope has no carol');
    const admin = { ...carol, namespaces: ['team-a'], requests: [...requestTemplates] };
    const model = variantModel('model', { ...base, principals: [...base.principals, admin] });
    const kindOf = (r: ApiRequest, kind: string | undefined) =>
      `${kind} ${r.verb} ${r.target}${r.subresource ? '/status' : ''}`;
    const sent = new Set(
      requestTemplates.flatMap((t) =>
        expandTemplate(model.scope, model.objects, t, admin).map((c) => kindOf(c.request, c.kind)),
      ),
    );
    type Step = Extract<TraceReplay, { replayed: true }>['steps'][number];
    const [initial] = model.initialStates();
    const pathTo = new Map<string, Step[]>([[model.key(initial), []]]);
    const found = new Map<string, Step[]>();
    let frontier = [initial];
    while (frontier.length > 0 && pathTo.size < 3000 && found.size < sent.size) {
      const nextLevel: SystemState[] = [];
      for (const state of frontier) {
        const path = pathTo.get(model.key(state)) ?? [];
        for (const e of model.enabled(state)) {
          if (inexpressible(model, state, e.event)) continue;
          const step = { label: e.event.label, event: e.event, before: state, after: e.next };
          const r = e.event.request;
          const kind = r && e.event.actor === 'carol' ? kindOf(r, e.event.command?.kind) : undefined;
          if (kind && !found.has(kind) && (e.event.response?.code ?? 200) < 300)
            found.set(kind, [...path, step]);
          const key = model.key(e.next);
          if (pathTo.has(key)) continue;
          pathTo.set(key, [...path, step]);
          nextLevel.push(e.next);
        }
      }
      frontier = nextLevel;
    }
    // Every kind the templates send is served within the first states the search reaches.
    expect([...sent].filter((k) => !found.has(k))).toEqual([]);
    for (const [kind, steps] of found) {
      const scenario = traceToScenario(modelRun(model, initial, steps), `${kind}.itf.json`);
      const report = replayFile(`${kind}.yaml`, scenario);
      expect(report.status, `${kind}: ${JSON.stringify(report.steps.filter((s) => !s.ok))}`).toBe('passed');
    }
  });
});

describe('a request no scenario body can say', () => {
  it('is refused with one line naming the request and why, and nothing is written', () => {
    const model = variantModel('model', scopeByName('default'));
    let state = model.initialStates()[0];
    // Alice creates team-a (both initializers pending), then carol removes the second one's name twice.
    const taken = (pick: (e: SystemEvent) => boolean) => {
      const found = model.enabled(state).find((e) => pick(e.event));
      if (!found) throw new Error('the default scope offers no such step');
      const step = { label: found.event.label, event: found.event, before: state, after: found.next };
      state = found.next;
      return step;
    };
    const steps = [
      taken((e) => e.actor === 'alice' && e.command?.kind === 'create-namespace' && !e.command.initializers),
    ];
    const absent = model
      .enabled(state)
      .find((e) => e.event.actor === 'carol' && inexpressible(model, state, e.event));
    if (!absent) throw new Error('carol cannot remove an initializer that is not pending');
    steps.push({ label: absent.event.label, event: absent.event, before: state, after: absent.next });
    const trace = modelRun(model, model.initialStates()[0], steps);
    expect(thrownMessage(UsageError, () => traceToScenario(trace, 't.itf.json'))).toMatch(
      /^--to-scenario: carol's update of team-a removes \S+, which is not pending there \(pending \[.*\]\): a scenario's body is the whole pending list and cannot name an absent entry; the scenario is not written$/,
    );
  });
});

describe('a namespace create with generateName (D-45)', () => {
  it('is written with the generated name in the path and the prefix in the body, and replays as sent', () => {
    const model = variantModel('model', scopeByName('quick'));
    const initial = model.initialStates()[0];
    const teamA = model.scope.namespaces.findIndex((ns) => ns.name === 'team-a');
    const request: ApiRequest = {
      principal: { name: 'carol', groups: ['system:masters', 'system:authenticated'] },
      verb: 'create',
      target: 'namespace',
      namespace: teamA,
      object: -1,
      body: { extraFinalizers: [], generateName: 'team-' },
    };
    const served = model.handle(initial, request);
    expect(served.response.code).toBe(201);
    const event: SystemEvent = {
      actor: 'carol',
      actorKind: 'principal',
      label: model.describeRequest(initial, request),
      request: { ...request, callerMayInitialize: true, changesInitializers: false },
      response: served.response,
      namespace: teamA,
      transitions: served.transitions,
    };
    const trace = {
      replayed: true as const,
      property: safetyProperties[0],
      variant: 'model',
      scope: model.scope,
      model,
      initial,
      steps: [{ label: event.label, event, before: initial, after: served.state }],
    };
    const text = traceToScenario(trace, 'g.itf.json');
    expect(text).toContain('do: create namespaces/team-a');
    expect(text).toMatch(/generateName: team-/);
    const report = replayFile('g.yaml', text, 'model');
    expect(report.status, JSON.stringify(report.steps.filter((s) => !s.ok))).toBe('passed');
  });
});
