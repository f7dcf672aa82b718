import { describe, expect, it } from 'vitest';
import { scopeByName } from './scope-file.ts';

/**
 * What every built-in scope CI explores keeps: document 000's least-privilege bindings, and a declared
 * tenant for each namespace a tenant is declared to create. `$creator` needs no rule here: it names
 * whoever sent the create, as the namespace records it (D-34, `machines/system.test.ts`).
 */
describe.each(['default', 'quick', 'admin-finalize'].map(scopeByName))('the $name scope', (scope) => {
  it('binds no controller, owner or creator to cluster-admin: least privilege as document 000 writes it', () => {
    expect(scope.clusterRoleBindings.filter((b) => b.clusterRole === 'cluster-admin')).toEqual([]);
  });

  it('declares a tenant for every namespace a tenant creates', () => {
    for (const ns of scope.namespaces)
      if (ns.creator !== undefined) expect(scope.intent?.tenants[ns.name]).toContain(ns.creator);
  });
});
