import { isDeepStrictEqual } from 'node:util';
import type { Scope } from '../../machines/scope.ts';
import type { MachineSet, SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import { extraProperties } from '../../properties/extra.ts';
import { safetyProperties } from '../../properties/safety.ts';
import type { Property } from '../../properties/types.ts';
import { baseVariantName, machinesFor, scopeFor } from '../../variants/variants.ts';
import { UsageError } from '../cli/cli.ts';
import { fieldOf, scopeByName, scopeFromData } from '../cli/scope-file.ts';
import { systemModel } from '../model/system-model.ts';
import {
  actionVariable,
  encodeItfValue,
  type ItfAction,
  type ItfTrace,
  type ItfValue,
  itfEqual,
  picksVariable,
} from './itf.ts';
import { actionName, isTypedState, nondetPicks, stutterActionName, typedState } from './itf-types.ts';
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
/** A state's variables as ITF, typed (checker/scenario/itf-types.ts) or as the readable view is encoded plainly. */
export const stateVars = (model: SystemModel, state: SystemState, typed = false): Vars => {
  const view = readableState(model, state);
  return typed
    ? typedState(view)
    : Object.fromEntries(Object.keys(view).map((k) => [k, encodeItfValue(view[k], k)]));
};
/** A state's recorded variables: neither `#meta`, the action's name and picks, nor the parameters. */
export const recordedVars = (trace: ItfTrace, index: number): Vars =>
  Object.fromEntries(
    Object.entries(trace.states[index]).filter(
      ([k]) => k !== '#meta' && k !== actionVariable && k !== picksVariable && !trace.params?.includes(k),
    ),
  ) as Vars;
/** Whether the trace is written in the typed shape, its state 0 compared as such. */
export const isTypedTrace = (trace: ItfTrace): boolean => isTypedState(recordedVars(trace, 0));
/** Same variables with the same values by ITF meaning (set and map order, integer spelling free). */
export const sameVars = (got: Vars, want: Vars): boolean =>
  Object.keys(got).sort().join('\0') === Object.keys(want).sort().join('\0') &&
  Object.keys(want).every((k) => itfEqual(got[k], want[k]));

/** A recorded step: how to find it among the model's enabled steps, and what the trace says of it. */
export interface RecordedStep {
  /** The recorded label, when the trace has one (`#meta.action.label`); else the action's name. */
  label: string;
  /** A lasso's stutter: nothing happens. */
  stutter: boolean;
  matches: (model: SystemModel, event: SystemEvent) => boolean;
  /** This project's record of the step, with the response the model gave; other tools write none. */
  recorded?: ItfAction;
}

/**
 * Step `index` (1-based) as the trace records it: by `mbt::actionTaken` and `mbt::nondetPicks` (the
 * action's name and its arguments, as Quint writes them), else by `#meta.action.details.data` (traces
 * written before the typed shape); a UsageError says when it has neither.
 */
export function recordedStep(trace: ItfTrace, index: number, file: string): RecordedStep {
  const state = trace.states[index];
  const action = state['#meta'].action;
  if (trace.vars.includes(picksVariable)) {
    const name = state[actionVariable];
    const picks = state[picksVariable] as ItfValue;
    if (typeof name !== 'string')
      throw new UsageError(
        `${file}: states[${index}].${actionVariable}: not a string; fix: write the action's name (e.g. principalRequest)`,
      );
    return {
      label: action?.label ?? name,
      stutter: name === stutterActionName,
      matches: (model, event) =>
        actionName(event.actorKind) === name && itfEqual(nondetPicks(actionData(model, event)), picks),
      ...(action ? { recorded: action } : {}),
    };
  }
  const data = action?.details?.data;
  if (!action || data === undefined)
    throw new UsageError(
      `${file}: states[${index}]: the action carries no data (neither ${picksVariable} nor #meta.action.details.data); fix: write the trace again with npm run verify`,
    );
  return {
    label: action.label,
    stutter: isDeepStrictEqual(data, { stutter: true }),
    matches: (model, event) => isDeepStrictEqual(actionData(model, event), data),
    recorded: action,
  };
}

/** When the trace records the step's answer: why the model's differs, or undefined when it is the same. */
/** The model's initial state that is the trace's state 0, if any. */
export function recordedInitial(model: SystemModel, trace: ItfTrace): SystemState | undefined {
  const typed = isTypedTrace(trace);
  return model.initialStates().find((s) => sameVars(stateVars(model, s, typed), recordedVars(trace, 0)));
}

/** The machines of the variant a trace is replayed on; an unknown name is a UsageError naming where it came from. */
export function traceMachines(file: string, variant: string, scope: Scope, fromFlag: boolean): MachineSet {
  const machines = machinesFor(variant, scope);
  if (!machines)
    throw new UsageError(
      `${file}: ${fromFlag ? '--variant' : '#meta.variant'}: unknown variant ${JSON.stringify(variant)}; fix: name the model or a variant of variants/variants.ts`,
    );
  return machines;
}

/** A replay that stops before its first step: no initial state of the model is the trace's first state. */
export function noRecordedInitial(variant: string): {
  replayed: false;
  variant: string;
  step: 0;
  problem: string;
} {
  return { replayed: false, variant, step: 0, problem: 'no initial state of the model is the recorded one' };
}

export function answerProblem(
  step: RecordedStep,
  model: SystemModel,
  event: SystemEvent,
  variant: string,
): string | undefined {
  if (!step.recorded) return undefined;
  const answered = stepAction(event, model);
  const recorded = step.recorded;
  if (
    recorded.label === answered.label &&
    isDeepStrictEqual(recorded.details?.response ?? null, answered.details?.response ?? null)
  )
    return undefined;
  return `the trace records "${recorded.label}" (response ${responseText(recorded.details?.response)}), but ${variant} answers "${answered.label}" (response ${responseText(answered.details?.response)})`;
}

/**
 * The scope a trace carries: the parameters `scopeDocument` (the scope file format as JSON text) or
 * `scope` (a built-in scope's name), else `#meta.scopeDocument` or `#meta.scope` (older traces).
 */
export function traceScope(trace: ItfTrace, file: string): Scope {
  const params = trace.params ?? [];
  for (const name of params)
    trace.states.forEach((state, i) => {
      if (!itfEqual(state[name] as ItfValue, trace.states[0][name] as ItfValue))
        throw new UsageError(
          `${file}: states[${i}].${name}: a parameter changes along the trace; fix: give every state state 0's value`,
        );
    });
  if (params.includes('scopeDocument')) {
    const text = trace.states[0].scopeDocument;
    let data: unknown;
    try {
      if (typeof text !== 'string') throw new Error('not a string');
      data = JSON.parse(text);
    } catch (error) {
      throw new UsageError(
        `${file}: states[0].scopeDocument: ${(error as Error).message}; fix: write the scope as JSON text in the scope file format`,
      );
    }
    return embeddedScope(data, file, 'states[0].scopeDocument');
  }
  if (params.includes('scope')) {
    const name = trace.states[0].scope;
    return namedScope(typeof name === 'string' ? name : '', file, 'states[0].scope');
  }
  const meta = trace['#meta'];
  return meta.scopeDocument
    ? embeddedScope(meta.scopeDocument, file)
    : namedScope(typeof meta.scope === 'string' ? meta.scope : '', file);
}

/** The property, variant and scope a trace names in `#meta`, each overridable. */
export function traceSubject(
  trace: ItfTrace,
  file: string,
  overrides: { variant?: string; scope?: Scope; property?: string },
): { property: Property; variant: string; scope: Scope } {
  const meta = trace['#meta'];
  const id = overrides.property ?? (typeof meta.property === 'string' ? meta.property : '');
  const property = properties.find((p) => p.id === id);
  if (!property && overrides.property !== undefined)
    throw new UsageError(
      `--property: ${JSON.stringify(id)} is no safety property; fix: name one of ${properties.map((p) => p.id).join(', ')}`,
    );
  if (!property)
    throw new UsageError(
      `${file}: #meta.property: ${JSON.stringify(id)} is no safety property; fix: replay a counterexample written by npm run verify (liveness lassos are not replayed)`,
    );
  if (trace.loop !== undefined)
    throw new UsageError(`${file}: loop: a liveness lasso; fix: --trace replays safety counterexamples only`);
  const variant = overrides.variant ?? (typeof meta.variant === 'string' ? meta.variant : baseVariantName);
  const scope = overrides.scope ?? traceScope(trace, file);
  return { property, variant, scope };
}

/** The scope a trace carries in the scope file format, at `where`. */
export function embeddedScope(data: unknown, file: string, where = '#meta.scopeDocument'): Scope {
  const result = scopeFromData(data);
  if ('problem' in result)
    throw new UsageError(`${file}: ${where}.${fieldOf(result.path)}: ${result.problem}; fix: ${result.fix}`);
  return result;
}

/** Replays the trace step by step; never explores beyond the enabled steps of each reached state. */
export function replayTrace(
  trace: ItfTrace,
  file: string,
  overrides: { variant?: string; scope?: Scope; property?: string } = {},
): TraceReplay {
  const { property, variant, scope } = traceSubject(trace, file, overrides);
  const machines = traceMachines(file, variant, scope, Boolean(overrides.variant));
  const model = systemModel(scopeFor(variant, scope), machines);
  const typed = isTypedTrace(trace);
  const initial = recordedInitial(model, trace);
  if (!initial) return noRecordedInitial(variant);
  const steps: ReplayedStep[] = [];
  let state = initial;
  for (let index = 1; index < trace.states.length; index++) {
    const recorded = recordedStep(trace, index, file);
    const { label } = recorded;
    const candidates = model.enabled(state).filter((e) => recorded.matches(model, e.event));
    const expected = recordedVars(trace, index);
    const match = candidates.find((e) => sameVars(stateVars(model, e.next, typed), expected));
    if (!match) {
      const problem =
        candidates.length === 0
          ? `the model offers no step "${label}" here`
          : `"${label}" leads elsewhere on ${variant}: ${differences(stateVars(model, candidates[0].next, typed), expected)}`;
      return { replayed: false, variant, step: index, problem };
    }
    // The recorded answer is part of the trace: one the model does not give is not a run of it.
    const problem = answerProblem(recorded, model, match.event, variant);
    if (problem) return { replayed: false, variant, step: index, problem };
    // A trace from another tool names the action only: say it as the model does.
    const said = recorded.recorded ? label : stepAction(match.event, model).label;
    steps.push({ label: said, event: match.event, before: state, after: match.next });
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
export function namedScope(name: string, file: string, where = '#meta.scope'): Scope {
  try {
    return scopeByName(name);
  } catch (error) {
    if (error instanceof UsageError)
      throw new UsageError(`${file}: ${where}: ${error.message.replace(/^--scope: /, '')}; or give --scope`);
    throw error;
  }
}
