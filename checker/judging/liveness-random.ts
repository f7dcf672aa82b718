import type { SystemEvent, SystemState } from '../../machines/system.ts';
import type { LivenessProperty } from '../../properties/types.ts';
import { compileFairness } from '../model/liveness-system.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';

/**
 * Random runs longer than the exhaustive bound, scheduled fairly: choices come from the caller (so
 * fast-check can shrink them), and a fairness class enabled for `patience` steps without being taken
 * (weakly: continuously; strongly: in total) is taken next. Under such a bounded-fair schedule a
 * leads-to property must be met within `deadline` steps of each trigger.
 */
export interface FairRunOptions {
  patience: number;
  deadline: number;
}

export interface FairRunResult {
  ok: boolean;
  /** Times the premise held with the goal pending (a run without any checked nothing). */
  triggered: number;
  /** The labels of the steps taken, for a readable failure. */
  steps: string[];
  /** The step at which a trigger's deadline passed, and the namespace. */
  failure?: { triggeredAt: number; namespace: string; message: string };
}

export function fairRandomRun(
  model: CheckedSystemModel,
  property: LivenessProperty,
  choices: readonly number[],
  options: FairRunOptions,
): FairRunResult {
  const conditions = compileFairness(model, property.fairness);
  const waiting = new Array<number>(conditions.length).fill(0);
  const slots = property.perNamespace ? model.scope.namespaces.map((_, i) => i) : [-1];
  const pendingSince = new Map<number, number>();
  const steps: string[] = [];
  let triggered = 0;
  let state: SystemState = model.initialStates()[0];
  const judge = (at: number): FairRunResult['failure'] | undefined => {
    for (const slot of slots) {
      const q = property.q(model, state, slot);
      const p = property.p ? property.p(model, state, slot) : true;
      if (q) pendingSince.delete(slot);
      else if (p && !pendingSince.has(slot)) {
        pendingSince.set(slot, at);
        triggered++;
      }
      const since = pendingSince.get(slot);
      if (since !== undefined && at - since >= options.deadline) {
        const namespace = slot >= 0 ? model.scope.namespaces[slot].name : '(system)';
        return {
          triggeredAt: since,
          namespace,
          message: `${property.premise} at step ${since}, and still not "${property.goal}" ${options.deadline} fair steps later`,
        };
      }
    }
    return undefined;
  };
  let failure = judge(0);
  for (let i = 0; i < choices.length && !failure; i++) {
    const enabled = model.enabled(state);
    if (enabled.length === 0) break;
    const enabledConditions = conditions.map((c) => enabled.some((e) => c.matches(e.event)));
    // The most starved enabled class is served first; otherwise the choice picks freely.
    let forced = -1;
    conditions.forEach((_, k) => {
      if (
        enabledConditions[k] &&
        waiting[k] >= options.patience &&
        (forced < 0 || waiting[k] > waiting[forced])
      )
        forced = k;
    });
    const pool = forced >= 0 ? enabled.filter((e) => conditions[forced].matches(e.event)) : enabled;
    const next = pool[choices[i] % pool.length];
    conditions.forEach((c, k) => {
      if (c.matches(next.event)) waiting[k] = 0;
      else if (enabledConditions[k]) waiting[k]++;
      else if (c.kind === 'weak') waiting[k] = 0;
    });
    steps.push(describe(next.event));
    state = next.next;
    failure = judge(i + 1);
  }
  return { ok: failure === undefined, triggered, steps, ...(failure ? { failure } : {}) };
}

const describe = (e: SystemEvent) =>
  `${e.actor}: ${e.label}${e.response ? ` (${e.response.code} ${e.response.reason})` : ''}`;
