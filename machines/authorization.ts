import { assign, initialTransition, setup, transition } from 'xstate';
import type { AuthorizationAttributes, CompiledAuthorizer, User } from './rbac.ts';
import { when } from './transition.ts';

/**
 * The RBAC decision for one request, as a machine: the facts of the request (who the caller is and
 * which bindings grant it) go in with AUTHORIZE, an eventless chain applies the rules in the order
 * the API server does, and the machine stops in `allowed` or `denied`. The facts come from rbac.ts;
 * the machine is what the diagrams and the traceability table show.
 */

export interface AuthorizationFacts {
  /** The caller is in group system:masters, which may do anything. */
  callerIsSystemMaster: boolean;
  /** A ClusterRoleBinding naming the caller grants the request. */
  grantedByClusterRoleBinding: boolean;
  /** A RoleBinding in the request's own namespace names the caller and grants the request. */
  grantedByRoleBindingInRequestNamespace: boolean;
  /** A RoleBinding in some other namespace would grant it; RBAC ignores it, a faulty variant does not. */
  grantedByRoleBindingInOtherNamespace: boolean;
  /** The request names no namespace (a list across all namespaces, a cluster-scoped object): only cluster-wide grants count. */
  requestSpansNamespaces: boolean;
}

export type AuthorizationGrant = 'systemMasters' | 'clusterRoleBinding' | 'roleBindingInRequestNamespace';

export interface AuthorizationDecision {
  allowed: boolean;
  /** Which rule allowed it; absent when denied. */
  grantedBy?: AuthorizationGrant;
}

export type AuthorizationEvent = { type: 'AUTHORIZE'; facts: AuthorizationFacts };

interface AuthorizationContext {
  facts: AuthorizationFacts;
  grantedBy?: AuthorizationGrant;
}

const noFacts: AuthorizationFacts = {
  callerIsSystemMaster: false,
  grantedByClusterRoleBinding: false,
  grantedByRoleBindingInRequestNamespace: false,
  grantedByRoleBindingInOtherNamespace: false,
  requestSpansNamespaces: false,
};

export const authorizationMachine = setup({
  types: {
    context: {} as AuthorizationContext,
    events: {} as AuthorizationEvent,
  },
  guards: {
    callerIsSystemMaster: ({ context }) => context.facts.callerIsSystemMaster,
    grantedClusterWide: ({ context }) => context.facts.grantedByClusterRoleBinding,
    grantedByRoleBindingInRequestNamespace: ({ context }) =>
      context.facts.grantedByRoleBindingInRequestNamespace,
  },
  actions: {
    recordFacts: assign({ facts: ({ event }) => event.facts }),
    grantAsSystemMaster: assign({ grantedBy: 'systemMasters' as const }),
    grantByClusterRoleBinding: assign({ grantedBy: 'clusterRoleBinding' as const }),
    grantByRoleBindingInRequestNamespace: assign({ grantedBy: 'roleBindingInRequestNamespace' as const }),
    refuseForbidden: assign({ grantedBy: undefined }),
  },
}).createMachine({
  id: 'authorization',
  context: { facts: noFacts },
  initial: 'idle',
  states: {
    idle: {
      on: {
        AUTHORIZE: { target: 'systemMasters', actions: 'recordFacts', meta: { requirements: ['RB-4'] } },
      },
    },
    systemMasters: {
      description: 'Group system:masters is bound to cluster-admin cluster-wide: it may do anything.',
      always: [
        when('callerIsSystemMaster', 'allowed', 'grantAsSystemMaster', ['RB-4', 'RB-6']),
        { target: 'clusterRoleBindings', meta: { requirements: ['RB-4'] } },
      ],
    },
    clusterRoleBindings: {
      description: 'A ClusterRoleBinding grants in every namespace and at the cluster scope.',
      always: [
        when('grantedClusterWide', 'allowed', 'grantByClusterRoleBinding', [
          'RB-1',
          'RB-3',
          'RB-4',
          'RB-6',
          'NS-7',
        ]),
        { target: 'roleBindings', meta: { requirements: ['RB-4'] } },
      ],
    },
    roleBindings: {
      description:
        "A RoleBinding grants only inside its own namespace; other namespaces' bindings never count.",
      always: [
        when('grantedByRoleBindingInRequestNamespace', 'allowed', 'grantByRoleBindingInRequestNamespace', [
          'RB-2',
          'RB-4',
        ]),
        { target: 'denied', actions: 'refuseForbidden', meta: { requirements: ['RB-4', 'RB-5', 'RB-6'] } },
      ],
    },
    allowed: { type: 'final' },
    denied: { type: 'final' },
  },
});

export type AuthorizationMachine = typeof authorizationMachine;

/**
 * Seeded fault (RB-4, RB-5): RoleBindings grant whatever namespace they sit in, so a binding in
 * team-a opens team-b. Same machine, one guard swapped; the checker shows which properties break.
 */
export const authorizationMachineHonouringForeignRoleBindings: AuthorizationMachine =
  authorizationMachine.provide({
    guards: {
      grantedByRoleBindingInRequestNamespace: ({ context }) =>
        context.facts.grantedByRoleBindingInRequestNamespace ||
        context.facts.grantedByRoleBindingInOtherNamespace,
    },
  });

/**
 * Seeded fault (NS-7, RB-6): a RoleBinding anywhere authorizes a list across all namespaces, as if RBAC
 * filtered a list by namespace afterwards; it never does, so every namespace's items come back.
 */
export const authorizationMachineOpeningListsByRoleBindings: AuthorizationMachine =
  authorizationMachine.provide({
    guards: {
      grantedByRoleBindingInRequestNamespace: ({ context }) =>
        context.facts.grantedByRoleBindingInRequestNamespace ||
        (context.facts.requestSpansNamespaces && context.facts.grantedByRoleBindingInOtherNamespace),
    },
  });

const factBits = (facts: AuthorizationFacts): number =>
  (+facts.requestSpansNamespaces << 4) |
  (+facts.callerIsSystemMaster << 3) |
  (+facts.grantedByClusterRoleBinding << 2) |
  (+facts.grantedByRoleBindingInRequestNamespace << 1) |
  +facts.grantedByRoleBindingInOtherNamespace;

const decisionsByMachine = new WeakMap<AuthorizationMachine, (AuthorizationDecision | undefined)[]>();

/**
 * RB-4, RB-5, RB-6: runs the machine on the facts with XState's pure transition functions; the
 * thirty-two possible fact patterns are memoized per machine.
 */
export function decideAuthorization(
  facts: AuthorizationFacts,
  machine: AuthorizationMachine = authorizationMachine,
): AuthorizationDecision {
  let decisions = decisionsByMachine.get(machine);
  if (!decisions) {
    decisions = new Array(32);
    decisionsByMachine.set(machine, decisions);
  }
  const bits = factBits(facts);
  const known = decisions[bits];
  if (known) return known;
  const [initial] = initialTransition(machine);
  const [final] = transition(machine, initial, { type: 'AUTHORIZE', facts });
  const decision: AuthorizationDecision = final.matches('allowed')
    ? { allowed: true, grantedBy: final.context.grantedBy }
    : { allowed: false };
  decisions[bits] = decision;
  return decision;
}

/** RB-4: the facts of one request under a compiled RBAC policy (rbac.ts decides which bindings apply). */
export function authorizationFacts(
  authorizer: CompiledAuthorizer,
  user: User,
  attrs: AuthorizationAttributes,
): AuthorizationFacts {
  const sources = authorizer.grantSources(user, attrs);
  return {
    callerIsSystemMaster: sources.systemMaster,
    grantedByClusterRoleBinding: sources.clusterRoleBinding !== undefined,
    grantedByRoleBindingInRequestNamespace: sources.roleBindingInRequestNamespace !== undefined,
    grantedByRoleBindingInOtherNamespace: sources.roleBindingInOtherNamespace !== undefined,
    requestSpansNamespaces: sources.requestNamespace === undefined,
  };
}
