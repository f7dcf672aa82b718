import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { exitCodes, helpText, isEntryPoint, runCommand, versionText } from '../checker/cli/cli.ts';
import { checkOutputFolder, checkOwnFolder, recordOutputs } from '../checker/cli/output-folder.ts';
import { terminalText } from '../checker/cli/text-safety.ts';
import { parseVerifyArgs, type VerifyArgs, verifySpec } from '../checker/cli/verify-args.ts';
import { defaultMemoryLimitBytes } from '../checker/engine/explore.ts';
import { createProgressReporter, type ProgressConsole, paint } from '../checker/engine/progress.ts';
import { type CheckResult, checkAsync, type FirstViolation } from '../checker/judging/check.ts';
import {
  estimateLine,
  estimateStates,
  leastKept,
  machineCapacity,
  moreMemoryHint,
  type StateEstimate,
  timesCapacity,
} from '../checker/judging/estimate.ts';
import { expectationsOf } from '../checker/judging/expectations.ts';
import { LivenessCollector } from '../checker/judging/liveness-fly.ts';
import { symmetricLivenessRefusal } from '../checker/judging/liveness-symmetric.ts';
import {
  goldenDifferences,
  goldenFileOf,
  goldenOfFile,
  type ManifestScope,
  manifestVerdicts,
} from '../checker/judging/manifest.ts';
import { outcomeLines, outcomeOf, type ScenarioSummary } from '../checker/judging/outcome.ts';
import { writeTraceability } from '../checker/judging/traceability.ts';
import { releaseCompiled } from '../checker/model/compiled.ts';
import { type LivenessRun, systemHorizonDeclared } from '../checker/model/liveness-system.ts';
import { fairnessWarnings, StateSymmetry, symmetryOf } from '../checker/model/symmetry.ts';
import { type CheckedSystemModel, systemModel } from '../checker/model/system-model.ts';
import {
  buildReport,
  committedFolder,
  committedScenarios,
  completion,
  expectationsVerdict,
  finalProgress,
  hasUndeclared,
  judgedReport,
  reportFile,
  reportFolder,
  reportStamp,
  summaryText,
  writeReport,
  writeReportStamp,
} from '../checker/report/report.ts';
import { buildSite } from '../checker/report/site/build.ts';
import { sourceRoot as stampRoot } from '../checker/report/stamp.ts';
import { stampSourcesAside } from '../checker/report/stamp-aside.ts';
import { livenessProperties } from '../properties/liveness.ts';
import { safetyProperties } from '../properties/safety.ts';
import type { Property } from '../properties/types.ts';
import { baseVariantName, machinesFor, scopeFor } from '../variants/variants.ts';
import { count } from './entry.ts';

/**
 * `npm run verify`: explores the system model exhaustively and judges every safety property, prints a
 * TLC-like summary and writes the report. Exit codes (`--help`): 0 every property holds over every
 * reachable state, 10 the search stopped early, 11 a deadlock, 12 a safety property is violated, 13 a
 * liveness property is violated, 18 a property never exercised or a transition never taken that the
 * scope does not declare, 2 bad arguments or input, 1 an internal error.
 */
const sourceRoot = fileURLToPath(new URL('..', import.meta.url));
/** verify's command line, as --help prints it (checker/cli/verify-args.ts reads it). */
export const spec = verifySpec;

/**
 * verify on a command line: the exit code. Reports go under `outputRoot`, the working folder when run as a
 * command, as every generator's do (npm runs scripts from the project root).
 */
export async function main(argv: readonly string[], outputRoot = process.cwd()): Promise<number> {
  const args = parseVerifyArgs(argv);
  if (args.help || args.version) {
    console.log(args.help ? helpText(verifySpec) : versionText());
    return exitCodes.ok;
  }
  const machines = machinesFor(args.variant, args.scope);
  if (!machines) throw new Error(`variant ${args.variant} has no machines`);
  let model: CheckedSystemModel;
  try {
    model = systemModel(scopeFor(args.variant, args.scope), machines);
  } catch (error) {
    if (args.scopeSource.kind !== 'file') throw error;
    console.error(
      `verify: --scope: ${args.scopeSource.path} is a valid scope file but the model cannot be built from it: ${(error as Error).message}`,
    );
    return exitCodes.usage;
  }
  const properties =
    args.properties.length > 0
      ? safetyProperties.filter((p) => args.properties.includes(p.id))
      : safetyProperties;
  if (args.random) return runRandom(model, properties, args.variant, args.random);
  return runExhaustive(model, properties, args, outputRoot);
}

/**
 * A full garbage collection, run between verify's phases (search, liveness, the committed scenarios'
 * replay, and the report built when that left garbage). Each
 * phase leaves tens of megabytes of garbage (decoded states, the judge's step memo, Tarjan's arrays, the
 * report's strings) that V8 would otherwise collect only once the next phase has grown the heap past it,
 * so the peak held both. What it frees goes back to the system only when glibc maps large blocks instead
 * of keeping them in its heap: `npm run verify` sets MALLOC_MMAP_THRESHOLD_ for that (package.json).
 * Node's documented way to reach `gc` without a command-line flag (docs/performance.md, *Where verify's
 * memory goes*); a few tens of milliseconds each.
 */
export function collectGarbage(): void {
  if (fullCollection === undefined) {
    setFlagsFromString('--expose-gc');
    fullCollection = runInNewContext('gc') as () => void;
  }
  fullCollection();
  buffersAfterCollection = process.memoryUsage().arrayBuffers;
  heapAfterCollection = getHeapStatistics().used_heap_size;
}

let fullCollection: (() => void) | undefined;
let heapAfterCollection = 0;

/**
 * Heap growth since the last full collection below which `collectGarbageIfGrown` leaves the garbage to V8:
 * a full collection costs 25 to 35 ms however little it frees, and a few megabytes after the search and
 * liveness are far below the peak the search already set.
 */
const heapGrowthBytes = 4 * 1024 * 1024;

/** A full collection, only when the heap grew by `heapGrowthBytes` since the last one. */
function collectGarbageIfGrown(): void {
  if (getHeapStatistics().used_heap_size - heapAfterCollection >= heapGrowthBytes) collectGarbage();
}

/**
 * Array-buffer bytes allowed to accrue during the search before a full collection. The search's tables
 * grow by copying (`grown`), and a copy's old buffer is freed only by a full collection, which V8 runs by
 * itself only once tens of megabytes of them have piled up: on the default scope the search's peak held
 * about 25 MiB of such garbage beside 30 MiB of live tables (docs/performance.md, *Where the peak is, once
 * freed memory goes back*).
 */
const bufferGrowthBytes = 8 * 1024 * 1024;
let buffersAfterCollection = 0;

/**
 * Called with the search's progress (every 200 ms): a full collection once the array buffers grew by
 * `bufferGrowthBytes`, or by a quarter of what the last collection left when that is more (a large scope's
 * collections then stay few beside its search).
 */
function collectOnGrowth(): void {
  const grownBy = process.memoryUsage().arrayBuffers - buffersAfterCollection;
  if (grownBy >= Math.max(bufferGrowthBytes, buffersAfterCollection / 4)) collectGarbage();
}

/**
 * SIGINT/SIGTERM abort what runs (the search, or the report's writing, which finishes) and say so in
 * `doing`; a second signal exits at once.
 */
function interruptOnSignals(doing: string): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(exitCodes.partial);
    console.error(`\nverify: ${name}: ${doing} (again to quit now)`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** States past which liveness's judgement is announced: it then takes a while, and cannot be stopped for a report. */
const announcedLiveness = 1_000_000;

async function runExhaustive(
  model: CheckedSystemModel,
  properties: Property[],
  args: VerifyArgs,
  outputRoot: string,
): Promise<number> {
  // Only the full default run of the machines as written is the committed report; anything else is a side run.
  const canonical =
    args.scopeSource.kind === 'named' &&
    args.scopeSource.name === 'default' &&
    args.variant === baseVariantName &&
    args.properties.length === 0 &&
    args.maxStates === undefined &&
    args.maxSeconds === undefined &&
    args.out === undefined;
  // Checked before the search: a folder that cannot take the report must not cost the run.
  const outDir = checkOutputFolder(
    args.out ?? reportFolder(canonical, args.variant, model.scope.name),
    outputRoot,
    { committedRun: canonical },
  );
  // A folder the user names holds only what runs of this tool wrote: never sources, /dev or a home folder.
  if (args.out !== undefined) checkOwnFolder(args.out, outputRoot);
  const expectedStates = args.variant === baseVariantName ? goldenStates(args) : undefined;
  const reporter = createProgressReporter({
    label: `verify ${args.variant}/${model.scope.name}`,
    mode: args.quiet ? 'silent' : 'auto',
    ...(expectedStates !== undefined ? { expectedStates } : {}),
  });
  // No collection here: the start leaves a few megabytes of garbage, which V8 or the search's first
  // collection (`collectOnGrowth`) takes early on; the array buffers are counted from this point.
  buffersAfterCollection = process.memoryUsage().arrayBuffers;
  const interrupt = interruptOnSignals('stopping the search and writing the partial report');
  // Hash compaction replays concrete states for its traces, as bitstate does: it searches without symmetry.
  const symmetry = args.hashCompact ? undefined : symmetryFor(model, args);
  if (!announceEstimate(model, args, symmetry?.order ?? 1)) {
    interrupt.dispose();
    return exitCodes.usage;
  }
  // Taken as the search starts, in a child process on the other core: an edit made meanwhile leaves the
  // committed report stale, never falsely fresh, and TypeScript's parse of every source is not held here.
  const stampAside = canonical ? stampSourcesAside(stampRoot, reportStamp) : undefined;
  // Under symmetry liveness is judged on orbits paired with the slot a property follows, unless a property cannot be.
  const refusal = symmetry
    ? symmetricLivenessRefusal(symmetry, livenessProperties, systemHorizonDeclared(model) !== undefined)
    : undefined;
  let recorder =
    args.properties.length === 0 && args.bitstate === undefined && !args.hashCompact && refusal === undefined
      ? new LivenessCollector(model, livenessProperties, symmetry)
      : undefined;
  if (refusal !== undefined)
    console.error(
      `verify: liveness is not judged under symmetry reduction: ${refusal}; add --symmetry off to judge it`,
    );
  else if (symmetry && recorder)
    console.error(
      `verify: liveness is judged under symmetry reduction (a group of ${symmetry.order}): on orbits paired with the namespace slot each property follows`,
    );
  const stopRules = {
    stopWhenAllViolated: true,
    stopOnFirst: args.stopOnFirst,
    onViolation: (v: FirstViolation) => reporter.note(violationLine(v, reporter)),
  };
  // --max-seconds bounds the search and liveness's judgement together: both stop at this time.
  const deadline =
    args.maxSeconds !== undefined ? performance.now() + args.maxSeconds * 1000 : Number.POSITIVE_INFINITY;
  const searching = checkAsync(model, properties, {
    ...(symmetry ? { symmetry } : {}),
    ...(recorder ? { recorder } : {}),
    ...(args.maxStates !== undefined ? { maxStates: args.maxStates } : {}),
    // The golden count sizes the visited set; a symmetric search stores fewer states than it counts.
    ...(expectedStates !== undefined && !symmetry ? { expectedStates } : {}),
    ...(args.maxSeconds !== undefined ? { maxSeconds: args.maxSeconds } : {}),
    ...(args.maxMemoryMb !== undefined ? { maxHeapBytes: args.maxMemoryMb * 1024 * 1024 } : {}),
    ...(args.bitstate !== undefined ? { bitstate: { log2Bits: args.bitstate } } : {}),
    ...(args.hashCompact ? { hashCompact: true } : {}),
    signal: interrupt.signal,
    progress: (p) => {
      reporter.update(p);
      collectOnGrowth();
    },
    ...stopRules,
  });
  // A search that throws leaves no report to stamp: its child process must not hold the exit back.
  searching.catch(() => stampAside?.cancel());
  const result: CheckResult = await searching;
  // Liveness, the replay and the report's building never yield, so no handler could run there: a signal
  // now ends the process as it ends any command, before a file is written.
  interrupt.dispose();
  reporter.finish(finalProgress(result));
  collectGarbage();
  if (result.bitstate) console.error(bitstateLine(result.bitstate));
  if (result.hashCompact) console.error(hashCompactLine(result.hashCompact));
  // A search cut short (memory guard, signal) is never the committed report: it goes to the side folder.
  const committed = canonical && result.complete;
  const folder = canonical && !committed ? reportFolder(false, args.variant, model.scope.name) : outDir;
  // Liveness is judged on the graph the safety search kept; a run restricted to chosen safety properties skips it.
  const announced = recorder !== undefined && !args.quiet && result.states >= announcedLiveness;
  if (announced)
    console.error(
      `verify: judging liveness on ${count(result.states)} states (a signal now ends the run without a report)`,
    );
  const liveness: LivenessRun | undefined = recorder?.judge(undefined, deadline);
  if (liveness?.stoppedAt)
    console.error(
      `verify: liveness: the time limit (--max-seconds ${args.maxSeconds}) passed while judging: ${liveness.stoppedAt.judged} of ${liveness.properties.length} properties judged, the others incomplete`,
    );
  else if (announced && liveness)
    console.error(
      `verify: liveness: ${liveness.properties.length} properties judged in ${(liveness.durationMs / 1000).toFixed(0)} s`,
    );
  // The search's visited set (which the collector keeps for liveness) and the model's compiled tables are
  // not read again: the report is built from the results, the scenarios replay models of their own.
  recorder = undefined;
  releaseCompiled(model);
  collectGarbage();
  // A built-in scope's declarations come from its file as the arguments read it, not from a second parse.
  const ownFile =
    args.scopeSource.kind === 'named' && model.scope.name === args.scopeSource.name
      ? args.scopeSource.file
      : undefined;
  const context = {
    model,
    variant: args.variant,
    outDir: folder,
    givenScope: args.scope,
    ...(ownFile ? { expectations: expectationsOf(ownFile.expectations) } : {}),
    ...(liveness ? { liveness } : {}),
  };
  // Scenarios replay the machines as written: a seeded-fault run, or one cut short, skips them.
  const scenarios =
    args.variant === baseVariantName && result.complete ? committedScenarios(properties) : undefined;
  // The replay's states and traces (about 25 MB of heap on the default scope) are garbage once judged.
  if (scenarios) collectGarbage();
  const moved = pinnedFigures(args, result, symmetry !== undefined);
  // Every cause is judged before the report is written, so the report holds the verdict the exit code gives.
  const report = judgedReport(buildReport(result, context), result, {
    ...(liveness ? { liveness } : {}),
    ...(scenarios ? { scenarios } : {}),
    moved,
  });
  // What building the report decoded (traces, lassos, tables) is garbage once the report holds its text;
  // on a run without counterexamples that is too little to collect.
  collectGarbageIfGrown();
  // The report's files are written together: a signal meanwhile lets them finish (a second quits at once).
  const writing = interruptOnSignals("the search is over: finishing the report's files first");
  const written = await writeReport(outputRoot, report, result, context);
  if (committed && stampAside) {
    await writeReportStamp(outputRoot, written, await stampAside.sources);
    await writeTraceability(outputRoot);
  } else stampAside?.cancel();
  written.push(...(await buildSite(outputRoot, folder)));
  // The committed folder is policed by check:generated; any other keeps a manifest of what it holds.
  if (folder !== committedFolder) await recordOutputs(outputRoot, folder, written);
  writing.dispose();
  if (args.json) console.log(JSON.stringify(reportFile(report), null, 2));
  else console.log(terminalText(summaryText(report, result, folder, true)));
  if (scenarios) printScenarios(scenarios, args.json);
  if (!result.complete)
    console.error(
      `verify: the search is ${completion(result)}. For a complete run: no --max-states/--max-seconds, a smaller scope, or more memory (NODE_OPTIONS=--max-old-space-size=MB)`,
    );
  if (hasUndeclared(report))
    console.error(`verify: vacuity and coverage ${expectationsVerdict(report, false)}`);
  if (moved.length > 0) {
    for (const line of moved) console.error(`verify: golden figures moved: ${line}`);
    console.error(
      `verify: ${goldenFileOf(model.scope.name)} pins scope ${model.scope.name} under golden:; update it in a commit that says why`,
    );
  }
  const outcome = report.outcome ?? outcomeOf([]);
  for (const line of outcomeLines(outcome)) console.error(terminalText(line));
  return outcome.exitCode;
}

/**
 * How a complete search of a pinned scope (the machines as written, every property, every state) differs
 * from the `golden:` figures of its scope file, as tlaplus/Examples checks its manifest in CI; empty for any other run.
 */
function pinnedFigures(args: VerifyArgs, result: CheckResult, reduced: boolean): string[] {
  if (args.scopeSource.kind !== 'named' || args.variant !== baseVariantName) return [];
  if (args.properties.length > 0 || result.bitstate || !result.complete) return [];
  const pinned = builtInGolden(args);
  if (!pinned) return [];
  const represented = reduced ? result.symmetry?.represented : undefined;
  return goldenDifferences(pinned, {
    states: result.states,
    transitions: result.transitions,
    depth: result.depth,
    properties: manifestVerdicts(result),
    ...(represented ? { represented } : {}),
  });
}

/**
 * The header before the search: the estimated state count and what this process holds. An unbounded
 * exact search estimated past that is refused unless --force: it would only end on the memory guard.
 */
function announceEstimate(model: CheckedSystemModel, args: VerifyArgs, symmetryOrder: number): boolean {
  const label = `nsmodel verify: scope ${model.scope.name}, variant ${args.variant}`;
  const capacity = machineCapacity(
    args.maxMemoryMb !== undefined ? args.maxMemoryMb * 1024 * 1024 : defaultMemoryLimitBytes(),
  );
  const pinned = pinnedStates(args, symmetryOrder > 1);
  let kept: number;
  let what: string;
  if (pinned !== undefined) {
    // A built-in scope's count is known: its golden figures (of the machines as written).
    const kind = pinned.orbits ? 'orbits' : 'states';
    console.error(
      `${label}: ${count(pinned.count)} ${kind} by its golden figures (${goldenFileOf(model.scope.name)}); this process holds about ${count(capacity)}`,
    );
    kept = pinned.count;
    what = `has ${count(kept)} ${kind} by its golden figures`;
  } else {
    let estimate: StateEstimate;
    try {
      estimate = estimateStates(model.scope, model.machines, { symmetryOrder });
    } catch (error) {
      // The estimate informs; a projection the model cannot build never stops the run it estimates.
      console.error(terminalText(`${label}: no state estimate (${(error as Error).message})`));
      return true;
    }
    console.error(terminalText(`${label}: ${estimateLine(estimate, capacity)}`));
    kept = leastKept(estimate);
    what = `is estimated at ${count(kept)} states${symmetryOrder > 1 ? ' after its symmetry reduction' : ''}`;
  }
  const bounded =
    args.maxStates !== undefined ||
    args.maxSeconds !== undefined ||
    args.bitstate !== undefined ||
    args.hashCompact === true;
  if (kept <= capacity || bounded || args.force) return true;
  console.error(
    terminalText(
      `verify: --scope: ${args.scopeSource.kind === 'file' ? args.scopeSource.path : model.scope.name}: scope ${model.scope.name} ${what}, ${timesCapacity(kept, capacity)}, so the search would end on the memory guard with nothing proved; fix: a smaller scope (fewer namespaces or initializers, a symmetry set), a partial run (--max-states, --max-seconds, --bitstate), more memory (${moreMemoryHint(kept, args.maxMemoryMb)}), or --force to search anyway`,
    ),
  );
  return false;
}

/**
 * A built-in scope's state count by its golden figures (explored, or measured for a slow scope). They
 * are the count of the machines as written: a seeded fault's model has its own, which is estimated.
 */
function pinnedStates(args: VerifyArgs, reduced: boolean): { count: number; orbits: boolean } | undefined {
  if (args.scopeSource.kind !== 'named' || args.variant !== baseVariantName) return undefined;
  const golden = builtInGolden(args);
  if (golden === undefined) return undefined;
  // An explored scope pins the full search's states, which a reduced search keeps no more of.
  if (golden.explored) return { count: golden.states, orbits: false };
  const figures = reduced ? golden.measured?.symmetry : golden.measured;
  // Under symmetry a scope whose figures pin no orbits is estimated instead.
  return figures === undefined ? undefined : { count: figures.states, orbits: reduced };
}

/** SPIN's bitstate summary: the filter, its fill, and the estimated chance that a state was missed. */
function bitstateLine(b: NonNullable<CheckResult['bitstate']>): string {
  const mib = b.bits / 8 / 1024 / 1024;
  return `verify: bitstate: ${mib} MiB filter (2^${Math.log2(b.bits)} bits, ${b.hashes} per state), ${((100 * b.bitsSet) / b.bits).toFixed(2)}% set, hash factor ${b.hashFactor.toFixed(1)}; expected states missed ${b.expectedMissed.toPrecision(3)}, probability of any miss ${b.missProbability.toPrecision(3)}`;
}

/** SPIN's hash-compaction summary: the fingerprints, their table, and the estimated chance that a state was missed. */
function hashCompactLine(h: NonNullable<CheckResult['hashCompact']>): string {
  const mib = (h.tableBytes / 1024 / 1024).toFixed(1);
  return `verify: hash compaction: ${new Intl.NumberFormat('en-US').format(h.stored)} states as ${h.fingerprintBits}-bit fingerprints in a ${mib} MiB table; expected states missed ${h.expectedMissed.toPrecision(3)}, probability of any miss ${h.missProbability.toPrecision(3)}`;
}

/** The scope's symmetry reduction unless `--symmetry off`; warns when a liveness property's fairness names a member. */
function symmetryFor(model: CheckedSystemModel, args: VerifyArgs): StateSymmetry | undefined {
  if (!args.symmetry || !model.scope.symmetry) return undefined;
  const symmetry = new StateSymmetry(model, symmetryOf(model.scope));
  if (symmetry.order === 1) return undefined;
  if (args.properties.length === 0)
    for (const line of fairnessWarnings(symmetry.symmetry, livenessProperties)) console.error(line);
  return symmetry;
}

/** The committed scenarios' verdict: one line when every invariant holds, else one line per violation. */
function printScenarios(s: ScenarioSummary, json: boolean): void {
  const judged = `${s.replayed} scenarios replayed (${s.skipped} of seeded faults or variants skipped), ${s.states} states judged`;
  if (s.violations.length === 0) {
    // With --json, stdout holds the report alone.
    (json ? console.error : console.log)(`Scenarios: ${judged}: every invariant holds along each.`);
    return;
  }
  console.error(`verify: scenarios: ${judged}: ${s.violations.length} invariant violations`);
  for (const v of s.violations)
    console.error(
      terminalText(
        `verify: scenario ${v.file}:${v.line}: "${v.step}" reaches a state where ${v.property} is violated: ${v.message}`,
      ),
    );
}

/** The line printed the moment a property first breaks, long before the search ends. */
function violationLine(v: FirstViolation, reporter: ProgressConsole): string {
  const states = new Intl.NumberFormat('en-US').format(v.states);
  return `verify: ${paint('violated', 'red', reporter.color)} ${v.propertyId} at depth ${v.depth} (${states} states so far): ${terminalText(v.message)}`;
}

/** The golden state count of a named scope (its file's `golden:`), for the progress bar's ETA. */
function goldenStates(args: VerifyArgs): number | undefined {
  if (args.scopeSource.kind !== 'named' || args.maxStates !== undefined) return undefined;
  const scope = builtInGolden(args);
  return scope?.explored ? scope.states : undefined;
}

/** A named scope's golden figures, from its file as the arguments read it (one parse for the whole run). */
function builtInGolden(args: VerifyArgs): ManifestScope | undefined {
  if (args.scopeSource.kind !== 'named') return undefined;
  return goldenOfFile(args.scopeSource.name, args.scopeSource.file);
}

/** Where random walks live: one path for the import and its messages, so they cannot drift apart. */
const randomModule = 'checker/judging/random.ts';

/** The part of `checker/judging/random.ts` verify uses; loaded at run time so the exhaustive search never depends on it. */
interface RandomModule {
  randomRun(
    model: CheckedSystemModel,
    properties: Property[],
    options: { runs: number; seed?: number; path?: string },
  ): { ok: boolean; runs: number; seed: number };
  randomFailureText(result: { ok: boolean; runs: number; seed: number }): string;
}

async function runRandom(
  model: CheckedSystemModel,
  properties: Property[],
  variantName: string,
  options: { runs: number; seed?: number; path?: string },
): Promise<number> {
  const modulePath = join(sourceRoot, randomModule);
  if (!existsSync(modulePath)) {
    console.error(
      `verify: --random needs ${randomModule}, which this tree does not have; run without --random`,
    );
    return exitCodes.usage;
  }
  const loaded: Partial<RandomModule> = await import(modulePath);
  if (typeof loaded.randomRun !== 'function' || typeof loaded.randomFailureText !== 'function') {
    throw new Error(`${randomModule} does not export randomRun and randomFailureText`);
  }
  console.log(
    `nsmodel verify --random: scope ${model.scope.name}, variant ${variantName}, ${options.runs} walks`,
  );
  const result = loaded.randomRun(model, properties, options);
  console.log(loaded.randomFailureText(result));
  return result.ok ? exitCodes.ok : exitCodes.violated;
}

if (isEntryPoint(import.meta.url)) await runCommand('verify', () => main(process.argv.slice(2)));
