import { describe, expect, it } from 'vitest';
import type { SystemState } from '../../machines/system.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import type { CompiledStep } from './compile.ts';
import { judgeEventually } from './eventually.ts';
import { ScenarioFileError } from './load.ts';
import { prepareScenario, replayCompiled, replayFile } from './replay.ts';

/**
 * `eventually`: a liveness expectation of a scenario, judged over every fair continuation from the
 * state its steps reached. LC-7 and LC-8 promise that a deleted namespace is removed once the namespace
 * controller and its finalizer owner keep working; without the owner's fairness it may wait forever.
 */
const removal = (eventually: string, variant = '') => `title: removal
requirements: [LC-7, LC-8]
${variant ? `variant: ${variant}\n` : ''}given:
  namespaces:
    - { name: team-a, finalizers: [kubernetes, openshift.com/origin] }
  objects:
    - { kind: ConfigMap, namespace: team-a, name: app }
  users:
    - { name: operator, groups: [system:masters] }
steps:
  - run: openshift.com/origin
  - as: operator
    do: delete namespaces/team-a
    expect: 200
${eventually}`;

const removed = (fair: string) => `  - eventually:
      any: [{ namespace: team-a, gone: true }]
      fair: [${fair}]
`;

const last = (report: ReturnType<typeof replayFile>) => report.steps[report.steps.length - 1];

describe('a scenario that states eventually', () => {
  it('passes on the model when every fair continuation reaches the condition', () => {
    const report = replayFile('x.yaml', removal(removed('namespace-controller, finalizer-owners')));
    expect(report.status, JSON.stringify(report.steps)).toBe('passed');
    expect(last(report).text).toBe('eventually team-a is gone');
    // Judged by a search, not found true where it stands: the namespace still exists there.
    expect(last(report).outcome).toMatch(
      /^every fair continuation gets there \(\d+ states searched, fair: namespace-controller, finalizer-owners\)$/,
    );
  });

  it('fails, naming the cycle, when a fairness the promise needs is not assumed', () => {
    const report = replayFile('x.yaml', removal(removed('namespace-controller')));
    expect(report.status).toBe('failed');
    const step = last(report);
    expect(step.ok).toBe(false);
    expect(step.mismatch[0]).toBe('expected: every fair continuation reaches team-a is gone');
    expect(step.mismatch.some((l) => l.startsWith('cycle:    1. '))).toBe(true);
    expect(step.mismatch).toContain(
      'fair:     WF(every namespace-controller steps on each namespace): the namespace controller keeps syncing a namespace it can work on',
    );
  });

  it('fails on a seeded fault that never finalizes, with every fairness assumed', () => {
    const text = removal(removed('namespace-controller, finalizer-owners'), 'controller-never-finalizes');
    const report = replayFile('x.yaml', text);
    expect(report.status).toBe('failed');
    expect(report.steps.filter((s) => !s.ok).map((s) => s.text)).toEqual(['eventually team-a is gone']);
    expect(last(report).mismatch.filter((l) => l.startsWith('cycle:')).length).toBeGreaterThan(0);
  });

  it('holds at once when a condition already holds where it stands', () => {
    const report = replayFile(
      'x.yaml',
      removal('  - eventually:\n      any: [{ namespace: team-a, phase: Terminating }]\n      fair: []\n'),
    );
    expect(report.status).toBe('passed');
    expect(last(report).outcome).toBe('holds already');
  });

  it('is never a pass when the search stops before it has seen every continuation', () => {
    const prepared = prepareScenario('x.yaml', removal(removed('namespace-controller, finalizer-owners')));
    if (prepared instanceof ScenarioFileError) throw prepared;
    let reached: { model: CheckedSystemModel; state: SystemState } | undefined;
    replayCompiled(prepared, (model, state, step) => {
      if (step?.kind === 'request') reached = { model, state };
    });
    if (!reached) throw new Error('the delete was not replayed');
    const step = prepared.steps.at(-1) as Extract<CompiledStep, { kind: 'eventually' }>;
    const verdict = judgeEventually(reached.model, reached.state, step.expectation, step.slots, {
      maxStates: 3,
    });
    expect(verdict.status).toBe('incomplete');
    const whole = judgeEventually(reached.model, reached.state, step.expectation, step.slots);
    expect(whole.status).toBe('holds');
    expect(whole.states).toBeGreaterThan(3);
  });
});

describe('a malformed eventually', () => {
  it.each([
    [
      'an unknown fairness word',
      removed('namespace-controller, finalizer-owner'),
      'x.yaml:17: steps[2].eventually.fair[1]: string "finalizer-owner" is not allowed (did you mean "finalizer-owners"?',
    ],
    [
      'a namespace condition that says nothing',
      '  - eventually:\n      any: [{ namespace: team-a }]\n      fair: []\n',
      'x.yaml:16: steps[2].eventually.any[0]: a namespace condition names what must hold: exists, gone, phase, pending, firstPending or timer',
    ],
    [
      'a namespace named nowhere else',
      '  - eventually:\n      any: [{ namespace: team-b, gone: true }]\n      fair: []\n',
      'x.yaml:16: steps[2].eventually.any[0].namespace: namespace "team-b" is named nowhere else in this scenario (did you mean "team-a"?)',
    ],
    [
      'an initializer no configuration names',
      '  - eventually:\n      any: [{ initializer: quota.example.com, crashed: true }]\n      fair: []\n',
      'x.yaml:16: steps[2].eventually.any[0].initializer: no initializer "quota.example.com" in any NamespaceInitializerConfiguration',
    ],
  ])('%s is refused in one line naming the field', (_label, step, expected) => {
    const prepared = prepareScenario('x.yaml', removal(step));
    expect(prepared).toBeInstanceOf(ScenarioFileError);
    const message = (prepared as ScenarioFileError).message;
    expect(message.startsWith(expected), message).toBe(true);
    expect(message).not.toContain('\n');
  });
});
