import { posix } from 'node:path';
import type { Scope } from '../machines/scope.ts';
import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import type { PropertyResult } from './check.ts';
import { itfText, traceToItf } from './itf.ts';
import type { LivenessResult } from './liveness-system.ts';
import { scopeToDocument } from './scope-yaml.ts';
import { readableState, stepAction } from './state-view.ts';

/** `counterexamples/<property>.itf.json`, next to the Markdown counterexample. */
export function counterexampleItfPath(outDir: string, propertyId: string): string {
  return posix.join(outDir, 'counterexamples', `${propertyId}.itf.json`);
}

/** A violated property's shortest trace as ITF text, with what broke and where it ran in `#meta`. */
export function counterexampleItf(
  model: SystemModel,
  result: PropertyResult,
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
      meta: {
        source: 'nsmodel verify',
        description: `Counterexample to ${result.property.id}: ${result.property.statement}`,
        property: result.property.id,
        requirements: [...result.property.requirements],
        variant,
        scope: model.scope.name,
        // The whole scope, in the scope file format: the trace replays without the file it came from.
        scopeDocument: scopeToDocument(givenScope),
        violation: v.message,
      },
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
        meta: {
          source: 'nsmodel verify',
          description: `Lasso of ${result.property.id}: ${result.property.statement}`,
          property: result.property.id,
          requirements: [...result.property.requirements],
          variant,
          scope: model.scope.name,
          scopeDocument: scopeToDocument(model.scope),
          ...(result.namespace !== undefined ? { namespace: result.namespace } : {}),
          status: result.status,
          fairness: result.fairness,
        },
        loopStart: lasso.loopStart,
      },
    ),
  );
}
