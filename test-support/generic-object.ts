import { createActor } from 'xstate';
import { type GenericObjectEvent, genericInitializationMachine } from '../machines/generic-initialization.ts';

/** One content object of seed 002 after `events`, sent in order from a fresh actor. */
export function runGenericObject(...events: GenericObjectEvent[]) {
  const actor = createActor(genericInitializationMachine).start();
  for (const e of events) actor.send(e);
  const snapshot = actor.getSnapshot();
  actor.stop();
  return snapshot;
}
