import { posix } from 'node:path';
import type { AnyStateMachine } from 'xstate';
import type { ActorOverview } from '../../machines/catalog.ts';
import {
  chooseLayout,
  type DiagramLayout,
  decisionFlowchart,
  decisionGroups,
  decisionTable,
} from './decision.ts';
import {
  type AnyStateNode,
  collapsedAround,
  type DiagramScope,
  diagramIds,
  diagramLabel,
  escapeStateLabel,
  escapeTransitionLabel,
  type OutlineTransition,
  outlineMachine,
  pathOf,
  rootPath,
  scopeStates,
  scopeTransitions,
  sortRequirements,
  stateLabel,
  triggerText,
  wholeMachine,
  within,
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
export function machineToMermaid(
  machine: AnyStateMachine,
  layout?: DiagramLayout,
  scope: DiagramScope = wholeMachine,
): string {
  return (layout ?? chooseLayout(machine)) === 'decision'
    ? decisionFlowchart(machine, scope)
    : stateDiagram(machine, scope);
}

/**
 * The machine (or the part `scope` names) as a `stateDiagram-v2`. Transitions between the same two
 * states share one arrow whose label lists each of them: Mermaid draws several self-loops of one state
 * on top of each other, so separate arrows would hide all but one.
 */
export function stateDiagram(machine: AnyStateMachine, scope: DiagramScope = wholeMachine): string {
  const outline = outlineMachine(machine);
  const idOfPath = diagramIds(outline);
  const drawn = new Set(scopeStates(outline, scope).map((state) => state.path));
  const collapsed = new Map(scope.collapsed.map((c) => [c.state, c.diagram]));
  const { rootDiagramId } = outline;
  const lines = ['stateDiagram-v2'];
  const emitChildren = (node: AnyStateNode, depth: number) => {
    const indent = '  '.repeat(depth);
    const children = (Object.values(node.states) as AnyStateNode[]).filter((child) =>
      drawn.has(pathOf(child)),
    );
    if (node.type === 'parallel') {
      children.forEach((child, index) => {
        if (index > 0) lines.push(`${indent}--`);
        emitState(child, depth);
      });
      return;
    }
    const initial = node.initial?.target?.[0];
    if (initial && drawn.has(pathOf(initial)))
      lines.push(`${indent}[*] --> ${idOfPath.get(pathOf(initial))}`);
    for (const child of children) emitState(child, depth);
    for (const child of children) {
      if (child.type === 'final') lines.push(`${indent}${idOfPath.get(pathOf(child))} --> [*]`);
    }
  };
  const emitState = (node: AnyStateNode, depth: number) => {
    const indent = '  '.repeat(depth);
    const path = pathOf(node);
    const id = idOfPath.get(path) ?? '';
    const part = collapsed.get(path);
    const label = part ? `${stateLabel(node)} (diagram ${part})` : stateLabel(node);
    // A bare `state id` is no statement to Mermaid's parser, so an atomic state always carries its label.
    const declaration = `state "${escapeStateLabel(label)}" as ${id}`;
    if (Object.keys(node.states).length === 0 || part) {
      lines.push(`${indent}${declaration}`);
      const stays = staysIn.get(path);
      if (stays) {
        // Notes alternate sides, starting right: stacked on one side they stretch the diagram downwards.
        const side = notesDrawn++ % 2 === 0 ? 'right' : 'left';
        lines.push(
          `${indent}note ${side} of ${id}`,
          `${indent}  ${stays.join('<br/>')}`,
          `${indent}end note`,
        );
      }
      return;
    }
    lines.push(`${indent}${label === id ? `state ${id}` : declaration} {`);
    emitChildren(node, depth + 1);
    lines.push(`${indent}}`);
  };
  // Mermaid lays a self-loop's label over its neighbours': what an atomic state does while it stays is a
  // note beside it, one line naming the state, then each transition's label.
  const staysIn = new Map<string, string[]>();
  let notesDrawn = 0;
  const noted = new Set<string>();
  const transitions = scopeTransitions(outline, scope);
  // A part whose compound state has transitions of its own draws that state around its inside, so they
  // leave its border (and what it does while it stays is a note beside it, as for an atomic state).
  const framed =
    scope.focus !== null &&
    outline.states.some((state) => state.path === scope.focus && state.type !== 'atomic') &&
    transitions.some((transition) => transition.source === scope.focus)
      ? scope.focus
      : null;
  for (const transition of transitions) {
    const loops = transition.targets.length === 0 || transition.targets.every((t) => t === transition.source);
    const node = outline.states.find((state) => state.path === transition.source);
    if (!node || !loops || (node.type !== 'atomic' && transition.source !== framed)) continue;
    const stays = staysIn.get(transition.source) ?? [escapeTransitionLabel(`stays in ${node.key}`)];
    stays.push(diagramLabel(transition, true));
    staysIn.set(transition.source, stays);
    noted.add(transition.id);
  }
  const top = scope.focus === null ? machine.root : nodeAt(machine, scope.focus);
  if (rootDiagramId && scope.focus === null) {
    lines.push(`  state "${escapeStateLabel(machine.root.key)}" as ${rootDiagramId} {`);
    emitChildren(machine.root, 2);
    lines.push('  }');
  } else if (framed !== null) {
    const id = idOfPath.get(framed) ?? '';
    lines.push(`  state "${escapeStateLabel(stateLabel(top))}" as ${id} {`);
    emitChildren(top, 2);
    lines.push('  }');
    const stays = staysIn.get(framed);
    if (stays) lines.push(`  note right of ${id}`, `    ${stays.join('<br/>')}`, '  end note');
  } else {
    emitChildren(top, 1);
  }
  // A target inside a collapsed state is drawn as that state's box; one outside the scope as its own box.
  const shownAs = (path: string) => collapsedAround(scope, path) ?? path;
  const outside = new Set<string>();
  const edges = new Map<string, { from: string; to: string; labels: string[] }>();
  for (const transition of transitions) {
    const from = idOfPath.get(transition.source);
    if (!from || noted.has(transition.id)) continue;
    const targets = transition.targets.length > 0 ? transition.targets : [transition.source];
    for (const target of targets) {
      const shown = shownAs(target);
      if (!drawn.has(shown) && shown !== rootPath) outside.add(shown);
      const to = idOfPath.get(shown) ?? '';
      const key = `${from}\0${to}`;
      const edge = edges.get(key) ?? { from, to, labels: [] };
      edge.labels.push(diagramLabel(transition));
      edges.set(key, edge);
    }
  }
  for (const path of outside) lines.push(`  state "${escapeStateLabel(path)}" as ${idOfPath.get(path)}`);
  // Edges go last at the top level: there a mention never moves a nested state out of its parent.
  for (const edge of edges.values())
    lines.push(`  ${edge.from} --> ${edge.to} : ${edge.labels.join('<br/>')}`);
  return `${lines.join('\n')}\n`;
}

/** The state node at a dot path. */
function nodeAt(machine: AnyStateMachine, path: string): AnyStateNode {
  let node: AnyStateNode = machine.root;
  for (const key of path.split('.')) node = node.states[key] as AnyStateNode;
  return node;
}

/** What the machines doc needs of a catalog entry (the shape of `MachineEntry`). */
export interface DiagramEntry {
  id: string;
  title: string;
  legend: string;
  machine: AnyStateMachine;
  layout?: DiagramLayout;
  placement?: 'elk' | 'dagre';
  /** Compound states drawn in diagrams of their own; the entry's diagram draws each as one box. */
  parts?: readonly { id: string; title: string; legend: string; state: string; layout?: DiagramLayout }[];
}

/** One diagram of a machine: the whole of it, or one part, in its layout. */
export interface DiagramView {
  id: string;
  title: string;
  legend: string;
  machine: AnyStateMachine;
  layout: DiagramLayout;
  scope: DiagramScope;
  /** Mermaid's layout engine when not the page's ELK (front matter of this diagram only). */
  placement?: 'dagre';
}

/** Every diagram of the entries, in catalog order: each machine, then each of its parts. */
export function diagramViews(entries: readonly DiagramEntry[]): DiagramView[] {
  return entries.flatMap((entry) => {
    const parts = entry.parts ?? [];
    // A view draws each part inside it as one box: the part's own diagram draws its inside.
    const collapsedIn = (focus: string | null) =>
      parts
        .filter((part) => focus === null || (part.state !== focus && within(part.state, focus)))
        .map((part) => ({ state: part.state, diagram: part.id }));
    const whole: DiagramView = {
      id: entry.id,
      title: entry.title,
      legend: entry.legend,
      machine: entry.machine,
      layout: entry.layout ?? chooseLayout(entry.machine),
      scope: { focus: null, collapsed: collapsedIn(null) },
      ...(entry.placement === 'dagre' ? { placement: 'dagre' as const } : {}),
    };
    return [
      whole,
      ...parts.map((part) => ({
        id: part.id,
        title: part.title,
        legend: part.legend,
        machine: entry.machine,
        layout: part.layout ?? chooseLayout(entry.machine),
        scope: { focus: part.state, collapsed: collapsedIn(part.state) },
        ...(entry.placement === 'dagre' ? { placement: 'dagre' as const } : {}),
      })),
    ];
  });
}

/** The transitions a view draws, each once: the parts of a machine together draw all of its transitions. */
export function viewTransitions(view: DiagramView): OutlineTransition[] {
  return scopeTransitions(outlineMachine(view.machine), view.scope);
}

/**
 * The line each transition of a view is drawn under, one per transition: its trigger and guard in a
 * state diagram (`1. EVENT [guard]`), its numbered decision in a flowchart (`2. guard`, `3. else`), or
 * the trigger of a lone unguarded transition. A test finds each on the rendered page.
 */
export function viewHeads(view: DiagramView): string[] {
  const transitions = viewTransitions(view);
  if (view.layout === 'states') return transitions.map((transition) => triggerText(transition));
  return decisionGroups(outlineMachine(view.machine), transitions).flatMap((group) => {
    const elseAt = group.transitions.findIndex((transition) => transition.guard === null);
    return group.transitions.map((transition, index) => {
      if (elseAt >= 0 && index > elseAt) return `${index + 1}. never tried (after else)`;
      if (transition.guard !== null) return `${transition.order ?? index + 1}. ${transition.guard}`;
      return index === 0 ? group.trigger : `${index + 1}. else`;
    });
  });
}

/** The Mermaid source of one view. */
export function viewMermaid(view: DiagramView): string {
  const source = machineToMermaid(view.machine, view.layout, view.scope);
  return view.placement ? `---\nconfig:\n  layout: ${view.placement}\n---\n${source}` : source;
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
  const sources = diagramViews(entries).map((view) => ({ id: view.id, definition: viewMermaid(view) }));
  if (!overview) return sources;
  if (sources.some((source) => source.id === overviewId)) {
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
  'guards). A flowchart shows the order at a glance where a state diagram would draw a tangle of self-loops.',
  'The table under each diagram lists every transition it draws, in full, with its requirement IDs. A machine',
  'too large to read whole draws some compound states as boxes naming the diagram of their own that follows;',
  'that diagram starts at a circle named after the state.',
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
  '- What a state does without leaving it (a transition back to itself, which changes data only) is listed in',
  '  a note beside it, under `stays in STATE`.',
  '- Transitions between the same two states share one arrow whose label lists each of them, so none hides',
  '  under another.',
  "- A compound state's own transitions (arrows from its border, or the note beside it) apply in every state",
  '  inside it, for an event that state has no transition of its own to take.',
  '- `done` is taken when a compound or parallel state reaches its final state(s).',
  '',
  'In a decision flowchart:',
  '',
  '- A rounded box is a state, a stadium a final state, `start` points at the initial state.',
  '- The arrow out of a state names the event (or `always`); it leads to a hexagon per guard, numbered in',
  '  evaluation order. `yes` leads to the outcome, `no` to the next guard, `N. else` to the unguarded outcome.',
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
  'in `variants/variants.ts` that switches the guard off shows which property catches its loss (`npm run mutants`).',
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
  const views = diagramViews(entries);
  if (overview) out.push(`- [${overviewTitle}](#${markdownAnchor(overviewTitle)})`);
  for (const view of views) out.push(`- [${view.title}](#${markdownAnchor(view.title)})`);
  out.push('');
  for (const view of views) {
    const outline = outlineMachine(view.machine);
    const states = scopeStates(outline, view.scope);
    const transitions = viewTransitions(view);
    out.push(`## ${view.title}`, '', view.legend.trim(), '');
    const covered = sortRequirements([
      ...states.flatMap((state) => state.requirements),
      ...transitions.flatMap((transition) => transition.requirements),
    ]);
    out.push(`Requirements covered: ${covered.length > 0 ? covered.join(', ') : 'none'}.`, '');
    out.push('```mermaid', viewMermaid(view).trimEnd(), '```', '');
    out.push(`${files(view.id)} ${states.length} states, ${transitions.length} transitions.`, '');
    // Every transition in full, with its requirement IDs: the diagram's labels stay short.
    if (transitions.length > 0) out.push(decisionTable(view.machine, view.scope), '');
    const described = states.filter((state) => state.description || state.requirements.length > 0);
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
