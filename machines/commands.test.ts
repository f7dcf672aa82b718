import { describe, expect, it } from 'vitest';
import { scopeByName } from '../checker/cli/scope-file.ts';
import { systemModel } from '../checker/model/system-model.ts';
import { RequestCommand, type RequestCommandData, requestOf } from './commands.ts';
import { expandTemplate } from './requests.ts';

const quickScope = scopeByName('quick');

const model = systemModel(quickScope);
const [initial] = model.initialStates();
const alice = { name: 'alice', groups: ['system:authenticated'] };
const sender = { actor: 'alice', actorKind: 'principal' as const, principal: alice, namespace: 1 };

describe('a request command', () => {
  it.each<[RequestCommandData, object]>([
    [
      { ...sender, kind: 'get-namespace' },
      { verb: 'get', target: 'namespace', object: -1 },
    ],
    [
      { ...sender, kind: 'remove-first-pending' },
      { verb: 'update', body: { removeFirstPending: true } },
    ],
    [
      { ...sender, kind: 'record-failure', reason: 'x' },
      { verb: 'update', body: { failure: 'x' } },
    ],
    [
      { ...sender, kind: 'update-status' },
      { verb: 'update', target: 'namespace', subresource: 'status' },
    ],
    [
      { ...sender, kind: 'delete-content', object: 2 },
      { verb: 'delete', target: 'content', object: 2 },
    ],
    [
      { ...sender, kind: 'list-content', resource: 'configmaps' },
      { verb: 'list', resource: 'configmaps' },
    ],
    [
      { ...sender, kind: 'create-namespace', extraFinalizers: [] },
      { verb: 'create', body: { extraFinalizers: [] } },
    ],
  ])('%o is sent as its wire request', (data, wire) => {
    expect(requestOf(data)).toMatchObject({ principal: alice, namespace: 1, ...wire });
  });

  it('refuses, in words, to address a slot the scope does not have', () => {
    const far = new RequestCommand({ ...sender, kind: 'get-content', object: 999 });
    expect(far.check(model)).toBe('no object slot 999 in the scope');
    expect(new RequestCommand({ ...sender, kind: 'get-namespace' }).check(model)).toBe(true);
  });

  it('runs through the API server: the same answer as serving its request, and the event names its kind', () => {
    const command = new RequestCommand({ ...sender, kind: 'create-namespace', extraFinalizers: [] });
    const step = command.run(model, initial);
    const served = model.handle(initial, command.request);
    expect(step.event.response).toEqual(served.response);
    expect(model.key(step.next)).toBe(model.key(served.state));
    expect(step.event.command).toEqual(command.data);
  });

  it("expands a principal's template into commands of the template's kind, one per namespace it may address", () => {
    const principal = { name: 'alice', groups: [], requests: [], namespaces: ['team-a', 'team-b'] };
    const commands = expandTemplate(quickScope, model.objects, 'complete-first-initializer', principal);
    expect(commands.map((c) => [c.kind, quickScope.namespaces[c.data.namespace].name])).toEqual([
      ['remove-first-pending', 'team-a'],
      ['remove-first-pending', 'team-b'],
    ]);
  });

  it('is what every principal step of the search ran', () => {
    const principalSteps = model.enabled(initial).filter((e) => e.event.actorKind === 'principal');
    expect(principalSteps.length).toBeGreaterThan(0);
    for (const { event } of principalSteps)
      if (!event.configuration) expect(event.command?.actor).toBe(event.actor);
  });
});
