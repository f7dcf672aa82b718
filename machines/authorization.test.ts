import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { decideAuthorization } from '../test-support/authorization-decision.ts';
import { alice, initializerSa, root, tenantPolicy } from '../test-support/tenant-cluster.ts';
import {
  type AuthorizationFacts,
  authorizationFacts,
  authorizationMachine,
  authorizationMachineHonouringForeignRoleBindings,
  authorizationMachineOpeningListsByRoleBindings,
} from './authorization.ts';
import {
  type AuthorizationAttributes,
  authenticatedUser,
  clusterRoleBinding,
  compileAuthorizer,
  groupSubject,
  type RbacPolicy,
  type User,
  withClusterRoleBinding,
} from './rbac.ts';

const facts = (overrides: Partial<AuthorizationFacts> = {}): AuthorizationFacts => ({
  callerIsSystemMaster: false,
  grantedByClusterRoleBinding: false,
  grantedByRoleBindingInRequestNamespace: false,
  grantedByRoleBindingInOtherNamespace: false,
  requestSpansNamespaces: false,
  ...overrides,
});

// The tenant cluster plus an auditors group that may view everything.
const policy: RbacPolicy = withClusterRoleBinding(
  tenantPolicy,
  clusterRoleBinding('auditors', 'view', [groupSubject('auditors')]),
);
const authorizer = compileAuthorizer(policy);
const auditor = authenticatedUser('dave', ['auditors']);

const decide = (user: User, attrs: AuthorizationAttributes, machine = authorizationMachine) =>
  decideAuthorization(authorizationFacts(authorizer, user, attrs), machine);

interface TransitionInfo {
  from: string;
  guard?: string;
  target: string;
  requirements: string[];
}

const transitionsOf = (): TransitionInfo[] =>
  Object.values(authorizationMachine.root.states).flatMap((node) =>
    [...[...node.transitions.values()].flat(), ...(node.always ?? [])].map((t) => ({
      from: node.key,
      guard: typeof t.guard === 'string' ? t.guard : undefined,
      target: t.target?.[0]?.key ?? '',
      requirements: (t.meta as { requirements?: string[] } | undefined)?.requirements ?? [],
    })),
  );

describe('authorization machine shape', () => {
  it('every transition names its requirements and every guard is a named rule', () => {
    const transitions = transitionsOf();
    expect(transitions.length).toBeGreaterThan(0);
    for (const t of transitions) expect(t.requirements.length).toBeGreaterThan(0);
    expect(new Set(transitions.flatMap((t) => (t.guard ? [t.guard] : [])))).toEqual(
      new Set(['callerIsSystemMaster', 'grantedClusterWide', 'grantedByRoleBindingInRequestNamespace']),
    );
  });

  it('stops in allowed or denied, steps purely from idle', () => {
    const [initial] = initialTransition(authorizationMachine);
    expect(initial.value).toBe('idle');
    const [allowed] = transition(authorizationMachine, initial, {
      type: 'AUTHORIZE',
      facts: facts({ grantedByClusterRoleBinding: true }),
    });
    expect(allowed.value).toBe('allowed');
    expect(allowed.status).toBe('done');
    const [denied] = transition(authorizationMachine, initial, { type: 'AUTHORIZE', facts: facts() });
    expect(denied.value).toBe('denied');
    expect(denied.status).toBe('done');
  });
});

describe('guards', () => {
  it('RB-4 grantedByRoleBindingInRequestNamespace allows', () => {
    expect(decideAuthorization(facts({ grantedByRoleBindingInRequestNamespace: true }))).toEqual({
      allowed: true,
      grantedBy: 'roleBindingInRequestNamespace',
    });
  });

  it('RB-4 a RoleBinding of another namespace alone is refused', () => {
    expect(decideAuthorization(facts({ grantedByRoleBindingInOtherNamespace: true }))).toEqual({
      allowed: false,
    });
  });

  it('RB-6 callerIsSystemMaster allows before any binding is consulted', () => {
    expect(decideAuthorization(facts({ callerIsSystemMaster: true }))).toEqual({
      allowed: true,
      grantedBy: 'systemMasters',
    });
  });

  it('RB-4 grantedClusterWide wins over a RoleBinding', () => {
    expect(
      decideAuthorization(
        facts({ grantedByClusterRoleBinding: true, grantedByRoleBindingInRequestNamespace: true }),
      ).grantedBy,
    ).toBe('clusterRoleBinding');
  });

  it('RB-4 memoized decisions are the same object for the same fact pattern', () => {
    const first = decideAuthorization(facts({ grantedByClusterRoleBinding: true }));
    expect(decideAuthorization(facts({ grantedByClusterRoleBinding: true }))).toBe(first);
  });
});

/** One scenario per requirement the machine claims; the test below checks none is left out. */
const scenarios: Record<string, () => void> = {
  'RB-1': () => {
    expect(decide(alice, { verb: 'create', resource: 'namespaces' })).toEqual({
      allowed: true,
      grantedBy: 'clusterRoleBinding',
    });
    expect(decide(alice, { verb: 'delete', resource: 'namespaces', name: 'team-c' }).allowed).toBe(false);
  },
  'RB-2': () => {
    expect(decide(alice, { verb: 'create', resource: 'pods', namespace: 'team-a' })).toEqual({
      allowed: true,
      grantedBy: 'roleBindingInRequestNamespace',
    });
  },
  'RB-3': () => {
    expect(decide(initializerSa, { verb: 'initialize', resource: 'namespaces', name: 'team-c' })).toEqual({
      allowed: true,
      grantedBy: 'clusterRoleBinding',
    });
    expect(decide(alice, { verb: 'initialize', resource: 'namespaces', name: 'team-a' }).allowed).toBe(false);
  },
  'RB-4': () => {
    const attrs = { verb: 'create', resource: 'pods', namespace: 'team-b' };
    expect(authorizationFacts(authorizer, alice, attrs)).toEqual(
      facts({ grantedByRoleBindingInOtherNamespace: true }),
    );
    expect(decide(alice, attrs).allowed).toBe(false);
  },
  'RB-5': () => {
    for (const verb of ['get', 'list', 'create', 'delete'])
      expect(decide(alice, { verb, resource: 'secrets', namespace: 'team-b' }).allowed).toBe(false);
  },
  'RB-6': () => {
    expect(decide(alice, { verb: 'list', resource: 'pods' }).allowed).toBe(false);
    expect(decide(auditor, { verb: 'list', resource: 'pods' })).toEqual({
      allowed: true,
      grantedBy: 'clusterRoleBinding',
    });
    expect(decide(root, { verb: 'watch', resource: 'secrets' })).toEqual({
      allowed: true,
      grantedBy: 'systemMasters',
    });
  },
  'NS-7': () => {
    expect(decide(auditor, { verb: 'watch', resource: 'configmaps' }).allowed).toBe(true);
    expect(decide(auditor, { verb: 'list', resource: 'configmaps', namespace: 'team-b' }).allowed).toBe(true);
    expect(decide(alice, { verb: 'watch', resource: 'configmaps' }).allowed).toBe(false);
  },
};

describe('each requirement the machine claims', () => {
  it('has a scenario for every claimed requirement ID', () => {
    const claimed = new Set(transitionsOf().flatMap((t) => t.requirements));
    expect(new Set(Object.keys(scenarios))).toEqual(claimed);
  });

  it.each(Object.keys(scenarios))('%s', (id) => {
    scenarios[id]();
  });
});

describe('facts from the RBAC policy', () => {
  const users = [
    alice,
    auditor,
    root,
    initializerSa,
    authenticatedUser('bob', ['teams@corp.com']),
    authenticatedUser('eve'),
  ];
  const attrsArb: fc.Arbitrary<AuthorizationAttributes> = fc.record(
    {
      verb: fc.constantFrom('get', 'list', 'watch', 'create', 'delete', 'initialize'),
      resource: fc.constantFrom('namespaces', 'pods', 'secrets', 'rolebindings'),
      namespace: fc.constantFrom(undefined, 'team-a', 'team-b', 'team-c'),
      name: fc.constantFrom(undefined, 'team-a', 'team-b'),
    },
    { requiredKeys: ['verb', 'resource'] },
  );

  test.prop([fc.constantFrom(...users), attrsArb])(
    'RB-4 the machine decides exactly as the RBAC authorizer',
    (user, attrs) => {
      expect(decide(user, attrs).allowed).toBe(authorizer(user, attrs).allowed);
    },
  );

  it('RB-5 the seeded fault that honours foreign RoleBindings lets one tenant into another', () => {
    const attrs = { verb: 'create', resource: 'pods', namespace: 'team-b' };
    expect(decide(alice, attrs).allowed).toBe(false);
    expect(decide(alice, attrs, authorizationMachineHonouringForeignRoleBindings)).toEqual({
      allowed: true,
      grantedBy: 'roleBindingInRequestNamespace',
    });
  });

  it('NS-7, RB-6 the seeded fault that lets a RoleBinding open a cross-namespace list, and only that', () => {
    const across = { verb: 'list', resource: 'pods' };
    expect(authorizationFacts(authorizer, alice, across)).toEqual(
      facts({ grantedByRoleBindingInOtherNamespace: true, requestSpansNamespaces: true }),
    );
    expect(decide(alice, across).allowed).toBe(false);
    expect(decide(alice, across, authorizationMachineOpeningListsByRoleBindings).allowed).toBe(true);
    const inTeamB = { verb: 'list', resource: 'pods', namespace: 'team-b' };
    expect(decide(alice, inTeamB, authorizationMachineOpeningListsByRoleBindings).allowed).toBe(false);
  });
});
