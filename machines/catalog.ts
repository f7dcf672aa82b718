import type { AnyStateMachine } from 'xstate';

/** One entry per actor machine: the diagram generator, docs and traceability read this list. */
export interface MachineEntry {
  /** File stem for generated/diagrams/<id>.mmd and .svg. */
  id: string;
  title: string;
  /** One or two sentences for reviewers: what the machine stands for and how to read it. */
  legend: string;
  machine: AnyStateMachine;
}

export const machineCatalog: MachineEntry[] = [];
