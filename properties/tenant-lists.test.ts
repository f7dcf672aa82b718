import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { type CheckedSystemModel, systemModel } from '../checker/model/system-model.ts';
import type { SystemEvent, SystemState } from '../machines/system.ts';
import { machinesFor } from '../variants/variants.ts';
import { tenantIsolation } from './safety.ts';

const quickScope = scopeByName('quick');

/** The first tenant list that returned items, breadth first, with the state before it. */
function firstTenantListWithItems(model: CheckedSystemModel, maxStates: number) {
  const [initial] = model.initialStates();
  const seen = new Set([model.key(initial)]);
  const queue: SystemState[] = [initial];
  while (queue.length > 0 && seen.size < maxStates) {
    const s = queue.shift() as SystemState;
    for (const { event, next } of model.enabled(s)) {
      const r = event.request;
      if (r?.verb === 'list' && r.principal.name === 'alice' && (event.items ?? []).length > 0)
        return { before: s, event, after: next };
      const key = model.key(next);
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(next);
      }
    }
  }
  return null;
}

const judge = (
  model: CheckedSystemModel,
  step: { before: SystemState; event: SystemEvent; after: SystemState },
) => ({
  witnessed:
    tenantIsolation.witness?.on === 'step' &&
    tenantIsolation.witness.test(model, step.before, step.event, step.after),
  verdict:
    tenantIsolation.kind === 'step' && tenantIsolation.predicate(model, step.before, step.event, step.after),
});

describe('tenant-isolation on lists (NS-7, RB-6)', () => {
  it('in the quick scope a tenant list returns her own items: witnessed, and it holds', () => {
    const model = systemModel(quickScope);
    const step = firstTenantListWithItems(model, 200_000);
    expect(step).not.toBeNull();
    if (!step) return;
    expect(step.event.items?.every((item) => item.startsWith('team-a/') || item.startsWith('Team_C/'))).toBe(
      true,
    );
    expect(judge(model, step)).toEqual({ witnessed: true, verdict: true });
  });

  it('the seeded list leak hands a tenant the other tenant’s item, and the property names it', () => {
    const model = systemModel(quickScope, machinesFor('rolebinding-opens-cross-namespace-list', quickScope));
    const step = firstTenantListWithItems(model, 10_000);
    expect(step?.event.items).toContain('team-b/app');
    if (!step) return;
    expect(judge(model, step)).toEqual({ witnessed: true, verdict: 'tenant alice listed team-b/app' });
  });
});
