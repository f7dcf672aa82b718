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

describe('design variants in the table', () => {
  const catalog = parseCatalog(
    [
      '## AA — first',
      '- **AA-1** A rule a design variant touches.',
      '## ALT — alternatives',
      '- **ALT-1** An alternative a design variant implements.',
      '- **ALT-2** An alternative nobody implements.',
    ].join('\n'),
  );
  const trace = computeTraceability(catalog, {
    machines: [],
    properties: [],
    designVariants: [{ name: 'alt1-variant', requirements: ['ALT-1', 'AA-1'] }],
  });

  it('counts a design variant as implementing and checking the ALT-n rows it names, and only those', () => {
    expect(trace.rows.map((r) => [r.entry.id, r.variants])).toEqual([
      ['AA-1', []],
      ['ALT-1', ['alt1-variant']],
      ['ALT-2', []],
    ]);
    expect(trace.neither.map((r) => r.entry.id)).toEqual(['AA-1', 'ALT-2']);
    const doc = traceabilityMarkdown(trace);
    expect(doc).toContain('3 requirements in the catalog: 1 implemented');
    expect(doc).toContain(
      '| ALT-1 | An alternative a design variant implements. | — | — | — | `alt1-variant` |',
    );
  });
});

describe('the project', () => {
  const trace = projectTraceability();

  it("implements and checks seed 002's IN-9 and IN-10 (the generic-initialization machine and its properties)", () => {
    for (const id of ['IN-9', 'IN-10']) {
      const row = trace.rows.find((r) => r.entry.id === id);
      expect(
        row?.transitions.some((t) => t.machine === 'generic-initialization'),
        id,
      ).toBe(true);
      expect(row?.properties.length, id).toBeGreaterThan(0);
    }
  });

  it('lists no design alternative ALT-n as neither implemented nor checked: each has a design variant', () => {
    const alternatives = parseCatalog(catalogText).filter((e) => e.id.startsWith('ALT-'));
    expect(alternatives.length).toBe(6);
    expect(trace.neither.filter((r) => r.entry.id.startsWith('ALT-'))).toEqual([]);
    for (const a of alternatives)
      expect(trace.rows.find((r) => r.entry.id === a.id)?.variants.length, a.id).toBeGreaterThan(0);
  });

  it('cites only requirement IDs that the catalog defines, in machines, properties and variants', () => {
    expect(trace.unknown).toEqual([]);
    const known = new Set(parseCatalog(catalogText).map((e) => e.id));
    expect(
      variants.flatMap((v) => v.requirements.filter((id) => !known.has(id)).map((id) => `${v.name}: ${id}`)),
    ).toEqual([]);
  });
});
