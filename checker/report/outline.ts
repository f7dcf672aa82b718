import type { AnyStateMachine } from 'xstate';
import { describeGuard, listTransitions } from '../../machines/stepper.ts';

export { describeGuard };

/**
 * Every state and transition of any XState v5 machine definition, in document order, with the names a
 * reader sees (trigger, guard, guard order, actions, requirement IDs) and the Mermaid ids a diagram
 * uses. The state diagram, the decision flowchart and the docs all read this one outline.
 */

export type AnyStateNode = AnyStateMachine['root'];

/** The fields of an XState transition definition the diagram reads. */
interface TransitionDefinitionView {
  eventType: string;
  guard?: unknown;
  actions?: readonly unknown[];
  target?: readonly AnyStateNode[];
  meta?: { requirements?: unknown };
}

export interface OutlineState {
  /** Dot path from the machine root, e.g. `review.triage`; the root itself is `(root)`. */
  path: string;
  /** The state's own key as written in the machine. */
  key: string;
  type: AnyStateNode['type'];
  /** Unique Mermaid id across the whole diagram. */
  diagramId: string;
  description: string | null;
  /** Requirement IDs from the state's own `meta.requirements`. */
  requirements: string[];
}

export interface OutlineTransition {
  /** Stable id from guard and target names, as the stepper names transitions (`transitionIds`). */
  id: string;
  source: string;
  /** The event as XState stores it (`always` for eventless transitions). */
  event: string;
  /** The event as a reader sees it: `always`, `done`, `after 5000ms`, or the event type. */
  trigger: string;
  guard: string | null;
  /** Unguarded, after guarded alternatives for the same event: taken when every guard before it fails. */
  fallback: boolean;
  /**
   * 1-based place in the order XState tries the guards of one source and event, when that source and
   * event have several alternatives and this one is guarded; null otherwise (a lone or `else` transition).
   */
  order: number | null;
  actions: string[];
  /** Target state paths; empty for a targetless transition (actions only, the state stays). */
  targets: string[];
  requirements: string[];
  /** The transition's label in the diagram, before Mermaid escaping. */
  label: string;
}

export interface MachineOutline {
  machineId: string;
  /** The box drawn around the whole machine when the root itself has transitions; null otherwise. */
  rootDiagramId: string | null;
  states: OutlineState[];
  transitions: OutlineTransition[];
  /** Every requirement ID the machine cites, sorted. */
  requirements: string[];
}

export const rootPath = '(root)';

/** Lists every state and transition of a machine in document order, with the ids the diagram uses. */
export function outlineMachine(machine: AnyStateMachine): MachineOutline {
  const states: OutlineState[] = [];
  const transitions: OutlineTransition[] = [];
  const usedIds = new Set<string>();
  // The stepper lists transitions in this same document order; its ids are the ones coverage records.
  const ids = listTransitions(machine).map((t) => t.id);
  const visit = (node: AnyStateNode) => {
    const path = pathOf(node);
    if (node !== machine.root) {
      states.push({
        path,
        key: node.key,
        type: node.type,
        diagramId: uniqueDiagramId(node, usedIds),
        description: node.description ?? null,
        requirements: requirementsIn(node.meta),
      });
    }
    const add = (event: string, definitions: readonly unknown[]) => {
      const views = definitions as readonly TransitionDefinitionView[];
      views.forEach((definition, position) => {
        const trigger = triggerOf(event, node);
        const guard = definition.guard !== undefined ? describeGuard(definition.guard) : null;
        const fallback =
          guard === null && views.slice(0, position).some((earlier) => earlier.guard !== undefined);
        const order = guard !== null && views.length > 1 ? position + 1 : null;
        const actions = (definition.actions ?? []).map(describeAction);
        const requirements = requirementsIn(definition.meta);
        const transition = {
          id: ids[transitions.length] ?? '',
          source: path,
          event,
          trigger,
          guard,
          fallback,
          order,
          actions,
          targets: (definition.target ?? []).map(pathOf),
          requirements,
        };
        transitions.push({ ...transition, label: transitionLabel(transition) });
      });
    };
    for (const [event, definitions] of node.transitions) add(event, definitions);
    if (node.always) add('always', node.always);
    for (const child of Object.values(node.states)) visit(child as AnyStateNode);
  };
  visit(machine.root);
  // Transitions on the root need a box to start from, so the machine itself is then drawn as a composite.
  const rootHasTransitions = machine.root.transitions.size > 0 || (machine.root.always?.length ?? 0) > 0;
  const rootDiagramId = rootHasTransitions ? claim(safeId(sanitizeIdPart(machine.root.key)), usedIds) : null;
  const requirements = sortRequirements([
    ...requirementsIn(machine.root.meta),
    ...states.flatMap((state) => state.requirements),
    ...transitions.flatMap((transition) => transition.requirements),
  ]);
  return { machineId: machine.id, rootDiagramId, states, transitions, requirements };
}

/** The requirement IDs a machine cites on its states and transitions, sorted and deduplicated. */
export function machineRequirements(machine: AnyStateMachine): string[] {
  return outlineMachine(machine).requirements;
}

/** Mermaid id of every drawn state by its path; the root's box, when drawn, under `(root)`. */
export function diagramIds(outline: MachineOutline): Map<string, string> {
  const ids = new Map(outline.states.map((state) => [state.path, state.diagramId]));
  if (outline.rootDiagramId) ids.set(rootPath, outline.rootDiagramId);
  return ids;
}

export type LabelParts = Pick<
  OutlineTransition,
  'trigger' | 'guard' | 'fallback' | 'order' | 'actions' | 'requirements'
>;

/** `1. EVENT [guard]`, `EVENT [else]` or `EVENT`: the trigger, the guard and its place in the evaluation order. */
export function triggerText(transition: Omit<LabelParts, 'actions' | 'requirements'>): string {
  const guard = transition.guard ?? (transition.fallback ? 'else' : null);
  const numbered = transition.order !== null ? `${transition.order}. ` : '';
  return guard ? `${numbered}${transition.trigger} [${guard}]` : transition.trigger;
}

/** The longest line a diagram draws: longer names go on lines of their own, details in the transition table. */
export const maxLabelLine = 60;

/** `items` joined by `, ` into lines of at most `maxLabelLine` characters, the first after `open`. */
export function packLines(items: readonly string[], open: string, close = ''): string[] {
  const lines: string[] = [];
  let line = open;
  items.forEach((item, index) => {
    const piece = `${item}${index === items.length - 1 ? close : ','}`;
    const joined = line === open || line === '' ? `${line}${piece}` : `${line} ${piece}`;
    if (joined.length > maxLabelLine && line !== open && line !== '') {
      lines.push(line);
      line = piece;
    } else line = joined;
  });
  if (line !== '') lines.push(line);
  return lines;
}

/** The lines of a transition's label: trigger and guard, actions, requirements, none longer than 60 characters. */
export function labelLines(transition: LabelParts, compact = false): string[] {
  const lines = [triggerText(transition)];
  if (transition.actions.length > 0) lines.push(...packLines(transition.actions, '/ '));
  if (transition.requirements.length > 0) {
    const [first, ...rest] = packLines(transition.requirements, '(', ')');
    // In a note, requirement IDs share the last actions line when both fit: a shorter note keeps the diagram on
    // two screens. Arrow labels keep them apart: ELK places shorter labels of opposite arrows over each other.
    const last = lines.length - 1;
    if (compact && transition.actions.length > 0 && lines[last].length + 1 + first.length <= maxLabelLine)
      lines[last] = `${lines[last]} ${first}`;
    else lines.push(first);
    lines.push(...rest);
  }
  return lines;
}

/** `1. EVENT [guard] / a, b (REQ-1, REQ-2)`: what triggers it, when, what it does, which rules it implements. */
export function transitionLabel(transition: LabelParts): string {
  const actions = transition.actions.length > 0 ? ` / ${transition.actions.join(', ')}` : '';
  const requirements = transition.requirements.length > 0 ? ` (${transition.requirements.join(', ')})` : '';
  return `${triggerText(transition)}${actions}${requirements}`;
}

/** The label as Mermaid source: trigger and guard, actions, requirements, each on its own line. */
export function diagramLabel(transition: LabelParts, compact = false): string {
  return labelLines(transition, compact).map(escapeTransitionLabel).join('<br/>');
}

/**
 * What part of a machine one diagram draws: the states under `focus` (null: the whole machine), with
 * each `collapsed` compound state drawn as one box that names the diagram drawing its inside.
 */
export interface DiagramScope {
  focus: string | null;
  collapsed: readonly { state: string; diagram: string }[];
}

export const wholeMachine: DiagramScope = { focus: null, collapsed: [] };

/** `path` is `ancestor` or lies inside it. */
export function within(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`);
}

/** The collapsed state `path` lies strictly inside, if any. */
export function collapsedAround(scope: DiagramScope, path: string): string | null {
  return scope.collapsed.find((c) => path !== c.state && within(path, c.state))?.state ?? null;
}

/** The states a scope draws: under its focus (the focus itself only when atomic), none inside a collapsed state. */
export function scopeStates(outline: MachineOutline, scope: DiagramScope): OutlineState[] {
  const { focus } = scope;
  const focusIsLeaf = focus !== null && !outline.states.some((state) => state.path.startsWith(`${focus}.`));
  return outline.states.filter(
    (state) =>
      (focus === null || (within(state.path, focus) && (state.path !== focus || focusIsLeaf))) &&
      collapsedAround(scope, state.path) === null,
  );
}

/**
 * The transitions a scope draws: those leaving a state it draws (or the root), but not a collapsed one. A
 * part draws its compound state's own transitions too, those taken from every state inside it: the
 * diagram that collapses the state into a box draws none of them.
 */
export function scopeTransitions(outline: MachineOutline, scope: DiagramScope): OutlineTransition[] {
  const drawn = new Set(scopeStates(outline, scope).map((state) => state.path));
  drawn.add(scope.focus ?? rootPath);
  for (const { state } of scope.collapsed) drawn.delete(state);
  return outline.transitions.filter((transition) => drawn.has(transition.source));
}

export function pathOf(node: AnyStateNode): string {
  return node.path.length === 0 ? rootPath : node.path.join('.');
}

export function stateLabel(node: AnyStateNode): string {
  if (node.type === 'history') return `${node.key} (${node.history === 'deep' ? 'H*' : 'H'})`;
  return node.key;
}

/** Words the stateDiagram lexer reads as keywords (case-insensitively) wherever an id may stand. */
const mermaidKeywords = new Set([
  'click',
  'href',
  'default',
  'state',
  'note',
  'class',
  'classdef',
  'style',
  'scale',
  'direction',
  'end',
  'hide',
  'accdescr',
  'acctitle',
  'statediagram',
]);

function sanitizeIdPart(text: string): string {
  return text.replace(/[^A-Za-z0-9_]/g, '_');
}

function safeId(candidate: string): string {
  if (!/^[A-Za-z]/.test(candidate) || mermaidKeywords.has(candidate.toLowerCase())) return `s_${candidate}`;
  return candidate;
}

function claim(candidate: string, used: Set<string>): string {
  let id = candidate;
  for (let suffix = 2; used.has(id); suffix++) id = `${candidate}_${suffix}`;
  used.add(id);
  return id;
}

function uniqueDiagramId(node: AnyStateNode, used: Set<string>): string {
  return claim(safeId(node.path.map(sanitizeIdPart).join('__')), used);
}

function triggerOf(event: string, node: AnyStateNode): string {
  if (event === 'always') return 'always';
  if (event === '*') return 'any event';
  if (event === `xstate.done.state.${node.id}`) return 'done';
  const delayed = /^xstate\.after\.([^.]+)\./.exec(event);
  if (delayed) return /^\d+$/.test(delayed[1]) ? `after ${delayed[1]}ms` : `after ${delayed[1]}`;
  const actorDone = /^xstate\.done\.actor\.(.+)$/.exec(event);
  if (actorDone) return `done(${actorDone[1]})`;
  const actorError = /^xstate\.error\.actor\.(.+)$/.exec(event);
  if (actorError) return `error(${actorError[1]})`;
  return event;
}

/** An action as it reads: its name, or the built-in's name without the `xstate.` prefix. */
export function describeAction(action: unknown): string {
  if (typeof action === 'string') return action;
  if (action && typeof action === 'object' && 'type' in action) return String(action.type);
  if (typeof action === 'function') {
    const builtIn = (action as { type?: unknown }).type;
    if (typeof builtIn === 'string') return builtIn.replace(/^xstate\./, '');
    return action.name || 'inline';
  }
  return 'inline';
}

function requirementsIn(meta: unknown): string[] {
  if (!meta || typeof meta !== 'object' || !('requirements' in meta)) return [];
  const requirements = (meta as { requirements: unknown }).requirements;
  return Array.isArray(requirements) ? requirements.map(String) : [];
}

/** Sorted by area then number (`IN-2` before `IN-10`), duplicates removed. */
export function sortRequirements(ids: Iterable<string>): string[] {
  const key = (id: string) => {
    const match = /^(.*?)-?(\d+)$/.exec(id);
    return match ? { area: match[1], number: Number(match[2]) } : { area: id, number: -1 };
  };
  return [...new Set(ids)].sort((a, b) => {
    const left = key(a);
    const right = key(b);
    if (left.area !== right.area) return left.area < right.area ? -1 : 1;
    if (left.number !== right.number) return left.number - right.number;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** Characters a transition label cannot hold as they are, written as Mermaid entity codes. */
const labelEntities: Record<string, string> = {
  '#': '#35;',
  ';': '#59;',
  ':': '#58;',
  '"': '#quot;',
  '<': '#lt;',
  '>': '#gt;',
  '*': '#42;',
  '`': '#96;',
  '\\': '#92;',
  '{': '#123;',
  '}': '#125;',
};

export function escapeTransitionLabel(label: string): string {
  return label.replace(/\s+/g, ' ').replace(/[#;:"<>*`\\{}]/g, (character) => labelEntities[character]);
}

/** One line of a label, escaped, with non-breaking spaces: a line breaks only where the generator says. */
export function unbroken(text: string): string {
  const escaped = escapeTransitionLabel(text);
  // Mermaid wraps flowchart labels near 200 px; a shorter line cannot wrap, so its source stays plain.
  return text.length > wrapFreeLength ? escaped.replace(/ /g, '#nbsp;') : escaped;
}

/** Characters that fit in Mermaid's 200 px flowchart label width at its default font, with room to spare. */
const wrapFreeLength = 20;

/** Mermaid label text: each line kept whole, lines separated by `<br/>`. */
export function labelText(lines: readonly string[]): string {
  return lines.map(unbroken).join('<br/>');
}

export function escapeStateLabel(label: string): string {
  return escapeTransitionLabel(label);
}

/** What the machines doc needs of a catalog entry (the shape of `MachineEntry`). */
