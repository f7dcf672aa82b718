import { describe, expect, it } from 'vitest';
import { scopeByName } from './scope-file.ts';

const defaultScope = scopeByName('default');
const concurrentScope = scopeByName('concurrent');

describe.each([defaultScope, concurrentScope])('the $name scope', (scope) => {
  it('lets only its declared creator send the create that populates a namespace, so `$creator` is the sender', () => {
    for (const p of scope.principals) {
      if (!p.requests.includes('create-namespace')) continue;
      const addressed = scope.namespaces.filter(
        (ns) => !ns.system && (!p.namespaces || p.namespaces.includes(ns.name)),
      );
      for (const ns of addressed) {
        // A create of an existing namespace is refused 409 and populates nothing.
        if (ns.preexisting) continue;
        expect(ns.creator, `${p.name} creates ${ns.name}`).toBe(p.name);
      }
    }
  });

  it('binds no controller, owner or creator to cluster-admin: least privilege as document 000 writes it', () => {
    expect(scope.clusterRoleBindings.filter((b) => b.clusterRole === 'cluster-admin')).toEqual([]);
  });

  it('declares a tenant for every namespace a tenant creates', () => {
    for (const ns of scope.namespaces)
      if (ns.creator !== undefined) expect(scope.intent?.tenants[ns.name]).toContain(ns.creator);
  });
});
