import type { InitializerSpec } from '../machines/scope.ts';
import type { NamespaceView, SystemEvent, SystemModel, SystemState } from '../machines/system.ts';
import { declaredInitializer, foreignTo, type Intent, intentOf } from './intent.ts';

/** What the properties read of a step, through the state view only. */

export const exists = (v: NamespaceView) => v.value !== 'absent' && v.value !== 'removed';

export const succeeded = (e: SystemEvent) =>
  e.response !== undefined && e.response.code >= 200 && e.response.code < 300;

/** D-32: the entry the documents put in force for an initializer in state s: admission's copy as read, else the scope's declaration. */
export const initializerInEffect = (
  model: SystemModel,
  s: SystemState,
  name: string,
): InitializerSpec | undefined =>
  declaredInitializer(model.scope, model.configurationsRead(s), model.configurationVersionsRead(s), name);

/** AC-2, D-9: the seconds without a successful configuration read after which the scope means the copy to be stale. */
export const staleAfterSeconds = (model: SystemModel) =>
  intentOf(model.scope).timeouts.configurationStaleAfterSeconds;

export const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The namespaces a step changed, before and after. Namespace states are interned, so an unchanged
 * namespace is the same object and is skipped: properties about change have nothing to judge there.
 */
export function pairs(model: SystemModel, before: SystemState, after: SystemState) {
  return model
    .changedSlots(before, after)
    .map((i) => ({ b: model.view(before, i), a: model.view(after, i) }));
}

/** The namespace name a request addressed, or null for a list across all namespaces. */
export const namespaceName = (model: SystemModel, ns: number) =>
  ns >= 0 ? model.scope.namespaces[ns].name : null;

/**
 * Whose namespace it is (RB-2, document 000): the user its create came from, as the namespace records
 * it; before any create, the tenants the scope declares. Any tenant may create a free name (RB-1), and
 * whoever does is made its admin, so a declared tenant who lost the race owns nothing there.
 */
export function ownersOf(model: SystemModel, s: SystemState, intent: Intent, namespace: string) {
  const i = model.scope.namespaces.findIndex((ns) => ns.name === namespace);
  const creator = i >= 0 ? model.view(s, i).creator : undefined;
  return creator ? [creator] : intent.tenants[namespace];
}

/** A tenant acting in a namespace that belongs to someone else in state s (ownersOf). */
export function foreignIn(
  model: SystemModel,
  s: SystemState,
  intent: Intent,
  who: string,
  namespace: string,
) {
  return foreignTo(intent, who, namespace, ownersOf(model, s, intent, namespace));
}

/** The namespace a listed item (`NAMESPACE/NAME`) lives in. */
export const itemNamespace = (item: string) => item.split('/')[0];

export function describeContent(model: SystemModel, mask: number): string {
  return model.objects
    .map((_, k) => k)
    .filter((k) => mask & (1 << k))
    .map((k) => model.objectName(k))
    .join(', ');
}

/** What a per-namespace step judgement sees: one changed namespace before and after, and the step. */
export interface ChangedNamespace {
  b: NamespaceView;
  a: NamespaceView;
  model: SystemModel;
  before: SystemState;
  event: SystemEvent;
  after: SystemState;
}

/** A step predicate judged on each namespace the step changed: the first broken one's message, else true. */
export const eachChanged =
  (judge: (changed: ChangedNamespace) => true | string) =>
  (model: SystemModel, before: SystemState, event: SystemEvent, after: SystemState): true | string => {
    // Each slot's views are taken as it is judged: no array of pairs per step (judged on every edge).
    const changed = model.changedSlots(before, after);
    for (let k = 0; k < changed.length; k++) {
      const i = changed[k];
      const verdict = judge({
        b: model.view(before, i),
        a: model.view(after, i),
        model,
        before,
        event,
        after,
      });
      if (verdict !== true) return verdict;
    }
    return true;
  };

/** The namespace, as it was before the step, that a request of this target and verb addressed; null for any other step. */
export function addressedBy(
  model: SystemModel,
  before: SystemState,
  event: SystemEvent,
  target: NonNullable<SystemEvent['request']>['target'],
  verb: NonNullable<SystemEvent['request']>['verb'],
): NamespaceView | null {
  const r = event.request;
  return r?.target === target && r.verb === verb && r.namespace >= 0 ? model.view(before, r.namespace) : null;
}

/** A step witness: some namespace the step changed, before and after, fits `test`. */
export const someChanged =
  (test: (changed: ChangedNamespace) => boolean) =>
  (model: SystemModel, before: SystemState, event: SystemEvent, after: SystemState): boolean => {
    const changed = model.changedSlots(before, after);
    for (let k = 0; k < changed.length; k++) {
      const i = changed[k];
      if (test({ b: model.view(before, i), a: model.view(after, i), model, before, event, after }))
        return true;
    }
    return false;
  };
