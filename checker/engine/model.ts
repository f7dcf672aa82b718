/**
 * The contract between a model and the explorer. A model is plain data stepped by pure functions:
 * the explorer never sees XState directly, so the same breadth-first search serves the system model,
 * the reference benchmark model and every variant.
 */
export interface ExplorableModel<S, E> {
  /** The states the search starts from (usually one). */
  initialStates(): S[];
  /** Calls `emit` once per enabled event with the state it leads to; self-loops included. */
  successors(state: S, emit: (event: E, next: S) => void): void;
  /** Canonical key: two states are equal exactly when their keys are equal. */
  key(state: S): string;
  /**
   * Symmetry reduction's hook: the representative of the state's orbit. When present, the explorer
   * stores and deduplicates representatives while properties still see the concrete successors.
   */
  canonical?(state: S): S;
}

/** A model whose states are small integers in [0, size): explored with typed arrays, no hashing. */
export interface DenseModel {
  /** Number of codes; every state's code is below it. */
  size: number;
  initialStates(): number[];
  /** Calls `emit(eventId, next)` for every enabled event. */
  successors(code: number, emit: (eventId: number, next: number) => void): void;
}

export interface Progress {
  states: number;
  queue: number;
  transitions: number;
  depth: number;
  elapsedMs: number;
  statesPerSecond: number;
}

/**
 * Why a search ended early: a limit (`max-states`, `time`), the memory guard, a signal (`interrupted`),
 * a callback that asked to stop (`stopped`: e.g. every property already violated), or the end of the
 * breadth-first level of the first violation (`first-violation`, `--stop-on-first`), or the end of a
 * bitstate search, which may have missed states (`bitstate`, `--bitstate`), or the end of a hash-compacted
 * one, which may have too (`hash-compact`, `--hash-compact`).
 */
export type StopReason =
  | 'max-states'
  | 'memory'
  | 'time'
  | 'interrupted'
  | 'stopped'
  | 'first-violation'
  | 'bitstate'
  | 'hash-compact';

/**
 * The same model, calling `expanding` before each state's successors are asked: the explorers expand
 * states in the order they number them, so a listener that counts the calls knows which state it is.
 */
export function announcingExpansions<S, E>(
  model: ExplorableModel<S, E>,
  expanding: () => void,
): ExplorableModel<S, E> {
  return {
    initialStates: () => model.initialStates(),
    key: (state) => model.key(state),
    ...(model.canonical ? { canonical: model.canonical.bind(model) } : {}),
    successors: (state, emit) => {
      expanding();
      model.successors(state, emit);
    },
  };
}
