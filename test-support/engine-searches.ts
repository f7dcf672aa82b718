import { expect } from 'vitest';
import { type ExploreResult, explore } from '../checker/engine/explore.ts';
import { CompiledSystem } from '../checker/model/compiled.ts';
import { exploreCompiled } from '../checker/model/compiled-explore.ts';
import { systemCodec } from '../checker/model/encoding.ts';
import type { CheckedSystemModel } from '../checker/model/system-model.ts';
import type { SystemEvent, SystemState } from '../machines/system.ts';

type Result = ExploreResult<SystemState, SystemEvent>;

/** One model searched by the compiled engine, cold then warm, and by the packed explorer between them. */
export interface CompiledSearches {
  model: CheckedSystemModel;
  compiled: CompiledSystem;
  /** The compiled search on the fresh model, its tables empty; `coldMisses` is what it had to compute. */
  cold: Result;
  coldMisses: number;
  /** The packed explorer: the reference the compiled searches are compared with. */
  packed: Result;
  /** The compiled search again, its tables filled by the cold one. */
  warm: Result;
}

/** Cold (tables empty, the model fresh), then the reference search, then warm. */
export function compiledSearches(model: CheckedSystemModel, maxStates?: number): CompiledSearches {
  const limits = maxStates === undefined ? {} : { maxStates };
  const compiled = new CompiledSystem(model);
  const cold = exploreCompiled(compiled, limits);
  const coldMisses = compiled.misses;
  const packed = explore(model, { ...limits, codec: systemCodec(model) });
  const warm = exploreCompiled(compiled, limits);
  return { model, compiled, cold, coldMisses, packed, warm };
}

/** Every state's key at its index, its depth, the counts and three shortest traces: one picture of a search. */
function picture(model: CheckedSystemModel, result: Result) {
  const indices = [...Array(result.states).keys()];
  const traces = [result.states - 1, Math.floor(result.states / 2), 1].map((index) =>
    result.traceTo(index).steps.map(({ event, state }) => [event, model.key(state)]),
  );
  return {
    figures: [result.states, result.transitions, result.depth, result.complete],
    keys: indices.map((index) => model.key(result.stateAt(index))).join('\n'),
    depths: indices.map((index) => result.depthOf(index)),
    traces,
  };
}

/** Cold and warm the same as the packed explorer; the warm search only looked its outcomes up. */
export function expectCompiledSame({
  model,
  compiled,
  cold,
  coldMisses,
  packed,
  warm,
}: CompiledSearches): void {
  const reference = picture(model, packed);
  expect(picture(model, cold)).toEqual(reference);
  expect(picture(model, warm)).toEqual(reference);
  // Except steps that are computed every time.
  expect(compiled.misses - coldMisses).toBeLessThan(coldMisses / 10);
}
