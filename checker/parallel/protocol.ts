import type { Scope } from '../../machines/scope.ts';
import { SystemModel } from '../../machines/system.ts';
import { machinesFor, scopeFor } from '../../machines/variants.ts';
import { StateSymmetry, symmetryOf } from '../symmetry.ts';
import { hashKey } from '../visited.ts';

/**
 * The messages of the parallel search. Each worker owns the states whose text hashes to its index,
 * builds its own model from the scope (plain data) and the variant's name, and expands its share of each level.
 */
export interface WorkerInput {
  scope: Scope;
  variant: string;
  index: number;
  count: number;
  symmetry: boolean;
  /** Ids of the safety properties each worker judges on the states it receives and the steps it takes. */
  properties: string[];
}

/** A state sent to its owner, with where it came from: its parent's text and its position among the parent's successors. */
export interface Arrival {
  text: string;
  /** Null for an initial state, whose `index` is its position among the initial states. */
  parent: string | null;
  index: number;
}

/** A property broken at a state (an invariant) or on the step `edge` out of it (a step property). */
export interface Found {
  propertyId: string;
  message: string;
  text: string;
  edge?: number;
}

/** Main thread to worker. */
export type ToWorker =
  | { type: 'receive'; arrivals: Arrival[] }
  | { type: 'expand' }
  | { type: 'origin'; text: string }
  | { type: 'finish' };
/** Worker to main thread. */
export type FromWorker =
  | { type: 'received'; next: number; found: Found[]; orbitStates: number }
  | { type: 'expanded'; transitions: number; outbound: Arrival[][]; found: Found[]; orbitTransitions: number }
  | { type: 'origin'; parent: string | null; index: number }
  | { type: 'finished'; witnesses: Record<string, number>; covered: string[] };

export const ownerOf = (text: string, count: number): number => (hashKey(text) >>> 0) % count;

/** The model every thread builds alike from plain data: the variant's machines on its scope, and the scope's symmetry when asked. */
export function threadModel(input: { scope: Scope; variant: string; symmetry: boolean }): {
  model: SystemModel;
  symmetry?: StateSymmetry;
} {
  const scope = scopeFor(input.variant, input.scope);
  const machines = machinesFor(input.variant, scope);
  if (!machines) throw new Error(`no machines for variant ${input.variant}`);
  const model = new SystemModel(scope, machines);
  return input.symmetry ? { model, symmetry: new StateSymmetry(model, symmetryOf(model.scope)) } : { model };
}
