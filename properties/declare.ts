import type { InvariantProperty, StepProperty, Witness } from './types.ts';

/**
 * Declaring a property: its id and requirement IDs, then its words, predicate and witness. The kind
 * and the witness's shape follow from the builder, so a declaration states only what is its own.
 */

interface Body<P> {
  statement: string;
  predicate: P;
  witness: Witness;
}

export const invariant = (
  id: string,
  requirements: string[],
  { statement, predicate, witness }: Body<InvariantProperty['predicate']>,
): InvariantProperty => ({ id, statement, requirements, kind: 'invariant', predicate, witness });

export const stepProperty = (
  id: string,
  requirements: string[],
  { statement, predicate, witness }: Body<StepProperty['predicate']>,
): StepProperty => ({ id, statement, requirements, kind: 'step', predicate, witness });

type StateTest = Extract<Witness, { on: 'state' }>['test'];
type StepTest = Extract<Witness, { on: 'step' }>['test'];

/** A witness judged on each reachable state. */
export const onState = (description: string, test: StateTest): Witness => ({
  on: 'state',
  description,
  test,
});

/** A witness judged on each step. */
export const onStep = (description: string, test: StepTest): Witness => ({ on: 'step', description, test });
