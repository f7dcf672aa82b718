import { describe, expect, it } from 'vitest';
import { failureInjectorMachine } from './failure-injector.ts';
import { MachineStepper } from './stepper.ts';

describe('failure injector', () => {
  const injector = new MachineStepper(failureInjectorMachine);

  it('AC-2: an outage starts and ends; reads fail only in between', () => {
    expect(injector.value(injector.initial)).toBe('readsWorking');
    const failing = injector.step(injector.initial, { type: 'START_OUTAGE' });
    expect(injector.value(failing.next)).toBe('readsFailing');
    expect(injector.step(failing.next, { type: 'START_OUTAGE' }).transitions).toEqual([]);
    const ended = injector.step(failing.next, { type: 'END_OUTAGE' });
    expect(ended.next).toBe(injector.initial);
  });

  it('FP-4: an apiserver restart, during an outage or not, loses the initializer timers and nothing else', () => {
    const failing = injector.step(injector.initial, { type: 'START_OUTAGE' }).next;
    for (const at of [injector.initial, failing]) {
      const restart = injector.step(at, { type: 'RESTART_APISERVER' });
      expect(restart.next).toBe(at);
      expect(restart.emitted).toEqual([{ type: 'loseInitializerTimers' }]);
    }
  });
});
