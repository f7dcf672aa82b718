import type { Scope } from '../../machines/scope.ts';
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
}

/** Main thread to worker. */
export type ToWorker = { type: 'receive'; texts: string[] } | { type: 'expand' };
/** Worker to main thread. */
export type FromWorker =
  | { type: 'received'; next: number }
  | { type: 'expanded'; transitions: number; outbound: string[][] };

export const ownerOf = (text: string, count: number): number => (hashKey(text) >>> 0) % count;
