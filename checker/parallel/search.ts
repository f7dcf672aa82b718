import { Worker } from 'node:worker_threads';
import type { Scope } from '../../machines/scope.ts';
import { PortableStates } from './portable.ts';
import {
  type Arrival,
  type Found,
  type FromWorker,
  ownerOf,
  type ToWorker,
  threadModel,
  type WorkerInput,
} from './protocol.ts';

/** What a parallel search found: the figures a one-thread search of the same scope also gives. */
export interface ParallelSummary {
  states: number;
  transitions: number;
  depth: number;
  complete: boolean;
  stopReason?: 'time' | 'first-violation' | 'stopped';
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

/** What the workers judge besides the search itself (checker/parallel/check.ts). */
export interface JudgeOptions {
  /** Safety property ids each worker judges. */
  properties: string[];
  /** End once the level of the first violation is done. */
  stopOnFirst?: boolean;
  /** End once every property is violated. */
  stopWhenAllViolated?: boolean;
  /** Called at once when a property first breaks. */
  onFirst?: (found: Found, depth: number, states: number) => void;
}

/** A finished search whose workers still answer: where a state came from, and what they judged. */
export interface ParallelRun {
  summary: ParallelSummary;
  /** Per property: the level of its first violation and every violation found in that level. */
  violations: Map<string, { depth: number; found: Found[] }>;
  /** States and transitions the orbits stand for (the counts themselves without symmetry). */
  represented: { states: number; transitions: number };
  origin(text: string): Promise<{ parent: string | null; index: number }>;
  judged(): Promise<{ witnesses: Map<string, number>; covered: Set<string> }>;
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

/** The search alone: states, transitions, depth. */
export function parallelExplore(options: ParallelOptions): Promise<ParallelSummary> {
  return withParallelSearch(options, { properties: [] }, async (run) => run.summary);
}

/**
 * Breadth-first search over worker threads, level by level: each thread expands the states it owns
 * (by hash of their text), sends every successor to its owner, and the owners keep the new ones. A
 * level ends when every thread has expanded and received, so depths are those of one thread and the
 * counts are the same. The time limit and the stop rules are looked at between levels; `use` runs
 * while the workers still answer, then they are stopped.
 */
export async function withParallelSearch<T>(
  options: ParallelOptions,
  judge: JudgeOptions,
  use: (run: ParallelRun) => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const deadline =
    options.maxSeconds === undefined ? Number.POSITIVE_INFINITY : started + options.maxSeconds * 1000;
  const { model, symmetry } = threadModel(options);
  const portable = new PortableStates(model);
  const count = options.workers;
  const workers = Array.from({ length: count }, (_, index) => {
    const workerData: WorkerInput = {
      scope: options.scope,
      variant: options.variant,
      index,
      count,
      symmetry: options.symmetry,
      properties: judge.properties,
    };
    return new Worker(bootstrap, { eval: true, workerData });
  });
  const violations = new Map<string, { depth: number; found: Found[] }>();
  const represented = { states: 0, transitions: 0 };
  let states = 0;
  /** Records a level's violations; true when the stop rules end the search after this level. */
  const judgeLevel = (found: readonly Found[], depth: number): boolean => {
    for (const f of found) {
      const known = violations.get(f.propertyId);
      if (known === undefined) {
        violations.set(f.propertyId, { depth, found: [f] });
        judge.onFirst?.(f, depth, states);
      } else if (known.depth === depth) known.found.push(f);
    }
    if (judge.stopOnFirst && violations.size > 0) return true;
    return judge.stopWhenAllViolated === true && violations.size === judge.properties.length;
  };
  try {
    const seeds: Arrival[][] = Array.from({ length: count }, () => []);
    model.initialStates().forEach((initial, index) => {
      const text = portable.encode(symmetry ? symmetry.canonical(initial) : initial);
      seeds[ownerOf(text, count)].push({ text, parent: null, index });
    });
    let level = await Promise.all(workers.map((w, i) => ask(w, { type: 'receive', arrivals: seeds[i] })));
    const received = (replies: FromWorker[]) => replies.flatMap((r) => (r.type === 'received' ? [r] : []));
    states = received(level).reduce((n, r) => n + r.next, 0);
    represented.states += received(level).reduce((n, r) => n + r.orbitStates, 0);
    let transitions = 0;
    let depth = 0;
    let stopReason: ParallelSummary['stopReason'];
    const more = () => received(level).some((r) => r.next > 0);
    // A rule that ends the search before the space is exhausted makes it partial, as on one thread.
    const stopAfter = (found: readonly Found[], at: number) => {
      if (judgeLevel(found, at) && more()) stopReason = judge.stopOnFirst ? 'first-violation' : 'stopped';
    };
    stopAfter(
      received(level).flatMap((r) => r.found),
      0,
    );
    // The frontier is the level at `frontier`; its steps and new states make the level below it.
    for (let frontier = 0; stopReason === undefined && more(); frontier++) {
      if (performance.now() > deadline) {
        stopReason = 'time';
        break;
      }
      const expanded = await Promise.all(workers.map((w) => ask(w, { type: 'expand' })));
      const inbound: Arrival[][] = Array.from({ length: count }, () => []);
      const found: Found[] = [];
      for (const reply of expanded) {
        if (reply.type !== 'expanded') throw new Error('parallel search: a worker answered out of turn');
        transitions += reply.transitions;
        represented.transitions += reply.orbitTransitions;
        found.push(...reply.found);
        reply.outbound.forEach((arrivals, owner) => {
          for (const arrival of arrivals) inbound[owner].push(arrival);
        });
      }
      level = await Promise.all(workers.map((w, i) => ask(w, { type: 'receive', arrivals: inbound[i] })));
      const discovered = received(level).reduce((n, r) => n + r.next, 0);
      represented.states += received(level).reduce((n, r) => n + r.orbitStates, 0);
      if (discovered > 0) depth = frontier + 1;
      states += discovered;
      found.push(...received(level).flatMap((r) => r.found));
      stopAfter(found, frontier + 1);
    }
    const durationMs = performance.now() - started;
    const summary: ParallelSummary = {
      states,
      transitions,
      depth,
      complete: stopReason === undefined,
      ...(stopReason ? { stopReason } : {}),
      durationMs,
      statesPerSecond: durationMs > 0 ? (states * 1000) / durationMs : 0,
      workers: count,
    };
    return await use({
      summary,
      violations,
      represented,
      async origin(text) {
        const reply = await ask(workers[ownerOf(text, count)], { type: 'origin', text });
        if (reply.type !== 'origin') throw new Error('parallel search: a worker answered out of turn');
        return { parent: reply.parent, index: reply.index };
      },
      async judged() {
        const witnesses = new Map<string, number>(judge.properties.map((id) => [id, 0]));
        const covered = new Set<string>();
        for (const reply of await Promise.all(workers.map((w) => ask(w, { type: 'finish' })))) {
          if (reply.type !== 'finished') throw new Error('parallel search: a worker answered out of turn');
          for (const [id, n] of Object.entries(reply.witnesses))
            witnesses.set(id, (witnesses.get(id) ?? 0) + n);
          for (const t of reply.covered) covered.add(t);
        }
        return { witnesses, covered };
      },
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
