import { scopeByName } from '../checker/cli/scope-file.ts';
import { check } from '../checker/judging/check.ts';
import { counterexampleItf } from '../checker/scenario/counterexample-itf.ts';
import { safetyProperties } from '../properties/safety.ts';
import { scopeFor } from '../variants/variants.ts';
import { variantModel } from './variant-model.ts';

/**
 * The ITF counterexample of cluster-escalation-check-skipped on quick, whose last state stores a
 * ClusterRoleBinding (D-23), written as verify writes it: the scope as given, the fault's data applied again on replay.
 */
export function escalationCounterexampleItf(): string {
  const fault = 'cluster-escalation-check-skipped';
  const quick = scopeByName('quick');
  const faulty = variantModel(fault, scopeFor(fault, quick));
  const found = check(
    faulty,
    safetyProperties.filter((p) => p.id === 'no-escalation-through-bindings'),
    { stopOnFirst: true },
  ).properties[0];
  return counterexampleItf(faulty, found, fault, undefined, quick);
}
