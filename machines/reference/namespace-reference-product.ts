import { fromTransition, initialTransition, type SnapshotFrom, transition } from 'xstate';
import { memoByObject } from '../../checker/engine/caches.ts';
import { canonicalJson } from '../stepper.ts';
import { type ReferenceEvent, referenceEvents, referenceNamespaceMachine } from './namespace-reference.ts';

/**
 * N interleaved reference namespaces as one XState logic: each event steps one copy's machine
 * snapshot with XState's pure `transition`. It is the product the way `xstate/graph` sees it, so
 * `getAdjacencyMap` can walk it and be compared with the tabulated explorers.
 */

export type ReferenceSnapshot = SnapshotFrom<typeof referenceNamespaceMachine>;

export interface ReferenceProductEvent {
  type: `ns${number}.${ReferenceEvent['type']}`;
  copy: number;
  event: ReferenceEvent;
}

/** Every product event: each copy crossed with each event of the reference alphabet. */
export function referenceProductEvents(copies: number): ReferenceProductEvent[] {
  const events: ReferenceProductEvent[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const event of referenceEvents) {
      events.push({ type: `ns${copy}.${event.type}`, copy, event });
    }
  }
  return events;
}

export function referenceProductLogic(copies: number) {
  const [absent] = initialTransition(referenceNamespaceMachine);
  return fromTransition(
    (namespaces: readonly ReferenceSnapshot[], { copy, event }: ReferenceProductEvent) => {
      const [after] = transition(referenceNamespaceMachine, namespaces[copy], event);
      if (after === namespaces[copy]) return namespaces;
      const next = namespaces.slice();
      next[copy] = after;
      return next;
    },
    () => new Array<ReferenceSnapshot>(copies).fill(absent),
  );
}

/** A copy's canonical key, remembered per snapshot object (copies share them) by the engine's cache. */
const keyOfSnapshot = memoByObject((namespace: ReferenceSnapshot) =>
  canonicalJson([namespace.value, namespace.context ?? null]),
);

/** `serializeState` for `getAdjacencyMap`: canonical per-copy keys, cached per snapshot object (copies share them). */
export function serializeReferenceProduct(snapshot: { context: readonly ReferenceSnapshot[] }): string {
  return snapshot.context.map(keyOfSnapshot).join('|');
}
