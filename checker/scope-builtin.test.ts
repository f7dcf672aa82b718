import { describe, expect, it } from 'vitest';
import { expandTemplate } from '../machines/requests.ts';
import { SystemModel } from '../machines/system.ts';
import { scopeByName } from './scope-file.ts';

/**
 * `$creator` names a namespace's declared creator (D-34). That is the principal who sent the create
 * whenever only the declared creator sends a create that runs initializers: `create-namespace` runs the
 * configured ones, while `create-namespace-with-initializers` sends an empty pending list, so its
 * namespace goes Active and nothing is populated (IN-3, D-17). Pre-existing namespaces count too: once
 * deleted, a create makes them anew.
 */
const alice = { name: 'alice', groups: ['teams@corp.com'] };

describe.each(['default', 'concurrent', 'admin-finalize'].map(scopeByName))('the $name scope', (scope) => {
  it('lets only its declared creator send the create that populates a namespace, so `$creator` is the sender', () => {
    for (const p of scope.principals) {
      if (!p.requests.includes('create-namespace')) continue;
      const addressed = scope.namespaces.filter(
        (ns) => !ns.system && (!p.namespaces || p.namespaces.includes(ns.name)),
      );
      for (const ns of addressed) expect(ns.creator, `${p.name} creates ${ns.name}`).toBe(p.name);
    }
  });

  it('sends every other create of a namespace with an empty pending list, so it populates nothing', () => {
    const model = new SystemModel(scope);
    const creates = expandTemplate(scope, model.objects, 'create-namespace-with-initializers', {
      ...alice,
      requests: ['create-namespace-with-initializers'],
    });
    expect(creates.length).toBe(scope.namespaces.filter((ns) => !ns.system).length);
    for (const { request } of creates) expect(request.body?.initializers).toEqual([]);
  });

  it('binds no controller, owner or creator to cluster-admin: least privilege as document 000 writes it', () => {
    expect(scope.clusterRoleBindings.filter((b) => b.clusterRole === 'cluster-admin')).toEqual([]);
  });

  it('declares a tenant for every namespace a tenant creates', () => {
    for (const ns of scope.namespaces)
      if (ns.creator !== undefined) expect(scope.intent?.tenants[ns.name]).toContain(ns.creator);
  });
});
