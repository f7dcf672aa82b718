import { describe, expect, it } from 'vitest';
import { scopeByName } from '../cli/scope-file.ts';
import { systemModel } from '../model/system-model.ts';
import { httpLine } from './counterexample-story.ts';

/** D-16: a counterexample writes a watch as the GET it is on the wire, with ?watch=true; a list without it. */
const scope = scopeByName('quick');
const model = systemModel(scope);
const teamA = scope.namespaces.findIndex((ns) => ns.name === 'team-a');
const alice = { name: 'alice', groups: ['system:authenticated'] };
const list = { principal: alice, verb: 'list' as const, object: -1 };

describe('httpLine', () => {
  it('writes a watch of content or namespaces with ?watch=true, and a list without it', () => {
    const content = { ...list, target: 'content' as const, namespace: teamA, resource: 'configmaps' };
    expect(httpLine(model, content)).toBe('GET /api/v1/namespaces/team-a/configmaps');
    expect(httpLine(model, { ...content, watch: true })).toBe(
      'GET /api/v1/namespaces/team-a/configmaps?watch=true',
    );
    expect(httpLine(model, { ...content, namespace: -1, watch: true })).toBe(
      'GET /api/v1/configmaps?watch=true',
    );
    const namespaces = { ...list, target: 'namespace' as const, namespace: -1 };
    expect(httpLine(model, namespaces)).toBe('GET /api/v1/namespaces');
    expect(httpLine(model, { ...namespaces, watch: true })).toBe('GET /api/v1/namespaces?watch=true');
  });
});
