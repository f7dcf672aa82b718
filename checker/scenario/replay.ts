import { timerFires } from '../../machines/actions/apiserver-timer.ts';
import { clockTicks } from '../../machines/actions/clock.ts';
import { RequestCommand } from '../../machines/commands.ts';
import { conditionsOf, phaseOf } from '../../machines/namespace.ts';
import { subjectAppliesToUser } from '../../machines/rbac.ts';
import type { Enabled, FaultKind, HttpOutcome, SystemEvent, SystemState } from '../../machines/system.ts';
import { scopeFor } from '../../variants/variants.ts';
import { type CheckedSystemModel, systemModel } from '../model/system-model.ts';
import {
  type CompiledScenario,
  type CompiledStep,
  compileScenario,
  conditionText,
  type Expectation,
  kindOfResource,
  type Principal,
  type RequestPlan,
} from './compile.ts';
import { clusterGrants } from './counterexample-story.ts';
import { stateFacts } from './describe.ts';
import { judgeEventually } from './eventually.ts';
import {
  type LoadedScenario,
  loadScenario,
  locateFieldError,
  ScenarioFieldError,
  ScenarioFileError,
} from './load.ts';
import type { ParsedTextCache } from './parsed-cache.ts';

/**
 * Replays a compiled scenario on the system model, step by step, and compares every outcome with
 * what the scenario expects. Controllers act through the model's own enabled events (`run` applies
 * one actor's events until it has nothing left to change, always taking the first in the model's
 * order), so a scenario exercises exactly the transitions the checker explores.
 */

export interface StepReport {
  index: number;
  line: number;
  text: string;
  /** What happened, in one line. */
  outcome: string;
  /** Actions a controller or the clock took, one line each. */
  actions: string[];
  ok: boolean;
  /** For a mismatch: expected, got, and the state facts that explain it. */
  mismatch: string[];
}

export type ScenarioStatus = 'passed' | 'failed' | 'pending' | 'malformed';

export interface ScenarioReport {
  file: string;
  title: string;
  requirements: string[];
  variant: string;
  pending?: string;
  status: ScenarioStatus;
  /** Parts of `given` the model cannot represent (each counts as a mismatch). */
  setup: string[];
  steps: StepReport[];
  mismatches: number;
  /** The one line of a malformed file. */
  error?: string;
}

/** The command kind of each verb on one content object. */
const contentKinds = {
  create: 'create-content',
  get: 'get-content',
  update: 'update-content',
  delete: 'delete-content',
} as const;

/** How many of one actor's actions a `run` may take before it is declared runaway. */
const runLimit = 500;

const outcomeText = (r: HttpOutcome | undefined, items?: readonly string[]): string => {
  if (!r) return 'no response';
  const cause = r.cause ? ` (${r.cause})` : '';
  const listed = items ? ` items ${JSON.stringify([...items])}` : '';
  return `${r.code} ${r.reason}${cause}${listed}`;
};

const expectationText = (e: Expectation): string =>
  [
    String(e.code),
    e.reason ?? '',
    e.cause ? `(${e.cause})` : '',
    e.items ? `items ${JSON.stringify(e.items)}` : '',
    e.message ? `message ${JSON.stringify(e.message)}` : '',
  ]
    .filter(Boolean)
    .join(' ');

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

/** Differences between what was expected and the response, empty when it matches. */
function compareResponse(
  expect: Expectation,
  response: HttpOutcome | undefined,
  items: readonly string[] | undefined,
): string[] {
  if (!response) return ['no response'];
  const diffs: string[] = [];
  if (response.code !== expect.code) diffs.push(`code ${expect.code} expected, got ${response.code}`);
  if (expect.reason !== undefined && response.reason !== expect.reason)
    diffs.push(`reason ${expect.reason} expected, got ${response.reason}`);
  if (expect.cause !== undefined && response.cause !== expect.cause)
    diffs.push(`cause ${expect.cause} expected, got ${response.cause ?? 'none'}`);
  if (expect.message !== undefined && response.message !== expect.message)
    diffs.push(
      `message ${JSON.stringify(expect.message)} expected, got ${JSON.stringify(response.message ?? '')}`,
    );
  if (expect.items !== undefined && !(items && sameSet(expect.items, items)))
    diffs.push(
      `items ${JSON.stringify(expect.items)} expected, got ${items ? JSON.stringify([...items]) : 'no items'}`,
    );
  return diffs;
}

/** A step's report before it runs: nothing happened yet, nothing is wrong. */
const blankReport = (step: CompiledStep): StepReport => ({
  index: step.index,
  line: step.line,
  text: step.text,
  outcome: '',
  actions: [],
  ok: true,
  mismatch: [],
});

/**
 * The API server's timers that fire once the clock has advanced, in order: they fire as soon as they
 * expire (FP-2), being part of the server, not a controller. `replay --to-scenario` follows them too.
 */
export function expiredTimers(model: CheckedSystemModel, state: SystemState): Enabled[] {
  const fired: Enabled[] = [];
  let current = state;
  for (let n = 0; n < runLimit; n++) {
    const timer = firstTimerFiring(model, current);
    if (!timer) break;
    fired.push(timer);
    current = timer.next;
  }
  return fired;
}

/**
 * The model's first API server event (`timerFires`, slot by slot, as its action list orders them) that
 * changes the state: the one its full listing would offer first, without listing every other actor.
 */
export function firstTimerFiring(model: CheckedSystemModel, state: SystemState): Enabled | undefined {
  const key = model.key(state);
  const out: Enabled[] = [];
  for (let i = 0; i < state.namespaces.length; i++) {
    out.length = 0;
    timerFires(model, state, 0, i, out);
    const fired = out.find((e) => model.key(e.next) !== key);
    if (fired) return fired;
  }
  return undefined;
}

/** The clock's one second in `state` (its one action, `clockTicks`), without listing every other actor. */
export function clockSecond(model: CheckedSystemModel, state: SystemState): Enabled | undefined {
  const out: Enabled[] = [];
  clockTicks(model, state, out);
  return out[0];
}

/** The enabled events of one actor, without the failure results the replayer never chooses on its own. */
function actorEvents(
  model: CheckedSystemModel,
  state: SystemState,
  actor: string,
  kinds: readonly string[],
  namespace?: number,
) {
  return model
    .enabled(state)
    .filter(
      (e) =>
        e.event.actor === actor &&
        kinds.includes(e.event.actorKind) &&
        e.event.command?.kind !== 'record-failure' &&
        (namespace === undefined || e.event.namespace === namespace),
    );
}

/**
 * What `step: ACTOR` does: the actor's first enabled event that changes the state, else its first;
 * undefined when it has nothing to do. `replay --to-scenario` follows the model through it too.
 */
export function controllerStep(
  model: CheckedSystemModel,
  state: SystemState,
  actor: string,
  kinds: readonly string[],
  namespace?: number,
) {
  const events = actorEvents(model, state, actor, kinds, namespace);
  const current = model.key(state);
  return events.find((e) => model.key(e.next) !== current) ?? events[0];
}

class Replay {
  readonly model: CheckedSystemModel;
  private current: SystemState;
  private readonly namespaceNames: string[];
  /** Seconds the scenario has ticked: the model keeps only ages, so absolute times are derived here for display. */
  private elapsed = 0;
  /** Each deleted namespace's deletion timestamp, in scenario seconds, derived from its age. */
  private readonly deletionStamps = new Map<number, number>();

  constructor(readonly scenario: CompiledScenario) {
    this.model = systemModel(scenario.scope, scenario.machines);
    this.current = this.model.initialStates()[0];
    this.namespaceNames = scenario.scope.namespaces.map((n) => n.name);
  }

  get state(): SystemState {
    return this.current;
  }

  set state(next: SystemState) {
    this.current = next;
    this.model.views(next).forEach((v, i) => {
      if (v.deletedSecondsAgo === null) this.deletionStamps.delete(i);
      // A fresh stamp (age 0) at a later second than the one recorded is a new stamp.
      else if (!this.deletionStamps.has(i) || v.deletedSecondsAgo === 0)
        this.deletionStamps.set(i, this.elapsed - v.deletedSecondsAgo);
    });
  }

  private key = (s: SystemState) => this.model.key(s);

  /** Facts that explain an outcome: the clock, admission's configuration copy and the namespace's own. */
  explain(namespace: number): string[] {
    const facts = stateFacts(this.model, this.state);
    const prefix = namespace >= 0 ? `${this.namespaceNames[namespace]}.` : null;
    const lines: string[] = [];
    for (const [key, value] of facts) {
      const global = ['clock', 'admission configuration', 'configuration reads'].includes(key);
      if (global || (prefix && key.startsWith(prefix)) || (prefix === null && key.endsWith('.phase')))
        lines.push(`${key} = ${value}`);
    }
    return lines;
  }

  /** What was expected, what came, how they differ, and the state facts that explain it. */
  private responseMismatch(
    expect: Expectation,
    response: HttpOutcome | undefined,
    items: readonly string[] | undefined,
    diffs: string[],
    namespace: number,
  ): string[] {
    return [
      `expected: ${expectationText(expect)}`,
      `got:      ${outcomeText(response, items)}${response?.message ? `: ${response.message}` : ''}`,
      ...diffs.map((d) => `differs:  ${d}`),
      ...this.explain(namespace).map((f) => `state:    ${f}`),
    ];
  }

  /** The bindings that grant anything to a principal now: why RBAC said what it said. */
  grantsOf(principal: Principal): string[] {
    const user = { name: principal.name, groups: principal.groups };
    const grants = clusterGrants(this.scenario.scope, principal.name, principal.groups);
    this.state.namespaces.forEach((ns, i) => {
      this.model.objects.forEach((o, slot) => {
        if (!o.roleBinding || !(ns.content & (1 << slot))) return;
        const spec = this.scenario.scope.namespaces[i];
        // `$creator` is who sent the namespace's create, as the namespace records it (D-34).
        const subjectName =
          o.roleBinding.subject === '$creator'
            ? (this.model.view(this.state, i).creator ?? undefined)
            : o.roleBinding.subject;
        if (!subjectName) return;
        const kind = o.roleBinding.subjectKind ?? 'User';
        const subject =
          kind === 'ServiceAccount'
            ? { kind, name: subjectName, namespace: o.roleBinding.subjectNamespace ?? spec.name }
            : { kind, apiGroup: 'rbac.authorization.k8s.io', name: subjectName };
        if (subjectAppliesToUser(subject, user, spec.name))
          grants.push(
            `RoleBinding ${spec.name}/${o.name} → ClusterRole ${o.roleBinding.clusterRole} (only in ${spec.name})`,
          );
      });
    });
    return [
      `${principal.name} (groups ${principal.groups.join(', ')}) holds: ${grants.length > 0 ? grants.join('; ') : 'nothing'}`,
    ];
  }

  /** The model's command for a plan, resolving an update's pending list against the current state. */
  private commandFor(
    principal: Principal,
    plan: Exclude<RequestPlan, { type: 'configuration' | 'cluster-object' }>,
  ): RequestCommand | string {
    const sender = {
      actor: principal.name,
      actorKind: 'principal' as const,
      principal,
      namespace: plan.namespace,
      ...(plan.bodyName !== undefined ? { bodyName: plan.bodyName } : {}),
      ...(plan.labels ? { labels: plan.labels } : {}),
      ...(plan.annotations ? { annotations: plan.annotations } : {}),
      ...(plan.sentRbac ? { sentRbac: plan.sentRbac } : {}),
    };
    if (plan.type === 'content') {
      if (plan.verb === 'list')
        return new RequestCommand({
          ...sender,
          kind: 'list-content',
          resource: plan.resource ?? '',
          ...(plan.watch ? { watch: true } : {}),
        });
      if (plan.verb === 'deletecollection')
        return new RequestCommand({ ...sender, kind: 'delete-collection', resource: plan.resource ?? '' });
      return new RequestCommand({
        ...sender,
        kind: contentKinds[plan.verb],
        object: plan.object,
        ...(plan.preconditions ? { preconditions: plan.preconditions } : {}),
        ...(plan.bodyNamespace ? { bodyNamespace: plan.bodyNamespace } : {}),
        ...(plan.roleRef ? { roleRef: plan.roleRef } : {}),
        ...(plan.refusedData
          ? {
              data: {
                ...(plan.refusedData.undecodable !== undefined
                  ? { undecodable: plan.refusedData.undecodable }
                  : {}),
                errors: plan.refusedData.errors,
              },
            }
          : {}),
      });
    }
    if (plan.status)
      return plan.verb === 'get'
        ? new RequestCommand({ ...sender, kind: 'get-status' })
        : new RequestCommand({
            ...sender,
            kind: 'update-status',
            ...(plan.phase !== undefined ? { phase: plan.phase } : {}),
          });
    switch (plan.verb) {
      case 'create':
        return new RequestCommand({
          ...sender,
          kind: 'create-namespace',
          ...(plan.initializers ? { initializers: plan.initializers } : {}),
          extraFinalizers: plan.extraFinalizers ?? [],
          ...(plan.metadataFinalizers ? { metadataFinalizers: plan.metadataFinalizers } : {}),
          ...(plan.generateName !== undefined ? { generateName: plan.generateName } : {}),
        });
      case 'finalize':
        return new RequestCommand({ ...sender, kind: 'finalize', finalizers: plan.finalizers ?? [] });
      case 'update': {
        if (plan.failure !== undefined)
          return new RequestCommand({ ...sender, kind: 'record-failure', reason: plan.failure });
        const finalizers = new RequestCommand({
          ...sender,
          kind: 'update-finalizers',
          finalizers: plan.finalizers ?? [],
          ...(plan.metadataFinalizers ? { metadataFinalizers: plan.metadataFinalizers } : {}),
        });
        if (plan.desiredPending === undefined) return finalizers;
        // The whole list goes to the API server, which works out the change (IN-3, IN-4, D-18).
        return new RequestCommand({ ...sender, kind: 'update-pending', pending: plan.desiredPending });
      }
      case 'get':
        return new RequestCommand({ ...sender, kind: 'get-namespace' });
      case 'delete':
        return new RequestCommand({
          ...sender,
          kind: 'delete-namespace',
          ...(plan.propagationPolicy ? { propagationPolicy: plan.propagationPolicy } : {}),
          ...(plan.preconditions ? { preconditions: plan.preconditions } : {}),
        });
      case 'list':
        return new RequestCommand({
          ...sender,
          kind: 'list-namespaces',
          ...(plan.watch ? { watch: true } : {}),
        });
    }
  }

  request(step: Extract<CompiledStep, { kind: 'request' }>): StepReport {
    const report = blankReport(step);
    const unsupported = (reason: string): StepReport => ({
      ...report,
      ok: false,
      outcome: 'unsupported by the model',
      mismatch: [`expected: ${expectationText(step.expect)}`, `got:      nothing: ${reason}`],
    });
    if (!step.plan) return unsupported(step.unsupported ?? 'no request');
    let response: HttpOutcome | undefined;
    let items: readonly string[] | undefined;
    let namespace = -1;
    const before = this.state;
    if (step.plan.type === 'cluster-object') {
      const result = this.model.handle(this.state, {
        principal: step.principal,
        verb: step.plan.verb,
        target: 'cluster-object',
        namespace: -1,
        object: step.plan.slot,
        ...(step.plan.sentRbac ? { body: { sentRbac: step.plan.sentRbac } } : {}),
      });
      response = result.response;
      this.state = result.state;
    } else if (step.plan.type === 'configuration') {
      const { verb, slot, version } = step.plan;
      const result = this.model.handle(this.state, {
        principal: step.principal,
        verb,
        target: 'configuration',
        namespace: -1,
        object: -1,
        configuration: { slot, version },
      });
      response = result.response;
      this.state = result.state;
    } else {
      const command = this.commandFor(step.principal, step.plan);
      if (typeof command === 'string') return unsupported(command);
      const ready = command.check(this.model);
      if (ready !== true) return unsupported(ready);
      namespace = command.data.namespace;
      const { event, next } = command.run(this.model, this.state);
      response = event.response;
      // A list inside one namespace names its items plainly; across namespaces as NAMESPACE/NAME.
      items = namespace >= 0 ? event.items?.map((item) => item.slice(item.indexOf('/') + 1)) : event.items;
      this.state = next;
    }
    report.outcome = outcomeText(response, items);
    const diffs = compareResponse(step.expect, response, items);
    if (diffs.length > 0) {
      report.ok = false;
      const previous = this.state;
      this.state = before;
      report.mismatch = [
        ...this.responseMismatch(step.expect, response, items, diffs, namespace),
        ...(response?.code === 403 && !response.cause
          ? this.grantsOf(step.principal).map((g) => `rbac:     ${g}`)
          : []),
      ];
      this.state = previous;
    }
    return report;
  }

  private actorEvents(actor: string, kinds: readonly string[], namespace?: number) {
    return actorEvents(this.model, this.state, actor, kinds, namespace);
  }

  private describeEvent(e: SystemEvent, changed: boolean): string {
    const response = e.response ? ` → ${outcomeText(e.response, e.items)}` : '';
    return `${e.label}${response}${changed ? '' : ' (no change)'}`;
  }

  controller(step: Extract<CompiledStep, { kind: 'controller' }>): StepReport {
    const report = blankReport(step);
    const refused = new Set<string>();
    let taken = 0;
    for (;;) {
      const events = this.actorEvents(step.actor, [step.actorKind], step.namespace);
      const current = this.key(this.state);
      const changing = events.find((e) => this.key(e.next) !== current);
      for (const e of events)
        if (this.key(e.next) === current) refused.add(this.describeEvent(e.event, false));
      if (step.mode === 'step') {
        const chosen = controllerStep(this.model, this.state, step.actor, [step.actorKind], step.namespace);
        if (!chosen) {
          report.ok = false;
          report.outcome = 'nothing to do';
          report.mismatch = [
            `expected: ${step.actor} to act`,
            `got:      ${step.actor} has nothing to do`,
            ...this.explain(step.namespace ?? -1).map((f) => `state:    ${f}`),
          ];
          return report;
        }
        this.state = chosen.next;
        report.outcome = this.describeEvent(chosen.event, this.key(chosen.next) !== current);
        if (step.expect) {
          const diffs = compareResponse(step.expect, chosen.event.response, chosen.event.items);
          if (diffs.length > 0) {
            report.ok = false;
            report.mismatch = this.responseMismatch(
              step.expect,
              chosen.event.response,
              undefined,
              diffs,
              chosen.event.namespace,
            );
          }
        }
        return report;
      }
      if (!changing) break;
      if (++taken > runLimit) {
        report.ok = false;
        report.mismatch = [`${step.actor} still acting after ${runLimit} actions: a livelock in the model?`];
        break;
      }
      report.actions.push(this.describeEvent(changing.event, true));
      this.state = changing.next;
    }
    report.actions.push(...refused);
    report.outcome = taken === 0 ? 'nothing to do' : `${taken} action${taken === 1 ? '' : 's'}`;
    return report;
  }

  private applyFault(actor: string, fault: FaultKind): SystemEvent | null {
    const found = this.model
      .enabled(this.state)
      .find((e) => e.event.actor === actor && e.event.fault === fault);
    if (!found) return null;
    this.state = found.next;
    return found.event;
  }

  /** The initializer controller of this name is down (its restart is enabled). */
  private crashed(actor: string): boolean {
    return this.model
      .enabled(this.state)
      .some((e) => e.event.actor === actor && e.event.fault === 'initializer-restart');
  }

  fault(step: Extract<CompiledStep, { kind: 'fault' }>): StepReport {
    const report = blankReport(step);
    if (step.actor === 'apiserver') {
      const event = this.applyFault('apiserver', 'apiserver-restart');
      report.outcome = event ? event.label : 'apiserver restarts (no timer was armed)';
      return report;
    }
    const event = this.applyFault(
      step.actor,
      step.action === 'crash' ? 'initializer-crash' : 'initializer-restart',
    );
    if (!event && step.action === 'crash' && this.crashed(step.actor)) {
      // A fault already in force stays in force: crashing a crashed controller changes nothing.
      report.outcome = `${step.actor} is already crashed (no change)`;
      return report;
    }
    if (!event) {
      report.ok = false;
      report.outcome = 'not possible';
      report.mismatch = [
        `cannot ${step.action} ${step.actor}: it is ${step.action === 'crash' ? 'not running' : 'running'}`,
      ];
      return report;
    }
    report.outcome = event.label;
    return report;
  }

  configRead(step: Extract<CompiledStep, { kind: 'config-read' }>): StepReport {
    const report = blankReport(step);
    if (this.model.configReadsFailing(this.state) && step.failing) {
      // A fault already in force stays in force: reads keep failing.
      report.outcome = 'configuration reads are already failing (no change)';
      return report;
    }
    if (this.model.configReadsFailing(this.state) === step.failing) {
      report.ok = false;
      report.outcome = 'not possible';
      report.mismatch = [`configuration reads are already ${step.failing ? 'failing' : 'working'}`];
      return report;
    }
    const event = this.applyFault('fault', step.failing ? 'config-read-failing' : 'config-read-recovering');
    if (!event) {
      report.ok = false;
      report.outcome = 'not possible';
      report.mismatch = [
        'the model offers no configuration-read fault: is configReadFailure off in the scope?',
      ];
      return report;
    }
    report.outcome = event.label;
    return report;
  }

  tick(step: Extract<CompiledStep, { kind: 'tick' }>): StepReport {
    const report = blankReport(step);
    for (let second = 0; second < step.seconds; second++) {
      const clock = clockSecond(this.model, this.state);
      if (!clock) {
        report.ok = false;
        report.mismatch = [`the clock stopped at ${this.elapsed}s: an expired timer did not fire`];
        return report;
      }
      this.elapsed += 1;
      this.state = clock.next;
      for (const timer of expiredTimers(this.model, this.state)) {
        report.actions.push(`at ${this.elapsed}s ${timer.event.label}`);
        this.state = timer.next;
      }
    }
    const fresh = this.model.configurationFresh(this.state);
    report.outcome = `clock ${this.elapsed}s; admission configuration ${fresh ? 'fresh' : 'stale'}`;
    return report;
  }

  check(step: Extract<CompiledStep, { kind: 'check' }>): StepReport {
    const report = blankReport(step);
    const view = this.model.view(this.state, step.namespace);
    const exists = view.value !== 'absent' && view.value !== 'removed';
    const c = step.check;
    const got: Record<string, string> = {};
    const expected: Record<string, string> = {};
    const compare = (
      field: string,
      want: unknown,
      have: unknown,
      equal = JSON.stringify(want) === JSON.stringify(have),
    ) => {
      if (want === undefined) return;
      got[field] = JSON.stringify(have);
      if (!equal) expected[field] = JSON.stringify(want);
    };
    compare('exists', c.exists, exists);
    if (exists || c.exists !== false) {
      compare('phase', c.phase, exists ? phaseOf(view.value) : null);
      if (c.finalizers)
        compare('finalizers', c.finalizers, view.finalizers, sameSet(c.finalizers, view.finalizers));
      if (c.metadataFinalizers)
        compare(
          'metadataFinalizers',
          c.metadataFinalizers,
          view.metadataFinalizers,
          sameSet(c.metadataFinalizers, view.metadataFinalizers),
        );
      compare('pending', c.pending, view.pending);
      compare('creator', c.creator, view.creator ?? null);
      if (c.result !== undefined) {
        const have = view.failure ? { status: 'Failure', reason: view.failure.reason } : 'none';
        const want = c.result;
        const equal =
          want === 'none'
            ? have === 'none'
            : have !== 'none' && (want.reason === undefined || want.reason === have.reason);
        compare('result', want, have, equal);
      }
      compare('conditions', c.conditions, exists ? conditionsOf(view.value, view.hadInitializers) : {});
      if (c.deletionTimestamp !== undefined) {
        const have = this.deletionStamps.get(step.namespace) ?? null;
        const equal =
          typeof c.deletionTimestamp === 'boolean'
            ? c.deletionTimestamp === (have !== null)
            : c.deletionTimestamp === have;
        compare('deletionTimestamp', c.deletionTimestamp, have === null ? false : have, equal);
      }
      if (c.timer !== undefined) {
        const t = view.failOpenTimer;
        compare('timer', c.timer, t ? { initializer: t.initializer, ageSeconds: t.ageSeconds } : 'none');
      }
    }
    if (c.objects) {
      const have = this.model.objects
        .map((o, slot) => ({ o, slot }))
        .filter(({ slot }) => view.content & (1 << slot))
        .map(({ o }) => `${kindOfResource(o.resource)}/${o.name}`);
      const want = c.objects.map((o) => `${o.kind ?? o.resource}/${o.name}`);
      compare('objects', want, have, sameSet(want, have));
    }
    if (c.externalContent) {
      const have = this.scenario.scope.finalizerOwners.filter((_, k) => view.external & (1 << k));
      compare('externalContent', c.externalContent, have, sameSet(c.externalContent, have));
    }
    report.outcome = Object.entries(got)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const wrong = Object.keys(expected);
    if (wrong.length > 0) {
      report.ok = false;
      report.mismatch = [
        ...wrong.map((k) => `${k}: expected ${expected[k]}, got ${got[k]}`),
        ...this.explain(step.namespace).map((f) => `state:    ${f}`),
      ];
    }
    return report;
  }

  /** Admission's configuration copy against the step's expectation: fresh or stale, and the names read. */
  admission(step: Extract<CompiledStep, { kind: 'admission' }>): StepReport {
    const report = blankReport(step);
    const fresh = this.model.configurationFresh(this.state);
    const read = this.model.configurationsRead(this.state);
    const wrong: string[] = [];
    if (step.check.fresh !== undefined && step.check.fresh !== fresh)
      wrong.push(`fresh: expected ${step.check.fresh}, got ${fresh}`);
    if (step.check.read && !sameSet(step.check.read, read))
      wrong.push(`read: expected ${JSON.stringify(step.check.read)}, got ${JSON.stringify(read)}`);
    report.outcome = `fresh ${fresh}, read ${JSON.stringify(read)}`;
    if (wrong.length > 0) {
      report.ok = false;
      report.mismatch = [...wrong, ...this.explain(-1).map((f) => `state:    ${f}`)];
    }
    return report;
  }

  /**
   * A liveness expectation: every fair continuation from the state reached so far meets one of its
   * conditions. A failure names the run that does not: its path, then its cycle, repeated forever.
   */
  eventually(step: Extract<CompiledStep, { kind: 'eventually' }>): StepReport {
    const report = blankReport(step);
    const wanted = step.expectation.any.map(conditionText).join(' or ');
    const fair = step.expectation.fair.length > 0 ? step.expectation.fair.join(', ') : 'nothing';
    const verdict = judgeEventually(this.model, this.state, step.expectation, step.slots);
    switch (verdict.status) {
      case 'reached':
        report.outcome = 'holds already';
        return report;
      case 'holds':
        report.outcome = `every fair continuation gets there (${verdict.states} states searched, fair: ${fair})`;
        return report;
      case 'incomplete':
        report.ok = false;
        report.outcome = 'not judged';
        report.mismatch = [
          `expected: every fair continuation reaches ${wanted}`,
          `got:      no verdict: ${verdict.reason}; narrow the scope (given.scope) so the judge can search it whole`,
        ];
        return report;
      case 'violated': {
        const { lasso } = verdict;
        const line = (e: SystemEvent | null) => (e ? e.label : 'nothing happens (the state stays)');
        const path = lasso.steps.slice(0, lasso.loopStart).map((s) => line(s.event));
        const cycle = lasso.steps.slice(lasso.loopStart).map((s) => line(s.event));
        report.ok = false;
        report.outcome = `a fair cycle never gets there (${verdict.states} states searched)`;
        report.mismatch = [
          `expected: every fair continuation reaches ${wanted}`,
          `got:      a fair run that never does: ${path.length === 0 ? 'from here' : `${path.length} step${path.length === 1 ? '' : 's'}`}, then a cycle repeated forever`,
          ...path.map((l, i) => `path:     ${i + 1}. ${l}`),
          ...cycle.map((l, i) => `cycle:    ${i + 1}. ${l}`),
          ...verdict.fairness.map((f) => `fair:     ${f}`),
          ...this.explain(step.slots.find((s) => s >= 0) ?? -1).map((f) => `state:    ${f}`),
        ];
        return report;
      }
    }
  }

  step(step: CompiledStep): StepReport {
    // One method per kind of step; the mapped type makes a kind without its method a type error.
    const byKind: { [K in CompiledStep['kind']]: (s: Extract<CompiledStep, { kind: K }>) => StepReport } = {
      request: (s) => this.request(s),
      controller: (s) => this.controller(s),
      fault: (s) => this.fault(s),
      'config-read': (s) => this.configRead(s),
      tick: (s) => this.tick(s),
      check: (s) => this.check(s),
      admission: (s) => this.admission(s),
      eventually: (s) => this.eventually(s),
    };
    // TypeScript cannot correlate the key with the step it came from, so the table is read as one signature.
    return (byKind[step.kind] as (s: CompiledStep) => StepReport)(step);
  }
}

/** Sees each state a replay reaches: the initial one (step null), then the one after every step. */
export type ReplayObserver = (
  model: CheckedSystemModel,
  state: SystemState,
  step: CompiledStep | null,
) => void;

/** Replays a compiled scenario to the end; every step runs even after a mismatch. */
export function replayCompiled(scenario: CompiledScenario, observe?: ReplayObserver): ScenarioReport {
  const replay = new Replay(scenario);
  const setup = scenario.unsupported.map(
    (u) => `line ${u.line}: ${u.field}: unsupported by the model: ${u.problem}`,
  );
  observe?.(replay.model, replay.state, null);
  const steps = scenario.steps.map((step) => {
    const report = replay.step(step);
    observe?.(replay.model, replay.state, step);
    return report;
  });
  const mismatches = setup.length + steps.filter((s) => !s.ok).length;
  const status: ScenarioStatus = scenario.pending
    ? mismatches > 0
      ? 'pending'
      : 'failed'
    : mismatches > 0
      ? 'failed'
      : 'passed';
  return {
    file: scenario.file,
    title: scenario.title,
    requirements: scenario.requirements,
    variant: scenario.variant,
    ...(scenario.pending ? { pending: scenario.pending } : {}),
    status,
    setup,
    steps,
    mismatches,
  };
}

/** Loads and compiles one file (its YAML from `parsedTexts` when kept there); a malformed file gives its one-line error instead. */
export function prepareScenario(
  file: string,
  source?: string,
  variant?: string,
  parsedTexts?: ParsedTextCache,
): CompiledScenario | ScenarioFileError {
  let loaded: LoadedScenario;
  try {
    loaded = loadScenario(file, source, parsedTexts);
    // `--variant`: the same steps on other machines, to compare a design with the model.
    if (variant !== undefined) loaded = { ...loaded, header: { ...loaded.header, variant } };
  } catch (error) {
    if (error instanceof ScenarioFileError) return error;
    return new ScenarioFileError(
      file,
      1,
      '',
      `cannot read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    const compiled = compileScenario(loaded);
    // A design alternative may change a scope option, a seeded fault the scope's data (variants/variants.ts).
    return { ...compiled, scope: scopeFor(compiled.variant, compiled.scope) };
  } catch (error) {
    if (error instanceof ScenarioFieldError) return locateFieldError(loaded, error);
    return new ScenarioFileError(
      file,
      1,
      '',
      `cannot compile: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Loads, compiles and replays one file: never throws. */
export function replayFile(file: string, source?: string, variant?: string): ScenarioReport {
  const prepared = prepareScenario(file, source, variant);
  if (prepared instanceof ScenarioFileError)
    return {
      file,
      title: '',
      requirements: [],
      variant: '',
      status: 'malformed',
      setup: [],
      steps: [],
      mismatches: 1,
      error: prepared.message,
    };
  try {
    return replayCompiled(prepared);
  } catch (error) {
    return {
      file,
      title: prepared.title,
      requirements: prepared.requirements,
      variant: prepared.variant,
      status: 'failed',
      setup: [],
      steps: [],
      mismatches: 1,
      error: `${file}: the model failed while replaying: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
