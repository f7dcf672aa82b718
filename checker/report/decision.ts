import type { AnyStateMachine } from 'xstate';
import {
  collapsedAround,
  type DiagramScope,
  labelText,
  type MachineOutline,
  type OutlineTransition,
  outlineMachine,
  packLines,
  scopeStates,
  scopeTransitions,
  wholeMachine,
  within,
} from './outline.ts';

/**
 * Decision tables drawn as decisions. A machine whose behaviour is a chain of guards (one state that
 * reacts to events by trying guards in order, or states left by eventless guard chains) reads as a
 * tangle of self-loops in a state diagram. Here it becomes a Mermaid flowchart with one hexagon per
 * guard in evaluation order, `yes` to the outcome and `no` to the next guard, and a Markdown table of
 * the same rows for the docs.
 */

/** How a machine is drawn: a state diagram, or a flowchart of its guard chains. */
export type DiagramLayout = 'states' | 'decision';

/** Transitions that share a source state and an event, in the order XState tries them. */
export interface DecisionGroup {
  source: string;
  event: string;
  trigger: string;
  transitions: OutlineTransition[];
}

/** Groups the outline's transitions by source and event, keeping document (evaluation) order. */
export function decisionGroups(
  outline: MachineOutline,
  transitions: readonly OutlineTransition[] = outline.transitions,
): DecisionGroup[] {
  const groups = new Map<string, DecisionGroup>();
  for (const transition of transitions) {
    const key = `${transition.source}\0${transition.event}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        source: transition.source,
        event: transition.event,
        trigger: transition.trigger,
        transitions: [],
      };
      groups.set(key, group);
    }
    group.transitions.push(transition);
  }
  return [...groups.values()];
}

/**
 * `decision` for a machine whose transitions all leave atomic states (no parallel regions, no history,
 * nothing on the root or on a compound state) and that either has one state that reacts at all, or
 * leaves some state by a chain of two or more eventless guards; `states` otherwise.
 */
export function chooseLayout(machine: AnyStateMachine): DiagramLayout {
  const outline = outlineMachine(machine);
  if (outline.rootDiagramId !== null || outline.transitions.length === 0) return 'states';
  const typeOf = new Map(outline.states.map((state) => [state.path, state.type]));
  if (outline.states.some((state) => state.type === 'parallel' || state.type === 'history')) return 'states';
  if (outline.transitions.some((transition) => typeOf.get(transition.source) === 'compound')) return 'states';
  const reacting = new Set(outline.transitions.map((transition) => transition.source));
  if (reacting.size === 1) return 'decision';
  const chains = decisionGroups(outline).some(
    (group) => group.event === 'always' && group.transitions.length >= 2,
  );
  return chains ? 'decision' : 'states';
}

/** The path of a state's parent; the root is ''. */
function parentPath(path: string): string {
  return path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
}

/** The atomic state a transition into `path` ends in: a compound state is entered at its initial child. */
function entryPath(machine: AnyStateMachine, path: string): string {
  let node: AnyStateMachine['root'] = machine.root;
  for (const key of path.split('.')) node = node.states[key] as AnyStateMachine['root'];
  while (node.type === 'compound') {
    const initial = node.initial?.target?.[0];
    if (!initial) break;
    node = initial;
  }
  return node.path.join('.');
}

/** The outcome of one transition as a reader sees it: `/ actions` and `(REQ-1, REQ-2)`, one per line. */
function outcomeLines(transition: OutlineTransition): string[] {
  const lines: string[] = [];
  if (transition.actions.length > 0) lines.push(...packLines(transition.actions, '/ '));
  // Three IDs a line: a longer line would wrap at the hyphen inside an ID.
  const ids = transition.requirements;
  for (let start = 0; start < ids.length; start += 3) {
    const chunk = ids.slice(start, start + 3).join(', ');
    lines.push(`${start === 0 ? '(' : ''}${chunk}${start + 3 >= ids.length ? ')' : ','}`);
  }
  return lines;
}

/** Tighter than Mermaid's default spacing between ranks: a chain of guards is a tall picture. */
const flowchartHeader = '%%{init: {"flowchart": {"rankSpacing": 30, "nodeSpacing": 30}}}%%';

const quoted = (text: string) => `"${labelText([text])}"`;

function edgeLabel(lines: readonly string[]): string {
  return lines.length > 0 ? `|"${labelText(lines)}"|` : '';
}

/**
 * The Mermaid flowchart of a machine's guard chains (see `chooseLayout` for the machines it suits). A
 * compound state is a subgraph holding its children and the decisions taken in them.
 */
export function decisionFlowchart(machine: AnyStateMachine, scope: DiagramScope = wholeMachine): string {
  const outline = outlineMachine(machine);
  const stateOf = new Map(outline.states.map((state) => [state.path, state]));
  const drawnStates = scopeStates(outline, scope);
  const collapsed = new Map(scope.collapsed.map((c) => [c.state, c.diagram]));
  const used = new Set(outline.states.map((state) => state.diagramId));
  const fresh = (candidate: string) => {
    let id = candidate;
    for (let suffix = 2; used.has(id); suffix++) id = `${candidate}_${suffix}`;
    used.add(id);
    return id;
  };
  const lines: string[] = [];
  // Nodes inside a compound state are declared in its subgraph; everything else, edges too, at the top.
  const inside = new Map<string, string[]>();
  const declare = (home: string, line: string) => {
    if (home === '') lines.push(line);
    else inside.set(home, [...(inside.get(home) ?? []), line]);
  };
  // A collapsed state is entered as its own box; any other compound state at its initial child.
  const entryId = (path: string) => {
    const shown = collapsedAround(scope, path) ?? (collapsed.has(path) ? path : entryPath(machine, path));
    return stateOf.get(shown)?.diagramId ?? '';
  };
  // A part's diagram starts where the machine enters the part, named after it.
  const top = scope.focus === null ? machine.root : undefined;
  const initial = top?.initial?.target?.[0];
  if (initial) lines.push(`  ${fresh('start')}(("start")) --> ${entryId(initial.path.join('.'))}`);
  if (scope.focus !== null) {
    const name = stateOf.get(scope.focus)?.key ?? scope.focus;
    lines.push(`  ${fresh('start')}((${quoted(name)})) --> ${entryId(scope.focus)}`);
  }
  const home = (path: string) => {
    const parent = parentPath(path);
    return scope.focus !== null && !within(parent, scope.focus) ? '' : parent === scope.focus ? '' : parent;
  };
  for (const state of drawnStates) {
    const part = collapsed.get(state.path);
    if (state.type === 'atomic' && !part)
      declare(home(state.path), `  ${state.diagramId}(${quoted(state.key)})`);
    if (part) declare(home(state.path), `  ${state.diagramId}[${quoted(`${state.key} (diagram ${part})`)}]`);
  }
  // Each arrow into a final state ends in its own stadium naming that state: the chain stays a straight
  // spine with short exits instead of every refusal crossing the picture to one shared box.
  const endsDrawn = new Set<string>();
  const sanitize = (text: string) => text.replace(/[^A-Za-z0-9_]/g, '_');
  for (const group of decisionGroups(outline, scopeTransitions(outline, scope))) {
    const from = stateOf.get(group.source)?.diagramId ?? '';
    const groupHome = home(group.source);
    const base = `${from}__${sanitize(group.trigger)}`;
    /** Draws the arrow `from -- label --> outcome of transition`. */
    const arrow = (start: string, label: readonly string[], transition: OutlineTransition, index: number) => {
      const target = transition.targets[0];
      const targetState = target === undefined ? undefined : stateOf.get(target);
      if (targetState?.type === 'final') {
        const id = fresh(`${base}_${index + 1}_${targetState.diagramId}`);
        endsDrawn.add(targetState.path);
        declare(
          home(targetState.path),
          `  ${id}(["${labelText([targetState.key, ...outcomeLines(transition)])}"])`,
        );
        lines.push(`  ${start} -->${edgeLabel(label)} ${id}`);
      } else if (target !== undefined && targetState && target !== transition.source) {
        lines.push(`  ${start} -->${edgeLabel([...label, ...outcomeLines(transition)])} ${entryId(target)}`);
      } else {
        // Stays in its state: a box of what it does.
        const id = fresh(`${base}_${index + 1}_stays`);
        const outcome = outcomeLines(transition);
        declare(groupHome, `  ${id}["${labelText(outcome.length > 0 ? outcome : ['no change'])}"]`);
        lines.push(`  ${start} -->${edgeLabel(label)} ${id}`);
      }
    };
    let previous: string | null = from;
    let previousLabel = [group.trigger];
    group.transitions.forEach((transition, index) => {
      if (previous === null) {
        // After an unguarded alternative XState tries nothing more: drawn, but marked as never taken.
        arrow(from, [group.trigger, `${index + 1}. never tried (after else)`], transition, index);
        return;
      }
      if (transition.guard === null) {
        const otherwise = [...previousLabel, `${index + 1}. else`];
        arrow(previous, previous === from ? previousLabel : otherwise, transition, index);
        previous = null;
        return;
      }
      const decision = fresh(`${base}_${index + 1}`);
      declare(
        groupHome,
        `  ${decision}{{"${labelText([`${transition.order ?? index + 1}. ${transition.guard}`])}"}}`,
      );
      lines.push(`  ${previous} -->${edgeLabel(previousLabel)} ${decision}`);
      arrow(decision, ['yes'], transition, index);
      previous = decision;
      previousLabel = ['no'];
    });
    if (previous !== null && previous !== from) {
      // No `else`: when every guard fails the event changes nothing (an eventless chain waits).
      const unchanged = fresh(`${base}_none`);
      const text = group.event === 'always' ? `stays in ${group.source}` : `${group.trigger} ignored`;
      declare(groupHome, `  ${unchanged}[/"${labelText([text])}"/]`);
      lines.push(`  ${previous} -->${edgeLabel(previousLabel)} ${unchanged}`);
    }
  }
  for (const state of drawnStates) {
    if (state.type === 'final' && !endsDrawn.has(state.path))
      declare(home(state.path), `  ${state.diagramId}([${quoted(state.key)}])`);
  }
  // Subgraphs first, so a node a later edge mentions is already inside its box.
  const subgraphs: string[] = [];
  const emit = (path: string) => {
    const state = stateOf.get(path);
    if (state?.type !== 'compound' || collapsed.has(path)) return;
    subgraphs.push(`  subgraph ${state.diagramId} [${quoted(state.key)}]`, '  direction TB');
    for (const child of drawnStates) if (parentPath(child.path) === path) emit(child.path);
    subgraphs.push(...(inside.get(path) ?? []), '  end');
  };
  for (const state of drawnStates)
    if (home(state.path) === '' && parentPath(state.path) === (scope.focus ?? '')) emit(state.path);
  return `${[flowchartHeader, 'flowchart TB', ...subgraphs, ...lines].join('\n')}\n`;
}

/** One row per transition of every decision: where, on what, in which order, under which guard, to what. */
export function decisionTable(machine: AnyStateMachine, scope: DiagramScope = wholeMachine): string {
  const outline = outlineMachine(machine);
  const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
  const out = [
    '| State | Event | Order | Guard | Outcome | Requirements |',
    '| --- | --- | ---: | --- | --- | --- |',
  ];
  for (const group of decisionGroups(outline, scopeTransitions(outline, scope))) {
    for (const transition of group.transitions) {
      const guard = transition.guard ?? (transition.fallback ? 'else' : '');
      const target = transition.targets[0];
      const moves = target !== undefined && target !== transition.source ? `→ \`${target}\`` : '';
      const actions = transition.actions.map((action) => `\`${action}\``).join(', ');
      const outcome = [moves, actions].filter((part) => part.length > 0).join(' / ') || 'no change';
      out.push(
        `| \`${transition.source}\` | ${cell(group.trigger)} | ${transition.order ?? ''} | ${transition.guard ? `\`${cell(transition.guard)}\`` : guard} | ${outcome} | ${transition.requirements.join(', ')} |`,
      );
    }
  }
  return out.join('\n');
}
