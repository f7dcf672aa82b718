import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { onStep, stepProperty } from './declare.ts';
import { intentOf, meantToInitialize } from './intent.ts';
import { exists, succeeded } from './steps.ts';

/**
 * IN-6 for the reads that stay open. A watch (`?watch=true`, D-16) starts as the list of what is
 * stored and then goes on delivering every change: one opened on a namespace before it is ready would
 * carry what its initializers create there, the secrets and quotas 000's second story keeps from the
 * creator. So an empty first answer proves nothing: the watch, and the list it starts with, must be
 * refused, as IN-6 says of every operation. Judged from the request, the namespace as storage holds
 * it (its `initialized` mark, D-25) and the scope's declared intent, never from the IN-6 gate that
 * served it.
 */

type Request = NonNullable<SystemEvent['request']>;

/** A list or watch of content addressed to one namespace that exists, is not terminating and was never initialized, by a principal not meant to hold initialize. */
function readBeforeReady(model: SystemModel, before: SystemState, r: Request | undefined) {
  if (r?.target !== 'content' || r.verb !== 'list' || r.collection || r.namespace < 0) return null;
  if (meantToInitialize(intentOf(model.scope), r.principal.name)) return null;
  const view = model.view(before, r.namespace);
  // One deleted before it was initialized will never be ready: never-initialized-stays-closed judges it.
  return exists(view) && !view.initialized && view.value !== 'terminating' ? { r, view } : null;
}

export const watchBeforeReady = stepProperty('watch-before-ready', ['IN-6', 'NS-7'], {
  statement:
    'A watch of content in a namespace not yet initialized, and the list a watch starts with, from a principal not meant to hold initialize, is refused even when nothing is stored there yet: a watch opened before ready would deliver what the initializers create next.',
  predicate: (model, before, event) => {
    const found = readBeforeReady(model, before, event.request);
    if (!found || !succeeded(event)) return true;
    const { r, view } = found;
    const what = r.watch ? 'opened a watch of' : 'listed';
    return `${r.principal.name} ${what} ${r.resource} in ${view.name} (${event.response?.code}) before it was initialized`;
  },
  witness: onStep(
    'a principal not meant to hold initialize lists or watches content of a namespace not yet initialized',
    (model, before, event) => readBeforeReady(model, before, event.request) !== null,
  ),
});
