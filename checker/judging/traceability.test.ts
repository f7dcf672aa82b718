import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { variants } from '../../variants/variants.ts';
import {
  catalogPath,
  computeTraceability,
  parseCatalog,
  projectTraceability,
  traceabilityMarkdown,
} from './traceability.ts';

const catalogText = readFileSync(catalogPath, 'utf8');

const fixtureMachine = setup({
  guards: { ready: () => true },
}).createMachine({
  id: 'fixture',
  initial: 'idle',
  states: {
    idle: {
      on: {
        GO: { guard: 'ready', target: 'done', meta: { requirements: ['AA-1', 'ZZ-9'] } },
        STAY: { meta: { requirements: ['AA-1'] } },
      },
    },
    done: {},
  },
});

const fixtureCatalog = parseCatalog(
  [
    '## AA — first',
    '- **AA-1** Implemented and checked.',
    '- **AA-2** Checked only.',
    '## BB — second',
    '- **BB-1** Nobody cites me.',
  ].join('\n'),
);

describe('parseCatalog', () => {
  it('reads every requirement of the catalog with its section', () => {
    const entries = parseCatalog(catalogText);
    const prefixes = new Map<string, number>();
    for (const e of entries) prefixes.set(e.id.split('-')[0], (prefixes.get(e.id.split('-')[0]) ?? 0) + 1);
    expect(Object.fromEntries(prefixes)).toEqual({ NS: 7, LC: 10, IN: 10, FP: 5, AC: 6, RB: 6, ALT: 6 });
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(entries.find((e) => e.id === 'LC-4')).toMatchObject({
      section: 'LC — lifecycle and finalizers (001)',
      text: 'Admission refuses the creation of new content in a `Terminating` namespace.',
    });
  });
});

describe('computeTraceability', () => {
  const trace = computeTraceability(fixtureCatalog, {
    machines: [{ id: 'fixture', machine: fixtureMachine }],
    properties: [{ id: 'checks-both', requirements: ['AA-1', 'AA-2', 'QQ-3'] }],
  });

  it('links each ID to the transitions, guards and properties that cite it', () => {
    const aa1 = trace.rows.find((r) => r.entry.id === 'AA-1');
    expect(aa1?.transitions.map((t) => t.id)).toEqual(['fixture:idle:GO[ready]->done', 'fixture:idle:STAY']);
    expect(aa1?.guards).toEqual(['fixture.ready']);
    expect(aa1?.properties).toEqual(['checks-both']);
    expect(trace.rows.find((r) => r.entry.id === 'AA-2')?.transitions).toEqual([]);
  });

  it('lists IDs with neither a transition nor a property, and IDs missing from the catalog', () => {
    expect(trace.neither.map((r) => r.entry.id)).toEqual(['BB-1']);
    expect(trace.unknown).toEqual([
      { id: 'QQ-3', citedBy: ['property checks-both'] },
      { id: 'ZZ-9', citedBy: ['transition fixture:idle:GO[ready]->done'] },
    ]);
  });

  it('puts the uncited IDs first in the document, before the full table', () => {
    const doc = traceabilityMarkdown(trace);
    const neither = doc.indexOf('## Neither implemented nor checked');
    expect(neither).toBeGreaterThan(0);
    expect(neither).toBeLessThan(doc.indexOf('## Every requirement'));
    expect(doc.slice(neither, doc.indexOf('## Cited but not in the catalog'))).toContain(
      '| BB-1 | Nobody cites me. |',
    );
    expect(doc).toContain('| ZZ-9 | transition fixture:idle:GO[ready]->done |');
  });
});

describe('the project', () => {
  const trace = projectTraceability();

  it('cites only requirement IDs that the catalog defines, in machines, properties and variants', () => {
    expect(trace.unknown).toEqual([]);
    const known = new Set(parseCatalog(catalogText).map((e) => e.id));
    expect(
      variants.flatMap((v) => v.requirements.filter((id) => !known.has(id)).map((id) => `${v.name}: ${id}`)),
    ).toEqual([]);
  });
});
