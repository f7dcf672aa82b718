import { expect } from 'vitest';

export interface TraceOf<S, E> {
  initial: S;
  steps: readonly { event: E; state: S }[];
}

/**
 * Each step of `trace` is a real move: the state before it has exactly one successor by the step's event,
 * and it is the step's state (compared by `key`). Judged by the model's own successors, not the explorer.
 */
export function expectTraceOfRealSteps<S, E>(
  trace: TraceOf<S, E>,
  successors: (state: S, emit: (event: E, next: S) => void) => void,
  key: (state: S) => unknown = (state) => state,
): void {
  let before = trace.initial;
  for (const { event, state } of trace.steps) {
    const reached: unknown[] = [];
    successors(before, (e, next) => {
      if (e === event) reached.push(key(next));
    });
    expect(reached).toEqual([key(state)]);
    before = state;
  }
}
