import type { SystemEvent, SystemModel, SystemState } from '../machines/system.ts';

/**
 * What must hold, as data: the checker, the random runs, the report and the docs all read this shape.
 * A predicate returns true when the property holds there, or a string saying what broke.
 */
export type Verdict = true | string;

interface PropertyBase {
  /** Stable kebab-case id, cited by reports and mutants. */
  id: string;
  /** One sentence, in words a reviewer checks against the documents. */
  statement: string;
  /** Requirement IDs from the catalog that this property checks. */
  requirements: string[];
}

/** Holds in every reachable state. */
export interface InvariantProperty extends PropertyBase {
  kind: 'invariant';
  predicate: (model: SystemModel, state: SystemState) => Verdict;
  /** The premise is reachable: a state where the property has something to check. */
  witness: Witness;
}

/** Holds on every step (before, event, after). */
export interface StepProperty extends PropertyBase {
  kind: 'step';
  predicate: (model: SystemModel, before: SystemState, event: SystemEvent, after: SystemState) => Verdict;
  witness: Witness;
}

/** A witness is judged on a state or on a step; a property whose witness never fires is vacuous. */
export type Witness =
  | { on: 'state'; description: string; test: (model: SystemModel, state: SystemState) => boolean }
  | {
      on: 'step';
      description: string;
      test: (model: SystemModel, before: SystemState, event: SystemEvent, after: SystemState) => boolean;
    };

export type Property = InvariantProperty | StepProperty;
