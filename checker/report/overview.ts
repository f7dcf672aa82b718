import type { ActorOverview } from '../../machines/catalog.ts';
import { labelText, outlineMachine } from './outline.ts';

/**
 * The overview of the actors and the events they send each other, drawn from the catalog's
 * `actorOverview` data: machines of the catalog as rounded boxes, the other actors (clients, the API
 * server, timers, faults, the clock) as plain boxes, one arrow per sender and receiver.
 */

/** What the overview needs of a catalog entry. */
export interface OverviewEntry {
  id: string;
  title: string;
  machine: Parameters<typeof outlineMachine>[0];
  /** Checked alone, not a part of the composed system: the overview of who sends what leaves it out. */
  checkedAlone?: boolean;
}

/** The entries the overview draws: the machines of the composed system. */
export function composedEntries<E extends OverviewEntry>(entries: readonly E[]): E[] {
  return entries.filter((entry) => !entry.checkedAlone);
}

/** Event types a machine reacts to, in document order: eventless and XState's internal events left out. */
export function acceptedEvents(machine: OverviewEntry['machine']): string[] {
  const events = outlineMachine(machine)
    .transitions.map((transition) => transition.event)
    .filter((event) => event !== 'always' && !event.startsWith('xstate.'));
  return [...new Set(events)];
}

/**
 * Everything wrong with the overview data, one line each naming the field and the fix: unknown actors,
 * events a machine does not accept, events a machine accepts that no arrow brings.
 */
export function overviewProblems(all: readonly OverviewEntry[], overview: ActorOverview): string[] {
  const entries = composedEntries(all);
  const where = 'machines/catalog.ts actorOverview';
  const problems: string[] = [];
  const machines = new Map(entries.map((entry) => [entry.id, entry]));
  const ids = [...overview.actors.map((actor) => actor.id), ...machines.keys()];
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index)
      problems.push(`${where}.actors: "${id}" is declared twice (or is also a catalog id); rename one.`);
  });
  const known = new Set(ids);
  const received = new Map<string, Set<string>>();
  overview.links.forEach((link, index) => {
    for (const end of ['from', 'to'] as const) {
      if (!known.has(link[end])) {
        problems.push(
          `${where}.links[${index}].${end}: "${link[end]}" is neither an actor nor a catalog id; add it to actors or fix the id.`,
        );
      }
    }
    if (link.events.length === 0) problems.push(`${where}.links[${index}].events: empty; name what is sent.`);
    const target = machines.get(link.to);
    if (!target) return;
    const accepted = new Set(acceptedEvents(target.machine));
    for (const event of link.events) {
      if (!accepted.has(event)) {
        problems.push(
          `${where}.links[${index}].events: machine "${link.to}" accepts no event "${event}"; use one of ${[...accepted].join(', ')}.`,
        );
      }
      received.set(link.to, (received.get(link.to) ?? new Set()).add(event));
    }
  });
  for (const entry of entries) {
    const missing = acceptedEvents(entry.machine).filter((event) => !received.get(entry.id)?.has(event));
    if (missing.length > 0) {
      problems.push(
        `${where}.links: nothing sends ${missing.join(', ')} to machine "${entry.id}"; add a link naming its sender.`,
      );
    }
  }
  return problems;
}

function nodeId(id: string): string {
  return `a_${id.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** The overview as a Mermaid flowchart; throws the problems of `overviewProblems` when there are any. */
export function overviewFlowchart(all: readonly OverviewEntry[], overview: ActorOverview): string {
  const problems = overviewProblems(all, overview);
  const entries = composedEntries(all);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const lines = ['flowchart TB'];
  for (const actor of overview.actors)
    lines.push(`  ${nodeId(actor.id)}["${labelText([actor.title])}"]:::actor`);
  for (const entry of entries) lines.push(`  ${nodeId(entry.id)}("${labelText([entry.title])}"):::machine`);
  for (const link of overview.links) {
    const label = labelText(link.events);
    lines.push(`  ${nodeId(link.from)} -->|"${label}"| ${nodeId(link.to)}`);
  }
  lines.push('  classDef machine fill:#e8f0fe,stroke:#3b6fd8');
  lines.push('  classDef actor fill:#ffffff,stroke:#555555');
  return `${lines.join('\n')}\n`;
}
