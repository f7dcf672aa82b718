// @vitest-environment happy-dom
import mermaid from 'mermaid';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { type ActorOverview, actorOverview, machineCatalog } from '../../machines/catalog.ts';
import { acceptedEvents, overviewFlowchart, overviewProblems } from './overview.ts';

const ping = createMachine({
  id: 'ping',
  initial: 'idle',
  states: {
    idle: { on: { PING: 'busy' }, always: { target: 'busy', guard: () => false } },
    busy: { on: { PONG: 'idle' } },
  },
});
const entries = [{ id: 'ping', title: 'Ping', machine: ping }];
const good: ActorOverview = {
  actors: [{ id: 'client', title: 'Client' }],
  links: [
    { from: 'client', to: 'ping', events: ['PING', 'PONG'] },
    { from: 'ping', to: 'client', events: ['an answer'] },
  ],
};

beforeAll(() => {
  mermaid.initialize({ startOnLoad: false });
});

describe("the catalog's actor overview", () => {
  it('names only known actors, and brings every event each machine accepts from a named sender', () => {
    expect(overviewProblems(machineCatalog, actorOverview)).toEqual([]);
  });

  it('parses as a flowchart with a node per actor and machine and an arrow per link', async () => {
    const source = overviewFlowchart(machineCatalog, actorOverview);
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
    const db = diagram.db as unknown as { getVertices(): Map<string, unknown>; getEdges(): unknown[] };
    // A machine checked alone is no part of who sends what in the composed system.
    const composed = machineCatalog.filter((entry) => !entry.checkedAlone);
    expect(composed.length).toBeLessThan(machineCatalog.length);
    expect(db.getVertices().size).toBe(actorOverview.actors.length + composed.length);
    expect(db.getEdges()).toHaveLength(actorOverview.links.length);
  });
});

describe('overview data', () => {
  it('lists the events a machine accepts, leaving out eventless transitions', () => {
    expect(acceptedEvents(ping)).toEqual(['PING', 'PONG']);
  });

  it('draws actors as boxes, machines as rounded boxes, one labelled arrow per link', () => {
    expect(overviewFlowchart(entries, good).split('\n')).toEqual([
      'flowchart TB',
      '  a_client["Client"]:::actor',
      '  a_ping("Ping"):::machine',
      '  a_client -->|"PING<br/>PONG"| a_ping',
      '  a_ping -->|"an answer"| a_client',
      '  classDef machine fill:#e8f0fe,stroke:#3b6fd8',
      '  classDef actor fill:#ffffff,stroke:#555555',
      '',
    ]);
  });

  it('names each problem with its field and the fix', () => {
    const bad: ActorOverview = {
      actors: [
        { id: 'client', title: 'Client' },
        { id: 'ping', title: 'Also ping' },
      ],
      links: [
        { from: 'clinet', to: 'ping', events: ['PING', 'PIGN'] },
        { from: 'client', to: 'nowhere', events: [] },
      ],
    };
    expect(overviewProblems(entries, bad)).toEqual([
      'machines/catalog.ts actorOverview.actors: "ping" is declared twice (or is also a catalog id); rename one.',
      'machines/catalog.ts actorOverview.links[0].from: "clinet" is neither an actor nor a catalog id; add it to actors or fix the id.',
      'machines/catalog.ts actorOverview.links[0].events: machine "ping" accepts no event "PIGN"; use one of PING, PONG.',
      'machines/catalog.ts actorOverview.links[1].to: "nowhere" is neither an actor nor a catalog id; add it to actors or fix the id.',
      'machines/catalog.ts actorOverview.links[1].events: empty; name what is sent.',
      'machines/catalog.ts actorOverview.links: nothing sends PONG to machine "ping"; add a link naming its sender.',
    ]);
    expect(() => overviewFlowchart(entries, bad)).toThrow('"clinet" is neither an actor nor a catalog id');
  });
});
