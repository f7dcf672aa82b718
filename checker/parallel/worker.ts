import { parentPort, workerData } from 'node:worker_threads';
import type { SystemEvent, SystemState } from '../../machines/system.ts';
import { safetyProperties } from '../../properties/safety.ts';
import type { InvariantProperty, StepProperty } from '../../properties/types.ts';
import { PortableStates } from './portable.ts';
import * as wire from './protocol.ts';

/**
 * One thread of the parallel search (protocol.ts): it owns the states whose text hashes to its index,
 * remembers where each came from (for traces), and judges the safety properties on the states it
 * receives and the steps it takes, as `check` does on one thread.
 */
const input = workerData as wire.WorkerInput;
const { model, symmetry } = wire.threadModel(input);
const canonical = symmetry ? symmetry.canonical : (s: SystemState) => s;
const portable = new PortableStates(model);
const properties = safetyProperties.filter((p) => input.properties.includes(p.id));
const invariants = properties.filter((p): p is InvariantProperty => p.kind === 'invariant');
const steps = properties.filter((p): p is StepProperty => p.kind === 'step');
const witnesses: Record<string, number> = Object.fromEntries(properties.map((p) => [p.id, 0]));
const seenEvents = new Set<SystemEvent>();
const covered = new Set<string>();
/** Each owned state's origin: [parent text or null, position among its parent's successors]. */
const origins = new Map<string, [string | null, number]>();
let next: { state: SystemState; text: string }[] = [];
// Texts by this thread's own key: a state met again is not encoded again.
const texts = new Map<string, string>();
const textOf = (s: SystemState): string => {
  const key = model.key(s);
  let text = texts.get(key);
  if (text === undefined) {
    text = portable.encode(s);
    texts.set(key, text);
  }
  return text;
};

/** A new owned state: remembered with its origin, judged by the invariants, queued for the next level. */
function admit(state: SystemState, arrival: wire.Arrival, found: wire.Found[]): number {
  origins.set(arrival.text, [arrival.parent, arrival.index]);
  next.push({ state, text: arrival.text });
  for (const p of invariants) {
    const verdict = p.predicate(model, state);
    if (verdict !== true) found.push({ propertyId: p.id, message: verdict, text: arrival.text });
  }
  for (const p of properties) if (p.witness.on === 'state' && p.witness.test(model, state)) witnesses[p.id]++;
  return symmetry ? symmetry.orbitSize(state) : 1;
}

/** The orbits of the states this thread admitted while expanding, reported with the next receive. */
let admittedOrbits = 0;

function receive(arrivals: readonly wire.Arrival[]): wire.FromWorker {
  const found: wire.Found[] = [];
  let orbitStates = admittedOrbits;
  admittedOrbits = 0;
  for (const arrival of arrivals)
    if (!origins.has(arrival.text)) orbitStates += admit(portable.decode(arrival.text), arrival, found);
  return { type: 'received', next: next.length, found, orbitStates };
}

function expand(): wire.FromWorker {
  const frontier = next;
  next = [];
  let transitions = 0;
  let orbitTransitions = 0;
  const found: wire.Found[] = [];
  const outbound: wire.Arrival[][] = Array.from({ length: input.count }, () => []);
  for (const { state: before, text: parent } of frontier) {
    const orbit = symmetry ? symmetry.orbitSize(before) : 1;
    let index = 0;
    model.successors(before, (event, after) => {
      const edge = index++;
      transitions++;
      orbitTransitions += orbit;
      if (!seenEvents.has(event)) {
        seenEvents.add(event);
        for (const t of event.transitions) covered.add(t);
      }
      for (const p of steps) {
        const verdict = p.predicate(model, before, event, after);
        if (verdict !== true) found.push({ propertyId: p.id, message: verdict, text: parent, edge });
      }
      for (const p of properties)
        if (p.witness.on === 'step' && p.witness.test(model, before, event, after)) witnesses[p.id]++;
      const stored = canonical(after);
      const text = textOf(stored);
      const arrival = { text, parent, index: edge };
      const owner = wire.ownerOf(text, input.count);
      if (owner !== input.index) outbound[owner].push(arrival);
      // Judged here at once: its invariant verdicts travel with this level's step verdicts.
      else if (!origins.has(text)) admittedOrbits += admit(stored, arrival, found);
    });
  }
  return { type: 'expanded', transitions, outbound, found, orbitTransitions };
}

parentPort?.on('message', (message: wire.ToWorker) => {
  const reply = ((): wire.FromWorker => {
    switch (message.type) {
      case 'receive':
        return receive(message.arrivals);
      case 'expand':
        return expand();
      case 'origin': {
        const [parent, index] = origins.get(message.text) ?? [null, -1];
        return { type: 'origin', parent, index };
      }
      case 'finish':
        return { type: 'finished', witnesses, covered: [...covered] };
    }
  })();
  parentPort?.postMessage(reply);
});
