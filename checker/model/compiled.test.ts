import { describe, expect, it } from 'vitest';
import type { SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import { compiledSearches, expectCompiledSame } from '../../test-support/engine-searches.ts';
import { twoTenantsCrossed } from '../../test-support/two-tenants.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { explore } from '../engine/explore.ts';
import { CompiledSystem } from './compiled.ts';
import { exploreCompiled } from './compiled-explore.ts';
import { systemCodec } from './encoding.ts';
import { systemModel } from './system-model.ts';

// The built-in scopes and three seeded faults, each searched by every engine: checker/model/engines-agree.test.ts.
describe('the compiled system model (checker/model/compiled.ts) against the model on packed states', () => {
  it('explores a scope whose RoleBindings name $creator in two namespaces identically (RBAC contexts are interned ids there)', () => {
    // Each tenant may create the other's namespace, so who created which varies from state to state.
    expectCompiledSame(compiledSearches(systemModel(twoTenantsCrossed()), 20_000));
  }, 120_000);

  it('calls onState and onEdge as the generic explorer does, with the same states and events', () => {
    const model = systemModel(scopeByName('admin-finalize'));
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
    const model = systemModel(scopeByName('admin-finalize'));
    const limited = exploreCompiled(new CompiledSystem(model), { maxStates: 50 });
    expect(limited).toMatchObject({ states: 50, complete: false, stopReason: 'max-states' });
    expect(() => exploreCompiled(new CompiledSystem(model), { canonical: (s) => s })).toThrow(/symmetry/);
  });
});
