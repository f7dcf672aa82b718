import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleRandomScope } from '../../machines/random-scope.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { systemModel } from '../model/system-model.ts';
import { requestCommandArb } from './random-commands.ts';

describe('requestCommandArb', () => {
  it.each([
    ['the quick scope', scopeByName('quick')],
    ['a random scope', sampleRandomScope(5)],
  ])('draws only the commands the search expands on %s, and reaches every principal', (_, scope) => {
    const model = systemModel(scope);
    const arb = requestCommandArb(scope, model.objects);
    if (!arb) throw new Error(`scope ${scope.name} sends no request`);
    const expanded = new Set(model.principalCommands().map(({ command }) => String(command)));
    const drawn = fc.sample(arb, { numRuns: 400, seed: 1 });
    for (const c of drawn) expect(expanded).toContain(String(c));
    const senders = new Set(scope.principals.filter((p) => p.requests.length > 0).map((p) => p.name));
    expect(new Set(drawn.map((c) => c.actor))).toEqual(senders);
  });

  it('has nothing to draw on a scope whose principals send nothing', () => {
    const scope = scopeByName('quick');
    const silent = { ...scope, principals: scope.principals.map((p) => ({ ...p, requests: [] })) };
    expect(requestCommandArb(silent, systemModel(scope).objects)).toBeNull();
  });
});
