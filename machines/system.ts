import { packedKey } from '../checker/engine/outcome-memo.ts';
import { RequestOutcomes } from '../checker/engine/request-outcomes.ts';
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

/** The global fields a configuration request writes. */
type ConfigurationGlobals = Pick<SystemState, 'configSync' | 'faults' | 'registeredConfigs'>;

export * from './system-types.ts';

/**
 * The composed system, read like TLA+'s `Next`: a disjunction of named actions, each routed to the
 * module that takes it (machines/actions/*, the API server for requests). No rule of the documents
 * is decided here; the state space and its interning are SystemSpace's, the views SystemViews'.
 */
export class SystemModel extends SystemViews {
  readonly apiserver = new ApiServer(this);
  /** Every command a principal of the scope may send, expanded once from the templates. */
  private readonly principalRequestTable: { command: RequestCommand; id: number }[];
  /**
   * What a request reads and writes: a request into one namespace reads that namespace, the
   * configuration copy and the RoleBindings, and writes that namespace; a configuration request reads
   * the copy, faults, store and RoleBindings, and writes those global fields. Its outcome is
   * remembered under these reads (checker/engine/request-outcomes.ts).
   */
  private readonly outcomes = new RequestOutcomes<
    SystemState,
    SystemEvent,
    NamespaceState,
    ConfigurationGlobals
  >({
    // Namespace states are interned below 2^20; the copy's lane and the RoleBinding mask below 2^16.
    namespacedBits: [20, 16, 16],
    namespacedReads: (s, ns) => [s.namespaces[ns].id, s.configSync, this.authorizer.roleBindingMask(s)],
    namespaceOf: (s, ns) => s.namespaces[ns],
    withNamespace: (s, ns, state) => this.withNamespaceState(s, ns, state),
    globalReads: (s) => [s.configSync, s.faults, s.registeredConfigs, this.authorizer.roleBindingMask(s)],
    globalsOf: ({ configSync, faults, registeredConfigs }) => ({ configSync, faults, registeredConfigs }),
    withGlobals: (s, globals) => ({ ...s, ...globals }),
    wroteOnlyGlobals: (before, after) =>
      after.namespaces === before.namespaces && after.initializers === before.initializers,
  });

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

  /** A state is its global lanes, its namespaces' interned states and its controllers' snapshots. */
  key(s: SystemState): string {
    return packedKey([
      s.configSync,
      s.faults,
      s.registeredConfigs,
      ...s.namespaces.map((ns) => ns.id),
      ...s.initializers,
      // Only in a scope with requestable cluster objects (D-23): other scopes' keys stay as they were.
      ...(s.clusterObjects === undefined ? [] : [s.clusterObjects]),
    ]);
  }

  successors(s: SystemState, emit: (event: SystemEvent, next: SystemState) => void): void {
    for (const e of this.enabled(s)) emit(e.event, e.next);
  }

  /** Everything that can happen next, in a fixed order (determinism): each action of the list in turn. */
  enabled(s: SystemState): Enabled[] {
    const out: Enabled[] = [];
    this.stepTables.enabledSteps(this.actions, s, s.initializers, out);
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

  /** Performs a request and packages it as an event; its outcome is remembered under what it reads. */
  perform(s: SystemState, command: RequestCommand, knownId?: number): Enabled {
    const { request, actor, actorKind } = command;
    const id = knownId ?? this.requestId(request, actor, actorKind);
    const uncached = () => this.performUncached(s, command);
    if (request.target === 'configuration') return this.outcomes.onGlobals(s, id, uncached);
    // A cluster object request reads the RBAC context and writes only `clusterObjects`: not remembered.
    if (request.target === 'cluster-object') return uncached();
    if (request.namespace < 0) return uncached();
    return this.outcomes.inNamespace(s, request.namespace, id, uncached);
  }

  private requestId(request: ApiRequest, actor: string, actorKind: ActorKind): number {
    return this.outcomes.id({ actor, actorKind, request });
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
