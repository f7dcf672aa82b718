import type { HttpOutcome } from '../machines/http.ts';
import type { ApiRequest, SystemModel, SystemState } from '../machines/system.ts';
import type { Property } from '../properties/types.ts';

/**
 * A step property's verdict on request `r` sent in `s` by its principal, answered and stored as the model
 * does unless `instead` puts another answer or after-state in their place (so each clause is seen to fail).
 */
export function stepVerdict(
  model: SystemModel,
  property: Property,
  s: SystemState,
  r: ApiRequest,
  instead: { response?: HttpOutcome; after?: SystemState } = {},
) {
  const served = model.handle(s, r);
  const event = {
    actor: r.principal.name,
    actorKind: 'principal' as const,
    label: model.describeRequest(s, r),
    request: r,
    namespace: r.namespace,
    transitions: [],
    response: instead.response ?? served.response,
  };
  if (property.kind !== 'step') throw new Error(`${property.id} is not a step property`);
  return property.predicate(model, s, event as never, instead.after ?? served.state);
}
