import type { SystemEvent, SystemModel } from '../machines/system.ts';
import { onStep, stepProperty } from './declare.ts';
import { describeContent, eachChanged, someChanged, succeeded } from './steps.ts';

/** The content object a step's successful request of this verb names in namespace slot `slot`, as a bit; 0 for any other step. */
const requestedBit = (event: SystemEvent, slot: number, verb: 'create' | 'delete'): number => {
  const r = event.request;
  return r &&
    r.target === 'content' &&
    r.namespace === slot &&
    r.verb === verb &&
    r.object >= 0 &&
    succeeded(event)
    ? 1 << r.object
    : 0;
};

/**
 * The objects a step's successful deletecollection may remove in namespace slot `slot`: every object of
 * its resource, as the scope declares the objects; 0 for any other step.
 */
const collectionBits = (model: SystemModel, event: SystemEvent, slot: number): number => {
  const r = event.request;
  if (!r?.collection || r.target !== 'content' || r.namespace !== slot || !succeeded(event)) return 0;
  return model.objects.reduce((mask, o, k) => (o.resource === r.resource ? mask | (1 << k) : mask), 0);
};

/**
 * The frame condition of content (TLA+'s UNCHANGED, for a namespace's objects), judged from the step's
 * request and response as an API server's audit log shows them, never from the code that stored them.
 */
export const contentChangesOnlyByRequests = stepProperty(
  'content-changes-only-by-requests',
  ['NS-2', 'LC-5'],
  {
    statement:
      "A namespace's content changes only by one successful request: a create adds the object it names, a DELETE removes the object it names, a deletecollection only objects of its resource, nothing else appears or vanishes; and the namespace controller deletes content only from a Terminating namespace.",
    predicate: eachChanged(({ b, a, model, event }) => {
      const slot = model.scope.namespaces.findIndex((ns) => ns.name === b.name);
      const added = a.content & ~b.content;
      const removed = b.content & ~a.content;
      if (added !== 0 && added !== requestedBit(event, slot, 'create'))
        return `${describeContent(model, added)} appeared in ${b.name} without a successful create of it`;
      const collection = collectionBits(model, event, slot);
      if (
        removed !== 0 &&
        (collection !== 0 ? (removed & ~collection) !== 0 : removed !== requestedBit(event, slot, 'delete'))
      )
        return `${describeContent(model, removed)} vanished from ${b.name} without a successful DELETE of it`;
      if (removed !== 0 && event.actorKind === 'namespace-controller' && b.value !== 'terminating')
        return `the namespace controller deleted ${describeContent(model, removed)} from ${b.name}, which is ${b.value}, not Terminating`;
      return true;
    }),
    witness: onStep(
      'a step removes content from a namespace',
      someChanged(({ b, a }) => (b.content & ~a.content) !== 0),
    ),
  },
);
