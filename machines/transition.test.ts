import { describe, expect, it } from 'vitest';
import { act, when } from './transition.ts';

describe('transition rows', () => {
  it('when() is the guarded transition XState reads, with its requirements in meta', () => {
    expect(when('namespaceMissing', 'refused', 'refuseNamespaceNotFound', ['NS-2'])).toEqual({
      guard: 'namespaceMissing',
      target: 'refused',
      actions: 'refuseNamespaceNotFound',
      meta: { requirements: ['NS-2'] },
    });
  });

  it('act() stays in its state: no target, only the guard, the action and the requirements', () => {
    expect(act('contentRemains', 'deleteOneContentObject', ['LC-5'])).toEqual({
      guard: 'contentRemains',
      actions: 'deleteOneContentObject',
      meta: { requirements: ['LC-5'] },
    });
  });
});
