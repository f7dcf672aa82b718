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

  it('hands the self-loops of a slot over as one bundle: every one counted, in the search and before a stop inside a state', () => {
    const model = systemModel(scopeByName('quick'));
    // Every edge as `onLaneEdge` sees it, by event and whether it is a self-loop; with `bundles`, every
    // bundle is taken and its self-loops are added as the search says it traversed them.
    const edges = (bundles: boolean, maxStates: number | undefined, stopAt: number) => {
      const compiled = new CompiledSystem(model);
      const selfLoops = new Map<number, number>();
      let others = 0;
      let moved = 0;
      let taken = 0;
      const add = (event: number) => selfLoops.set(event, (selfLoops.get(event) ?? 0) + 1);
      const result = exploreCompiled(compiled, {
        ...(maxStates !== undefined ? { maxStates } : {}),
        onLaneEdge: (event, from, to, fromIndex, toIndex) => {
          if (fromIndex === toIndex) {
            add(event);
            return 0;
          }
          others++;
          // The search stopped by a namespace's own step (lanes 3 on are the namespace slots'): inside a
          // state, between the self-loops of its slots' bundles.
          if (to[3] !== from[3] && ++moved === stopAt) return 2;
          return 0;
        },
        ...(bundles
          ? {
              onSelfBundle: () => true,
              onSelfBundlesDone: (traversed: Int32Array, taken_: Int32Array) => {
                for (let slot = 0; slot < traversed.length; slot++)
                  for (let k = 0; k < traversed[slot]; k++) {
                    taken++;
                    add(compiled.selfLoopEvent(taken_[slot], k));
                  }
              },
            }
          : {}),
      });
      return { transitions: result.transitions, states: result.states, selfLoops, others, taken };
    };
    for (const [maxStates, stopAt] of [
      [undefined, -1],
      [777, -1],
      [undefined, 300],
    ] as const) {
      const each = edges(false, maxStates, stopAt);
      const whole = edges(true, maxStates, stopAt);
      // Bundles were taken (most of quick's self-loops are local actions' ones), and none was lost.
      expect(whole.taken).toBeGreaterThan(each.transitions / 2);
      expect(whole.transitions).toBe(each.transitions);
      expect(whole.states).toBe(each.states);
      expect(whole.others).toBe(each.others);
      expect([...whole.selfLoops].sort(([a], [b]) => a - b)).toEqual(
        [...each.selfLoops].sort(([a], [b]) => a - b),
      );
      const selfLoops = [...each.selfLoops.values()].reduce((sum, n) => sum + n, 0);
      // The edge to the state past the limit is counted but never handed to `onLaneEdge`.
      expect(selfLoops + each.others).toBe(each.transitions - (maxStates === undefined ? 0 : 1));
    }
  });
});
