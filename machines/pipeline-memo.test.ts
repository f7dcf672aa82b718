import { describe, expect, it } from 'vitest';
import { ReadKeyedMemo } from '../checker/engine/read-memo.ts';
import { pipelineFacts } from '../test-support/pipeline-facts.ts';
import { type PipelineFacts, type PipelineOutcome, pipelineMachine } from './pipeline.ts';
import { MachineStepper } from './stepper.ts';

/** A content create by an authorized caller in an initialized namespace, admitted: served. */
const facts = (overrides: Partial<PipelineFacts> = {}): PipelineFacts =>
  pipelineFacts({ operation: 'create', contentPresent: false, ...overrides });

/** A fact a seeded fault or a later rule reads that no hand-written key listed when it was written. */
type WithLabels = PipelineFacts & { bodyCarriesLabels: boolean };
const labelled = (bodyCarriesLabels: boolean): WithLabels => ({ ...facts(), bodyCarriesLabels });

/**
 * The pipeline with its IN-6 gate replaced, as variants/variants.ts replaces guards: the gate now
 * also closes on a fact of its own choosing.
 */
const faulty = pipelineMachine.provide({
  guards: {
    uninitializedContentWithoutInitializeVerb: ({ event }) => (event.facts as WithLabels).bodyCarriesLabels,
  },
});

/** The hand-listed request key the API server used before (machines/apiserver.ts, pipelineKey), verbatim. */
function handListedKey(f: PipelineFacts): string {
  const a = f.admission;
  const verdict = a.kind === 'refused' ? a.refusal : a.pending;
  return `${f.operation}|${f.target}|${+f.status}${+f.authorized}${+f.changesInitializers}${+f.recordsFailure}${+f.namespaceExists}${+f.namespaceInitialized}${+f.namespaceTerminating}${+f.callerMayInitialize}${+f.bodyNameMatchesPath}${+f.bodyNamespaceMatchesPath}${+f.objectValid}${+f.contentPresent}${+f.configurationExists}|${verdict}|${f.namespaceMachine}|${f.initializerChange}|${f.escalation}`;
}

describe('the pipeline memo keys what the guards read', () => {
  const outcomeOf = (stepper: MachineStepper<typeof faulty>, next: number) =>
    stepper.snapshot(next).context.outcome as PipelineOutcome;

  it('a replaced guard that reads an unlisted fact gets its own entry; the hand-listed key served the stale answer', () => {
    const stepper = new MachineStepper(faulty);
    const decide = (f: WithLabels) => stepper.compute(stepper.initial, { type: 'SERVE', facts: f });
    const memo = new ReadKeyedMemo(decide, 'the faulty pipeline');
    const plain = outcomeOf(stepper, memo.get(labelled(false)).next);
    const gated = outcomeOf(stepper, memo.get(labelled(true)).next);
    expect(plain).toMatchObject({ kind: 'served', effect: 'createContent' });
    expect(gated).toEqual({ kind: 'refused', refusal: 'refuseNamespaceInitializing' });
    // Unmemoized, the machine says the same: the memo changed no answer.
    expect(outcomeOf(stepper, decide(labelled(true)).next)).toEqual(gated);
    expect(memo.misses).toBe(2);

    // The old key does not name the fact: both requests share one entry, and the second is answered as the first.
    expect(handListedKey(labelled(true))).toBe(handListedKey(labelled(false)));
    const keyed = new MachineStepper(faulty);
    const byKey = (f: WithLabels) =>
      outcomeOf(keyed, keyed.step(keyed.initial, { type: 'SERVE', facts: f }, handListedKey(f)).next);
    expect(byKey(labelled(false))).toEqual(plain);
    expect(byKey(labelled(true))).toEqual(plain);
  });
});
