// @vitest-environment happy-dom
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import mermaid from 'mermaid';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, createMachine, fromPromise, not, or, stateIn } from 'xstate';
import { actorOverview, machineCatalog } from '../../machines/catalog.ts';
import { fixtureCatalog } from '../fixtures/catalog.ts';
import { fixtureMachine } from '../fixtures/fixture-machine.ts';
import { decisionTable } from './decision.ts';
import {
  type DiagramEntry,
  describeAction,
  describeGuard,
  diagramIds,
  diagramLabel,
  diagramSources,
  diagramsFolder,
  diagramViews,
  escapeTransitionLabel,
  fixtureDiagramsFolder,
  machineRequirements,
  machinesDoc,
  machineToMermaid,
  outlineMachine,
  overviewId,
  sortRequirements,
  stateDiagram,
  viewHeads,
  viewMermaid,
  viewTransitions,
} from './diagram.ts';
import { labelLines, maxLabelLine } from './outline.ts';
import { overviewFlowchart } from './overview.ts';

/** What Mermaid's own parser made of a diagram: states with their enclosing composite, and edges. */
interface ParsedDiagram {
  parentOf: Map<string, string | null>;
  labelOf: Map<string, string>;
  edges: { from: string; to: string; label: string | undefined }[];
}

interface ParsedStatement {
  stmt: string;
  id?: string;
  type?: string;
  description?: string;
  doc?: ParsedStatement[];
  state1?: ParsedStatement;
  state2?: ParsedStatement;
}

async function parseDiagram(text: string): Promise<ParsedDiagram> {
  await mermaid.parse(text);
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const root = (diagram.db as unknown as { getRootDocV2(): ParsedStatement }).getRootDocV2();
  const parsed: ParsedDiagram = { parentOf: new Map(), labelOf: new Map(), edges: [] };
  // Mermaid encodes entity codes before parsing; give them back their source form.
  const decode = (text: string | undefined) =>
    text?.replace(/\uFB02\u00B0\u00B0?(\w+)\u00B6\u00DF/g, (_match, code: string) => `#${code};`);
  const walk = (statements: ParsedStatement[], parent: string | null) => {
    for (const statement of statements) {
      if (statement.stmt === 'relation' && statement.state1?.id && statement.state2?.id) {
        parsed.edges.push({
          from: statement.state1.id,
          to: statement.state2.id,
          label: decode(statement.description),
        });
      }
      if (statement.stmt !== 'state' || !statement.id) continue;
      // Parallel regions sit in divider documents; the composite around them is the real parent.
      if (statement.type === 'divider') {
        walk(statement.doc ?? [], parent);
        continue;
      }
      parsed.parentOf.set(statement.id, parent);
      if (statement.description) parsed.labelOf.set(statement.id, decode(statement.description) ?? '');
      walk(statement.doc ?? [], statement.id);
    }
  };
  walk(root.doc ?? [], null);
  return parsed;
}

const entries: DiagramEntry[] = [...fixtureCatalog, ...machineCatalog];

beforeAll(() => {
  mermaid.initialize({ startOnLoad: false });
});

describe.each(entries.map((entry) => [entry.id, entry] as const))('state diagram of %s', (_id, entry) => {
  const outline = outlineMachine(entry.machine);
  // Every machine can be drawn as a state diagram, also those the catalog shows as decision flowcharts.
  const source = stateDiagram(entry.machine);
  let parsed: ParsedDiagram;
  beforeAll(async () => {
    parsed = await parseDiagram(source);
  });

  it('is deterministic', () => {
    expect(stateDiagram(entry.machine)).toBe(source);
  });

  it('draws every state inside its parent, under its own name', () => {
    const idOfPath = new Map(outline.states.map((state) => [state.path, state.diagramId]));
    expect(new Set(idOfPath.values()).size).toBe(outline.states.length);
    for (const state of outline.states) {
      expect(parsed.parentOf.has(state.diagramId), `state ${state.path}`).toBe(true);
      const parentPath = state.path.split('.').slice(0, -1).join('.');
      const expectedParent = parentPath ? idOfPath.get(parentPath) : null;
      const actualParent = parsed.parentOf.get(state.diagramId) ?? null;
      // A machine with root transitions is drawn inside one composite named after it.
      if (expectedParent) expect(actualParent, `parent of ${state.path}`).toBe(expectedParent);
      const label = parsed.labelOf.get(state.diagramId) ?? state.diagramId;
      expect(label, `label of ${state.path}`).toBe(escapeTransitionLabel(state.key));
    }
  });

  it('draws every transition with its event, guard, actions and requirements', () => {
    const idOfPath = diagramIds(outline);
    const drawn = parsed.edges.filter((edge) => !edge.from.endsWith('_start') && !edge.to.endsWith('_end'));
    // Transitions between the same two states share one arrow, its label listing each in document order.
    const expected = new Map<string, { from?: string; to?: string; label: string }>();
    const stateOf = new Map(outline.states.map((state) => [state.path, state]));
    for (const transition of outline.transitions) {
      const targets = transition.targets.length > 0 ? transition.targets : [transition.source];
      // A loop on an atomic state is written in a note beside it, under a line naming the state.
      if (
        stateOf.get(transition.source)?.type === 'atomic' &&
        targets.every((t) => t === transition.source)
      ) {
        const note = source.slice(
          source.search(new RegExp(`note (left|right) of ${idOfPath.get(transition.source)}\n`)),
        );
        const text = note.slice(0, note.indexOf('end note'));
        expect(text, transition.id).toContain(`stays in ${stateOf.get(transition.source)?.key}<br/>`);
        expect(text, transition.id).toContain(diagramLabel(transition, true));
        continue;
      }
      for (const target of targets) {
        const from = idOfPath.get(transition.source);
        const to = idOfPath.get(target);
        const edge = expected.get(`${from} ${to}`);
        if (edge) edge.label += `<br/>${diagramLabel(transition)}`;
        else expected.set(`${from} ${to}`, { from, to, label: diagramLabel(transition) });
      }
    }
    expect(drawn).toEqual([...expected.values()]);
    expect(new Set(drawn.map((edge) => `${edge.from} ${edge.to}`)).size).toBe(drawn.length);
  });

  it('leaves every final state with an arrow to [*]', () => {
    for (const state of outline.states.filter((s) => s.type === 'final')) {
      expect(parsed.edges.some((edge) => edge.from === state.diagramId && edge.to.endsWith('_end'))).toBe(
        true,
      );
    }
  });
});

describe('the committed Mermaid sources', () => {
  const folders = [diagramsFolder, fixtureDiagramsFolder].filter((folder) => existsSync(folder));
  const files = folders.flatMap((folder) =>
    readdirSync(folder)
      .filter((name) => name.endsWith('.mmd'))
      .map((name) => join(folder, name)),
  );

  it('include the fixture', () => {
    expect(files).toContain(join(fixtureDiagramsFolder, 'fixture.mmd'));
  });

  it.each(files)('%s parses', async (file) => {
    const { diagramType } = await mermaid.parse(readFileSync(file, 'utf8'));
    expect(['stateDiagram', 'flowchart-v2']).toContain(diagramType);
  });

  it('are what the generator writes: the overview first, then each machine in its layout', () => {
    const sources = diagramSources(machineCatalog, actorOverview);
    expect(sources.map((source) => source.id)).toEqual([
      overviewId,
      ...machineCatalog.flatMap((entry) => [entry.id, ...(entry.parts ?? []).map((part) => part.id)]),
    ]);
    for (const { id, definition } of sources) {
      const file = join(diagramsFolder, `${id}.mmd`);
      expect(existsSync(file) ? readFileSync(file, 'utf8') : '', `${file}: run npm run diagrams`).toBe(
        definition,
      );
    }
  });

  it('a broken source does not parse', async () => {
    await expect(mermaid.parse('stateDiagram-v2\n  a --> b : x;y\n  c -> ')).rejects.toThrow();
  });
});

describe('the fixture diagram', () => {
  const source = machineToMermaid(fixtureMachine);

  it('turns Mermaid keywords and punctuation in state names into safe ids with readable labels', () => {
    expect(source).toContain('state "default" as s_default');
    expect(source).toContain('state "state" as review__state');
    expect(source).toContain('state "fast-track" as review__fast_track');
  });

  it('draws parallel regions separated by --, and root transitions from a box around the machine', () => {
    expect(source).toMatch(
      /state processing \{\n\s+state "upload" as processing__upload \{[\s\S]*\n\s+--\n\s+state "audit"/,
    );
    expect(source).toContain('state "fixture" as fixture {');
    expect(source).toContain('fixture --> s_default : RESET<br/>/ forgetEverything<br/>(NS-6)');
  });

  it('labels eventless chains, fallbacks, composite guards, done events and escaped event names', () => {
    expect(source).toContain('review__triage --> review__fast_track : 1. always [isUrgent]<br/>(IN-2)');
    expect(source).toContain(
      'review__triage --> processing : 2. always [(isApproved && !isUrgent)]<br/>(IN-10)',
    );
    expect(source).toContain('review__triage --> review__state : always [else]<br/>/ notifyReviewer');
    expect(source).toContain('review__state --> rejected : RETRY [else]');
    expect(source).toContain('processing --> done : done<br/>(LC-7)');
    expect(source).toContain('review__fast_track --> processing : review#58;approve<br/>/ markApproved');
  });

  it('lists a targetless transition in a note beside its state, not as a loop', () => {
    expect(source).toContain(
      'note right of review__state\n        stays in state<br/>1. RETRY [withinRetryBudget]<br/>/ countAttempt (FP-2)\n      end note',
    );
    expect(source).not.toContain('review__state --> review__state');
  });

  it("draws a compound state's own transitions in its part's diagram, from a box around its inside", async () => {
    // `open` answers PING and leaves on STOP from both of its inner states.
    const open = {
      initial: 'a',
      on: { PING: { actions: 'answer' }, STOP: { target: 'closed' } },
      states: { a: { on: { NEXT: { target: 'b' } } }, b: {} },
    };
    const machine = createMachine({ id: 'parted', initial: 'open', states: { open, closed: {} } });
    const [whole, part] = diagramViews([
      {
        id: 'parted',
        title: 'Parted',
        legend: '',
        machine,
        layout: 'states',
        parts: [{ id: 'parted-open', title: 'Open', legend: '', state: 'open', layout: 'states' }],
      },
    ]);
    if (!whole || !part) throw new Error('two views expected');
    const triggers = (view: typeof whole) => viewTransitions(view).map((t) => `${t.source} ${t.trigger}`);
    // The whole machine draws `open` as one box; its part draws every transition leaving or inside it.
    expect(triggers(whole)).toEqual([]);
    expect(triggers(part).sort()).toEqual(['open PING', 'open STOP', 'open.a NEXT']);
    const source = viewMermaid(part);
    expect(source).toContain('note right of open\n    stays in open<br/>PING<br/>/ answer\n  end note');
    expect(source).toContain('open --> closed : STOP');
    const parsed = await parseDiagram(source);
    expect(parsed.parentOf.get('open__a')).toBe('open');
    expect(parsed.parentOf.get('open__b')).toBe('open');
  });

  it('lists every requirement the machine cites, in catalog order', () => {
    expect(machineRequirements(fixtureMachine)).toEqual([
      'FP-2',
      'IN-1',
      'IN-2',
      'IN-3',
      'IN-7',
      'IN-10',
      'LC-2',
      'LC-3',
      'LC-5',
      'LC-7',
      'NS-6',
    ]);
  });

  it('outlines states and transitions with stable ids', () => {
    const outline = outlineMachine(fixtureMachine);
    expect(outline.states.map((state) => state.path)).toEqual([
      'default',
      'review',
      'review.triage',
      'review.fast-track',
      'review.state',
      'processing',
      'processing.upload',
      'processing.upload.sending',
      'processing.upload.sent',
      'processing.audit',
      'processing.audit.pending',
      'processing.audit.logged',
      'done',
      'rejected',
    ]);
    expect(outline.transitions.map((transition) => transition.id)).toContain(
      'fixture:review.triage:always->review.state',
    );
    expect(outline.transitions.find((t) => t.id === 'fixture:review.state:RETRY->rejected')).toMatchObject({
      guard: null,
      fallback: true,
      targets: ['rejected'],
      label: 'RETRY [else]',
    });
  });
});

describe('names Mermaid cannot take as they are', () => {
  it('escapes label characters the stateDiagram grammar or its markdown would misread', () => {
    expect(escapeTransitionLabel('a;b:c#d"e<f>g*h`i')).toBe('a#59;b#58;c#35;d#quot;e#lt;f#gt;g#42;h#96;i');
    expect(escapeTransitionLabel('multi\n  line')).toBe('multi line');
  });

  it('keeps ids unique when different names sanitize alike, and across nesting', async () => {
    const machine = createMachine({
      id: 'clash',
      initial: 'a-b',
      states: {
        'a-b': { on: { GO: 'a_b' } },
        a_b: { on: { GO: 'a' } },
        a: { initial: 'b', states: { b: {} } },
        '1st': { type: 'final' },
        end: {},
      },
    });
    const outline = outlineMachine(machine);
    const ids = outline.states.map((state) => state.diagramId);
    expect(ids).toEqual(['a_b', 'a_b_2', 'a', 'a__b', 's_1st', 's_end']);
    const parsed = await parseDiagram(machineToMermaid(machine));
    expect(parsed.edges.map((edge) => `${edge.from}>${edge.to}`)).toContain('a_b>a_b_2');
  });

  it('parses event names with dots, colons, slashes and brackets', async () => {
    const machine = createMachine({
      id: 'odd',
      initial: 'idle',
      states: { idle: { on: { 'x.y:z/[w];"v"': 'idle', '*': 'idle' } } },
    });
    const parsed = await parseDiagram(stateDiagram(machine));
    const labels = parsed.edges.filter((edge) => edge.label !== undefined).map((edge) => edge.label);
    // Both loop on `idle`: one note beside it lists them, so neither hides under the other.
    expect(labels).toEqual([]);
    expect(stateDiagram(machine)).toContain(
      'note right of idle\n    stays in idle<br/>x.y#58;z/[w]#59;#quot;v#quot;<br/>any event\n  end note',
    );
  });
});

describe('constructs the model avoids but a machine may still use', () => {
  it('draws delayed transitions, invoked actors and history states', async () => {
    const machine = createMachine({
      id: 'timers',
      initial: 'waiting',
      states: {
        waiting: {
          after: { 5000: 'working' },
          on: { BACK: 'working.hist' },
        },
        working: {
          initial: 'a',
          invoke: { id: 'job', src: fromPromise(async () => 1), onDone: 'finished', onError: 'waiting' },
          states: { a: { on: { NEXT: 'b' } }, b: {}, hist: { type: 'history', history: 'deep' } },
        },
        finished: { type: 'final' },
      },
    });
    const outline = outlineMachine(machine);
    const triggers = outline.transitions.map((transition) => transition.trigger);
    expect(triggers).toEqual(['BACK', 'after 5000ms', 'done(job)', 'error(job)', 'NEXT']);
    const source = machineToMermaid(machine);
    expect(source).toContain('state "hist (H#42;)" as working__hist');
    const parsed = await parseDiagram(source);
    expect(parsed.edges.filter((edge) => edge.label !== undefined)).toHaveLength(5);
  });
});

describe('guards and actions as they read', () => {
  it('names higher-order guards', () => {
    expect(describeGuard('ready')).toBe('ready');
    expect(describeGuard({ type: 'ready', params: { n: 1 } })).toBe('ready');
    expect(describeGuard(and(['a', or(['b', not('c')])]))).toBe('(a && (b || !c))');
    expect(describeGuard(stateIn('busy'))).toBe('in("busy")');
    expect(describeGuard(function inlineCheck() {})).toBe('inlineCheck');
  });

  it('names actions, built-ins without the xstate prefix', () => {
    expect(describeAction('notify')).toBe('notify');
    expect(describeAction({ type: 'notify', params: {} })).toBe('notify');
    expect(describeAction(Object.assign(() => {}, { type: 'xstate.assign' }))).toBe('assign');
    expect(describeAction(() => {})).toBe('inline');
  });

  it('sorts requirement IDs by area, then number', () => {
    const sorted = sortRequirements(['LC-10', 'IN-2', 'LC-2', 'IN-10', 'IN-2', 'ALT-1']);
    expect(sorted).toEqual(['ALT-1', 'IN-2', 'IN-10', 'LC-2', 'LC-10']);
  });
});

describe('docs/machines.md', () => {
  it('embeds each diagram with its title, legend, requirements and links to the SVG', () => {
    const doc = machinesDoc(fixtureCatalog, {
      docPath: 'docs/machines.md',
      diagramsFolder: 'generated/diagrams',
    });
    expect(doc).toContain('## How to read these diagrams');
    expect(doc).toContain('## How to add a rule');
    expect(doc).toContain(`## ${fixtureCatalog[0].title}`);
    expect(doc).toContain(fixtureCatalog[0].legend);
    expect(doc).toContain(
      'Requirements covered: FP-2, IN-1, IN-2, IN-3, IN-7, IN-10, LC-2, LC-3, LC-5, LC-7, NS-6.',
    );
    expect(doc).toContain(`\`\`\`mermaid\n${machineToMermaid(fixtureMachine).trimEnd()}\n\`\`\``);
    expect(doc).toContain('(../generated/diagrams/fixture.svg)');
    expect(doc).toContain('| State | Meaning |\n| --- | --- |\n');
    expect(doc).toContain(
      '| `review.state` | Waiting for a reviewer; the state name is a Mermaid keyword. |',
    );
  });

  it('opens with the actor overview, and shows each diagram with its transition table', () => {
    const doc = machinesDoc(
      machineCatalog,
      { docPath: 'docs/machines.md', diagramsFolder: 'generated/diagrams' },
      actorOverview,
    );
    const headings = doc.split('\n').filter((line) => line.startsWith('## '));
    expect(headings[0]).toBe('## Actors and the events they send');
    expect(doc).toContain(
      `\`\`\`mermaid\n${overviewFlowchart(machineCatalog, actorOverview).trimEnd()}\n\`\`\``,
    );
    expect(doc).toContain('(../generated/diagrams/overview.svg)');
    const views = diagramViews(machineCatalog);
    expect(views.length).toBeGreaterThan(machineCatalog.length);
    for (const view of views) {
      expect(doc).toContain(`## ${view.title}\n`);
      expect(doc).toContain(`\`\`\`mermaid\n${viewMermaid(view).trimEnd()}\n\`\`\``);
      expect(doc, `${view.id}: transition table shown`).toContain(decisionTable(view.machine, view.scope));
    }
    // Names and details are short enough to read: no line of a label is longer than 60 characters.
    const long = views.flatMap((view) =>
      [
        ...viewTransitions(view).flatMap((t) => [...labelLines(t), ...labelLines(t, true)]),
        ...viewHeads(view),
      ]
        .filter((line) => line.length > maxLabelLine)
        .map((line) => `${view.id}: ${line}`),
    );
    expect(long).toEqual([]);
    // The views of a machine draw each of its transitions exactly once.
    for (const entry of machineCatalog) {
      const drawn = views
        .filter((view) => view.machine === entry.machine)
        .flatMap((view) => viewTransitions(view).map((transition) => transition.id));
      expect(drawn.sort(), entry.id).toEqual(
        outlineMachine(entry.machine)
          .transitions.map((t) => t.id)
          .sort(),
      );
    }
  });

  it('has no overview without overview data', () => {
    const doc = machinesDoc(fixtureCatalog, {
      docPath: 'docs/machines.md',
      diagramsFolder: 'generated/diagrams',
    });
    expect(doc).not.toContain('## Actors and the events they send');
    expect(diagramSources(fixtureCatalog).map((source) => source.id)).toEqual(
      fixtureCatalog.map((entry) => entry.id),
    );
  });

  it('says so when the catalog is empty', () => {
    expect(machinesDoc([], { docPath: 'docs/machines.md', diagramsFolder: 'generated/diagrams' })).toContain(
      'No machines are in the catalog yet.',
    );
  });
});
