import type { SystemEvent } from '../../machines/system.ts';
import { livenessProperties } from '../../properties/liveness.ts';
import { safetyProperties } from '../../properties/safety.ts';
import { baseVariantName, machinesFor, scopeFor, variants } from '../../variants/variants.ts';
import { UsageError } from '../cli/cli.ts';
import { resolveScope } from '../cli/scope-file.ts';
import { compileFairness } from '../model/liveness-system.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import { aloneState, type CompleteTables, completeTables } from './promela-tables.ts';

/**
 * The system model as a Promela model for SPIN, generated from the complete outcome tables
 * (checker/judging/promela-tables.ts): the state is one index per projection (the global lanes, each
 * namespace slot, each initializer controller), each action of `SystemModel.actions` is one `do`
 * alternative per outcome it can have, its guard and effect embedded C over the tables. Each
 * alternative is a `d_step`, so one step of the model is one SPIN transition and SPIN stores exactly
 * the model's states (the control state of the single process never changes).
 */

export interface PromelaModel {
  text: string;
  tables: CompleteTables;
  /** Per `do` alternative, in order: the action it runs (-1 for none) and which of its outcomes. */
  alternatives: { action: number; outcome: number }[];
}

export interface PromelaOptions {
  variant: string;
  /**
   * Also the liveness properties: a state variable `taken` (the fairness classes of the step that led
   * here, so the state count is no longer the model's) and a never claim for the goal named at run time
   * by the environment variable NSMODEL_GOAL ("property slot"), its weak fairness by a counter over the
   * conditions. For `pan -a` (no -DBFS, no -DSAFETY).
   */
  liveness?: boolean;
}

const chunk = 4096;

/**
 * A C table of ints as `c_decl` blocks of at most 4,096 values each (SPIN refuses longer embedded
 * text), read through the macro `name(i)`.
 */
function cTable(name: string, values: readonly number[]): string {
  const blocks: string[] = [];
  const parts: string[] = [];
  for (let start = 0; start === 0 || start < values.length; start += chunk) {
    const slice = values.slice(start, start + chunk);
    const rows: string[] = [];
    for (let at = 0; at < slice.length; at += 24) rows.push(`  ${slice.slice(at, at + 24).join(',')},`);
    if (slice.length === 0) rows.push('  0');
    const part = `${name}_${parts.length}`;
    parts.push(part);
    blocks.push(
      `c_decl {\nstatic const int ${part}[${Math.max(1, slice.length)}] = {\n${rows.join('\n')}\n};\n}`,
    );
  }
  blocks.push(
    `c_decl {\nstatic const int *const ${name}_parts[${parts.length}] = {${parts.join(', ')}};\n#define ${name}(i) ${name}_parts[(i) >> 12][(i) & 4095]\n}`,
  );
  return blocks.join('\n');
}

/** Interns runs of outcome values in one pool: identical runs share one offset (the file grows with distinct runs). */
class Pool {
  readonly values: number[] = [0];
  private readonly offsets = new Map<string, number>();
  /** The offset of the run (its count first), 0 for the empty run. */
  add(run: readonly number[], count: number): number {
    if (count === 0) return 0;
    const key = `${count}:${run.join(',')}`;
    const known = this.offsets.get(key);
    if (known !== undefined) return known;
    const offset = this.values.length;
    this.values.push(count, ...run);
    this.offsets.set(key, offset);
    return offset;
  }
}

export function promelaModel(model: CheckedSystemModel, options: PromelaOptions): PromelaModel {
  const tables = completeTables(model, safetyProperties);
  const { namespaces: n, initializers: inits, globals, slotIds, controllerIds, tuples } = tables;
  const pool = new Pool();
  const nsIndex = slotIds.map((ids) => new Map(ids.map((id, at) => [id, at])));
  const ctlIndex = controllerIds.map((ids) => new Map(ids.map((id, at) => [id, at])));
  const alternatives: { action: number; outcome: number }[] = [];
  const lines: string[] = [];
  // Per action: its kind, slot, controller, and where its entries start (-1 for entries it has not).
  const kind: number[] = [];
  const slotOf: number[] = [];
  const controllerOf: number[] = [];
  const base: number[] = [];
  // Per action: one past its last entry, so an index outside its table is an error, not another action's entry.
  const limit: number[] = [];
  const entries: number[] = [];
  const maxOutcomes: number[] = [];
  const strideNamespace: number[] = [];
  const strideGlobal: number[] = [];
  const strideController: number[] = [];
  const strideParts: number[] = [];
  tables.actions.forEach((action, a) => {
    slotOf.push(action.type === 'local' ? action.slot : -1);
    controllerOf.push(action.type === 'wide' ? -1 : action.controller);
    const layout = action.type === 'wide' ? undefined : action.layout;
    strideNamespace.push(layout?.namespace ?? 0);
    strideGlobal.push(layout?.global ?? 0);
    strideController.push(layout?.controller ?? 0);
    strideParts.push(...(layout?.parts ?? slotIds.map(() => 0)));
    if (action.type === 'wide') {
      kind.push(1);
      base.push(-1);
      limit.push(-1);
      maxOutcomes.push(1);
      return;
    }
    if (action.type === 'global' && action.footprint !== 'none') {
      kind.push(action.footprint === 'clock' ? 3 : 4);
      base.push(-1);
      limit.push(-1);
      maxOutcomes.push(1);
      return;
    }
    kind.push(action.type === 'local' ? 0 : 2);
    base.push(entries.length);
    // One run of (event, value...) per entry: a local outcome writes its namespace, a global one its row and controller.
    const runs: number[][] =
      action.type === 'local'
        ? action.outcomes.map((outcomes) =>
            outcomes.flatMap((o) => [
              o.event,
              o.next < 0 ? -1 : (nsIndex[action.slot].get(o.next) ?? -2),
              o.bad,
            ]),
          )
        : action.outcomes.map((outcomes) =>
            outcomes.flatMap((o) => [
              o.event,
              o.global,
              action.controller < 0 ? 0 : (ctlIndex[action.controller].get(o.controller) ?? -2),
              o.bad,
            ]),
          );
    let most = 0;
    action.outcomes.forEach((outcomes, at) => {
      most = Math.max(most, outcomes.length);
      if (runs[at].includes(-2)) throw new Error(`action ${a}: an outcome names a state outside the tables`);
      entries.push(pool.add(runs[at], outcomes.length));
    });
    maxOutcomes.push(most);
    limit.push(entries.length);
  });

  // Per-slot tables flattened, slot i's part starting at slot_base[i].
  const slotBase = slotIds.map((_, i) => slotIds.slice(0, i).reduce((sum, ids) => sum + ids.length, 0));
  // Each set of violated properties as words of 30 bits (property b is bit b % 30 of word b / 30).
  const properties = tables.properties;
  const maskWords = Math.max(1, Math.ceil(properties.length / 30));
  const badWords = tables.masks.flatMap((positions) => {
    const words = Array.from({ length: maskWords }, () => 0);
    for (const b of positions) words[Math.floor(b / 30)] |= 1 << (b % 30);
    return words;
  });
  const totalNamespaces = slotIds.reduce((sum, ids) => sum + ids.length, 0);
  const slotJudgedOf = new Map(tables.slotJudged.map((a, x) => [a, x]));

  lines.push(
    `/* Generated by npm run export -- --promela from the machines of nsmodel: scope ${model.scope.name}, variant ${options.variant}. Do not edit. */`,
    "/* State: g (a row of the global lanes), ns[i] (slot i's namespace state), ctl[k] (controller k's snapshot), each an index into the tables. */",
    `/* ${globals.length} global rows, namespace states per slot ${slotIds.map((s) => s.length).join('/')}, RBAC tuples ${tuples}, ${tables.actions.length} actions, ${tables.events.length} events, ${entries.length} table entries, ${pool.values.length} pool values. */`,
    '',
    // SPIN runs the C preprocessor over the whole file, so these reach the embedded C expanded.
    `#define NSLOTS ${n}`,
    `#define NGLOBALS ${globals.length}`,
    cTable('kind', kind),
    cTable('slot_of', slotOf),
    cTable('controller_of', controllerOf),
    cTable('base', base),
    cTable('limit', limit),
    cTable('stride_ns', strideNamespace),
    cTable('stride_g', strideGlobal),
    cTable('stride_ctl', strideController),
    cTable('stride_part', strideParts),
    cTable('slot_base', slotBase),
    cTable(
      'nparts',
      tables.parts.map((p) => p.length),
    ),
    cTable('part_of', tables.partOf.flat()),
    cTable('entry', entries),
    cTable('pool', pool.values),
    cTable('clock_next', tables.clockNext.flat()),
    cTable('clock_global', tables.clockGlobal),
    cTable('restart_next', tables.restartNext.flat()),
    cTable('restart_running', tables.restartRunning.flat().map(Number)),
    cTable('restart_loses', tables.restartLoses.map(Number)),
    `/* The safety properties judged, by bit: ${properties.map((p, b) => `${b} ${p.id}`).join(', ')}. */`,
    `#define NPROPS ${properties.length}`,
    // The liveness build judges its claim only: a safety error would end pan -a's search.
    `#define SAFETY_JUDGED ${options.liveness ? 0 : 1}`,
    `#define MASKW ${maskWords}`,
    `#define NSTATES ${totalNamespaces}`,
    cTable('bad_word', badWords),
    cTable('inv_bad', tables.invariants.flat()),
    cTable('slot_step_bad', tables.steps.flat(2)),
    ...(options.liveness ? livenessTables(tables, totalNamespaces) : ['#define NOTE_TAKEN(c)']),
    '',
    ...(options.liveness ? ['int taken = 0;'] : []),
    'short g = 0;',
    `short ns[${n}];`,
    `short ctl[${Math.max(1, inits)}];`,
    '',
    'c_code {',
    'extern void (*Uerror)(char *);',
    "/* pan's non-fatal error: with -c0 the search goes on past it (Uerror stops the search). */",
    'extern void (*uerror)(char *);',
    "/* The pool offset of action a's outcomes in the current state: its entry by what the action reads. */",
    'int run_of(int a) {',
    '  int i = slot_of(a), k = controller_of(a), at = base(a), j, e;',
    '  if (i >= 0) at += now.ns[i] * stride_ns(a);',
    '  if (k >= 0) at += now.ctl[k] * stride_ctl(a);',
    '  at += now.g * stride_g(a);',
    '  for (j = 0; j < NSLOTS; j++) if (stride_part(a * NSLOTS + j) != 0) at += part_of(slot_base(j) + now.ns[j]) * stride_part(a * NSLOTS + j);',
    '  e = at < limit(a) ? entry(at) : -1;',
    '  /* A missing entry is an error, never a skip. */',
    '  if (e < 0) { printf("nsmodel: action %d has no table entry here\\n", a); Uerror("incomplete table"); }',
    '  return e;',
    '}',
    'extern int readtrail;',
    '/* In a trail replay (pan -r) each step prints the action, its outcome and the state it reached. */',
    'void shown(int a, int j) {',
    '  int i;',
    '  if (!readtrail) return;',
    '  printf("nsmodel-step %d %d %d", a, j, now.g);',
    '  for (i = 0; i < NSLOTS; i++) printf(" %d", now.ns[i]);',
    `  for (i = 0; i < ${inits}; i++) printf(" %d", now.ctl[i]);`,
    '  printf("\\n");',
    '}',
    'int outcomes(int a) { int e = run_of(a); return e == 0 ? 0 : pool(e); }',
    '/* A property violated for the first time in the search prints its number and is an error (a trail each); in a replay each violation is printed. */',
    'static int reported[NPROPS + 1];',
    'static int initial_judged;',
    'void judge(int m) {',
    '  int b;',
    '  if (m == 0 || !SAFETY_JUDGED) return;',
    '  for (b = 0; b < NPROPS; b++)',
    '    if (((bad_word(m * MASKW + b / 30) >> (b % 30)) & 1) && (readtrail || !reported[b])) {',
    '      printf("nsmodel-violated %d\\n", b);',
    '      if (!readtrail) { reported[b] = 1; uerror("safety property violated"); }',
    '    }',
    '}',
    '/* Every invariant, per slot alone; the initial state (index 0 everywhere) is judged with the first step. */',
    'void judge_slots(int g, int first) {',
    '  int i;',
    '  for (i = 0; i < NSLOTS; i++) judge(inv_bad((slot_base(i) + (first ? 0 : now.ns[i])) * NGLOBALS + g));',
    '}',
    'void judge_state(void) {',
    '  if (!initial_judged) { initial_judged = 1; judge_slots(0, 1); }',
    '  judge_slots(now.g, 0);',
    '}',
    '/* The step properties on a list, clock or restart step x, per slot alone: noted from the state before, judged after the step. */',
    'static int pending[NSLOTS];',
    'void note_slot_step(int x) {',
    '  int i;',
    '  for (i = 0; i < NSLOTS; i++) pending[i] = slot_step_bad((x * NSTATES + slot_base(i) + now.ns[i]) * NGLOBALS + now.g);',
    '}',
    'void judge_pending(void) {',
    '  int i;',
    '  for (i = 0; i < NSLOTS; i++) judge(pending[i]);',
    '}',
    'void take(int a, int j) {',
    '  int e = run_of(a), k = controller_of(a), bad;',
    '  if (kind(a) == 0) { int to = pool(e + 2 + 3 * j); bad = pool(e + 3 + 3 * j); NOTE_TAKEN(event_class(pool(e + 1 + 3 * j))); if (to >= 0) now.ns[slot_of(a)] = to; }',
    '  else { now.g = pool(e + 2 + 4 * j); if (k >= 0) now.ctl[k] = pool(e + 3 + 4 * j); bad = pool(e + 4 + 4 * j); NOTE_TAKEN(event_class(pool(e + 1 + 4 * j))); }',
    '  shown(a, j);',
    '  judge(bad);',
    '  judge_state();',
    '}',
    'int clock_enabled(void) { int i; for (i = 0; i < NSLOTS; i++) if (clock_next(slot_base(i) + now.ns[i]) < 0) return 0; return 1; }',
    'void clock_take(void) { int i; for (i = 0; i < NSLOTS; i++) now.ns[i] = clock_next(slot_base(i) + now.ns[i]); now.g = clock_global(now.g); }',
    'int restart_enabled(void) { int i; for (i = 0; i < NSLOTS; i++) if (restart_running(slot_base(i) + now.ns[i])) return 1; return 0; }',
    'void restart_take(void) { int i; if (restart_loses(now.g)) for (i = 0; i < NSLOTS; i++) now.ns[i] = restart_next(slot_base(i) + now.ns[i]); }',
    '}',
    ...(options.liveness ? livenessCode() : []),
    '',
    'active proctype system() {',
    '  do',
  );
  tables.actions.forEach((action, a) => {
    if (action.type === 'wide') {
      alternatives.push({ action: a, outcome: 0 });
      // A list sends one request and changes nothing: one self-loop (the transition count checks the claim).
      lines.push(
        `  :: d_step { c_expr { (kind(${a}) == 1) } -> c_code { note_slot_step(${slotJudgedOf.get(a)}); NOTE_TAKEN(action_class(${a})); shown(${a}, 0); judge_pending(); judge_state(); } } /* ${a}: a list */`,
      );
      return;
    }
    if (action.type === 'global' && action.footprint === 'clock') {
      alternatives.push({ action: a, outcome: 0 });
      lines.push(
        `  :: d_step { c_expr { (clock_enabled() != 0) } -> c_code { note_slot_step(${slotJudgedOf.get(a)}); NOTE_TAKEN(action_class(${a})); clock_take(); shown(${a}, 0); judge_pending(); judge_state(); } } /* ${a}: one second */`,
      );
      return;
    }
    if (action.type === 'global' && action.footprint === 'restart') {
      alternatives.push({ action: a, outcome: 0 });
      lines.push(
        `  :: d_step { c_expr { (restart_enabled() != 0) } -> c_code { note_slot_step(${slotJudgedOf.get(a)}); NOTE_TAKEN(action_class(${a})); restart_take(); shown(${a}, 0); judge_pending(); judge_state(); } } /* ${a}: apiserver restart */`,
      );
      return;
    }
    for (let j = 0; j < maxOutcomes[a]; j++) {
      alternatives.push({ action: a, outcome: j });
      lines.push(`  :: d_step { c_expr { (outcomes(${a}) > ${j}) } -> c_code { take(${a}, ${j}); } }`);
    }
  });
  lines.push('  od', '}', '');
  if (options.liveness) lines.push(...neverClaim(tables));
  const initial = tables.initial;
  const init = [
    `g = ${globals.findIndex((row) => row[0] === initial[0] && row[1] === initial[1] && row[2] === initial[2])}`,
    ...slotIds.map((_, i) => `ns[${i}] = ${nsIndex[i].get(initial[3 + i])}`),
    ...controllerIds.map((_, k) => `ctl[${k}] = ${ctlIndex[k].get(initial[3 + n + k])}`),
  ];
  if (init.some((line) => line.endsWith('undefined') || line.endsWith('-1')))
    throw new Error('the initial state is not among the tables');
  // Every index is 0 in the initial state: the fixpoint starts from it.
  if (!init.every((line) => line.endsWith('= 0')))
    throw new Error('the initial state does not have index 0 everywhere');
  return { text: lines.join('\n'), tables, alternatives };
}

/** The liveness properties SPIN judges, in the order of the claim's property numbers. */
export const spinLiveness = livenessProperties;

/** The fairness classes and the goals' premise and goal per slot, as C tables (liveness build only). */
function livenessTables(tables: CompleteTables, totalNamespaces: number): string[] {
  const { model, events, globals, slotIds } = tables;
  const nActions = tables.actions.length;
  const eventClass: number[] = [];
  const actionClass: number[] = [];
  const conditions: number[] = [];
  const perNamespace: number[] = [];
  const goal: number[] = [];
  const goalBase: number[] = [];
  const goalTuples: number[] = [];
  // Every tuple of controller snapshot ids, the last controller fastest (its stride 1).
  let controllerTuples: number[][] = [[]];
  for (const ids of tables.controllerIds)
    controllerTuples = controllerTuples.flatMap((t) => ids.map((id) => [...t, id]));
  const ctlStride = tables.controllerIds.map((_, k) =>
    tables.controllerIds.slice(k + 1).reduce((product, ids) => product * ids.length, 1),
  );
  const mask = (matches: ((e: SystemEvent) => boolean)[], e: SystemEvent) =>
    matches.reduce((m, match, k) => (match(e) ? m | (1 << k) : m), 0);
  spinLiveness.forEach((property) => {
    const compiled = compileFairness(model, property.fairness);
    if (compiled.some((c) => c.kind !== 'weak'))
      throw new Error(`${property.id}: strong fairness has no never claim here yet`);
    if (compiled.length > 30) throw new Error(`${property.id}: more than 30 fairness conditions`);
    const matches = compiled.map((c) => c.matches);
    conditions.push(compiled.length);
    perNamespace.push(property.perNamespace ? 1 : 0);
    for (const e of events) eventClass.push(mask(matches, e));
    for (let a = 0; a < nActions; a++) {
      const x = tables.slotJudged.indexOf(a);
      if (x < 0) {
        actionClass.push(0);
        continue;
      }
      const masks = new Set(tables.slotEvents[x].map((e) => mask(matches, e)));
      if (masks.size > 1)
        throw new Error(`${property.id}: action ${a}'s steps fall in different fairness classes`);
      actionClass.push([...masks][0] ?? 0);
    }
    // Over every tuple of controller snapshots (a premise may read whether an initializer crashed),
    // kept only when some entry changes with it.
    const entries: number[][] = [];
    slotIds.forEach((ids, i) => {
      for (const id of ids)
        for (let g = 0; g < globals.length; g++)
          entries.push(
            controllerTuples.map((tuple) => {
              const state = aloneState(tables, g, i, id, tuple);
              const slot = property.perNamespace ? i : -1;
              const p = property.p ? property.p(model, state, slot) : true;
              return (p ? 1 : 0) | (property.q(model, state, slot) ? 2 : 0);
            }),
          );
    });
    const readsControllers = entries.some((row) => row.some((v) => v !== row[0]));
    goalBase.push(goal.length);
    goalTuples.push(readsControllers ? controllerTuples.length : 1);
    for (const row of entries) goal.push(...(readsControllers ? row : [row[0]]));
  });
  if (goal.length !== goalTuples.reduce((sum, t) => sum + t * totalNamespaces * globals.length, 0))
    throw new Error('the goal table has the wrong size');
  return [
    `/* The liveness properties, by number: ${spinLiveness.map((p, b) => `${b} ${p.id}`).join(', ')}. */`,
    `#define NEVENTS ${events.length}`,
    `#define NACTIONS ${nActions}`,
    `#define NCOND ${Math.max(1, ...conditions)}`,
    '#define NOTE_TAKEN(c) (now.taken = (c))',
    cTable('ev_class', eventClass),
    cTable('act_class', actionClass),
    cTable('goal_ncond', conditions),
    cTable('goal_per_ns', perNamespace),
    cTable('goal_pq', goal),
    cTable('goal_base', goalBase),
    cTable('goal_tuples', goalTuples),
    cTable('ctl_stride', ctlStride),
    `#define NCTL ${tables.initializers}`,
  ];
}

/** The goal's premise and goal, and each fairness condition's "satisfied here" (liveness build only). */
function livenessCode(): string[] {
  return [
    'c_code {',
    '/* The goal judged: NSMODEL_GOAL="property slot" (slot -1 for a system-wide property). */',
    'static int goal_prop = -1, goal_slot = -1;',
    'void goal_init(void) {',
    '  const char *s;',
    '  if (goal_prop >= 0) return;',
    '  s = getenv("NSMODEL_GOAL");',
    '  if (!s || sscanf(s, "%d %d", &goal_prop, &goal_slot) != 2) { printf("nsmodel: NSMODEL_GOAL is not set\\n"); Uerror("no goal"); }',
    '}',
    'int event_class(int ev) { goal_init(); return ev_class(goal_prop * NEVENTS + ev); }',
    'int action_class(int a) { goal_init(); return act_class(goal_prop * NACTIONS + a); }',
    '/* The tuple of controller snapshots, numbered as the goal table numbers it. */',
    'int ctl_tuple(void) { int k, t = 0; for (k = 0; k < NCTL; k++) t += now.ctl[k] * ctl_stride(k); return t; }',
    'int goal_bits(void) {',
    '  int i, n;',
    '  goal_init();',
    '  i = goal_slot < 0 ? 0 : goal_slot;',
    '  n = goal_tuples(goal_prop);',
    '  return goal_pq(goal_base(goal_prop) + ((slot_base(i) + now.ns[i]) * NGLOBALS + now.g) * n + (n > 1 ? ctl_tuple() : 0));',
    '}',
    'int goal_p(void) { return goal_bits() & 1; }',
    'int goal_q(void) { return (goal_bits() >> 1) & 1; }',
    '/* Some step of fairness class k is enabled here. */',
    'int class_enabled(int k) {',
    '  int a, e, j, stride, bit = 1 << k;',
    `  for (a = 0; a < NACTIONS; a++) {`,
    '    if (kind(a) == 1) { if (action_class(a) & bit) return 1; continue; }',
    '    if (kind(a) == 3) { if ((action_class(a) & bit) && clock_enabled()) return 1; continue; }',
    '    if (kind(a) == 4) { if ((action_class(a) & bit) && restart_enabled()) return 1; continue; }',
    '    e = run_of(a);',
    '    if (e == 0) continue;',
    '    stride = kind(a) == 0 ? 3 : 4;',
    '    for (j = 0; j < pool(e); j++) if (event_class(pool(e + 1 + stride * j)) & bit) return 1;',
    '  }',
    '  return 0;',
    '}',
    '/* Weak fairness of condition k is served here: a step of its class led here, or none is enabled. */',
    'int fair_sat(int k) {',
    '  goal_init();',
    '  if (k >= goal_ncond(goal_prop)) return 1;',
    '  if ((now.taken >> k) & 1) return 1;',
    '  return !class_enabled(k);',
    '}',
    '}',
  ];
}

/**
 * The never claim of the goal: the premise holds and the goal does not, then the goal never holds,
 * and the run is accepted only after each fairness condition was served in turn (a counter over the
 * conditions, as SPIN's own weak-fairness construction counts processes).
 */
function neverClaim(tables: CompleteTables): string[] {
  const most = Math.max(1, ...spinLiveness.map((p) => compileFairness(tables.model, p.fairness).length));
  const lines = [
    'never {',
    'T0_init:',
    '  do',
    '  :: c_expr { (goal_p() && !goal_q()) } -> goto W0',
    '  :: true -> goto T0_init',
    '  od;',
  ];
  for (let k = 0; k < most; k++)
    lines.push(
      `W${k}:`,
      '  do',
      `  :: c_expr { (!goal_q() && fair_sat(${k})) } -> goto ${k + 1 < most ? `W${k + 1}` : 'accept_all'}`,
      `  :: c_expr { (!goal_q()) } -> goto W${k}`,
      '  od;',
    );
  lines.push('accept_all:', '  do', '  :: c_expr { (!goal_q()) } -> goto W0', '  od', '}', '');
  return lines;
}

/** The model of a variant on a scope (a name or a file), or a UsageError naming the known variants. */
export function modelOf(variant: string, scopeText: string): CheckedSystemModel {
  const known = [baseVariantName, ...variants.map((v) => v.name)];
  if (!known.includes(variant))
    throw new UsageError(
      `--variant: unknown variant ${JSON.stringify(variant)}; use one of ${known.join(', ')}`,
    );
  const { scope } = resolveScope(scopeText);
  const machines = machinesFor(variant, scope);
  if (!machines) throw new UsageError(`--variant: ${variant} has no machines`);
  return systemModel(scopeFor(variant, scope), machines);
}
