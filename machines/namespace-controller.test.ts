import { describe, expect, it } from 'vitest';
import {
  kubernetesFinalizer,
  type NamespaceControllerObservation,
  namespaceControllerMachine,
} from './namespace-controller.ts';
import { MachineStepper } from './stepper.ts';

const stepper = new MachineStepper(namespaceControllerMachine);
const sync = (seen: Omit<NamespaceControllerObservation, 'terminating'>, terminating = true) => {
  const step = stepper.step(stepper.initial, { type: 'SYNC', observed: { terminating, ...seen } });
  return {
    value: stepper.value(step.next),
    actions: step.emitted.map((e) => e.type),
    transitions: step.transitions,
  };
};
const origin = 'openshift.com/origin';

describe('namespace controller machine', () => {
  it('starts watching and every sync leaves it watching', () => {
    expect(stepper.value(stepper.initial)).toBe('watching');
    expect(sync({ contentRemains: true, finalizers: [kubernetesFinalizer] }).value).toBe('watching');
  });

  it('LC-5: it leaves a namespace that is not Terminating alone, content and finalizers included', () => {
    expect(sync({ contentRemains: true, finalizers: [kubernetesFinalizer] }, false)).toEqual({
      value: 'watching',
      actions: [],
      transitions: [],
    });
    expect(sync({ contentRemains: false, finalizers: [] }, false).actions).toEqual([]);
  });

  it('LC-2: the finalizer it owns is `kubernetes`', () => {
    expect(kubernetesFinalizer).toBe('kubernetes');
  });

  it('LC-5, LC-9: content left with no finalizer is still deleted first, never the final DELETE', () => {
    expect(sync({ contentRemains: true, finalizers: [] }).actions).toEqual(['deleteOneContentObject']);
  });

  // Each observation, the one action it takes (none: it waits) and the transition that takes it.
  it.each([
    {
      rule: 'LC-5: while content remains it deletes one object, before any finalizing',
      observed: { contentRemains: true, finalizers: [kubernetesFinalizer, origin] },
      actions: ['deleteOneContentObject'],
      transitions: ['namespaceController:watching:SYNC[terminatingWithContent]'],
    },
    {
      rule: 'LC-5, LC-6: with no content left it finalizes away `kubernetes`',
      observed: { contentRemains: false, finalizers: [origin, kubernetesFinalizer] },
      actions: ['finalizeKubernetes'],
      transitions: ['namespaceController:watching:SYNC[terminatingWithKubernetesFinalizer]'],
    },
    {
      rule: 'LC-7, LC-8: only another owner’s finalizer left: every guard refuses and it waits',
      observed: { contentRemains: false, finalizers: [origin] },
      actions: [],
      transitions: [],
    },
    {
      rule: 'LC-7, LC-9: no content and no finalizer left: it sends the final DELETE',
      observed: { contentRemains: false, finalizers: [] },
      actions: ['sendFinalDelete'],
      transitions: ['namespaceController:watching:SYNC[terminatingWithNoFinalizersLeft]'],
    },
  ])('$rule', ({ observed, actions, transitions }) => {
    expect(sync(observed)).toEqual({ value: 'watching', actions, transitions });
  });
});
