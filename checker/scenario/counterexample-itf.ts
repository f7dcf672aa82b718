import { posix } from 'node:path';
import type { Scope } from '../../machines/scope.ts';
import type { SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import type { Property } from '../../properties/types.ts';
import { scopeToDocument } from '../cli/scope-yaml.ts';
import type { LivenessResult } from '../model/liveness-system.ts';
import { type ItfMbtAction, itfText, type TraceInput, traceToItf } from './itf.ts';
import { actionName, nondetPicks, noPicks, stutterActionName, typedState, varTypes } from './itf-types.ts';
import { actionData, readableState, stepAction } from './state-view.ts';

/** A model step as Quint's model-based testing writes it: the action's name and its arguments. */
export function mbtAction(model: SystemModel, event: SystemEvent): ItfMbtAction {
  return { name: actionName(event.actorKind), picks: nondetPicks(actionData(model, event)) };
}

/**
 * What makes a trace typed (checker/scenario/itf-types.ts): typed state values, `#meta.varTypes`, the scope as
 * `params` (its name, and the whole scope as JSON text in the scope file format, so the trace replays
 * without the file it came from), and each step as an action name with its picks.
 */
function typedOptions<E>(scope: Scope, step: (event: E) => ItfMbtAction, model: SystemModel) {
  return {
    encodeView: typedState,
    // The variables are the model's: a seeded fault's data may add cluster objects the given scope lacks.
    varTypes: varTypes({ clusterObjects: (model.scope.clusterObjects?.length ?? 0) > 0 }),
    params: { scope: scope.name, scopeDocument: JSON.stringify(scopeToDocument(scope)) },
    mbt: { initial: { name: 'init', picks: noPicks }, step },
  };
}

/** `counterexamples/<property>.itf.json`, next to the Markdown counterexample. */
export function counterexampleItfPath(outDir: string, propertyId: string): string {
  return posix.join(outDir, 'counterexamples', `${propertyId}.itf.json`);
}

/** What the writer needs of a property's verdict (the judging room's PropertyResult has this shape). */
export interface ViolatedProperty {
  property: Property;
  violation?: { message: string; trace: TraceInput<SystemState, SystemEvent> };
}

/** The `#meta` every trace verify writes carries: what it is (`what` the property), its requirements and variant. */
function propertyMeta(
  what: string,
  property: { id: string; statement: string; requirements: readonly string[] },
  variant: string,
) {
  return {
    source: 'nsmodel verify',
    description: `${what} ${property.id}: ${property.statement}`,
    property: property.id,
    requirements: [...property.requirements],
    variant,
  };
}

/** A violated property's shortest trace as ITF text, with what broke and where it ran in `#meta`. */
export function counterexampleItf(
  model: SystemModel,
  result: ViolatedProperty,
  variant: string,
  loopStart?: number,
  /** The scope as given: a seeded fault in the scope's data is the variant's, applied again on replay. */
  givenScope: Scope = model.scope,
): string {
  const v = result.violation;
  if (!v) throw new Error(`property ${result.property.id} has no violation`);
  return itfText(
    traceToItf(v.trace, {
      view: (s) => readableState(model, s),
      action: (event) => stepAction(event, model),
      // A seeded fault in the scope's data is the variant's, applied again on replay.
      ...typedOptions<SystemEvent>(givenScope, (event) => mbtAction(model, event), model),
      meta: { ...propertyMeta('Counterexample to', result.property, variant), violation: v.message },
      ...(loopStart !== undefined ? { loopStart } : {}),
    }),
  );
}

/** The action of a stuttering step of a lasso: nothing happens, the state stays. */
export const stutterAction = { label: 'stutter', details: { data: { stutter: true } } } as const;

/**
 * A liveness property's lasso as ITF: the prefix, then the cycle, whose last state is the state `loop`
 * names (ADR-015's lasso), with the namespace the property was judged for in `#meta`.
 */
export function lassoItf(model: SystemModel, result: LivenessResult, variant: string): string {
  const lasso = result.lasso;
  if (!lasso) throw new Error(`liveness property ${result.property.id} has no lasso`);
  return itfText(
    traceToItf<SystemState, SystemEvent | null>(
      { initial: lasso.initial, steps: lasso.steps },
      {
        view: (s) => readableState(model, s),
        action: (event) => (event ? stepAction(event, model) : stutterAction),
        ...typedOptions<SystemEvent | null>(
          model.scope,
          (event) => (event ? mbtAction(model, event) : { name: stutterActionName, picks: noPicks }),
          model,
        ),
        meta: {
          ...propertyMeta('Lasso of', result.property, variant),
          ...(result.namespace !== undefined ? { namespace: result.namespace } : {}),
          status: result.status,
          fairness: result.fairness,
        },
        loopStart: lasso.loopStart,
      },
    ),
  );
}
