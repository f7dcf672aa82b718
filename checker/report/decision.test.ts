// @vitest-environment happy-dom
import mermaid from 'mermaid';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AnyStateMachine, createMachine, setup } from 'xstate';
import { machineCatalog } from '../../machines/catalog.ts';
import { fixtureMachine } from '../fixtures/fixture-machine.ts';
import { chooseLayout, decisionFlowchart, decisionGroups, decisionTable } from './decision.ts';
import { outlineMachine } from './outline.ts';

/** A flowchart as Mermaid's own parser reads it: nodes with shape and text lines, edges with label lines. */
interface Flowchart {
  nodes: Map<string, { type: string; lines: string[] }>;
  /** Subgraph id to its title and the ids of the nodes directly inside it. */
  subgraphs: Map<string, { title: string; nodes: string[] }>;
  edges: { from: string; to: string; lines: string[] }[];
}

async function parseFlowchart(source: string): Promise<Flowchart> {
  // Under happy-dom Mermaid's sanitizer drops the text before a `<br/>`; a newline in a quoted label is
  // the same line break to Mermaid and survives.
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(source.replace(/<br\/>/g, '\n'));
  expect(diagram.type).toBe('flowchart-v2');
  const db = diagram.db as unknown as {
    getVertices(): Map<string, { id: string; text: string; type: string }>;
    getEdges(): { start: string; end: string; text: string }[];
    getSubGraphs(): { id: string; title: string; nodes: string[] }[];
  };
  // Mermaid encodes entity codes before parsing; a `#nbsp;` keeps a line whole and reads as a space.
  const lines = (text: string) =>
    text
      .replace(/\uFB02\u00B0\u00B0?(\w+)\u00B6\u00DF/g, (_match, code: string) =>
        code === 'nbsp' ? ' ' : `#${code};`,
      )
      .split('\n')
      .filter((line) => line.length > 0);
  return {
    nodes: new Map([...db.getVertices().values()].map((v) => [v.id, { type: v.type, lines: lines(v.text) }])),
    edges: db.getEdges().map((e) => ({ from: e.start, to: e.end, lines: lines(e.text) })),
    subgraphs: new Map(db.getSubGraphs().map((g) => [g.id, { title: g.title, nodes: g.nodes }])),
  };
}

/** Drawing fixtures need names, not behaviour: each guard gives its fixed answer, each action does nothing. */
const fixtureSetup = (guards: Record<string, boolean>, actions: string[]) =>
  setup({
    guards: Object.fromEntries(Object.entries(guards).map(([name, answer]) => [name, () => answer])),
    actions: Object.fromEntries(actions.map((name) => [name, () => {}])),
  });

/** A one-state decision table: the shape of the namespace controller. */
const tableMachine = fixtureSetup({ first: true, second: true }, ['doFirst', 'doSecond']).createMachine({
  id: 'table',
  initial: 'watching',
  states: {
    watching: {
      on: {
        SYNC: [
          { guard: 'first', actions: 'doFirst', meta: { requirements: ['LC-5'] } },
          { guard: 'second', actions: 'doSecond', meta: { requirements: ['LC-6', 'LC-7'] } },
        ],
      },
    },
  },
});

/** An eventless guard chain with an else and final outcomes: the shape of the admission chain. */
const chainMachine = fixtureSetup({ stale: false, forbidden: false, creates: true }, [
  'refuseStale',
  'refuseForbidden',
  'inject',
]).createMachine({
  id: 'chain',
  initial: 'waiting',
  states: {
    waiting: { on: { ADMIT: { target: 'check', meta: { requirements: ['AC-1'] } } } },
    check: {
      always: [
        { guard: 'stale', target: 'refused', actions: 'refuseStale', meta: { requirements: ['AC-2'] } },
        {
          guard: 'forbidden',
          target: 'refused',
          actions: 'refuseForbidden',
          meta: { requirements: ['RB-4'] },
        },
        { target: 'plugins', meta: { requirements: ['RB-4'] } },
      ],
    },
    plugins: {
      always: [
        { guard: 'creates', target: 'admitted', actions: 'inject', meta: { requirements: ['IN-1'] } },
        { target: 'admitted' },
      ],
    },
    admitted: { type: 'final' },
    refused: { type: 'final' },
  },
});

/** Stages as compound states holding eventless chains: the shape of a request pipeline. */
const pipelineMachine = fixtureSetup({ terminating: false, initializing: false, conflict: false }, [
  'refuseTerminating',
  'refuseInitializing',
  'store',
]).createMachine({
  id: 'pipeline',
  initial: 'idle',
  states: {
    idle: { on: { REQUEST: { target: 'admitting', meta: { requirements: ['AC-1'] } } } },
    admitting: {
      initial: 'lifecycle',
      states: {
        lifecycle: {
          always: [
            { guard: 'terminating', target: '#pipeline.refused', actions: 'refuseTerminating' },
            { target: 'initializers' },
          ],
        },
        initializers: {
          always: [
            { guard: 'initializing', target: '#pipeline.refused', actions: 'refuseInitializing' },
            { target: '#pipeline.storing' },
          ],
        },
      },
    },
    storing: {
      initial: 'writing',
      states: {
        writing: {
          always: [
            { guard: 'conflict', target: '#pipeline.refused' },
            { target: 'written', actions: 'store' },
          ],
        },
        written: { type: 'final' },
      },
    },
    refused: { type: 'final' },
  },
});

/** Two states with events: a state diagram is the right picture. */
const lifecycleMachine = createMachine({
  id: 'lifecycle',
  initial: 'a',
  states: {
    a: { on: { GO: 'b' } },
    b: { on: { BACK: 'a', STAY: [{ guard: () => true }, { target: 'a' }] } },
  },
});

beforeAll(() => {
  mermaid.initialize({ startOnLoad: false });
});

describe('choosing the layout', () => {
  it('draws one-state decision tables and eventless guard chains as decisions', () => {
    expect(chooseLayout(tableMachine)).toBe('decision');
    expect(chooseLayout(chainMachine)).toBe('decision');
    expect(chooseLayout(pipelineMachine)).toBe('decision');
  });

  it('draws machines whose states matter, or that nest states, as state diagrams', () => {
    expect(chooseLayout(lifecycleMachine)).toBe('states');
    expect(chooseLayout(fixtureMachine)).toBe('states');
    expect(chooseLayout(createMachine({ id: 'empty', initial: 'a', states: { a: {} } }))).toBe('states');
  });
});

/**
 * Follows the flowchart as XState evaluates: from the state along its trigger, then `no` past every
 * guard before the one wanted and `yes` at it. Returns the guards passed, the last arrow and where it ends.
 */
function follow(chart: Flowchart, start: string, trigger: string, wantedGuard: string | null) {
  const out = (node: string, first: string) =>
    chart.edges.find((edge) => edge.from === node && edge.lines[0] === first);
  let edge = out(start, trigger);
  const passed: string[] = [];
  while (edge && chart.nodes.get(edge.to)?.type === 'hexagon') {
    const text = chart.nodes.get(edge.to)?.lines.join(' ') ?? '';
    passed.push(text);
    edge = out(edge.to, wantedGuard !== null && text.endsWith(`. ${wantedGuard}`) ? 'yes' : 'no');
  }
  return { passed, edge, end: edge ? chart.nodes.get(edge.to) : undefined };
}

/** The atomic state XState enters for a target: a compound state's initial child, recursively. */
function entryOf(machine: AnyStateMachine, path: string): string {
  let node = machine.root;
  for (const key of path.split('.')) node = node.states[key] as typeof node;
  while (node.initial?.target?.[0]) node = node.initial.target[0];
  return node.path.join('.');
}

const decisionMachines: [string, AnyStateMachine][] = [
  ['table', tableMachine],
  ['chain', chainMachine],
  ['pipeline', pipelineMachine],
  ...machineCatalog
    .filter((entry) => (entry.layout ?? chooseLayout(entry.machine)) === 'decision')
    .map((entry): [string, AnyStateMachine] => [entry.id, entry.machine]),
];

describe.each(decisionMachines)('the decision flowchart of %s', (_id, machine) => {
  const outline = outlineMachine(machine);
  const source = decisionFlowchart(machine);
  let chart: Flowchart;
  beforeAll(async () => {
    chart = await parseFlowchart(source);
  });

  it('is deterministic', () => {
    expect(decisionFlowchart(machine)).toBe(source);
  });

  it('draws every state under its own name, compound states as boxes around their children', () => {
    const texts = [...chart.nodes.values()].map((node) => node.lines[0]);
    for (const state of outline.states) {
      if (state.type !== 'compound') {
        expect(texts, state.path).toContain(state.key);
        continue;
      }
      expect(chart.subgraphs.get(state.diagramId)?.title, state.path).toBe(state.key);
      const members = chart.subgraphs.get(state.diagramId)?.nodes ?? [];
      for (const child of outline.states.filter((s) => s.path === `${state.path}.${s.key}`)) {
        if (child.type === 'atomic') expect(members, child.path).toContain(child.diagramId);
      }
    }
  });

  it('starts at the initial state', () => {
    const initial = machine.root.initial?.target?.[0]?.key;
    const start = chart.edges.find((edge) => edge.from === 'start');
    expect(chart.nodes.get(start?.to ?? '')?.lines).toEqual([initial]);
  });

  it('reaches each transition through its guards in evaluation order, ending at its outcome', () => {
    const idOf = new Map(outline.states.map((state) => [state.path, state]));
    for (const group of decisionGroups(outline)) {
      const from = idOf.get(group.source)?.diagramId ?? '';
      group.transitions.forEach((transition, index) => {
        const { passed, edge, end } = follow(chart, from, group.trigger, transition.guard);
        const name = transition.id;
        expect(edge, name).toBeDefined();
        const guardsBefore = group.transitions.slice(0, index + 1).filter((t) => t.guard !== null);
        expect(passed, name).toEqual(guardsBefore.map((t) => `${t.order}. ${t.guard}`));
        const outcome = [
          ...(transition.actions.length > 0 ? [`/ ${transition.actions.join(', ')}`] : []),
          ...(transition.requirements.length > 0 ? [`(${transition.requirements.join(', ')})`] : []),
        ];
        const target = transition.targets[0] === undefined ? undefined : idOf.get(transition.targets[0]);
        if (target?.type === 'final') {
          expect(end?.lines.join(' '), name).toBe([target.key, ...outcome].join(' '));
        } else if (target && target.path !== transition.source) {
          expect(edge?.to, name).toBe(idOf.get(entryOf(machine, target.path))?.diagramId);
          // The arrow's label ends with the outcome; what comes before it is the trigger or yes/no.
          expect(edge?.lines.join(' ').endsWith(outcome.join(' ')), name).toBe(true);
        } else {
          expect(end?.lines.join(' '), name).toBe(outcome.length > 0 ? outcome.join(' ') : 'no change');
        }
        if (transition.fallback) expect(edge?.lines.slice(0, 2), name).toEqual(['no', `${index + 1}. else`]);
      });
      if (group.transitions.every((transition) => transition.guard !== null)) {
        const { end } = follow(chart, from, group.trigger, null);
        const expected = group.event === 'always' ? `stays in ${group.source}` : `${group.trigger} ignored`;
        expect(end, `${group.source} ${group.trigger} when no guard holds`).toEqual({
          type: 'lean_right',
          lines: [expected],
        });
      }
    }
  });
});

describe('the decision table', () => {
  it('lists each transition with its order, guard, outcome and requirements', () => {
    expect(decisionTable(tableMachine).split('\n')).toEqual([
      '| State | Event | Order | Guard | Outcome | Requirements |',
      '| --- | --- | ---: | --- | --- | --- |',
      '| `watching` | SYNC | 1 | `first` | `doFirst` | LC-5 |',
      '| `watching` | SYNC | 2 | `second` | `doSecond` | LC-6, LC-7 |',
    ]);
    expect(decisionTable(chainMachine)).toContain('| `check` | always |  | else | → `plugins` | RB-4 |');
    expect(decisionTable(chainMachine)).toContain(
      '| `check` | always | 2 | `forbidden` | → `refused` / `refuseForbidden` | RB-4 |',
    );
  });
});
