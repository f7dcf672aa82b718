import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import type { SystemModel } from '../machines/system.ts';
import { machinesFor, scopeFor } from '../variants/variants.ts';
import { clusterWideAsDeclared as property } from './cluster-wide.ts';

const quickScope = scopeByName('quick');

/** The first step's enabled events of a model, judged by the property: label → [witnessed, verdict]. */
function judgedFirstSteps(model: SystemModel): Map<string, [boolean, true | string]> {
  const [initial] = model.initialStates();
  const out = new Map<string, [boolean, true | string]>();
  if (property.kind !== 'step' || property.witness?.on !== 'step') throw new Error('a step property');
  for (const { event, next } of model.enabled(initial)) {
    if (event.actorKind !== 'principal') continue;
    const key = `${event.request?.principal.name}: ${event.label}`;
    out.set(key, [
      property.witness.test(model, initial, event, next),
      property.predicate(model, initial, event, next),
    ]);
  }
  return out;
}

describe('cluster-wide-as-declared (RB-1, RB-5, RB-6)', () => {
  it("on the quick scope: alice's update of `default` and her list across namespaces are its premise, refused, so it holds", () => {
    const steps = judgedFirstSteps(systemModel(quickScope));
    expect(steps.get('alice: update namespaces/default (finalizers [])')).toEqual([true, true]);
    const aliceLists = [...steps].filter(
      ([label]) => label.startsWith('alice: list') && label.includes('(all'),
    );
    expect(aliceLists.length).toBeGreaterThan(0);
    for (const [, judged] of aliceLists) expect(judged).toEqual([true, true]);
  });

  it('judges nobody the scope declares cluster-wide, nor a tenant on its own namespace object', () => {
    const steps = judgedFirstSteps(systemModel(quickScope));
    for (const [label, [witnessed]] of steps)
      if (/^(carol|auditor|ci-robot|labeller): /.test(label)) expect(witnessed, label).toBe(false);
    expect(steps.get('alice: create namespaces/team-a')?.[0]).toBe(false);
  });

  it('catches a creator granted update on `default`, which tenant isolation does not judge', () => {
    const name = 'namespace-creator-updates-default';
    const scope = scopeFor(name, quickScope);
    const model = systemModel(scope, machinesFor(name, scope));
    const [witnessed, verdict] =
      judgedFirstSteps(model).get('alice: update namespaces/default (finalizers [])') ?? [];
    expect(witnessed).toBe(true);
    expect(verdict).toMatch(/^alice, not declared cluster-wide, got 200 /);
  });
});
