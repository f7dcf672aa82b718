import { initialTransition, transition } from 'xstate';
import {
  type AuthorizationDecision,
  type AuthorizationFacts,
  type AuthorizationMachine,
  authorizationMachine,
} from '../machines/authorization.ts';

/**
 * The authorization machine run on its facts alone, for its own tests: the system steps it through
 * MachineStepper (machines/request-authorization.ts), which records the transitions taken.
 */

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
