import { ApiServer, type Served } from './apiserver.ts';
import { command, type RequestCommand } from './commands.ts';
import { designOf } from './design-options.ts';
import { defaultMachines, type MachineSet } from './machine-set.ts';
import { expandTemplate } from './requests.ts';
import { configurationAdministrator, type Scope } from './scope.ts';
import { type SystemAction, systemActions } from './system-actions.ts';
import type { ApiRequest, Enabled, SystemEvent, SystemState } from './system-types.ts';
import { SystemViews } from './system-views.ts';

export { defaultMachines, type MachineSet } from './machine-set.ts';

export * from './system-types.ts';

/**
 * The composed system, read like TLA+'s `Next`: a disjunction of named actions, each routed to the
 * module that takes it (machines/actions/*, the API server for requests). No rule of the documents
 * is decided here; the state space and its interning are SystemSpace's, the views SystemViews'.
 * Every step is computed as written, with no state key, step table or request memo: the checker's
 * model wraps this class with those (checker/model/system-model.ts), its step tables laid out by the
 * footprints `actions` declares.
 */
export class SystemModel extends SystemViews {
  readonly apiserver = new ApiServer(this);
  /** Every command a principal of the scope may send, expanded once from the templates. */
  private readonly principalRequestTable: { command: RequestCommand }[];

  /** Per configuration slot, the cluster admin's create, and its update and delete per version (FP-3). */
  private readonly configurationCommands: {
    create: RequestCommand;
    get: RequestCommand;
    update: RequestCommand[];
    delete: RequestCommand[];
  }[];

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
          return { command };
        }),
      ),
    );
    this.actions = systemActions(this);
  }

  successors(s: SystemState, emit: (event: SystemEvent, next: SystemState) => void): void {
    for (const e of this.enabled(s)) emit(e.event, e.next);
  }

  /** Everything that can happen next, in a fixed order (determinism): each action of the list in turn. */
  enabled(s: SystemState): Enabled[] {
    const out: Enabled[] = [];
    for (const a of this.actions) {
      if (a.type === 'local') a.step(this, s, a.k, a.i, out);
      else if (a.type === 'wide') a.step(this, s, a.j, -1, out);
      else a.step(this, s, out);
    }
    return out;
  }

  /** The scope's j-th principal request. */
  principalCommand(j: number): { command: RequestCommand } {
    return this.principalRequestTable[j];
  }

  /** Every principal request of the scope, in order. */
  principalCommands(): readonly { command: RequestCommand }[] {
    return this.principalRequestTable;
  }

  /** The events enabled in a state, without their successors. */
  enabledEvents(s: SystemState): SystemEvent[] {
    return this.enabled(s).map((e) => e.event);
  }

  /** Serves a request and packages it as an event with the state after it. */
  perform(s: SystemState, command: RequestCommand): Enabled {
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
