import type { SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import type { Property } from '../../properties/types.ts';
import { type CheckResult, coverageOf, type PropertyResult, type Trace, violatedResult } from '../check.ts';
import type { StateSymmetry } from '../symmetry.ts';
import type { Found } from './protocol.ts';
import { type ParallelOptions, type ParallelRun, withParallelSearch } from './search.ts';

export interface ParallelCheckOptions extends ParallelOptions {
  stopOnFirst?: boolean;
  stopWhenAllViolated?: boolean;
  onViolation?: (v: { propertyId: string; message: string; depth: number; states: number }) => void;
}

/** Compares two paths of successor positions: shorter first, then position by position. */
const comparePaths = (a: readonly number[], b: readonly number[]) => {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
};

/**
 * `check` over worker threads (`verify --workers N`): every safety property judged on every state and
 * step by the thread that owns or takes it; witnesses and coverage summed over threads. A violation's
 * trace is the least path (by successor positions) among that property's violations in the first level
 * it breaks, so it is a shortest one and the same for any run with the same number of workers; the main
 * thread rebuilds it by replaying those positions on its own model.
 */
export async function parallelCheck(
  model: SystemModel,
  properties: Property[],
  options: ParallelCheckOptions,
  symmetry?: StateSymmetry,
): Promise<CheckResult> {
  return withParallelSearch(
    options,
    {
      properties: properties.map((p) => p.id),
      ...(options.stopOnFirst ? { stopOnFirst: true } : {}),
      ...(options.stopWhenAllViolated ? { stopWhenAllViolated: true } : {}),
      onFirst: (found, depth, states) =>
        options.onViolation?.({ propertyId: found.propertyId, message: found.message, depth, states }),
    },
    async (run) => {
      const { witnesses, covered } = await run.judged();
      const results: PropertyResult[] = [];
      for (const property of properties) {
        const count = witnesses.get(property.id) ?? 0;
        const violation = run.violations.get(property.id);
        if (!violation) {
          results.push({ property, status: count > 0 ? 'holds' : 'vacuous', witnesses: count });
          continue;
        }
        const least = await leastViolation(run, violation.found);
        const trace = replay(model, least.path, least.found.edge, symmetry);
        results.push(violatedResult(model, property, count, least.found.message, trace, symmetry));
      }
      const { summary } = run;
      return {
        states: summary.states,
        transitions: summary.transitions,
        depth: summary.depth,
        durationMs: summary.durationMs,
        statesPerSecond: summary.statesPerSecond,
        complete: summary.complete,
        ...(summary.stopReason ? { stopReason: summary.stopReason } : {}),
        properties: results,
        coverage: coverageOf(model, covered),
        ...(symmetry ? { symmetry: { order: symmetry.order, represented: { ...run.represented } } } : {}),
      };
    },
  );
}

/** The violation whose path from an initial state, successor position by position, is least. */
async function leastViolation(
  run: ParallelRun,
  found: readonly Found[],
): Promise<{ found: Found; path: number[] }> {
  let best: { found: Found; path: number[] } | undefined;
  for (const f of found) {
    const path: number[] = f.edge === undefined ? [] : [f.edge];
    for (let text: string | null = f.text; text !== null; ) {
      const { parent, index } = await run.origin(text);
      path.unshift(index);
      text = parent;
    }
    if (best === undefined || comparePaths(path, best.path) < 0) best = { found: f, path };
  }
  if (best === undefined) throw new Error('parallel check: a violation without a state');
  return best;
}

/** The trace of a path of positions: the initial state, then the successor at each position (representatives in between). */
function replay(
  model: SystemModel,
  path: readonly number[],
  edge: number | undefined,
  symmetry?: StateSymmetry,
): Trace {
  const canonical = symmetry ? symmetry.canonical : (s: SystemState) => s;
  const initial = canonical(model.initialStates()[path[0]]);
  const steps: Trace['steps'] = [];
  let state = initial;
  const positions = path.slice(1);
  positions.forEach((position, k) => {
    const { event, after } = successorAt(model, state, position);
    // The violating step of a step property ends on the concrete successor, as on one thread.
    const last = edge !== undefined && k === positions.length - 1;
    const next = last ? after : canonical(after);
    steps.push({ event, state: next });
    state = next;
  });
  return { initial, steps };
}

function successorAt(
  model: SystemModel,
  s: SystemState,
  position: number,
): { event: SystemEvent; after: SystemState } {
  let k = 0;
  let found: { event: SystemEvent; after: SystemState } | undefined;
  model.successors(s, (event, after) => {
    if (k++ === position) found = { event, after };
  });
  if (!found) throw new Error(`parallel check: no successor at position ${position}`);
  return found;
}
