import { isDeepStrictEqual } from 'node:util';
import { Document } from 'yaml';
import type { Fairness, LivenessProperty } from '../../properties/types.ts';
import { baseVariantName } from '../../variants/variants.ts';
import { UsageError } from '../cli/cli.ts';
import { fairnessOfWord } from './eventually.ts';
import type { LassoReplay } from './lasso-replay.ts';
import type { EventualConditionInput, EventuallyInput, FairnessWord } from './schema.ts';
import { onTheModel, regressionScenario } from './trace-scenario.ts';

/**
 * `replay --trace LASSO --to-scenario OUT.yaml`: a liveness counterexample as a scenario. The lasso's
 * path (the steps before its cycle) becomes the scenario's steps, with the model's answers as their
 * expectations and the namespaces as the model leaves them as checks; the violated property's goal
 * becomes an `eventually` expectation, judged over every fair continuation from there; the cycle is
 * kept as a comment. On the model every fair continuation reaches the goal; on the fault the judge
 * finds a fair cycle that never does.
 */

type Replayed = Extract<LassoReplay, { replayed: true }>;

/**
 * Each liveness property's goal in scenario words, for the namespace it was judged on and the
 * initializer first pending where the cycle starts. Written from the statements in properties/liveness.ts.
 */
const goals: Record<
  string,
  (namespace: string, firstPending: string | undefined) => EventualConditionInput[]
> = {
  'terminating-namespace-is-removed': (namespace) => [
    { namespace, gone: true },
    { admission: { fresh: false } },
  ],
  'initialization-completes': (namespace) => leftInitializing(namespace),
  'fail-open-initializer-never-blocks': (namespace) => leftInitializing(namespace),
  'read-repair-unblocks': (namespace) => [
    { namespace, phase: { not: 'Initializing' } },
    { admission: { fresh: false } },
  ],
  'outage-ends': () => [{ admission: { fresh: true } }, { configReads: 'failing' }],
  'other-namespaces-unaffected': (namespace) => leftInitializing(namespace),
  'fail-closed-initializer-times-out': (namespace) => leftInitializing(namespace),
  'running-initializer-completes': (namespace, first) => {
    if (first === undefined)
      throw new UsageError(
        `--to-scenario: the cycle of running-initializer-completes on ${namespace} has no initializer first pending; the scenario is not written`,
      );
    return [
      { namespace, phase: { not: 'Initializing' } },
      { namespace, firstPending: { not: first } },
      { initializer: first, crashed: true },
      { admission: { fresh: false } },
    ];
  },
};

/** Not Initializing any more, or the apiserver lost the timer to a restart. */
const leftInitializing = (namespace: string): EventualConditionInput[] => [
  { namespace, phase: { not: 'Initializing' } },
  { namespace, timer: 'lost' },
];

/** The liveness properties whose goal has scenario words: every one, as a test checks. */
export const goalsInScenarioWords = Object.keys(goals);

/** A property's fairness assumption as the scenario word that states the same one, if any. */
export function fairnessWord(f: Fairness): FairnessWord | undefined {
  const same = (g: Fairness) =>
    g.kind === f.kind &&
    g.actorKind === f.actorKind &&
    g.actor === f.actor &&
    (g.perNamespace ?? false) === (f.perNamespace ?? false) &&
    isDeepStrictEqual(g.request, f.request);
  return (Object.keys(fairnessOfWord) as FairnessWord[]).find((w) => same(fairnessOfWord[w]));
}

/** The `eventually` a lasso of `property` on `namespace` breaks. */
export function eventuallyOf(
  property: LivenessProperty,
  namespace: string | undefined,
  firstPending: string | undefined,
): EventuallyInput {
  const goal = goals[property.id];
  if (!goal || (property.perNamespace && namespace === undefined))
    throw new UsageError(
      `--to-scenario: ${property.id} has no goal in scenario words (checker/scenario/lasso-scenario.ts); the scenario is not written`,
    );
  const fair = property.fairness.map((f) => {
    const word = fairnessWord(f);
    if (!word)
      throw new UsageError(
        `--to-scenario: ${property.id} assumes fairness no scenario word states (${f.why}); the scenario is not written`,
      );
    return word;
  });
  return { any: goal(namespace ?? '', firstPending), fair };
}

/** The scenario YAML of a replayed lasso. */
export function lassoToScenario(result: Replayed, file: string): string {
  const stem = result.steps.slice(0, result.loop);
  let before = result.initial;
  const steps = stem.flatMap((s) => {
    const from = before;
    before = s.after;
    return s.event ? [{ label: s.label, event: s.event, before: from, after: s.after }] : [];
  });
  const written = onTheModel({ scope: result.scope, initial: result.initial, model: result.model, steps });
  const slot =
    result.namespace === undefined
      ? -1
      : result.model.scope.namespaces.findIndex((n) => n.name === result.namespace);
  const entry = result.loop === 0 ? result.initial : result.steps[result.loop - 1].after;
  const first = slot >= 0 ? result.model.view(entry, slot).pending[0] : undefined;
  const eventually = eventuallyOf(result.property, result.namespace, first);
  const scenario = regressionScenario(result, file, 'the lasso', written, [{ eventually }]);
  const cycle = result.steps
    .slice(result.loop)
    .map((s, i) => `#   ${i + 1}. ${s.event ? s.label : 'nothing happens (the state stays)'}`);
  const header = [
    `# ${result.property.statement}`,
    `# Written from ${file}: its path as steps with the model's answers, its goal as \`eventually\`,`,
    `# judged over every fair continuation. On ${result.variant} the path ends in this cycle, repeated forever:`,
    ...cycle,
    ...(result.variant === baseVariantName
      ? []
      : ['# Remove `variant:` to replay it on the model, where every fair continuation reaches the goal.']),
  ];
  return `${header.join('\n')}\n${new Document(scenario, { aliasDuplicateObjects: false }).toString({ lineWidth: 100 })}`;
}
