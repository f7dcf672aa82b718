import type { Scope } from '../../machines/scope.ts';
import type { SystemEvent, SystemState } from '../../machines/system.ts';
import { scopeByName } from '../cli/scope-file.ts';
import type { Lasso } from '../engine/liveness.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';

const quickScope = scopeByName('quick');

/**
 * A small scope for liveness tests and seeded liveness faults: team-a exists with content and two
 * finalizers, carol may delete it, configuration reads may fail. Explored in well under a second.
 */
export const removalScope: Scope = {
  ...quickScope,
  name: 'liveness-removal',
  description: 'team-a exists with content and two finalizers; carol may delete it; reads may fail.',
  namespaces: [
    {
      name: 'team-a',
      creator: 'alice',
      preexisting: true,
      initialFinalizers: ['kubernetes', 'openshift.com/origin'],
      initialContent: ['configmaps/app'],
    },
  ],
  principals: quickScope.principals
    .filter((p) => p.name === 'carol')
    .map((p) => ({ ...p, namespaces: ['team-a'], requests: ['delete-namespace' as const] })),
  faults: { initializerCrash: false, configReadFailure: true, apiserverRestart: false },
};

/**
 * Why a lasso is not a run of the model, or null when it is: every step is one the model takes from
 * the state before (or a stutter that stays), and the cycle returns to where the prefix ended.
 */
export function lassoProblem(
  model: CheckedSystemModel,
  lasso: Lasso<SystemState, SystemEvent>,
): string | null {
  let at = lasso.initial;
  for (const [i, step] of lasso.steps.entries()) {
    if (step.event === null) {
      if (model.key(step.state) !== model.key(at)) return `step ${i + 1} stutters but changes the state`;
    } else {
      const options = model.enabled(at).filter((e) => e.event === step.event);
      if (!options.some((e) => model.key(e.next) === model.key(step.state)))
        return `step ${i + 1} (${step.event.label}) is not a step of the model from the state before it`;
    }
    at = step.state;
  }
  if (lasso.loopStart >= lasso.steps.length) return 'the cycle is empty';
  const entry = lasso.loopStart === 0 ? lasso.initial : lasso.steps[lasso.loopStart - 1].state;
  return model.key(at) === model.key(entry) ? null : 'the cycle does not return to its first state';
}
