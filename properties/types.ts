import type { ActorKind, SystemEvent, SystemModel, SystemState } from '../machines/system.ts';

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

/**
 * Fairness a liveness property assumes, as data: TLA+'s `WF_vars(A)` (weak) or `SF_vars(A)` (strong),
 * where A is a class of steps picked by the event's `actorKind`, optionally its `actor` and its label.
 */
export interface Fairness {
  kind: 'weak' | 'strong';
  actorKind: ActorKind;
  /** Only this actor's steps; every actor of the kind when omitted. */
  actor?: string;
  /** One condition per namespace slot, over the steps that address it (`\A ns : WF(A(ns))`). */
  perNamespace?: boolean;
  /** Only requests of this verb on this target, matched on the request's data, never its label. */
  request?: { verb: string; target: 'namespace' | 'content' };
  /** Why the assumption is reasonable, in a reviewer's words. */
  why: string;
}

/**
 * Holds on every run allowed by its fairness: `p ~> q` (leads-to) or `[]<> q` (always eventually).
 * A run may stutter, so without fairness any state where `q` is pending is a counterexample.
 */
export interface LivenessProperty extends PropertyBase {
  kind: 'leads-to' | 'always-eventually';
  /** Judged once per namespace slot (`ns` is the slot), or once for the system (`ns` is -1). */
  perNamespace: boolean;
  /** The premise; omitted for `always-eventually`. */
  p?: (model: SystemModel, state: SystemState, ns: number) => boolean;
  q: (model: SystemModel, state: SystemState, ns: number) => boolean;
  /** P and Q in words, for the report. */
  premise: string;
  goal: string;
  fairness: Fairness[];
}
