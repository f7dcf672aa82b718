/**
 * Benchmarks the explorers (`npm run bench`). Every measurement runs in its own Node process
 * (with --expose-gc), so peak RSS and retained memory belong to that one search alone.
 *
 *   npm run bench                      all cases, best of 3 runs for the reference searches
 *   npm run bench -- --repeat 5        more runs per case
 *   npm run bench -- --quick           N = 4, 5 only, one run each (a smoke test)
 *   npm run bench -- --json            one JSON object per case instead of the table
 *   npm run bench -- --scope-seconds 60 --scope-max-states 5000000   bounds for the system scopes
 *   npm run bench -- --spin quick,default   SPIN beside verify on these scopes
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAdjacencyMap } from 'xstate/graph';
import { freshBundle, verifyBundleRequest } from '../checker/cli/bundled.mjs';
import { exitCodes, integerOption, isEntryPoint, UsageError } from '../checker/cli/cli.ts';
import { explore, searchMemoryBytes } from '../checker/engine/explore.ts';
import { exploreBitstate } from '../checker/engine/explore-bitstate.ts';
import { exploreDense } from '../checker/engine/explore-dense.ts';
import type { ExplorableModel } from '../checker/engine/model.ts';
import {
  type BenchEngine,
  benchCaseLine,
  benchSpinLine,
  type CaseResult,
} from '../checker/judging/bench-format.ts';
import { referenceModel, referenceTable } from '../checker/judging/reference-model.ts';
import { systemCodec } from '../checker/model/encoding.ts';
import {
  referenceProductEvents,
  referenceProductLogic,
  serializeReferenceProduct,
} from '../machines/reference/namespace-reference-product.ts';
import type { SystemModel } from '../machines/system.ts';
import { type CommandLine, defineCommand } from './entry.ts';

type Engine = BenchEngine;

interface BenchCase {
  engine: Engine;
  /** Copies of the reference namespace, or the scope's name for the system model. */
  subject: number | string;
  /** Wall-clock budget for searches that cannot finish in reasonable time (adjacency map, scopes). */
  budgetSeconds?: number;
  maxStates?: number;
  /** `verify` cases: the reductions asked for, as `verify` options (`--hash-compact`, `--symmetry off`). */
  verifyOptions?: string[];
}

const resultMarker = 'BENCH_RESULT ';
const selfPath = fileURLToPath(import.meta.url);

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

/** The figures every explorer reports, read the same way for each engine; `stopReason` as the table shows it. */
function searchFigures(
  result: {
    states: number;
    transitions: number;
    depth: number;
    complete: boolean;
    durationMs: number;
    statesPerSecond: number;
  },
  stopReason: string | undefined,
) {
  return {
    states: result.states,
    transitions: result.transitions,
    depth: result.depth,
    complete: result.complete,
    ...(stopReason ? { stopReason } : {}),
    seconds: result.durationMs / 1000,
    statesPerSecond: result.statesPerSecond,
    keepAlive: result,
  };
}

function measureAround(
  engine: Engine,
  subject: number | string,
  search: () => Omit<
    CaseResult,
    'engine' | 'subject' | 'peakRssBytes' | 'baselineRssBytes' | 'retainedBytes'
  > & {
    keepAlive: unknown;
  },
): CaseResult {
  collectGarbage();
  const baselineRssBytes = process.memoryUsage.rss();
  const before = searchMemoryBytes();
  const { keepAlive, ...figures } = search();
  collectGarbage();
  const retainedBytes = searchMemoryBytes() - before;
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;
  // Touch the result after measuring so the collector cannot drop it before the measurement.
  if (keepAlive === Symbol.for('never')) console.log(keepAlive);
  return { engine, subject, ...figures, peakRssBytes, baselineRssBytes, retainedBytes };
}

function runReferenceDense(copies: number): CaseResult {
  referenceTable();
  const model = referenceModel(copies);
  return measureAround('dense', copies, () => {
    const result = exploreDense(model.dense);
    return { ...searchFigures(result, result.stopReason), structureBytes: result.structureBytes };
  });
}

function runReferenceGeneric(copies: number): CaseResult {
  referenceTable();
  const model = referenceModel(copies);
  return measureAround('generic', copies, () => {
    const result = explore(model.explorable);
    return searchFigures(result, result.stopReason);
  });
}

class BudgetSpent extends Error {}

/** `getAdjacencyMap` on the product logic; past the budget it is interrupted and its progress so far reported. */
function runAdjacencyMap(copies: number, budgetSeconds: number): CaseResult {
  const logic = referenceProductLogic(copies);
  const events = referenceProductEvents(copies);
  return measureAround('adjacency-map', copies, () => {
    const seen = new Set<string>();
    const started = performance.now();
    const deadline = started + budgetSeconds * 1000;
    let adjacency: ReturnType<typeof getAdjacencyMap> | undefined;
    let complete = true;
    try {
      adjacency = getAdjacencyMap(logic, {
        events,
        // It calls serializeState once per dequeued entry: the one place to count states and watch the clock.
        serializeState: (snapshot) => {
          if (performance.now() > deadline) throw new BudgetSpent();
          const key = serializeReferenceProduct(snapshot);
          seen.add(key);
          return key;
        },
      });
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error;
      complete = false;
    }
    const seconds = (performance.now() - started) / 1000;
    const states = adjacency ? Object.keys(adjacency).length : seen.size;
    return {
      states,
      transitions: adjacency
        ? Object.values(adjacency).reduce((sum, { transitions }) => sum + Object.keys(transitions).length, 0)
        : null,
      depth: null,
      complete,
      ...(complete ? {} : { stopReason: `time budget ${budgetSeconds} s` }),
      seconds,
      statesPerSecond: states / seconds,
      keepAlive: adjacency,
    };
  });
}

// ─── Hook: the system model's named scopes ────────────────────────────────────────────────────
// `scopes/*.yaml` hold the named scopes (read by checker/cli/scope-file.ts) and `checker/model/system-model.ts`
// exports `systemModel` (the composed system fitted to the engine, built from one scope). When both exist, each
// named scope is benchmarked with the generic engine, bounded by --scope-seconds and --scope-max-states.
// They are imported dynamically so this script runs (and benches the reference model) without them.
const scopesFolder = new URL('../scopes/', import.meta.url);
const systemModule = new URL('../checker/model/system-model.ts', import.meta.url);

interface SystemModules {
  scopes: Record<string, unknown>;
  systemModel: (scope: unknown) => ExplorableModel<unknown, unknown>;
}

async function loadSystemModules(): Promise<SystemModules | string> {
  if (!existsSync(scopesFolder) || !existsSync(systemModule))
    return 'scopes/ or checker/model/system-model.ts absent';
  let scopes: unknown;
  let systemModel: unknown;
  try {
    // The scope files every command reads (scopes/*.yaml), through the one loader.
    const loader = await import('../checker/cli/scope-file.ts');
    scopes = Object.fromEntries(loader.scopeNames().map((name) => [name, loader.scopeByName(name)]));
    systemModel = (await import(systemModule.href)).systemModel;
  } catch (error) {
    return `the system model does not load (${error instanceof Error ? error.message : String(error)})`;
  }
  if (typeof scopes !== 'object' || scopes === null) return 'scopes/ holds no scope files';
  if (typeof systemModel !== 'function')
    return 'checker/model/system-model.ts exports no `systemModel` factory';
  return {
    scopes: scopes as SystemModules['scopes'],
    systemModel: systemModel as SystemModules['systemModel'],
  };
}

async function runSystemScope(
  engine: Extract<Engine, `system-${string}`>,
  name: string,
  budgetSeconds: number,
  maxStates: number,
): Promise<CaseResult> {
  const modules = await loadSystemModules();
  if (typeof modules === 'string') throw new Error(modules);
  const model = modules.systemModel(modules.scopes[name]);
  const codec = systemCodec(model as unknown as SystemModel);
  const limits = { maxStates, maxSeconds: budgetSeconds };
  return measureAround(engine, name, () => {
    const bitstate = engine === 'system-bitstate' ? exploreBitstate(model, { ...limits, codec }) : undefined;
    const result = bitstate ?? explore(model, engine === 'system-packed' ? { ...limits, codec } : limits);
    const reason = result.stopReason === 'time' ? `time budget ${budgetSeconds} s` : result.stopReason;
    return {
      ...searchFigures(result, reason),
      ...(bitstate ? { missProbability: bitstate.bitstate.missProbability } : {}),
      ...(result.structureBytes !== undefined ? { structureBytes: result.structureBytes } : {}),
    };
  });
}
// ─── end of hook ──────────────────────────────────────────────────────────────────────────────

// ─── symmetry reduction (checker/model/symmetry.ts) ─────────────────────────────────────────────────
/** Scopes that declare symmetry, searched with the reduction within a 120 s budget; the plain group above has them without. */
function symmetryGroup(modules: SystemModules): { title: string; cases: BenchCase[]; repeat: number } {
  const declared = Object.entries(modules.scopes)
    .filter(([, scope]) => (scope as { symmetry?: unknown }).symmetry !== undefined)
    .map(([name]) => name);
  return {
    title: 'System model scopes under their declared symmetry (one state per orbit), at most 120 s each',
    cases: declared.map((name) => ({ engine: 'system-symmetry', subject: name, budgetSeconds: 120 })),
    repeat: 1,
  };
}

async function runSymmetricScope(name: string, budgetSeconds: number): Promise<CaseResult> {
  const modules = await loadSystemModules();
  if (typeof modules === 'string') throw new Error(modules);
  const { systemModel } = await import('../checker/model/system-model.ts');
  const { StateSymmetry, symmetryOf } = await import('../checker/model/symmetry.ts');
  const scope = modules.scopes[name] as Parameters<typeof systemModel>[0];
  const model = systemModel(scope);
  const { CompiledSystem } = await import('../checker/model/compiled.ts');
  const { exploreCompiled } = await import('../checker/model/compiled-explore.ts');
  const symmetry = new StateSymmetry(model, symmetryOf(scope));
  const count = scope.namespaces.length;
  let representedStates = 0;
  // The compiled search with representatives chosen on the lanes, as `verify` searches under symmetry.
  const result = measureAround('system-symmetry', name, () => {
    const search = exploreCompiled(new CompiledSystem(model), {
      maxSeconds: budgetSeconds,
      lanesSymmetry: {
        canonical: (lanes, out) => symmetry.canonicalLanes(lanes, out, 3, count),
        orbitSize: (lanes) => symmetry.orbitSizeOfLanes(lanes, 3, count),
      },
    });
    representedStates = search.represented?.states ?? 0;
    return searchFigures(
      search,
      search.stopReason === 'time' ? `time budget ${budgetSeconds} s` : search.stopReason,
    );
  });
  return { ...result, representedStates };
}

// ─── end-to-end verify ─────────────────────────────────────────────────────────────────────────
/** `npm run verify` per scope, cold, end to end: the figure a spec author waits for. */
function verifyGroup(quick: boolean): { title: string; cases: BenchCase[]; repeat: number } {
  const cases: BenchCase[] = quick
    ? [{ engine: 'verify', subject: 'quick' }]
    : [
        { engine: 'verify', subject: 'quick' },
        { engine: 'verify', subject: 'default' },
        // The scope's symmetry (a group of 6, liveness judged on orbits) beside the full search it reduces.
        { engine: 'verify', subject: 'xl' },
        { engine: 'verify', subject: 'xl', verifyOptions: ['--symmetry', 'off'] },
        { engine: 'verify', subject: 'xl', verifyOptions: ['--symmetry', 'off', '--hash-compact'] },
      ];
  return {
    title:
      'End-to-end `npm run verify` (cold: search, every property, liveness and deadlock, reports, scenarios); peak RSS of the command, baseline that of a 1-state run',
    cases,
    repeat: 1,
  };
}

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * `npm run verify` as package.json spells it, without npm's own start: its environment (glibc's mmap
 * threshold, so what a phase frees goes back) and node's arguments (V8 flags and the launcher), so the bench
 * measures exactly what a user runs.
 */
export function npmVerifyCommand(): { env: Record<string, string>; nodeArgs: string[] } {
  const scripts = (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const words = scripts.verify.split(/\s+/);
  const nodeAt = words.indexOf('node');
  if (nodeAt < 0 || words.slice(0, nodeAt).some((word) => !/^[A-Z_]+=\S*$/.test(word)))
    throw new Error(`package.json's verify script is not "NAME=value ... node ARGS": ${scripts.verify}`);
  const env = Object.fromEntries(
    words.slice(0, nodeAt).map((word) => word.split('=', 2) as [string, string]),
  );
  return {
    env,
    nodeArgs: words.slice(nodeAt + 1).map((word) => (word.endsWith('.mjs') ? join(projectRoot, word) : word)),
  };
}

/** Peak RSS (bytes), wall seconds, exit code and stdout of one `verify` run, measured by GNU time. */
function timedVerify(args: string[]): {
  peakRssBytes: number;
  seconds: number;
  cpuSeconds: number;
  status: number;
  stdout: string;
  stderr: string;
} {
  const verify = npmVerifyCommand();
  const child = spawnSync(
    '/usr/bin/time',
    ['-f', 'BENCH_TIME %M %e %U %S', process.execPath, ...verify.nodeArgs, ...args],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ...verify.env } },
  );
  const timing = /BENCH_TIME (\d+) ([0-9.]+) ([0-9.]+) ([0-9.]+)/.exec(child.stderr ?? '');
  if (!timing)
    throw new Error(`verify ${args.join(' ')}: no timing (${(child.stderr ?? '').trim().slice(-200)})`);
  return {
    peakRssBytes: Number(timing[1]) * 1024,
    seconds: Number(timing[2]),
    cpuSeconds: Number(timing[3]) + Number(timing[4]),
    status: child.status ?? -1,
    stdout: child.stdout,
    stderr: child.stderr ?? '',
  };
}

async function runVerify(scope: string, options: string[]): Promise<CaseResult> {
  if (!existsSync('/usr/bin/time'))
    throw new Error('verify cases need GNU time (/usr/bin/time) for the peak RSS');
  // As the first `npm run verify` after an edit: the launcher's bundle built from the sources, timed apart.
  const building = performance.now();
  const bundle = await freshBundle(verifyBundleRequest(projectRoot));
  if (bundle === undefined) throw new Error("verify's bundle cannot be built (NSMODEL_DEBUG=1 says why)");
  const bundleBuildSeconds = bundle.built ? (performance.now() - building) / 1000 : 0;
  const out = join(tmpdir(), `nsmodel-bench-verify-${process.pid}`);
  const common = ['--scope', scope, '--quiet', '--json', '--out', out, ...options];
  const bare = timedVerify([...common, '--max-states', '1']);
  const run = timedVerify(common);
  rmSync(out, { recursive: true, force: true });
  const report = JSON.parse(run.stdout) as {
    states: number;
    transitions: number;
    depth: number;
    complete: boolean;
    stopReason?: string;
    liveness?: unknown;
    symmetry?: { represented: { states: number } };
  };
  // Under symmetry the rate is of the states the orbits stand for: the unreduced count, as without it.
  const represented = report.symmetry?.represented.states;
  // verify prints a hash-compacted search's chance of a miss on stderr.
  const miss = /probability of any miss ([0-9.e+-]+)/.exec(run.stderr);
  const reductions = [
    ...(options.includes('--hash-compact') ? ['hash-compact'] : []),
    ...(!options.includes('off') && ['large', 'xl'].includes(scope) ? ['symmetry'] : []),
  ];
  return {
    engine: 'verify',
    subject: `${scope}${options.length > 0 ? ` ${options.join(' ')}` : ''}`,
    states: report.states,
    transitions: report.transitions,
    depth: report.depth,
    complete: report.complete,
    ...(report.stopReason ? { stopReason: report.stopReason } : {}),
    ...(represented !== undefined ? { representedStates: represented } : {}),
    seconds: run.seconds,
    statesPerSecond: (represented ?? report.states) / Math.max(1e-9, run.seconds),
    cpuSeconds: run.cpuSeconds,
    statesPerCpuSecond: (represented ?? report.states) / Math.max(1e-9, run.cpuSeconds),
    ...(miss ? { missProbability: Number(miss[1]) } : {}),
    peakRssBytes: run.peakRssBytes,
    baselineRssBytes: bare.peakRssBytes,
    retainedBytes: 0,
    reductions,
    livenessJudged: report.liveness !== undefined,
    bundleBuildSeconds,
  };
}
// ─── end of end-to-end verify ──────────────────────────────────────────────────────────────────

// ─── the compiled system model (checker/model/compiled.ts) ─────────────────────────────────────────
/** Compiled quick and default scopes: cold (tables filled by the machines' own code), then warm. */
function compiledGroup(
  scopeSeconds: number,
  quick: boolean,
): { title: string; cases: BenchCase[]; repeat: number } {
  return {
    title: `System model compiled into outcome tables (checker/model/compiled.ts): the first search fills the tables (cold, at most ${scopeSeconds} s), every later search of the same model only looks them up (warm)`,
    cases: (quick ? ['quick'] : ['quick', 'default']).map((name) => ({
      engine: 'system-compiled',
      subject: name,
      budgetSeconds: name === 'quick' ? scopeSeconds : Math.min(30, scopeSeconds),
    })),
    repeat: 1,
  };
}

/** Warm searches after the cold one: the best of these is the warm figure (the first pays for the JIT). */
const warmRuns = 10;

async function runCompiledScope(name: string, budgetSeconds: number): Promise<CaseResult> {
  const modules = await loadSystemModules();
  if (typeof modules === 'string') throw new Error(modules);
  const { systemModel } = await import('../checker/model/system-model.ts');
  const { CompiledSystem } = await import('../checker/model/compiled.ts');
  const { exploreCompiled } = await import('../checker/model/compiled-explore.ts');
  const model = systemModel(modules.scopes[name] as Parameters<typeof systemModel>[0]);
  const compiled = new CompiledSystem(model);
  const cold = measureAround('system-compiled', name, () => {
    const result = exploreCompiled(compiled, { maxSeconds: budgetSeconds });
    const reason = result.stopReason === 'time' ? `time budget ${budgetSeconds} s` : result.stopReason;
    return { ...searchFigures(result, reason), structureBytes: result.structureBytes ?? 0 };
  });
  const fillSeconds = compiled.fillMs / 1000;
  const misses = compiled.misses;
  // A cold search cut short filled the tables for the states it reached: the warm ones look at as many.
  const limits = cold.complete ? {} : { maxStates: cold.states };
  // Speed from searches back to back; a collection forced before each (as measureAround does) slowed the next.
  const warm = Array.from({ length: warmRuns }, () => exploreCompiled(compiled, limits));
  const best = warm.reduce((a, b) => (b.statesPerSecond > a.statesPerSecond ? b : a));
  // Memory from one more warm search between two full collections.
  const memory = measureAround('system-compiled', name, () => {
    const result = exploreCompiled(compiled, limits);
    return { ...searchFigures(result, result.stopReason), structureBytes: result.structureBytes ?? 0 };
  });
  return {
    ...cold,
    compiled: {
      fillSeconds,
      tableBytes: compiled.tableBytes,
      misses,
      warm: {
        seconds: best.durationMs / 1000,
        statesPerSecond: best.statesPerSecond,
        firstStatesPerSecond: warm[0].statesPerSecond,
        retainedBytes: memory.retainedBytes,
        structureBytes: memory.structureBytes ?? 0,
        runs: warmRuns,
      },
    },
  };
}

function printCompiled(results: readonly CaseResult[]): void {
  const perState = (bytes: number, states: number) => (bytes / Math.max(1, states)).toFixed(1);
  printRows(
    [
      'scope',
      'distinct states',
      'transitions',
      'depth',
      'cold s',
      'cold states/s',
      'table fill s',
      'misses',
      'tables',
      'warm s',
      'warm states/s',
      'first warm states/s',
      'warm B/state retained',
      'B/state arrays',
      'complete',
    ],
    results.map((r) => {
      const c = r.compiled;
      if (r.error || !c) return [String(r.subject), `error: ${r.error ?? 'no compiled figures'}`];
      return [
        String(r.subject),
        integer.format(r.states),
        r.transitions === null ? '-' : integer.format(r.transitions),
        r.depth === null ? '-' : String(r.depth),
        r.seconds.toFixed(3),
        integer.format(r.statesPerSecond),
        c.fillSeconds.toFixed(3),
        integer.format(c.misses),
        mebibytes(c.tableBytes),
        c.warm.seconds.toFixed(3),
        integer.format(c.warm.statesPerSecond),
        integer.format(c.warm.firstStatesPerSecond),
        perState(c.warm.retainedBytes, r.states),
        perState(c.warm.structureBytes, r.states),
        r.complete ? 'yes' : `no (${r.stopReason ?? 'stopped'})`,
      ];
    }),
  );
  console.log(
    [
      "Cold: the first search of a (machines, scope) pair, end to end: it runs the machines' own step code once per",
      'distinct (action, what it reads) and records the outcome (table fill s is that part). Warm: a later search of',
      `the same compiled model (another property set, liveness, a repeat), best of ${warmRuns} (the first warm search`,
      'is shown too: it still pays for the JIT compiling the lookup loop); it only looks outcomes up. Warm B/state retained counts what that search alone keeps (lanes, visited slots, parents, event',
      'ids); the tables are a fixed cost of the compiled model, shown apart.',
    ].join('\n'),
  );
}
// ─── end of the compiled system model ──────────────────────────────────────────────────────────

// ─── end of symmetry reduction ───────────────────────────────────────────

async function runCase(benchCase: BenchCase): Promise<CaseResult> {
  const { engine, subject } = benchCase;
  switch (engine) {
    case 'dense':
      return runReferenceDense(Number(subject));
    case 'generic':
      return runReferenceGeneric(Number(subject));
    case 'adjacency-map':
      return runAdjacencyMap(Number(subject), benchCase.budgetSeconds ?? 30);
    case 'system-scope':
    case 'system-packed':
    case 'system-bitstate':
      return runSystemScope(
        engine,
        String(subject),
        benchCase.budgetSeconds ?? 60,
        benchCase.maxStates ?? 5_000_000,
      );
    case 'system-symmetry':
      return runSymmetricScope(String(subject), benchCase.budgetSeconds ?? 120);
    case 'system-compiled':
      return runCompiledScope(String(subject), benchCase.budgetSeconds ?? 60);
    case 'verify':
      return runVerify(String(subject), benchCase.verifyOptions ?? []);
  }
}

/** Runs one case in a fresh Node process with the same loader and an exposed collector. */
function runIsolated(benchCase: BenchCase): CaseResult {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, '--expose-gc', selfPath, '--case', JSON.stringify(benchCase)],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const line = child.stdout.split('\n').find((text) => text.startsWith(resultMarker));
  if (child.status === 0 && line) return JSON.parse(line.slice(resultMarker.length)) as CaseResult;
  const reason = (child.stderr || child.stdout || `exit ${child.status}`)
    .trim()
    .split('\n')
    .slice(-3)
    .join(' | ');
  return {
    engine: benchCase.engine,
    subject: benchCase.subject,
    states: 0,
    transitions: null,
    depth: null,
    complete: false,
    seconds: 0,
    statesPerSecond: 0,
    peakRssBytes: 0,
    baselineRssBytes: 0,
    retainedBytes: 0,
    error: reason,
  };
}

/** Best run by rate; the median rate is kept beside it to show the spread on a shared machine. */
function bestOf(
  benchCase: BenchCase,
  repeat: number,
): CaseResult & { medianStatesPerSecond: number; runs: number } {
  const runs = Array.from({ length: repeat }, () => runIsolated(benchCase));
  const rates = runs.map((run) => run.statesPerSecond).sort((a, b) => a - b);
  const best = runs.reduce((a, b) => (b.statesPerSecond > a.statesPerSecond ? b : a));
  return { ...best, medianStatesPerSecond: rates[Math.floor(rates.length / 2)], runs: repeat };
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const mebibytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function row(result: CaseResult & { medianStatesPerSecond?: number; runs?: number }): string[] {
  const label =
    result.engine === 'system-symmetry'
      ? `${result.subject} (symmetry, ${integer.format(result.representedStates ?? 0)} states)`
      : result.engine === 'verify'
        ? `verify ${result.subject}${result.reductions?.length ? ` (${result.reductions.join(', ')}${result.representedStates ? `, ${integer.format(result.representedStates)} states` : ''})` : ''}`
        : result.engine.startsWith('system-')
          ? `${result.subject} (${result.engine.slice('system-'.length).replace('scope', 'string keys')})`
          : `${result.engine} N=${result.subject}`;
  if (result.error) return [label, `error: ${result.error}`];
  const searchPeak = Math.max(0, result.peakRssBytes - result.baselineRssBytes);
  return [
    label,
    integer.format(result.states),
    result.transitions === null ? '-' : integer.format(result.transitions),
    result.depth === null ? '-' : String(result.depth),
    result.seconds.toFixed(3),
    integer.format(result.statesPerSecond),
    result.medianStatesPerSecond === undefined ? '-' : integer.format(result.medianStatesPerSecond),
    mebibytes(result.peakRssBytes),
    (result.retainedBytes / Math.max(1, result.states)).toFixed(1),
    (searchPeak / Math.max(1, result.states)).toFixed(1),
    result.structureBytes === undefined
      ? '-'
      : (result.structureBytes / Math.max(1, result.states)).toFixed(1),
    result.complete
      ? 'yes'
      : `no (${result.stopReason ?? 'stopped'}${result.missProbability === undefined ? '' : `, P(miss) ${result.missProbability.toPrecision(2)}`})`,
  ];
}

/** A verify case's CPU time and bytes per state above its 1-state run: the figures wall time on a shared machine hides. */
function verifyLine(r: CaseResult): string {
  const cpu = r.cpuSeconds ?? 0;
  const above = Math.max(0, r.peakRssBytes - r.baselineRssBytes) / Math.max(1, r.states);
  const miss = r.missProbability === undefined ? '' : `, P(miss) ${r.missProbability.toPrecision(3)}`;
  const bundle = r.bundleBuildSeconds
    ? `; its bundle was built first, in ${r.bundleBuildSeconds.toFixed(2)} s`
    : '';
  return `  verify ${r.subject}: ${cpu.toFixed(1)} s CPU (${integer.format(r.statesPerCpuSecond ?? 0)} states per CPU second), peak ${mebibytes(r.peakRssBytes)}, ${above.toFixed(0)} B/state above the 1-state run (${mebibytes(r.baselineRssBytes)})${miss}${bundle}`;
}

function printTable(rows: string[][]): void {
  printRows(
    [
      'case',
      'distinct states',
      'transitions',
      'depth',
      'seconds',
      'states/s (best)',
      'states/s (median)',
      'peak RSS',
      'B/state retained',
      'B/state peak',
      'B/state arrays',
      'complete',
    ],
    rows,
  );
}

function printRows(header: string[], rows: string[][]): void {
  const table = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...table.map((cells) => (cells[column] ?? '').length)));
  for (const cells of table) {
    console.log(
      cells
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  '),
    );
  }
}

export const command = {
  script: 'bench',
  summary: 'Measures the explorers (docs/performance.md): each case in a fresh Node process.',
  options: {
    quick: { type: 'boolean', description: 'the small cases only, one run each' },
    json: { type: 'boolean', description: 'one JSON line per case instead of tables' },
    repeat: {
      type: 'string',
      value: 'N',
      description: 'runs per reference case, the best kept (default 3, 1 with --quick)',
    },
    'scope-seconds': { type: 'string', value: 'S', description: 'time budget per system scope (default 60)' },
    'scope-max-states': {
      type: 'string',
      value: 'N',
      description: 'state budget per system scope (default 5,000,000)',
    },
    growth: {
      type: 'boolean',
      description:
        'only the growth table: generated scopes with 1..6 namespaces and 1..4 principals and initializers (compiled engine, cold, without and with symmetry, --scope-seconds each)',
    },
    case: { type: 'string', value: 'JSON', description: 'internal: run one case and print its result' },
    spin: {
      type: 'string',
      value: 'SCOPES',
      description:
        'only SPIN beside verify on these comma-separated scopes (e.g. quick,default,large,xl): verify, then pan full, -DHC4, -DBITSTATE, -DNCORE=2 (docs/spin.md)',
    },
  },
} as const;

async function main({ values }: CommandLine<typeof command.options>): Promise<number> {
  const single = values.case;
  if (single !== undefined) {
    console.log(resultMarker + JSON.stringify(await runCase(JSON.parse(single) as BenchCase)));
    return exitCodes.ok;
  }
  if (values.growth === true)
    return printGrowth(integerOption(values, 'scope-seconds', { example: '60' }) ?? 60);
  const spinScopes = values.spin;
  if (spinScopes !== undefined) return printSpin(spinScopes.split(','), values.json === true);
  const quick = values.quick === true;
  const asJson = values.json === true;
  const repeat = integerOption(values, 'repeat', { max: 100, example: '3' }) ?? (quick ? 1 : 3);
  const scopeSeconds = integerOption(values, 'scope-seconds', { example: '60' }) ?? 60;
  const scopeMaxStates = integerOption(values, 'scope-max-states', { example: '5000000' }) ?? 5_000_000;

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const environment = `Node ${process.version}, ${availableParallelism()} cores (${cpu}), ${mebibytes(totalmem())} RAM`;
  if (!asJson)
    console.log(
      `${environment}\nEach case runs in a fresh process; best of ${repeat} run(s) for the reference searches.\n`,
    );

  const groups: { title: string; cases: BenchCase[]; repeat: number }[] = [
    {
      title: 'Reference model, dense engine (typed arrays)',
      cases: (quick ? [4, 5] : [4, 5, 6]).map((copies) => ({ engine: 'dense', subject: copies })),
      repeat,
    },
    {
      title: 'Reference model, generic engine (string keys, chunked hash table)',
      cases: [4, 5].map((copies) => ({ engine: 'generic', subject: copies })),
      repeat,
    },
    {
      title: 'Reference product logic under xstate/graph getAdjacencyMap',
      cases: quick
        ? [{ engine: 'adjacency-map', subject: 2, budgetSeconds: 30 }]
        : [
            { engine: 'adjacency-map', subject: 2, budgetSeconds: 60 },
            { engine: 'adjacency-map', subject: 3, budgetSeconds: 60 },
            { engine: 'adjacency-map', subject: 4, budgetSeconds: 30 },
          ],
      repeat: 1,
    },
  ];
  const systemModules = await loadSystemModules();
  if (typeof systemModules === 'string') {
    if (!asJson) console.log(`System scopes skipped: ${systemModules}.\n`);
  } else if (!quick) {
    groups.push({
      title: `System model scopes: string keys, packed lanes (checker/model/encoding.ts), bitstate 2^27 bits (at most ${scopeSeconds} s and ${integer.format(scopeMaxStates)} states each)`,
      cases: Object.keys(systemModules.scopes).flatMap((name) =>
        (['system-scope', 'system-packed', 'system-bitstate'] as const)
          // String keys only where they finish, for the side-by-side figure; bitstate only where exact search does not.
          .filter((engine) => (engine === 'system-scope' ? name === 'quick' : true))
          .filter((engine) => engine !== 'system-bitstate' || name === 'large')
          .map((engine) => ({
            engine,
            subject: name,
            budgetSeconds: scopeSeconds,
            maxStates: scopeMaxStates,
          })),
      ),
      repeat: 1,
    });
  }

  if (typeof systemModules !== 'string' && !quick) groups.push(symmetryGroup(systemModules));
  // Right after the reference model's figures, so both land in the same run (issue 14's comparison).
  if (typeof systemModules !== 'string') groups.splice(1, 0, compiledGroup(scopeSeconds, quick));
  // The headline: first, so a short run still prints it.
  if (typeof systemModules !== 'string') groups.unshift(verifyGroup(quick));

  for (const group of groups) {
    const results = group.cases.map((benchCase) => bestOf(benchCase, group.repeat));
    if (asJson) {
      for (const result of results) console.log(JSON.stringify(benchCaseLine(environment, result)));
      continue;
    }
    console.log(group.title);
    if (results.some((r) => r.engine === 'system-compiled')) printCompiled(results);
    else printTable(results.map(row));
    for (const r of results) if (r.engine === 'verify' && !r.error) console.log(verifyLine(r));
    console.log('');
  }
  if (!asJson) {
    console.log(
      [
        'B/state retained: heap + array buffers still held after the search and a full GC, minus the same before it.',
        'B/state peak: (peak RSS - RSS before the search) / states, which includes transient garbage and array doubling.',
        'B/state arrays: the typed arrays of the dense engine (bitset, code queue, parents, event ids) or of packed',
        'lanes (lane chunks, open-addressing slots, parents, event ids) at the end; retained also counts the model memo.',
      ].join('\n'),
    );
  }
  return exitCodes.ok;
}

/** SPIN beside verify (checker/judging/spin-bench.ts), one row per engine as it finishes. */
async function printSpin(scopes: readonly string[], asJson: boolean): Promise<number> {
  const { spinBench } = await import('../checker/judging/spin-bench.ts');
  const { modelOf } = await import('../checker/judging/promela.ts');
  const { spinAvailable } = await import('../checker/judging/spin.ts');
  if (!spinAvailable()) throw new UsageError('--spin needs spin and gcc (Debian: apt-get install spin gcc)');
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  if (!asJson)
    console.log(
      `Node ${process.version}, ${availableParallelism()} cores (${cpu}); SPIN beside verify, one process, one scope after another\n`,
    );
  if (!asJson)
    console.log(
      [
        'scope',
        'engine',
        'states',
        'transitions',
        's',
        'states/s',
        'B/state',
        'MiB',
        'complete',
        'note',
      ].join(' | '),
    );
  for (const scope of scopes)
    spinBench(
      scope,
      () => modelOf('model', scope),
      (row) =>
        console.log(
          asJson
            ? JSON.stringify(benchSpinLine(row))
            : [
                row.scope,
                row.engine,
                integer.format(row.states),
                integer.format(row.transitions),
                row.seconds.toFixed(2),
                Number.isNaN(row.statesPerSecond) ? '-' : integer.format(Math.round(row.statesPerSecond)),
                row.bytesPerState.toFixed(1),
                row.totalMiB.toFixed(1),
                row.complete ? 'yes' : 'no',
                row.note,
              ].join(' | '),
        ),
    );
  return exitCodes.ok;
}

/** How the state count grows along each axis of a generated scope (docs/performance.md, "Growth"). */
async function printGrowth(maxSeconds: number): Promise<number> {
  // Loaded on demand, like the scopes' hook: the reference benchmark runs without the system model.
  const { growthShapes, measureGrowth } = await import('../checker/judging/growth.ts');
  console.log(
    `Growth: generated scopes (checker/judging/growth.ts), compiled engine cold, without and with the tenants' symmetry, at most ${maxSeconds} s each`,
  );
  // Namespaces to 6: where the tenants' symmetry (a group of n!) shows what it can fold.
  const rows = growthShapes(4, 6).map(({ axis, shape }) => {
    const row = measureGrowth(axis, shape, { maxSeconds, maxStates: 20_000_000 });
    const { reduced } = row;
    return [
      axis,
      `${shape.namespaces} ns, ${shape.principals} p, ${shape.initializers} i`,
      integer.format(row.states),
      integer.format(row.transitions),
      String(row.depth),
      row.seconds.toFixed(1),
      row.complete ? 'yes' : 'no (time)',
      reduced.order === 1 ? '-' : integer.format(reduced.orbits),
      reduced.order === 1 ? '-' : `${reduced.order}`,
      reduced.order === 1 ? '-' : (row.states / reduced.orbits).toFixed(2),
      reduced.order === 1 ? '-' : reduced.seconds.toFixed(1),
      reduced.complete
        ? reduced.represents === row.states
          ? 'yes'
          : `no (stands for ${integer.format(reduced.represents)})`
        : 'no (time)',
    ];
  });
  printRows(
    [
      'axis',
      'shape',
      'states',
      'transitions',
      'depth',
      'seconds',
      'complete',
      'orbits',
      'group',
      'reduction',
      'seconds reduced',
      'reduced complete, same states',
    ],
    rows,
  );
  return exitCodes.ok;
}

if (isEntryPoint(import.meta.url)) await defineCommand(command, main);
