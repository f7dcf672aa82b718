import type { AnyStateMachine } from 'xstate';
import { labelText, type MachineOutline, type OutlineTransition, outlineMachine } from './outline.ts';

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
export function decisionGroups(outline: MachineOutline): DecisionGroup[] {
  const groups = new Map<string, DecisionGroup>();
  for (const transition of outline.transitions) {
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
 * `decision` for a flat machine (no compound states, no transitions on the root) that either has one
 * state that reacts to events at all, or leaves some state by a chain of two or more eventless guards;
 * `states` otherwise.
 */
export function chooseLayout(machine: AnyStateMachine): DiagramLayout {
  const outline = outlineMachine(machine);
  const flat = outline.states.every((state) => !state.path.includes('.')) && outline.rootDiagramId === null;
  if (!flat || outline.transitions.length === 0) return 'states';
  const reacting = new Set(outline.transitions.map((transition) => transition.source));
  if (reacting.size === 1) return 'decision';
  const chains = decisionGroups(outline).some(
    (group) => group.event === 'always' && group.transitions.length >= 2,
  );
  return chains ? 'decision' : 'states';
}

/** The outcome of one transition as a reader sees it: `/ actions` and `(REQ-1, REQ-2)`, one per line. */
function outcomeLines(transition: OutlineTransition): string[] {
  const lines: string[] = [];
  if (transition.actions.length > 0) lines.push(`/ ${transition.actions.join(', ')}`);
  // Three IDs a line: a longer line would wrap at the hyphen inside an ID.
  const ids = transition.requirements;
  for (let start = 0; start < ids.length; start += 3) {
    const chunk = ids.slice(start, start + 3).join(', ');
    lines.push(`${start === 0 ? '(' : ''}${chunk}${start + 3 >= ids.length ? ')' : ','}`);
  }
  return lines;
}

const quoted = (text: string) => `"${labelText([text])}"`;

function edgeLabel(lines: readonly string[]): string {
  return lines.length > 0 ? `|"${labelText(lines)}"|` : '';
}

/** The Mermaid flowchart of a machine's guard chains; the machine must be flat (see `chooseLayout`). */
export function decisionFlowchart(machine: AnyStateMachine): string {
  const outline = outlineMachine(machine);
  const stateOf = new Map(outline.states.map((state) => [state.path, state]));
  const used = new Set(outline.states.map((state) => state.diagramId));
  const fresh = (candidate: string) => {
    let id = candidate;
    for (let suffix = 2; used.has(id); suffix++) id = `${candidate}_${suffix}`;
    used.add(id);
    return id;
  };
  const lines = ['flowchart TB'];
  const initial = machine.root.initial?.target?.[0];
  if (initial)
    lines.push(`  ${fresh('start')}(("start")) --> ${stateOf.get(initial.path.join('.'))?.diagramId}`);
  for (const state of outline.states) {
    if (state.type !== 'final') lines.push(`  ${state.diagramId}(${quoted(state.key)})`);
  }
  // Each arrow into a final state ends in its own stadium naming that state: the chain stays a straight
  // spine with short exits instead of every refusal crossing the picture to one shared box.
  const endsDrawn = new Set<string>();
  const sanitize = (text: string) => text.replace(/[^A-Za-z0-9_]/g, '_');
  for (const group of decisionGroups(outline)) {
    const from = stateOf.get(group.source)?.diagramId ?? '';
    const base = `${from}__${sanitize(group.trigger)}`;
    /** Draws the arrow `from -- label --> outcome of transition`. */
    const arrow = (start: string, label: readonly string[], transition: OutlineTransition, index: number) => {
      const target = transition.targets[0];
      const targetState = target === undefined ? undefined : stateOf.get(target);
      if (targetState?.type === 'final') {
        const id = fresh(`${base}_${index + 1}_${targetState.diagramId}`);
        endsDrawn.add(targetState.path);
        lines.push(`  ${id}(["${labelText([targetState.key, ...outcomeLines(transition)])}"])`);
        lines.push(`  ${start} -->${edgeLabel(label)} ${id}`);
      } else if (targetState && target !== transition.source) {
        lines.push(
          `  ${start} -->${edgeLabel([...label, ...outcomeLines(transition)])} ${targetState.diagramId}`,
        );
      } else {
        // Stays in its state: a box of what it does.
        const id = fresh(`${base}_${index + 1}_stays`);
        const outcome = outcomeLines(transition);
        lines.push(`  ${id}["${labelText(outcome.length > 0 ? outcome : ['no change'])}"]`);
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
        arrow(previous, previous === from ? previousLabel : [...previousLabel, 'else'], transition, index);
        previous = null;
        return;
      }
      const decision = fresh(`${base}_${index + 1}`);
      lines.push(
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
      lines.push(`  ${unchanged}[/"${labelText([text])}"/]`);
      lines.push(`  ${previous} -->${edgeLabel(previousLabel)} ${unchanged}`);
    }
  }
  for (const state of outline.states) {
    if (state.type === 'final' && !endsDrawn.has(state.path))
      lines.push(`  ${state.diagramId}([${quoted(state.key)}])`);
  }
  return `${lines.join('\n')}\n`;
}

/** One row per transition of every decision: where, on what, in which order, under which guard, to what. */
export function decisionTable(machine: AnyStateMachine): string {
  const outline = outlineMachine(machine);
  const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
  const out = [
    '| State | Event | Order | Guard | Outcome | Requirements |',
    '| --- | --- | ---: | --- | --- | --- |',
  ];
  for (const group of decisionGroups(outline)) {
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
