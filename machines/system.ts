import { ListedOutcomeMemo, PackedOutcomeMemo, ValueInterner } from '../checker/engine/outcome-memo.ts';
import { StepTables } from '../checker/engine/step-tables.ts';
import { ApiServer, type Served } from './apiserver.ts';
import { command, type RequestCommand } from './commands.ts';
import { designOf } from './design-options.ts';
import { defaultMachines, type MachineSet } from './machine-set.ts';
import { expandTemplate } from './requests.ts';
import { configurationAdministrator, type Scope } from './scope.ts';
import { type SystemAction, systemActions } from './system-actions.ts';
import type {
  ActorKind,
  ApiRequest,
  Enabled,
  NamespaceState,
  SystemEvent,
  SystemState,
} from './system-types.ts';
import { SystemViews } from './system-views.ts';

export { defaultMachines, type MachineSet } from './machine-set.ts';

export * from './system-types.ts';

/**
 * The composed system, read like TLA+'s `Next`: a disjunction of named actions, each routed to the
 * module that takes it (machines/actions/*, the API server for requests). No rule of the documents
 * is decided here; the state space and its interning are SystemSpace's, the views SystemViews'.
 */
export class SystemModel extends SystemViews {
  readonly apiserver = new ApiServer(this);
  /** Requests interned by all they hold (sender and whole body): the id their outcomes are remembered under. */
  private readonly requestIds = new ValueInterner();
  /** Every command a principal of the scope may send, expanded once from the templates. */
  private readonly principalRequestTable: { command: RequestCommand; id: number }[];
  /** Per request id: outcomes by what a namespaced request reads (namespace state, configuration copy, RoleBindings). */
  private readonly outcomeTables = new PackedOutcomeMemo<{
    event: SystemEvent;
    namespace: NamespaceState | null;
  }>([20, 16, 16]);

  /** Per request id: configuration requests' outcomes by what they read (copy, faults, store, RoleBindings). */
  private readonly configurationOutcomes = new ListedOutcomeMemo<{
    event: SystemEvent;
    globals: Pick<SystemState, 'configSync' | 'faults' | 'registeredConfigs'> | null;
  }>();

  /** Per configuration slot, the cluster admin's create, and its update and delete per version (FP-3). */
  private readonly configurationCommands: {
    create: RequestCommand;
    get: RequestCommand;
    update: RequestCommand[];
    delete: RequestCommand[];
  }[];

  /** Each local action's outcomes, memoized by (its namespace's state, the global context) (checker/engine/step-tables.ts). */
  readonly stepTables: StepTables<SystemModel, SystemState, NamespaceState, SystemEvent>;
  /** `Next` as a fixed-order list of actions with their footprints (system-actions.ts). */
  readonly actions: readonly SystemAction[];

  constructor(scope: Scope, machines: MachineSet = defaultMachines) {
    super(scope, machines);
    const admin = {
      actor: configurationAdministrator.name,
      actorKind: 'principal' as const,
      principal: configurationAdministrator,
    };
    this.configurationCommands = scope.configurations.map((c, slot) => {
      const versions = [...Array((c.updates?.length ?? 0) + 1).keys()];
      const at = (verb: 'create' | 'get' | 'update' | 'delete', version: number) =>
        command({ ...admin, kind: 'configuration', namespace: -1, verb, slot, version });
      return {
        create: at('create', 0),
        get: at('get', 0),
        update: versions.map((v) => at('update', v)),
        delete: versions.map((v) => at('delete', v)),
      };
    });
    this.principalRequestTable = scope.principals.flatMap((principal) =>
      principal.requests.flatMap((template) =>
        expandTemplate(this.scope, this.objects, template, principal).map((command) => {
          const ready = command.check(this);
          if (ready !== true) throw new Error(`scope ${scope.name}: ${principal.name} ${template}: ${ready}`);
          return { command, id: this.requestId(command.request, command.actor, command.actorKind) };
        }),
      ),
    );
    this.stepTables = new StepTables<SystemModel, SystemState, NamespaceState, SystemEvent>(
      this,
      [this.principalRequestTable.length, this.initializers.length, 1, scope.finalizerOwners.length, 1],
      scope.namespaces.length,
      (s) => this.authorizer.roleBindingMask(s),
      // The initializer controllers' snapshots: each read by its own controller's actions only.
      ['initializers'],
      // A list across namespaces reads each one's lifecycle and content, not its timer.
      (ns) => `${ns.lifecycle}.${ns.content}`,
    );
    this.actions = systemActions(this);
  }

  key(s: SystemState): string {
    const parts: number[] = [s.configSync, s.faults, s.registeredConfigs];
    for (const ns of s.namespaces) parts.push(ns.id);
    for (const i of s.initializers) parts.push(i);
    return String.fromCharCode(...parts);
  }

  successors(s: SystemState, emit: (event: SystemEvent, next: SystemState) => void): void {
    for (const e of this.enabled(s)) emit(e.event, e.next);
  }

  /** Everything that can happen next, in a fixed order (determinism): each action of the list in turn. */
  enabled(s: SystemState): Enabled[] {
    const out: Enabled[] = [];
    const tables = this.stepTables;
    const context = tables.context(s);
    let wide: string | undefined;
    for (const a of this.actions) {
      if (a.type === 'global') a.step(this, s, out);
      else if (a.type === 'wide') {
        wide ??= tables.wideContext(s, context);
        tables.runWide(a.j, s, wide, a.step, out);
      } else {
        const own = a.controller < 0 ? context : tables.withController(context, s.initializers[a.controller]);
        tables.run(a.kind, a.k, a.i, s, own, a.step, out);
      }
    }
    return out;
  }

  /** The scope's j-th principal request and its id. */
  principalCommand(j: number): { command: RequestCommand; id: number } {
    return this.principalRequestTable[j];
  }

  /** Every principal request of the scope, in order. */
  principalCommands(): readonly { command: RequestCommand; id: number }[] {
    return this.principalRequestTable;
  }

  /** The events enabled in a state, without their successors. */
  enabledEvents(s: SystemState): SystemEvent[] {
    return this.enabled(s).map((e) => e.event);
  }

  /**
   * Performs a request and packages it as an event. A request into one namespace reads only that
   * namespace, the configuration copy and the RoleBindings, so its outcome is memoized on those.
   */
  perform(s: SystemState, command: RequestCommand, knownId?: number): Enabled {
    const { request, actor, actorKind } = command;
    const requestId = knownId ?? this.requestId(request, actor, actorKind);
    if (request.target === 'configuration') return this.performOnConfiguration(s, command, requestId);
    if (request.namespace < 0) return this.performUncached(s, command);
    const ns = s.namespaces[request.namespace];
    const key = this.outcomeTables.key([ns.id, s.configSync, this.authorizer.roleBindingMask(s)]);
    const memo = this.outcomeTables.get(requestId, key);
    if (memo)
      return {
        event: memo.event,
        next: memo.namespace ? this.withNamespaceState(s, request.namespace, memo.namespace) : s,
      };
    const performed = this.performUncached(s, command);
    const changed = performed.next !== s;
    this.outcomeTables.set(requestId, key, {
      event: performed.event,
      namespace: changed ? performed.next.namespaces[request.namespace] : null,
    });
    return performed;
  }

  /**
   * A configuration request reads the global fields (copy, faults, store) and the RoleBindings, and
   * writes only global fields: memoized on those. One that changed anything else is not remembered.
   */
  private performOnConfiguration(s: SystemState, command: RequestCommand, requestId: number): Enabled {
    const key = this.configurationOutcomes.key(requestId, [
      s.configSync,
      s.faults,
      s.registeredConfigs,
      this.authorizer.roleBindingMask(s),
    ]);
    const memo = this.configurationOutcomes.get(key);
    if (memo)
      return {
        event: memo.event,
        next: memo.globals ? { ...s, ...memo.globals } : s,
      };
    const performed = this.performUncached(s, command);
    const { next } = performed;
    if (next.namespaces === s.namespaces && next.initializers === s.initializers) {
      const { configSync, faults, registeredConfigs } = next;
      const globals = next === s ? null : { configSync, faults, registeredConfigs };
      this.configurationOutcomes.set(key, { event: performed.event, globals });
    }
    return performed;
  }

  private requestId(request: ApiRequest, actor: string, actorKind: ActorKind): number {
    return this.requestIds.id({ actor, actorKind, request });
  }

  private performUncached(s: SystemState, command: RequestCommand): Enabled {
    const { request, actor, actorKind } = command;
    const result = this.handle(s, request);
    const event = this.internEvent({
      actor,
      actorKind,
      command: command.data,
      label: this.describeRequest(s, request),
      request: {
        ...request,
        callerMayInitialize: result.callerMayInitialize,
        changesInitializers: result.changesInitializers,
      },
      response: result.response,
      namespace: request.namespace,
      transitions: result.transitions,
      ...(result.items ? { items: result.items } : {}),
      ...(request.configuration
        ? { configuration: this.scope.configurations[request.configuration.slot].name }
        : {}),
    });
    return { event, next: result.state };
  }

  /** Serves one request on the API server (machines/apiserver.ts). */
  handle(s: SystemState, r: ApiRequest): Served {
    return this.apiserver.handle(s, r);
  }

  describeRequest(s: SystemState, r: ApiRequest): string {
    return this.apiserver.describeRequest(s, r);
  }

  /** Configuration slots the cluster admin manages: registered later, deletable or updated (AC-3, FP-3). */
  managedConfigurations(): number[] {
    return this.scope.configurations.flatMap((c, k) =>
      c.registered === 'later' || c.deletable || (c.updates?.length ?? 0) > 0 ? [k] : [],
    );
  }

  /**
   * The cluster admin's requests on configuration k: each is a request the pipeline decides like any
   * other (RBAC, admission, validation, storage). Reads only the global lanes (and the RoleBindings).
   */
  configurationRequests(s: SystemState, k: number, out: Enabled[]): void {
    const byVersion = this.configurationCommands[k];
    // The admin also reads the configuration and applies its create again while it is stored, as `kubectl get` and a repeated `kubectl create` do (404, 409).
    const commands = [byVersion.get, byVersion.create];
    const stored = this.storedVersion(s, k);
    if (stored !== null) {
      // Updates are successive edits: the next one the scope lists, once each.
      if (stored < byVersion.update.length - 1) commands.push(byVersion.update[stored + 1]);
      if (this.scope.configurations[k].deletable) commands.push(byVersion.delete[stored]);
    }
    for (const command of commands) out.push(this.perform(s, command));
  }

  /** The state once the store changed; a design that reads storage before each create sees it at once. */
  registered(before: SystemState, s: SystemState): SystemState {
    if (s.registeredConfigs === before.registeredConfigs) return s;
    if (!designOf(this.scope).readBeforeEachRequest || this.configReadsFailing(s)) return s;
    return { ...s, configSync: this.readStore(s).next };
  }
}

export type { Operation } from './admission.ts';
export type { HttpOutcome } from './http.ts';
