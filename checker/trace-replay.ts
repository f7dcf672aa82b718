import { isDeepStrictEqual } from 'node:util';
import type { Scope } from '../machines/scope.ts';
import { type SystemEvent, SystemModel, type SystemState } from '../machines/system.ts';
import { baseVariantName, machinesFor, scopeFor } from '../machines/variants.ts';
import { extraProperties } from '../properties/extra.ts';
import { safetyProperties } from '../properties/safety.ts';
import type { Property } from '../properties/types.ts';
import { UsageError } from './cli.ts';
import { actionVariable, encodeItfValue, type ItfTrace, type ItfValue, itfEqual } from './itf.ts';
import { fieldOf, scopeByName, scopeFromData } from './scope-file.ts';
import { actionData, readableState, stepAction } from './state-view.ts';

/**
 * `replay --trace FILE.itf.json`: runs an ITF counterexample's actions on the model (or a variant),
 * each found among the model's enabled steps by its data (who sent which request, which fault), and
 * checks every state against the recorded one. Then judges the trace's property on what it reached.
 */

export interface ReplayedStep {
  label: string;
  event: SystemEvent;
  before: SystemState;
  after: SystemState;
}

export type TraceReplay =
  | {
      replayed: true;
      property: Property;
      variant: string;
      /** The scope as the trace gives it; the model runs it with the variant's data fault, if any. */
      scope: Scope;
      model: SystemModel;
      initial: SystemState;
      steps: ReplayedStep[];
      /** The first step (1-based; 0 for the initial state) where the property fails, if any. */
      violatedAt?: number;
      verdict?: string;
    }
  | { replayed: false; variant: string; step: number; problem: string };

const properties: Property[] = [...safetyProperties, ...extraProperties];

export type Vars = Record<string, ItfValue>;
export const stateVars = (model: SystemModel, state: SystemState): Vars => {
  const view = readableState(model, state);
  return Object.fromEntries(Object.keys(view).map((k) => [k, encodeItfValue(view[k], k)]));
};
export const recordedVars = (trace: ItfTrace, index: number): Vars =>
  Object.fromEntries(
    Object.entries(trace.states[index]).filter(([k]) => k !== '#meta' && k !== actionVariable),
  ) as Vars;
/** Same variables with the same values by ITF meaning (set and map order, integer spelling free). */
export const sameVars = (got: Vars, want: Vars): boolean =>
  Object.keys(got).sort().join('\0') === Object.keys(want).sort().join('\0') &&
  Object.keys(want).every((k) => itfEqual(got[k], want[k]));

/** The recorded data of step `index` (1-based), or a UsageError saying the trace cannot be replayed. */
export function recordedAction(
  trace: ItfTrace,
  index: number,
  file: string,
): { label: string; data: unknown } {
  const action = trace.states[index]['#meta'].action;
  const data = action?.details?.data;
  if (!action || data === undefined)
    throw new UsageError(
      `${file}: states[${index}]: the action carries no data (#meta.action.details.data); fix: write the trace again with npm run verify`,
    );
  // The trace records each step twice (Apalache's mbt::actionTaken beside #meta.action): they must agree.
  const taken = trace.states[index][actionVariable];
  if (taken !== undefined && taken !== action.label)
    throw new UsageError(
      `${file}: states[${index}].${actionVariable}: ${JSON.stringify(taken)} is not the step #meta.action records (${JSON.stringify(action.label)}); fix: write the trace again with npm run verify, or make the two agree`,
    );
  return { label: action.label, data };
}

/** The property, variant and scope a trace names in `#meta`, each overridable. */
export function traceSubject(
  trace: ItfTrace,
  file: string,
  overrides: { variant?: string; scope?: Scope },
): { property: Property; variant: string; scope: Scope } {
  const meta = trace['#meta'];
  const id = typeof meta.property === 'string' ? meta.property : '';
  const property = properties.find((p) => p.id === id);
  if (!property)
    throw new UsageError(
      `${file}: #meta.property: ${JSON.stringify(id)} is no safety property; fix: replay a counterexample written by npm run verify (liveness lassos are not replayed)`,
    );
  if (trace.loop !== undefined)
    throw new UsageError(`${file}: loop: a liveness lasso; fix: --trace replays safety counterexamples only`);
  const variant = overrides.variant ?? (typeof meta.variant === 'string' ? meta.variant : baseVariantName);
  const scopeName = typeof meta.scope === 'string' ? meta.scope : '';
  const scope =
    overrides.scope ??
    (meta.scopeDocument ? embeddedScope(meta.scopeDocument, file) : namedScope(scopeName, file));
  return { property, variant, scope };
}

/** The scope a trace carries in `#meta.scopeDocument` (the scope file format). */
export function embeddedScope(data: unknown, file: string): Scope {
  const result = scopeFromData(data);
  if ('problem' in result)
    throw new UsageError(
      `${file}: #meta.scopeDocument.${fieldOf(result.path)}: ${result.problem}; fix: ${result.fix}`,
    );
  return result;
}

/** Replays the trace step by step; never explores beyond the enabled steps of each reached state. */
export function replayTrace(
  trace: ItfTrace,
  file: string,
  overrides: { variant?: string; scope?: Scope } = {},
): TraceReplay {
  const { property, variant, scope } = traceSubject(trace, file, overrides);
  const machines = machinesFor(variant, scope);
  if (!machines)
    throw new UsageError(
      `${file}: ${overrides.variant ? '--variant' : '#meta.variant'}: unknown variant ${JSON.stringify(variant)}; fix: name the model or a variant of machines/variants.ts`,
    );
  const model = new SystemModel(scopeFor(variant, scope), machines);
  const initial = model.initialStates().find((s) => sameVars(stateVars(model, s), recordedVars(trace, 0)));
  if (!initial)
    return {
      replayed: false,
      variant,
      step: 0,
      problem: 'no initial state of the model is the recorded one',
    };
  const steps: ReplayedStep[] = [];
  let state = initial;
  for (let index = 1; index < trace.states.length; index++) {
    const { label, data } = recordedAction(trace, index, file);
    const candidates = model
      .enabled(state)
      .filter((e) => isDeepStrictEqual(actionData(model, e.event), data));
    const expected = recordedVars(trace, index);
    const match = candidates.find((e) => sameVars(stateVars(model, e.next), expected));
    if (!match) {
      const problem =
        candidates.length === 0
          ? `the model offers no step "${label}" here`
          : `"${label}" leads elsewhere on ${variant}: ${differences(stateVars(model, candidates[0].next), expected)}`;
      return { replayed: false, variant, step: index, problem };
    }
    // The recorded answer is part of the trace: one the model does not give is not a run of it.
    const answered = stepAction(match.event, model);
    const recorded = trace.states[index]['#meta'].action;
    if (
      recorded?.label !== answered.label ||
      !isDeepStrictEqual(recorded.details?.response ?? null, answered.details?.response ?? null)
    )
      return {
        replayed: false,
        variant,
        step: index,
        problem: `the trace records "${label}" (response ${responseText(recorded?.details?.response)}), but ${variant} answers "${answered.label}" (response ${responseText(answered.details?.response)})`,
      };
    steps.push({ label, event: match.event, before: state, after: match.next });
    state = match.next;
  }
  const judged = judge(property, model, initial, steps);
  return { replayed: true, property, variant, scope, model, initial, steps, ...judged };
}

function judge(
  property: Property,
  model: SystemModel,
  initial: SystemState,
  steps: readonly ReplayedStep[],
): { violatedAt?: number; verdict?: string } {
  if (property.kind === 'invariant') {
    const states = [initial, ...steps.map((s) => s.after)];
    for (const [i, s] of states.entries()) {
      const verdict = property.predicate(model, s);
      if (verdict !== true) return { violatedAt: i, verdict };
    }
    return {};
  }
  for (const [i, s] of steps.entries()) {
    const verdict = property.predicate(model, s.before, s.event, s.after);
    if (verdict !== true) return { violatedAt: i + 1, verdict };
  }
  return {};
}

/** A recorded or answered response, as one phrase. */
export function responseText(response: unknown): string {
  if (response === undefined || response === null) return 'none';
  const r = response as { code?: unknown; reason?: unknown; cause?: unknown };
  return `${String(r.code)} ${String(r.reason)}${r.cause !== undefined ? ` (${String(r.cause)})` : ''}`;
}

/** The top-level variables that differ, by name: where a replay left the recorded path. */
export function differences(got: Vars, want: Vars): string {
  const names = Object.keys(want).filter((k) => got[k] === undefined || !itfEqual(got[k], want[k]));
  return `${names.join(', ') || 'the state'} differ${names.length === 1 ? 's' : ''} from the recorded state`;
}

/** A built-in scope a trace names in `#meta.scope`; an unknown one is refused naming the trace. */
export function namedScope(name: string, file: string): Scope {
  try {
    return scopeByName(name);
  } catch (error) {
    if (error instanceof UsageError)
      throw new UsageError(
        `${file}: #meta.scope: ${error.message.replace(/^--scope: /, '')}; or give --scope`,
      );
    throw error;
  }
}
