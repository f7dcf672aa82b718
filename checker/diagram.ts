import { posix } from 'node:path';
import type { AnyStateMachine } from 'xstate';
import type { ActorOverview } from '../machines/catalog.ts';
import { chooseLayout, type DiagramLayout, decisionFlowchart, decisionTable } from './decision.ts';
import {
  type AnyStateNode,
  diagramIds,
  diagramLabel,
  escapeStateLabel,
  outlineMachine,
  pathOf,
  stateLabel,
} from './outline.ts';
import { overviewFlowchart } from './overview.ts';

/**
 * Mermaid diagrams of any XState v5 machine, and docs/machines.md. A machine is drawn as a
 * `stateDiagram-v2` (states nest as composite states, parallel regions are separated by `--`, every
 * transition is labelled `1. EVENT [guard] / action, action (REQ-1, REQ-2)`), or, when its behaviour is
 * a chain of guards, as a flowchart of decisions (see decision.ts). Output depends only on the
 * definition, so the committed diagrams can be compared byte for byte.
 */

export {
  describeAction,
  describeGuard,
  diagramIds,
  diagramLabel,
  escapeTransitionLabel,
  type MachineOutline,
  machineRequirements,
  type OutlineState,
  type OutlineTransition,
  outlineMachine,
  sortRequirements,
  transitionLabel,
} from './outline.ts';

/** Where the catalog's diagrams, the doc embedding them, and the fixture's diagram live, relative to the root. */
export const diagramsFolder = 'generated/diagrams';
export const machinesDocPath = 'docs/machines.md';
export const fixtureDiagramsFolder = 'checker/fixtures/generated';

/** The Mermaid source of a machine's diagram, in the given layout or the one `chooseLayout` picks. */
export function machineToMermaid(machine: AnyStateMachine, layout?: DiagramLayout): string {
  return (layout ?? chooseLayout(machine)) === 'decision'
    ? decisionFlowchart(machine)
    : stateDiagram(machine);
}

/** The machine as a `stateDiagram-v2`. */
export function stateDiagram(machine: AnyStateMachine): string {
  const outline = outlineMachine(machine);
  const idOfPath = diagramIds(outline);
  const { rootDiagramId } = outline;
  const lines = ['stateDiagram-v2'];
  const emitChildren = (node: AnyStateNode, depth: number) => {
    const indent = '  '.repeat(depth);
    const children = Object.values(node.states) as AnyStateNode[];
    if (node.type === 'parallel') {
      children.forEach((child, index) => {
        if (index > 0) lines.push(`${indent}--`);
        emitState(child, depth);
      });
      return;
    }
    const initial = node.initial?.target?.[0];
    if (initial) lines.push(`${indent}[*] --> ${idOfPath.get(pathOf(initial))}`);
    for (const child of children) emitState(child, depth);
    for (const child of children) {
      if (child.type === 'final') lines.push(`${indent}${idOfPath.get(pathOf(child))} --> [*]`);
    }
  };
  const emitState = (node: AnyStateNode, depth: number) => {
    const indent = '  '.repeat(depth);
    const id = idOfPath.get(pathOf(node)) ?? '';
    const label = stateLabel(node);
    // A bare `state id` is no statement to Mermaid's parser, so an atomic state always carries its label.
    const declaration = `state "${escapeStateLabel(label)}" as ${id}`;
    if (Object.keys(node.states).length === 0) {
      lines.push(`${indent}${declaration}`);
      return;
    }
    lines.push(`${indent}${label === id ? `state ${id}` : declaration} {`);
    emitChildren(node, depth + 1);
    lines.push(`${indent}}`);
  };
  if (rootDiagramId) {
    lines.push(`  state "${escapeStateLabel(machine.root.key)}" as ${rootDiagramId} {`);
    emitChildren(machine.root, 2);
    lines.push('  }');
  } else {
    emitChildren(machine.root, 1);
  }
  // Edges go last at the top level: there a mention never moves a nested state out of its parent.
  for (const transition of outline.transitions) {
    const from = idOfPath.get(transition.source);
    if (!from) continue;
    const targets = transition.targets.length > 0 ? transition.targets : [transition.source];
    for (const target of targets) {
      lines.push(`  ${from} --> ${idOfPath.get(target)} : ${diagramLabel(transition)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** What the machines doc needs of a catalog entry (the shape of `MachineEntry`). */
export interface DiagramEntry {
  id: string;
  title: string;
  legend: string;
  machine: AnyStateMachine;
  layout?: DiagramLayout;
}

/** The file stem of the actor overview's diagram beside the machines' diagrams. */
export const overviewId = 'overview';

/** One diagram to write: `<id>.mmd` and its SVG. */
export interface DiagramSource {
  id: string;
  definition: string;
}

/** Every diagram of a set: the actor overview first when there is one, then each machine in catalog order. */
export function diagramSources(entries: readonly DiagramEntry[], overview?: ActorOverview): DiagramSource[] {
  const sources = entries.map((entry) => ({ id: entry.id, definition: entryMermaid(entry) }));
  if (!overview) return sources;
  if (entries.some((entry) => entry.id === overviewId)) {
    throw new Error(
      `machines/catalog.ts: id "${overviewId}" is taken by the actor overview; rename that machine.`,
    );
  }
  return [{ id: overviewId, definition: overviewFlowchart(entries, overview) }, ...sources];
}

/** The Mermaid source of a catalog entry, in the layout it declares or the one chosen for it. */
export function entryMermaid(entry: DiagramEntry): string {
  return machineToMermaid(entry.machine, entry.layout);
}

const readingGuide = [
  '## How to read these diagrams',
  '',
  'A machine is drawn as a **state diagram** when its states matter, or as a **decision flowchart** when its',
  'behaviour is a chain of guards tried in order (a one-state decision table, or states left by eventless',
  'guards). A flowchart shows the order at a glance where a state diagram would draw a tangle of self-loops;',
  'the table under each flowchart lists the same rows with their requirement IDs.',
  '',
  'In a state diagram:',
  '',
  '- A rounded box is a state; a box holding other boxes is a compound state, and a dashed line inside one',
  '  separates parallel regions that are all active at once.',
  '- `[*] -->` marks the state a machine (or compound state) starts in; `--> [*]` leaves a final state.',
  '- An arrow is a transition. Its label has up to three lines: `EVENT [guard]`, the event that triggers it',
  '  and the named guard that must hold; `/ action, action`, the named actions it runs; `(REQ-1, REQ-2)`, the',
  '  requirement IDs (see [requirements.md](requirements.md)) it implements.',
  '- Where one state has several transitions on the same event, the guarded ones are numbered in the order',
  '  XState tries them (`1. EVENT [guard]`, `2. EVENT [guard]`); the first whose guard holds is taken, and',
  '  `EVENT [else]`, unguarded, is taken when every guard before it fails.',
  '- `always` marks an eventless transition, taken as soon as its guard holds: a chain of them is a decision',
  '  made in one step.',
  '- An arrow from a state back to itself changes data only (its actions), not the state.',
  '- `done` is taken when a compound or parallel state reaches its final state(s).',
  '',
  'In a decision flowchart:',
  '',
  '- A rounded box is a state, a stadium a final state, `start` points at the initial state.',
  '- The arrow out of a state names the event (or `always`); it leads to a hexagon per guard, numbered in',
  '  evaluation order. `yes` leads to the outcome, `no` to the next guard, `else` to the unguarded outcome.',
  '- An outcome that stays in the same state is a box listing its actions and requirement IDs; a slanted box',
  '  says what happens when no guard holds (the event is ignored, or the state waits).',
  '',
];

/** Where a new rule goes, on the worked example of docs/adding-a-rule.md: the places a reviewer checks. */
const addingARule = [
  '## How to add a rule',
  '',
  'A rule of the documents is a named guard, a transition with `meta: { requirements: [...] }` and a named',
  "action in one machine; the composition (`machines/system.ts`) and the actors' steps (`machines/actions/`)",
  'only route, and no status, reason or message is decided outside `machines/`. Worked example, a new',
  'admission refusal ("the finalizers of an immortal namespace never change"), in two files:',
  '',
  '1. `machines/admission.ts`: add `refuseImmortalNamespaceFinalize` to the `AdmissionRefusal` union and its',
  '   answer to `refusalResponse`. A `Record` over the union: until the answer is there, `npm run typecheck`',
  "   fails (here and in the pipeline's `requestResponse`; `admission.test.ts` shows it with a `@ts-expect-error`).",
  '2. Same file: name the guard (`finalizeOfImmortalNamespace`) and the action',
  "   (`refuse('refuseImmortalNamespaceFinalize')`) in `setup({ guards, actions })`, and put the transition in",
  '   its stage in the order `docs/decisions.md` gives, with its requirement IDs. Its arrow and number appear',
  '   in the admission diagram below after `npm run diagrams`.',
  '3. `machines/admission.test.ts`: assert the verdict and the answer.',
  '',
  'A rule needing a fact admission lacks adds one field to `AdmissionFacts` and the line in',
  '`machines/apiserver.ts` that fills it (a third file). Then `npm run verify`, `npm test`, and a seeded fault',
  'in `machines/variants.ts` that switches the guard off shows which property catches its loss (`npm run mutants`).',
  'The full walk-through: [adding-a-rule.md](adding-a-rule.md).',
  '',
];

/** `docs/machines.md`: the actor overview, then each diagram as a Mermaid block with its title, legend, requirements and states. */
export function machinesDoc(
  entries: readonly DiagramEntry[],
  layout: { docPath: string; diagramsFolder: string },
  overview?: ActorOverview,
): string {
  const svgLink = posix.relative(posix.dirname(layout.docPath), layout.diagramsFolder);
  const files = (id: string) =>
    `Source [${id}.mmd](${svgLink}/${id}.mmd), rendered [${id}.svg](${svgLink}/${id}.svg).`;
  const out: string[] = [
    '# The machines',
    '',
    '<!-- Generated by `npm run diagrams` from machines/catalog.ts. Do not edit: change the machine and regenerate. -->',
    '',
    'One diagram per actor, drawn from the XState machine itself, so the picture cannot drift from the',
    'model. Each block below renders on GitHub; the committed SVGs (ELK layout) sit beside the Mermaid sources in',
    `\`${layout.diagramsFolder}\`.`,
    '',
  ];
  if (entries.length === 0) {
    out.push(...readingGuide, 'No machines are in the catalog yet.', '');
    return out.join('\n');
  }
  const overviewTitle = 'Actors and the events they send';
  if (overview) {
    out.push(
      `## ${overviewTitle}`,
      '',
      'Who sends what to whom. Rounded boxes are the machines below; plain boxes are the other actors. An arrow',
      'into a machine carries event types that machine accepts; other arrows say in words what is sent. Drawn',
      'from `actorOverview` in machines/catalog.ts, which a test keeps in step with the machines.',
      '',
      ...(overview.legend ? [overview.legend.trim(), ''] : []),
      '```mermaid',
      overviewFlowchart(entries, overview).trimEnd(),
      '```',
      '',
      files(overviewId),
      '',
    );
  }
  out.push(...readingGuide, ...addingARule, '## Contents', '');
  if (overview) out.push(`- [${overviewTitle}](#${markdownAnchor(overviewTitle)})`);
  for (const entry of entries) out.push(`- [${entry.title}](#${markdownAnchor(entry.title)})`);
  out.push('');
  for (const entry of entries) {
    const outline = outlineMachine(entry.machine);
    out.push(`## ${entry.title}`, '', entry.legend.trim(), '');
    const covered = outline.requirements.length > 0 ? outline.requirements.join(', ') : 'none';
    out.push(`Requirements covered: ${covered}.`, '');
    out.push('```mermaid', entryMermaid(entry).trimEnd(), '```', '');
    out.push(
      `${files(entry.id)} ${outline.states.length} states, ${outline.transitions.length} transitions.`,
      '',
    );
    if ((entry.layout ?? chooseLayout(entry.machine)) === 'decision')
      out.push(decisionTable(entry.machine), '');
    const described = outline.states.filter((state) => state.description || state.requirements.length > 0);
    const withRequirements = described.some((state) => state.requirements.length > 0);
    if (described.length > 0) {
      out.push(withRequirements ? '| State | Meaning | Requirements |' : '| State | Meaning |');
      out.push(withRequirements ? '| --- | --- | --- |' : '| --- | --- |');
      for (const state of described) {
        const cells = [`\`${state.path}\``, tableCell(state.description ?? '')];
        if (withRequirements) cells.push(state.requirements.join(', '));
        out.push(`| ${cells.join(' | ')} |`);
      }
      out.push('');
    }
  }
  return out.join('\n');
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function markdownAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function tableCell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
}
