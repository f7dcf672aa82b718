import { describe, expect, it } from 'vitest';
import { defaultMachines, type SystemEvent, SystemModel, type SystemState } from '../../machines/system.ts';
import { twoTenantsCrossed } from '../../test-support/two-tenants.ts';
import { scopeFor, variantByName } from '../../variants/variants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { type ExploreResult, explore } from '../engine/explore.ts';
import { CompiledSystem } from './compiled.ts';
import { exploreCompiled } from './compiled-explore.ts';
import { systemCodec } from './encoding.ts';

type Result = ExploreResult<SystemState, SystemEvent>;

/** Every state's key at its index, its depth, the counts and three shortest traces: one picture of a search. */
function picture(model: SystemModel, result: Result) {
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

const expectSame = (model: SystemModel, reference: Result, compiled: Result) =>
  expect(picture(model, compiled)).toEqual(picture(model, reference));

/** Cold (tables empty, the model fresh), then the reference search, then warm: all three the same. */
function expectSameColdAndWarm(model: SystemModel, maxStates?: number) {
  const limits = maxStates === undefined ? {} : { maxStates };
  const compiled = new CompiledSystem(model);
  const cold = exploreCompiled(compiled, limits);
  const misses = compiled.misses;
  const reference = explore(model, { ...limits, codec: systemCodec(model) });
  expectSame(model, reference, cold);
  const warm = exploreCompiled(compiled, limits);
  expectSame(model, reference, warm);
  // The warm search only looked its outcomes up, except steps that are computed every time.
  expect(compiled.misses - misses).toBeLessThan(misses / 10);
  return { cold, warm, compiled };
}

describe('the compiled system model (checker/model/compiled.ts) against the model on packed states', () => {
  for (const name of ['quick', 'admin-finalize']) {
    it(`explores the ${name} scope identically, cold and warm`, () => {
      const { warm, compiled } = expectSameColdAndWarm(new SystemModel(scopeByName(name)));
      expect(warm.complete).toBe(true);
      // The search filled the tables: more than a model compiled and never searched holds.
      expect(compiled.tableBytes).toBeGreaterThan(
        new CompiledSystem(new SystemModel(scopeByName(name))).tableBytes,
      );
    }, 120_000);
  }

  it('explores a scope whose RoleBindings name $creator in two namespaces identically (RBAC contexts are interned ids there)', () => {
    // Each tenant may create the other's namespace, so who created which varies from state to state.
    expectSameColdAndWarm(new SystemModel(twoTenantsCrossed()), 20_000);
  }, 120_000);

  it.each(['create-in-terminating', 'initializer-out-of-order', 'stale-configuration-used'])(
    'explores the mutant %s identically, cold and warm',
    (mutant) => {
      const scope = scopeFor(mutant, scopeByName('quick'));
      const machines = variantByName(mutant)?.machines(defaultMachines, scope);
      expect(machines).toBeDefined();
      expectSameColdAndWarm(new SystemModel(scope, machines), 3000);
    },
    120_000,
  );

  it('calls onState and onEdge as the generic explorer does, with the same states and events', () => {
    const model = new SystemModel(scopeByName('admin-finalize'));
    const seen = (search: typeof explore | typeof exploreCompiled, target: SystemModel | CompiledSystem) => {
      const log: string[] = [];
      const options = {
        onState: (s: SystemState, index: number, depth: number) => {
          log.push(`state ${index} ${depth} ${model.key(s)}`);
        },
        onEdge: (b: SystemState, e: SystemEvent, a: SystemState, bi: number, ai: number, isNew: boolean) => {
          log.push(`edge ${bi} ${ai} ${isNew} ${e.label} ${model.key(b)} ${model.key(a)}`);
        },
      };
      if (target instanceof CompiledSystem) exploreCompiled(target, options);
      else search(target as never, { ...options, codec: systemCodec(model) } as never);
      return log;
    };
    const reference = seen(explore, model);
    const compiled = new CompiledSystem(model);
    expect(seen(exploreCompiled, compiled)).toEqual(reference);
    expect(seen(exploreCompiled, compiled)).toEqual(reference);
  });

  it('stops at a state limit as the generic explorer does, and refuses symmetry', () => {
    const model = new SystemModel(scopeByName('admin-finalize'));
    const limited = exploreCompiled(new CompiledSystem(model), { maxStates: 50 });
    expect(limited).toMatchObject({ states: 50, complete: false, stopReason: 'max-states' });
    expect(() => exploreCompiled(new CompiledSystem(model), { canonical: (s) => s })).toThrow(/symmetry/);
  });
});
