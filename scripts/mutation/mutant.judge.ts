import { expect, test } from 'vitest';
import { replayVerdict, verifyVerdict } from './judge.ts';

/**
 * The one test `npm run mutation` runs per mutant (vitest.mutation.config.ts; not part of `npm test`):
 * the mutant is killed when verify fails on the quick scope or a committed scenario no longer replays
 * as written. Vitest stops at the first failing test, so a mutant verify kills costs no replay.
 */
test('verify --scope quick --stop-on-first passes', async () => {
  expect(await verifyVerdict('quick')).toEqual([]);
});

test('every committed scenario replays as it expects', () => {
  expect(replayVerdict('scenarios')).toEqual([]);
});
