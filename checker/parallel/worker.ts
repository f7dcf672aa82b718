import { parentPort, workerData } from 'node:worker_threads';
import { SystemModel, type SystemState } from '../../machines/system.ts';
import { machinesFor, scopeFor } from '../../machines/variants.ts';
import { StateSymmetry, symmetryOf } from '../symmetry.ts';
import { PortableStates } from './portable.ts';
import { type FromWorker, ownerOf, type ToWorker, type WorkerInput } from './protocol.ts';

/** One thread of the parallel search (protocol.ts): it owns the states whose text hashes to its index. */
const input = workerData as WorkerInput;
const variantScope = scopeFor(input.variant, input.scope);
const machines = machinesFor(input.variant, variantScope);
if (!machines) throw new Error(`no machines for variant ${input.variant}`);
const model = new SystemModel(variantScope, machines);
const symmetry = input.symmetry ? new StateSymmetry(model, symmetryOf(model.scope)) : undefined;
const canonical = symmetry ? symmetry.canonical : (s: SystemState) => s;
const portable = new PortableStates(model);
const visited = new Set<string>();
let next: SystemState[] = [];
// Texts by this thread's own key: a state met again is not encoded again.
const texts = new Map<string, string>();
const textOf = (s: SystemState): string => {
  const key = model.key(s);
  let text = texts.get(key);
  if (text === undefined) {
    text = portable.encode(s);
    texts.set(key, text);
  }
  return text;
};

/** Adds the states this thread owns that it has not seen; the new ones form the next level. */
function receive(texts: readonly string[]): void {
  for (const text of texts) {
    if (visited.has(text)) continue;
    visited.add(text);
    next.push(portable.decode(text));
  }
}

function expand(): FromWorker {
  const frontier = next;
  next = [];
  let transitions = 0;
  const outbound: string[][] = Array.from({ length: input.count }, () => []);
  for (const state of frontier)
    model.successors(state, (_event, after) => {
      transitions++;
      const stored = canonical(after);
      const text = textOf(stored);
      const owner = ownerOf(text, input.count);
      if (owner !== input.index) outbound[owner].push(text);
      else if (!visited.has(text)) {
        visited.add(text);
        next.push(stored);
      }
    });
  return { type: 'expanded', transitions, outbound };
}

parentPort?.on('message', (message: ToWorker) => {
  if (message.type === 'receive') {
    receive(message.texts);
    parentPort?.postMessage({ type: 'received', next: next.length } satisfies FromWorker);
  } else parentPort?.postMessage(expand());
});
