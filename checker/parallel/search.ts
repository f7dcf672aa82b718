import { Worker } from 'node:worker_threads';
import type { Scope } from '../../machines/scope.ts';
import { SystemModel } from '../../machines/system.ts';
import { machinesFor, scopeFor } from '../../machines/variants.ts';
import { StateSymmetry, symmetryOf } from '../symmetry.ts';
import { PortableStates } from './portable.ts';
import { type FromWorker, ownerOf, type ToWorker, type WorkerInput } from './protocol.ts';

/** What a parallel search found: the figures a one-thread search of the same scope also gives. */
export interface ParallelSummary {
  states: number;
  transitions: number;
  depth: number;
  complete: boolean;
  stopReason?: 'time';
  durationMs: number;
  statesPerSecond: number;
  workers: number;
}

export interface ParallelOptions {
  scope: Scope;
  variant: string;
  workers: number;
  symmetry: boolean;
  maxSeconds?: number;
}

// Each thread loads the TypeScript sources itself: it registers tsx's loader, then imports the worker.
const tsxApi = import.meta.resolve('tsx/esm/api');
const workerUrl = new URL('./worker.ts', import.meta.url).href;
const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(workerUrl)}); });`;

/** One request to one worker, answered by its next message. */
function ask(worker: Worker, message: ToWorker): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    worker.once('error', onError);
    worker.once('message', (reply: FromWorker) => {
      worker.off('error', onError);
      resolve(reply);
    });
    worker.postMessage(message);
  });
}

/**
 * Breadth-first search over worker threads, level by level: each thread expands the states it owns
 * (by hash of their text), sends every successor to its owner, and the owners keep the new ones. A
 * level ends when every thread has expanded and received, so depths are those of one thread and the
 * counts are the same. The time limit is looked at between levels.
 */
export async function parallelExplore(options: ParallelOptions): Promise<ParallelSummary> {
  const started = performance.now();
  const deadline =
    options.maxSeconds === undefined ? Number.POSITIVE_INFINITY : started + options.maxSeconds * 1000;
  const variantScope = scopeFor(options.variant, options.scope);
  const machines = machinesFor(options.variant, variantScope);
  if (!machines) throw new Error(`no machines for variant ${options.variant}`);
  const model = new SystemModel(variantScope, machines);
  const symmetry = options.symmetry ? new StateSymmetry(model, symmetryOf(model.scope)) : undefined;
  const portable = new PortableStates(model);
  const count = options.workers;
  const workers = Array.from({ length: count }, (_, index) => {
    const workerData: WorkerInput = {
      scope: options.scope,
      variant: options.variant,
      index,
      count,
      symmetry: options.symmetry,
    };
    return new Worker(bootstrap, { eval: true, workerData });
  });
  try {
    const seeds: string[][] = Array.from({ length: count }, () => []);
    for (const initial of model.initialStates()) {
      const text = portable.encode(symmetry ? symmetry.canonical(initial) : initial);
      seeds[ownerOf(text, count)].push(text);
    }
    let level = await Promise.all(workers.map((w, i) => ask(w, { type: 'receive', texts: seeds[i] })));
    let states = level.reduce((n, r) => n + (r.type === 'received' ? r.next : 0), 0);
    let transitions = 0;
    let depth = 0;
    let stopReason: 'time' | undefined;
    while (level.some((r) => r.type === 'received' && r.next > 0)) {
      if (performance.now() > deadline) {
        stopReason = 'time';
        break;
      }
      const expanded = await Promise.all(workers.map((w) => ask(w, { type: 'expand' })));
      const inbound: string[][] = Array.from({ length: count }, () => []);
      for (const reply of expanded) {
        if (reply.type !== 'expanded') throw new Error('parallel search: a worker answered out of turn');
        transitions += reply.transitions;
        reply.outbound.forEach((texts, owner) => {
          for (const text of texts) inbound[owner].push(text);
        });
      }
      level = await Promise.all(workers.map((w, i) => ask(w, { type: 'receive', texts: inbound[i] })));
      const found = level.reduce((n, r) => n + (r.type === 'received' ? r.next : 0), 0);
      if (found > 0) depth++;
      states += found;
    }
    const durationMs = performance.now() - started;
    return {
      states,
      transitions,
      depth,
      complete: stopReason === undefined,
      ...(stopReason ? { stopReason } : {}),
      durationMs,
      statesPerSecond: durationMs > 0 ? (states * 1000) / durationMs : 0,
      workers: count,
    };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
