import { describe, expect, it } from 'vitest';
import type { SystemEvent, SystemState } from '../../machines/system.ts';
import { neverInitializedStaysClosed, noAccessBeforeReady } from '../../properties/safety.ts';
import type { StepProperty } from '../../properties/types.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { explore } from '../engine/explore.ts';
import { systemModel } from './system-model.ts';

/**
 * A list across namespaces changes nothing, and the compiled tables key its events by each namespace's
 * listing. Its step judgements cannot be remembered by that key: what they read of the other namespaces
 * is their views (docs/performance.md, *List self-loops*). These tests hold the properties' own answers
 * on every list self-loop of `quick` against two keys: the listings (wrong) and the views (what they read).
 */
const model = systemModel(scopeByName('quick'));
const { states, stateAt } = explore(model, {});

type Judge = (before: SystemState, event: SystemEvent) => boolean;
const predicateOf =
  (p: StepProperty): Judge =>
  (before, event) =>
    p.predicate(model, before, event, before) === true;
const witnessOf =
  (p: StepProperty): Judge =>
  (before, event) =>
    p.witness.on === 'step' && p.witness.test(model, before, event, before);

/** Every self-loop of a list across namespaces in the whole search. */
const listLoops: { before: SystemState; event: SystemEvent }[] = [];
for (let index = 0; index < states; index++) {
  const before = stateAt(index);
  const key = model.key(before);
  for (const { event, next } of model.enabled(before))
    if (event.request?.verb === 'list' && event.request.namespace < 0 && model.key(next) === key)
      listLoops.push({ before, event });
}

/** Per key (the event, its items, then `keyOf` the state), the answers met: 1 true, 2 false, 3 both. */
function answersBy(judge: Judge, keyOf: (s: SystemState) => string): Map<string, number> {
  const answers = new Map<string, number>();
  for (const { before, event } of listLoops) {
    const k = `${event.label}|${JSON.stringify(event.items ?? [])}|${keyOf(before)}`;
    answers.set(k, (answers.get(k) ?? 0) | (judge(before, event) ? 1 : 2));
  }
  return answers;
}

const byListings = (s: SystemState) => JSON.stringify(s.namespaces.map((ns) => model.listing(ns)));
const byViews = (s: SystemState) => JSON.stringify(s.namespaces.map((_, i) => model.view(s, i)));
const mixed = (answers: Map<string, number>) => [...answers.values()].filter((a) => a === 3).length;

describe('list self-loops and the keys their judgements could be remembered by', () => {
  const witness = witnessOf(neverInitializedStaysClosed);

  it('are many, and the witness of never-initialized-stays-closed fires on some of them', () => {
    expect(listLoops.length).toBeGreaterThan(50_000);
    const answers = answersBy(witness, byViews);
    expect([...answers.values()].some((a) => a & 1)).toBe(true);
  });

  it("answer that witness differently under one list event and the same namespaces' listings: a listing key is wrong", () => {
    expect(mixed(answersBy(witness, byListings))).toBeGreaterThan(0);
  });

  it("answer that witness differently when the key leaves out the first namespace's view (the one that moves in quick)", () => {
    const butFirst = (s: SystemState) =>
      JSON.stringify(s.namespaces.slice(1).map((_, i) => model.view(s, i + 1)));
    expect(mixed(answersBy(witness, butFirst))).toBeGreaterThan(0);
  });

  it.each([
    ['the witness of never-initialized-stays-closed', witness],
    ['never-initialized-stays-closed', predicateOf(neverInitializedStaysClosed)],
    ['no-access-before-ready', predicateOf(noAccessBeforeReady)],
  ] as const)('answer %s the same under one list event and the same views', (_, judge) => {
    expect(mixed(answersBy(judge, byViews))).toBe(0);
  });
});
