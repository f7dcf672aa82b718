import { compiledFor } from '../model/compiled.ts';
import { exploreCompiled } from '../model/compiled-explore.ts';
import type { CheckedSystemModel } from '../model/system-model.ts';
import { promelaModel } from './promela.ts';
import { runSpin } from './spin.ts';
import { expectedMisses } from './swarm.ts';

/**
 * SPIN beside `verify` on one scope, in one process (`npm run bench -- --spin`): verify's compiled
 * search of a fresh model (cold: it fills its tables), the Promela export, and pan on that export with
 * full state storage, hash compaction (-DHC4), a bitstate filter (-DBITSTATE, 2^27 bits) and two cores
 * (-DNCORE=2). Every pan run is checked against verify's state count; a bitstate run may store fewer.
 */

export interface SpinBenchRow {
  scope: string;
  engine: string;
  states: number;
  transitions: number;
  seconds: number;
  /** NaN when the run was too fast for pan's clock. */
  statesPerSecond: number;
  /** Bytes per state of what holds the states (verify: its typed arrays; pan: "actual memory usage for states"). */
  bytesPerState: number;
  /** pan's total memory (hash table, stack and states), in MiB; verify's tables and arrays. */
  totalMiB: number;
  complete: boolean;
  note: string;
}

const mib = 1024 * 1024;

const memory = (output: string, label: RegExp): number => Number(label.exec(output)?.[1] ?? Number.NaN);

/** Runs every engine on the model; `fresh` builds a new model (verify's search must not find warm tables). */
export function spinBench(
  scope: string,
  fresh: () => CheckedSystemModel,
  onRow: (row: SpinBenchRow) => void,
): void {
  const model = fresh();
  let started = performance.now();
  const compiled = compiledFor(model);
  const result = exploreCompiled(compiled);
  const verifySeconds = (performance.now() - started) / 1000;
  const states = result.states;
  onRow({
    scope,
    engine: 'verify (compiled, cold)',
    states,
    transitions: result.transitions,
    seconds: verifySeconds,
    statesPerSecond: states / verifySeconds,
    bytesPerState: (result.structureBytes ?? 0) / states,
    totalMiB: ((result.structureBytes ?? 0) + compiled.tableBytes) / mib,
    complete: result.complete,
    note: `depth ${result.depth}; tables ${(compiled.tableBytes / mib).toFixed(1)} MiB`,
  });
  started = performance.now();
  const promela = promelaModel(fresh(), { variant: 'model' });
  const exportSeconds = (performance.now() - started) / 1000;
  const modes: { engine: string; defines: string[]; flags: string[] }[] = [
    { engine: 'pan, full states', defines: [], flags: [] },
    { engine: 'pan -DHC4', defines: ['HC4'], flags: [] },
    { engine: 'pan -DBITSTATE -w27', defines: ['BITSTATE'], flags: ['-w27'] },
    { engine: 'pan -DNCORE=2', defines: ['NCORE=2'], flags: [] },
  ];
  for (const mode of modes) {
    // -c0: the Promela judges the safety properties, and a violated one is an error that would end the search.
    const run = runSpin(promela.text, {
      maxDepth: states + 1,
      defines: mode.defines,
      panFlags: ['-c0', ...mode.flags],
    });
    const bitstate = mode.defines.includes('BITSTATE');
    const stored = memory(run.output, /([0-9.]+)\s+actual memory usage for states/) * mib;
    const total = memory(run.output, /([0-9.]+)\s+total actual memory usage/);
    const same = run.states === states && run.transitions - 1 === result.transitions;
    onRow({
      scope,
      engine: mode.engine,
      states: run.states,
      transitions: run.transitions - 1,
      seconds: run.seconds,
      // pan's clock has 10 ms steps: a faster run has no rate.
      statesPerSecond: run.seconds > 0 ? run.states / run.seconds : Number.NaN,
      bytesPerState: bitstate ? 2 ** 27 / 8 / run.states : stored / run.states,
      totalMiB: total,
      complete: run.complete && !bitstate,
      note: [
        same ? "verify's states and transitions" : `DIFFERS from verify (${states} states)`,
        bitstate ? `P(miss) ${(1 - Math.exp(-expectedMisses(run.states, 27))).toExponential(1)}` : '',
        `export ${exportSeconds.toFixed(1)} s (${(promela.text.length / 1024).toFixed(0)} KiB), gcc ${run.compileSeconds.toFixed(1)} s`,
      ]
        .filter((s) => s !== '')
        .join('; '),
    });
  }
}
