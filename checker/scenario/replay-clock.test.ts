import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Enabled, SystemState } from '../../machines/system.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import { projectRoot } from './catalog.ts';
import { ScenarioFileError } from './load.ts';
import { clockSecond, firstTimerFiring, prepareScenario, replayCompiled } from './replay.ts';

/**
 * The replay asks for the clock's second and the API server's expiring timers by their actions alone
 * (`clockTicks`, `timerFires`) instead of listing every actor. Along every committed scenario, each
 * answer is the one the model's full listing gives first.
 */
const folder = join(projectRoot, 'scenarios');
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.yaml'))
  .sort();

/** What a listed event is, for comparing: its interned event and the state it reaches, by key. */
const seen = (model: CheckedSystemModel, e: Enabled | undefined) =>
  e === undefined ? undefined : { event: e.event, next: model.key(e.next) };

function listedClock(model: CheckedSystemModel, state: SystemState): Enabled | undefined {
  return model.enabled(state).find((e) => e.event.actorKind === 'clock');
}

function listedTimer(model: CheckedSystemModel, state: SystemState): Enabled | undefined {
  const key = model.key(state);
  return model.enabled(state).find((e) => e.event.actorKind === 'apiserver' && model.key(e.next) !== key);
}

/** States, over all files, where a timer fires: the comparison of timers is not vacuous. */
let firing = 0;

describe('the replay’s clock and timers', () => {
  it.each(files)('%s: each state’s clock second and firing timer are the listing’s', (name) => {
    const compiled = prepareScenario(join(folder, name));
    if (compiled instanceof ScenarioFileError) throw compiled;
    let states = 0;
    let ticking = 0;
    replayCompiled(compiled, (model, state) => {
      states++;
      const clock = listedClock(model, state);
      if (clock) ticking++;
      expect(seen(model, clockSecond(model, state))).toEqual(seen(model, clock));
      // Timers expire as a second passes: compared along the chain that fires after each second.
      for (let s = clock?.next, n = 0; s !== undefined && n < 20; n++) {
        const timer = listedTimer(model, s);
        expect(seen(model, firstTimerFiring(model, s))).toEqual(seen(model, timer));
        if (timer) firing++;
        s = timer?.next;
      }
    });
    expect(states).toBeGreaterThan(0);
    expect(ticking).toBeGreaterThan(0);
  });

  it('some scenario reaches a state where a timer fires', () => {
    expect(firing).toBeGreaterThan(0);
  });
});
