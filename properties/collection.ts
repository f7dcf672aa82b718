import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { onStep, stepProperty } from './declare.ts';
import { succeeded } from './steps.ts';

/**
 * LC-4, LC-5: a deletecollection is cleanup. NamespaceLifecycle refuses only new content in a
 * Terminating namespace (shipped admission lets every delete through), and storage deletes what a list
 * of the collection finds. Judged from the request, its answer and the namespace's objects as the scope
 * declares them, never from the admission or storage code that served it.
 */

/** A deletecollection of content addressed to a namespace that was Terminating before the step. */
function collectionInTerminating(model: SystemModel, before: SystemState, event: SystemEvent) {
  const r = event.request;
  if (!r?.collection || r.target !== 'content' || r.namespace < 0) return null;
  const view = model.view(before, r.namespace);
  return view.value === 'terminating' ? { r, view } : null;
}

export const deletecollectionWhileTerminating = stepProperty(
  'deletecollection-while-terminating',
  ['LC-4', 'LC-5'],
  {
    statement:
      'In a Terminating namespace a deletecollection of content is never refused because the namespace terminates (LC-4 bars only new content), and once answered with success no object of its resource is left there.',
    predicate: (model, before, event, after) => {
      const found = collectionInTerminating(model, before, event);
      if (!found) return true;
      const { r, view } = found;
      if (event.response?.cause === 'NamespaceTerminating')
        return `deletecollection of ${r.resource} in terminating ${view.name} was refused because the namespace terminates`;
      if (!succeeded(event)) return true;
      const left = model.objects
        .map((o, k) => ({ o, k }))
        .filter(
          ({ o, k }) =>
            o.resource === r.resource && (model.view(after, r.namespace).content & (1 << k)) !== 0,
        )
        .map(({ o }) => `${o.resource}/${o.name}`);
      return left.length > 0
        ? `deletecollection of ${r.resource} in terminating ${view.name} answered ${event.response?.code} but left ${left.join(', ')}`
        : true;
    },
    witness: onStep(
      'a deletecollection addresses a Terminating namespace that holds objects of its resource',
      (model, before, event) => {
        const found = collectionInTerminating(model, before, event);
        return (
          found !== null &&
          model.objects.some(
            (o, k) => o.resource === found.r.resource && (found.view.content & (1 << k)) !== 0,
          )
        );
      },
    ),
  },
);
