import {
  type ReferenceEvent,
  referenceEvents,
  referenceNamespaceMachine,
} from '../../machines/reference/namespace-reference.ts';
import type { DenseModel, ExplorableModel } from '../engine/model.ts';
import { type MachineTable, tabulate } from './tabulate.ts';

/** One step of the product: which copy of the namespace took which of its events. */
export interface ReferenceStep {
  copy: number;
  eventIndex: number;
  event: ReferenceEvent;
}

/** A product state for the generic explorer: the local state index of every copy. */
export type ReferenceState = readonly number[];

export type ReferenceTable = MachineTable<ReferenceEvent, unknown>;

/** N interleaved reference namespaces, viewed both as a dense and as a string-keyed model. */
export interface ReferenceModel {
  copies: number;
  table: ReferenceTable;
  /** Local states of one copy (13). */
  radix: number;
  /** Distinct product states: radix^copies. */
  expectedStates: number;
  /** Codes are Σ local_i · radix^i. */
  dense: DenseModel;
  /** The same product with `readonly number[]` states and string keys. */
  explorable: ExplorableModel<ReferenceState, ReferenceStep>;
  encode(locals: ReferenceState): number;
  decode(code: number): number[];
  /** The product event behind a dense event id (copy-major: id = copy · eventCount + event). */
  step(eventId: number): ReferenceStep;
  /** A line for people: `ns2: REMOVE_FINALIZER kubernetes`. */
  describeStep(step: ReferenceStep): string;
}

let cachedTable: ReferenceTable | undefined;

/** The reference machine's table, computed once with XState's pure transition functions. */
export function referenceTable(): ReferenceTable {
  cachedTable ??= tabulate(referenceNamespaceMachine, referenceEvents) as ReferenceTable;
  return cachedTable;
}

export function referenceModel(copies: number): ReferenceModel {
  if (!Number.isInteger(copies) || copies < 1) throw new RangeError(`referenceModel: copies must be >= 1`);
  const table = referenceTable();
  const radix = table.states.length;
  const eventCount = table.eventCount;
  const size = radix ** copies;
  if (size > 2 ** 32) throw new RangeError(`referenceModel: ${copies} copies exceed 2^32 codes`);
  const powers = new Float64Array(copies);
  for (let copy = 0, power = 1; copy < copies; copy++, power *= radix) powers[copy] = power;

  // Per local state, its enabled events and the change of its digit: the inner loop reads only these.
  const edgeStart = new Int32Array(radix + 1);
  const edgeEvent: number[] = [];
  const edgeDelta: number[] = [];
  for (let local = 0; local < radix; local++) {
    edgeStart[local] = edgeEvent.length;
    for (let event = 0; event < eventCount; event++) {
      const target = table.next[local * eventCount + event];
      if (target < 0) continue;
      edgeEvent.push(event);
      edgeDelta.push(target - local);
    }
  }
  edgeStart[radix] = edgeEvent.length;
  const events = Int32Array.from(edgeEvent);
  const deltas = Int32Array.from(edgeDelta);

  const steps: ReferenceStep[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (let eventIndex = 0; eventIndex < eventCount; eventIndex++) {
      steps.push({ copy, eventIndex, event: table.events[eventIndex] });
    }
  }

  const dense: DenseModel = {
    size,
    initialStates: () => [(table.initial * (size - 1)) / (radix - 1)],
    successors(code, emit) {
      let rest = code;
      for (let copy = 0; copy < copies; copy++) {
        const local = rest % radix;
        rest = (rest - local) / radix;
        const power = powers[copy];
        const eventBase = copy * eventCount;
        for (let edge = edgeStart[local], end = edgeStart[local + 1]; edge < end; edge++) {
          emit(eventBase + events[edge], code + deltas[edge] * power);
        }
      }
    },
  };

  const explorable: ExplorableModel<ReferenceState, ReferenceStep> = {
    initialStates: () => [new Array<number>(copies).fill(table.initial)],
    successors(state, emit) {
      for (let copy = 0; copy < copies; copy++) {
        const local = state[copy];
        const eventBase = copy * eventCount;
        for (let edge = edgeStart[local], end = edgeStart[local + 1]; edge < end; edge++) {
          const next = state.slice();
          next[copy] = local + deltas[edge];
          emit(steps[eventBase + events[edge]], next);
        }
      }
    },
    key: (state) => state.join('.'),
  };

  const encode = (locals: ReferenceState): number => {
    let code = 0;
    for (let copy = 0; copy < copies; copy++) code += locals[copy] * powers[copy];
    return code;
  };
  const decode = (code: number): number[] => {
    const locals: number[] = [];
    let rest = code;
    for (let copy = 0; copy < copies; copy++) {
      const local = rest % radix;
      locals.push(local);
      rest = (rest - local) / radix;
    }
    return locals;
  };

  return {
    copies,
    table,
    radix,
    expectedStates: size,
    dense,
    explorable,
    encode,
    decode,
    step: (eventId) => steps[eventId],
    describeStep: ({ copy, event }) => `ns${copy}: ${event.type}${'name' in event ? ` ${event.name}` : ''}`,
  };
}
