import type { Scope } from '../../machines/scope.ts';
import type { SystemEvent, SystemState } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import type { LivenessProperty } from '../../properties/types.ts';
import { baseVariantName } from '../../variants/variants.ts';
import { UsageError } from '../cli/cli.ts';
import { compileFairness, needsTime, systemHorizon } from '../model/liveness-system.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import type { ItfTrace } from './itf.ts';
import { stepAction } from './state-view.ts';
import {
  answerProblem,
  differences,
  isTypedTrace,
  noRecordedInitial,
  recordedInitial,
  recordedStep,
  recordedVars,
  sameVars,
  stateVars,
  traceMachines,
  traceScope,
} from './trace-replay.ts';

/**
 * `replay --trace` of a lasso (an ITF trace with `loop`): replays the prefix and the cycle step by step
 * as a safety trace is replayed (a stutter keeps the state), checks that the last state is the one
 * `loop` names, and judges the liveness property on the lasso: a state where the premise holds, the
 * goal never after it, and every fairness condition kept by the cycle (taken in it, or disabled as
 * weak fairness or strong fairness allows).
 */
export interface LassoStepReplay {
  label: string;
  /** null for a stutter. */
  event: SystemEvent | null;
  after: SystemState;
}

export type LassoReplay =
  | {
      replayed: true;
      property: LivenessProperty;
      variant: string;
      loop: number;
      /** The scope as the trace gives it, the variant's model of it, and the initial state replayed. */
      scope: Scope;
      model: CheckedSystemModel;
      initial: SystemState;
      steps: LassoStepReplay[];
      namespace?: string;
      /** Set when the lasso is a fair run that never reaches the goal. */
      confirmed?: string;
      /** Why the lasso does not show a violation, when it does not. */
      unconfirmed?: string;
    }
  | { replayed: false; variant: string; step: number; problem: string };

export function replayLasso(
  trace: ItfTrace,
  file: string,
  overrides: { variant?: string; scope?: Scope; property?: string } = {},
): LassoReplay {
  const meta = trace['#meta'];
  const id = overrides.property ?? (typeof meta.property === 'string' ? meta.property : '');
  const property = livenessProperties.find((p) => p.id === id);
  if (!property && overrides.property !== undefined)
    throw new UsageError(
      `--property: ${JSON.stringify(id)} is no liveness property, but the trace has a loop; fix: name one of ${livenessProperties.map((p) => p.id).join(', ')}`,
    );
  if (!property)
    throw new UsageError(
      `${file}: #meta.property: ${JSON.stringify(id)} is no liveness property, but the trace has a loop; fix: replay a lasso written by npm run verify, or drop loop from a safety trace`,
    );
  const loop = trace.loop ?? 0;
  if (loop >= trace.states.length - 1)
    throw new UsageError(
      `${file}: loop: ${loop} leaves no step in the cycle (${trace.states.length} states); fix: loop names a state before the last`,
    );
  const variant = overrides.variant ?? (typeof meta.variant === 'string' ? meta.variant : baseVariantName);
  const scope = overrides.scope ?? traceScope(trace, file);
  const machines = traceMachines(file, variant, scope, Boolean(overrides.variant));
  const model = systemModel(scope, machines);
  const namespace = typeof meta.namespace === 'string' ? meta.namespace : undefined;
  const slot = namespace === undefined ? -1 : model.scope.namespaces.findIndex((n) => n.name === namespace);
  if (property.perNamespace && slot < 0)
    throw new UsageError(
      `${file}: #meta.namespace: ${JSON.stringify(namespace ?? null)} is no namespace of the scope; fix: name the namespace ${property.id} was judged for`,
    );
  const typed = isTypedTrace(trace);
  const initial = recordedInitial(model, trace);
  if (!initial) return noRecordedInitial(variant);
  const states: SystemState[] = [initial];
  const steps: LassoStepReplay[] = [];
  let state = initial;
  for (let index = 1; index < trace.states.length; index++) {
    const recorded = recordedStep(trace, index, file);
    const { label } = recorded;
    const expected = recordedVars(trace, index);
    if (recorded.stutter) {
      if (!sameVars(stateVars(model, state, typed), expected))
        return { replayed: false, variant, step: index, problem: 'a stutter step changes the state' };
      steps.push({ label, event: null, after: state });
      states.push(state);
      continue;
    }
    const candidates = model.enabled(state).filter((e) => recorded.matches(model, e.event));
    const match = candidates.find((e) => sameVars(stateVars(model, e.next, typed), expected));
    if (!match)
      return {
        replayed: false,
        variant,
        step: index,
        problem:
          candidates.length === 0
            ? `the model offers no step "${label}" here`
            : `"${label}" leads elsewhere on ${variant}: ${differences(stateVars(model, candidates[0].next, typed), expected)}`,
      };
    const problem = answerProblem(recorded, model, match.event, variant);
    if (problem) return { replayed: false, variant, step: index, problem };
    const said = recorded.recorded ? label : stepAction(match.event, model).label;
    steps.push({ label: said, event: match.event, after: match.next });
    states.push(match.next);
    state = match.next;
  }
  const base = {
    replayed: true as const,
    property,
    variant,
    loop,
    scope,
    model,
    initial,
    steps,
    ...(namespace ? { namespace } : {}),
  };
  if (model.key(state) !== model.key(states[loop]))
    return {
      replayed: false,
      variant,
      step: states.length - 1,
      problem: `the last state is not state ${loop}, which loop names: the cycle does not close`,
    };
  return { ...base, ...judgeLasso(model, property, slot, states, steps, loop) };
}

/** The liveness verdict on a replayed lasso: `confirmed` or `unconfirmed`, each with its reason. */
function judgeLasso(
  model: CheckedSystemModel,
  property: LivenessProperty,
  slot: number,
  states: readonly SystemState[],
  steps: readonly LassoStepReplay[],
  loop: number,
): { confirmed: string } | { unconfirmed: string } {
  const goal = (s: SystemState) => property.q(model, s, slot);
  const reached = states.findIndex((s, i) => i >= loop && goal(s));
  if (reached >= 0)
    return { unconfirmed: `the goal (${property.goal}) holds in state ${reached}, inside the cycle` };
  // The latest state from which the goal never holds again; the premise must hold there or later, before the cycle ends.
  let from = states.length - 1;
  while (from > 0 && !goal(states[from - 1])) from--;
  const premise = property.p;
  const trigger = states.findIndex((s, i) => i >= from && (premise === undefined || premise(model, s, slot)));
  if (trigger < 0)
    return { unconfirmed: `the premise (${property.premise}) never holds where the goal stays false` };
  const cycleStates = states.slice(loop, states.length - 1);
  const taken = steps.slice(loop).flatMap((s) => (s.event ? [s.event] : []));
  const enabledIn = cycleStates.map((s) => model.enabled(s).map((e) => e.event));
  for (const condition of compileFairness(model, property.fairness)) {
    if (taken.some(condition.matches)) continue;
    const enabled = enabledIn.map((events) => events.some(condition.matches));
    const unfair = condition.kind === 'weak' ? enabled.every(Boolean) : enabled.some(Boolean);
    if (unfair)
      return {
        unconfirmed: `the cycle is not fair: ${condition.name} is ${condition.kind === 'weak' ? 'enabled in every state of it' : 'enabled in a state of it'} yet never taken`,
      };
  }
  const horizon = systemHorizon(model);
  if (needsTime(property) && cycleStates.every(horizon))
    return { unconfirmed: 'the cycle waits at the clock horizon: the verdict needs relative time' };
  return {
    confirmed: `from state ${trigger} on, ${property.goal} never holds, and the cycle (states ${loop} to ${states.length - 1}) is fair for every condition assumed`,
  };
}
