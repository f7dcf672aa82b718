import { admissionMachine, type Operation } from './admission.ts';
import { ApiServer, type Served } from './apiserver.ts';
import { type AuthorizationMachine, authorizationMachine } from './authorization.ts';
import { configSyncMachine } from './config-sync.ts';
import { designOf } from './design-options.ts';
import { failureInjectorMachine } from './failure-injector.ts';
import { finalizerOwnerMachine } from './finalizer-owner.ts';
import type { HttpOutcome } from './http.ts';
import { mergeInitializerConfigurations } from './initializer-config.ts';
import { initializerControllerMachine } from './initializer-controller.ts';
import { initializerTimeoutMachine } from './initializer-timeout.ts';
import { type NamespaceStateValue, namespaceMachine } from './namespace.ts';
import { kubernetesFinalizer, namespaceControllerMachine } from './namespace-controller.ts';
import { pipelineMachine } from './pipeline.ts';
import { RequestAuthorizer } from './request-authorization.ts';
import { expandTemplate } from './requests.ts';
import {
  finalizerOwnerAccount,
  type InitializerSpec,
  initializerAccount,
  namespaceControllerAccount,
  type ObjectSlot,
  type Scope,
} from './scope.ts';
import { MachineStepper } from './stepper.ts';
import { type TimerContext, type TimerStateValue, timerMachine } from './timer.ts';

/**
 * The composed system: the API server's store, every actor's machine snapshot and the faults in force,
 * as plain data. Time is relative (docs/time.md): no absolute clock, only ages kept by the machines
 * that compare them, each capped at its largest constant. Machine snapshots are interned ids (see
 * MachineStepper), so a state is a handful of small integers and its key is a short string.
 */
export interface NamespaceState {
  /** Intern id: equal namespace states are one object with one id. */
  id: number;
  /** Interned snapshot of the namespace lifecycle machine. */
  lifecycle: number;
  /** Content objects present, one bit per object slot. */
  content: number;
  /** External content present, one bit per finalizer owner (LC-8). */
  external: number;
  /** Interned snapshot of the apiserver's initializer timer for this namespace (FP-2, FP-4). */
  timer: number;
}

export interface SystemState {
  /** Interned snapshot of the admission configuration sync machine. */
  configSync: number;
  /** Interned snapshot of the failure injector: whether configuration reads fail (AC-2). */
  faults: number;
  /** Configurations present in the store, one bit per scope configuration. */
  registeredConfigs: number;
  namespaces: NamespaceState[];
  /** Interned snapshots of the initializer controllers, one per initializer. */
  initializers: number[];
}

/** One API request, in the model's own terms. */
export interface ApiRequest {
  principal: { name: string; groups: string[] };
  verb: Operation;
  target: 'namespace' | 'content';
  /** Namespace slot; -1 for a list across all namespaces. */
  namespace: number;
  /** Object slot for content requests; -1 for a list. */
  object: number;
  /** Resource for lists across namespaces or within one. */
  resource?: string;
  /** `namespaces/NAME/status` (NS-5): read or written like the namespace; never changes its spec. */
  subresource?: 'status';
  body?: {
    /** metadata.namespace as sent; must be empty or the path's (NS-4, D-14). */
    namespace?: string;
    /** A client-supplied pending list on create (only admission may set it: IN-3). */
    initializers?: string[];
    /** Remove this name from the pending list (the initializer protocol, IN-3). */
    removePending?: string;
    /** Remove whichever initializer is first pending when the request is served (IN-3). */
    removeFirstPending?: true;
    /** Finalize with the stored spec.finalizers minus `kubernetes`, as the namespace controller does (LC-6). */
    finalizeWithoutKubernetes?: true;
    /** Set a failure result (IN-7). */
    failure?: string;
    /** spec.finalizers as sent (ordinary update or finalize). */
    finalizers?: string[];
    /** Finalizers a create asks for besides `kubernetes`. */
    extraFinalizers?: string[];
  };
}

export type ActorKind =
  | 'principal'
  | 'initializer'
  | 'namespace-controller'
  | 'finalizer-owner'
  | 'apiserver'
  | 'clock'
  | 'fault';

/** One labelled step of the system: who did what and how it ended. Interned: equal steps share one object. */
export interface SystemEvent {
  actor: string;
  actorKind: ActorKind;
  label: string;
  request?: ApiRequest & { callerMayInitialize: boolean; changesInitializers: boolean };
  response?: HttpOutcome;
  /** The namespace slot the step addressed, or -1. */
  namespace: number;
  /** Machine transitions taken by the step, for coverage. */
  transitions: readonly string[];
  /** Names returned by a list. */
  items?: readonly string[];
  /** A fault's kind, as data: replay matches it, never the label's text. */
  fault?: FaultKind;
  /** The configuration a cluster administrator registers (AC-3, FP-3). */
  configuration?: string;
}

/** The faults a scope may allow (P's FailureInjector): each is one step some actor can take. */
export type FaultKind =
  | 'initializer-crash'
  | 'initializer-restart'
  | 'apiserver-restart'
  | 'config-read-failing'
  | 'config-read-recovering';

/** The whole cast of machines a system is built from; variants replace some of them. */
export interface MachineSet {
  namespace: typeof namespaceMachine;
  admission: typeof admissionMachine;
  pipeline: typeof pipelineMachine;
  configSync: typeof configSyncMachine;
  initializerController: typeof initializerControllerMachine;
  namespaceController: typeof namespaceControllerMachine;
  finalizerOwner: typeof finalizerOwnerMachine;
  initializerTimeout: typeof initializerTimeoutMachine;
  timer: typeof timerMachine;
  failureInjector: typeof failureInjectorMachine;
  authorization: AuthorizationMachine;
  /** Storage's own checks (NS-1, LC-2, NS-3), on unless a seeded fault turns one off. */
  storageChecks?: { uniqueNames: boolean; validNames: boolean };
}

export const defaultMachines: MachineSet = {
  namespace: namespaceMachine,
  admission: admissionMachine,
  pipeline: pipelineMachine,
  configSync: configSyncMachine,
  initializerController: initializerControllerMachine,
  namespaceController: namespaceControllerMachine,
  finalizerOwner: finalizerOwnerMachine,
  initializerTimeout: initializerTimeoutMachine,
  timer: timerMachine,
  failureInjector: failureInjectorMachine,
  authorization: authorizationMachine,
};

interface Enabled {
  event: SystemEvent;
  next: SystemState;
}

/** A view of one namespace that properties and reports read. */
export interface NamespaceView {
  name: string;
  value: NamespaceStateValue;
  pending: string[];
  failure: { reason: string } | null;
  finalizers: string[];
  /** Seconds since metadata.deletionTimestamp was set, capped at 1; null while not deleted (LC-3). */
  deletedSecondsAgo: number | null;
  /** Seconds since creation while Initializing, capped at the read-repair timeout; null otherwise (FP-4). */
  createdSecondsAgo: number | null;
  /** D-25: became ready once (IN-6 reads it, D-19). */
  initialized: boolean;
  /** Created with pending initializers: status shows the Initializing condition (D-22). */
  hadInitializers: boolean;
  content: number;
  external: number;
  /** The apiserver's timer on the first pending initializer, armed or expired (FP-2); null when none runs. */
  failOpenTimer: { initializer: string; ageSeconds: number } | null;
  /** The apiserver that armed the timer restarted and lost it: only read-repair is left (FP-4). */
  timerLost: boolean;
  system: boolean;
}

/** What the whole system shows besides its namespaces: admission's copy, the faults, the controllers. */
export interface SystemView {
  /** Seconds since the last successful configuration read, capped at the 5 s staleness bound (AC-2). */
  secondsSinceConfigRead: number;
  /** Admission's copy is fresh (the config-sync machine's state). */
  configurationFresh: boolean;
  /** The configuration-read fault is in force: every read fails. */
  configReadsFailing: boolean;
  /** Configurations in admission's copy, as last read (AC-3). */
  configurationsRead: string[];
  /** Configurations stored in the cluster. */
  configurationsRegistered: string[];
  /** Initializer controllers that are down. */
  crashedInitializers: string[];
}

/** Content objects a scope may have: one bit each in a namespace's content mask (bit 31 is the sign). */
export const maxContentObjects = 31;

/** The composed system; it has the shape the checker's explorer steps (initialStates, successors, key). */
export class SystemModel {
  readonly namespaceStepper: MachineStepper<typeof namespaceMachine>;
  readonly admissionStepper: MachineStepper<typeof admissionMachine>;
  readonly pipelineStepper: MachineStepper<typeof pipelineMachine>;
  readonly configSyncStepper: MachineStepper<typeof configSyncMachine>;
  readonly initializerStepper: MachineStepper<typeof initializerControllerMachine>;
  readonly namespaceControllerStepper: MachineStepper<typeof namespaceControllerMachine>;
  readonly finalizerOwnerStepper: MachineStepper<typeof finalizerOwnerMachine>;
  readonly timeoutStepper: MachineStepper<typeof initializerTimeoutMachine>;
  readonly timerStepper: MachineStepper<typeof timerMachine>;
  readonly faultStepper: MachineStepper<typeof failureInjectorMachine>;
  readonly authorizer: RequestAuthorizer;
  private readonly apiserver = new ApiServer(this);
  /** Every object slot: the scope's content, then each initializer's object. */
  readonly objects: ObjectSlot[];
  readonly initializers: InitializerSpec[];
  private readonly events = new Map<string, SystemEvent>();
  private readonly namespaceStates: NamespaceState[] = [];
  private readonly namespaceStateIds = new Map<string, number>();
  private readonly viewCache: WeakMap<NamespaceState, NamespaceView>[];
  private readonly requestIds = new Map<string, number>();
  /** Every request a principal of the scope may send, expanded once from the templates. */
  private readonly principalRequestTable: { request: ApiRequest; actor: string; id: number }[];
  /** Per request id: outcomes keyed by a number packing namespace state, configuration copy, clock and RoleBindings. */
  private readonly outcomeTables: Map<number, { event: SystemEvent; namespace: NamespaceState | null }>[] =
    [];
  private readonly mergedEvents = new WeakMap<SystemEvent, WeakMap<readonly string[], SystemEvent>>();

  constructor(
    readonly scope: Scope,
    readonly machines: MachineSet = defaultMachines,
  ) {
    this.namespaceStepper = new MachineStepper(machines.namespace);
    this.admissionStepper = new MachineStepper(machines.admission);
    this.pipelineStepper = new MachineStepper(machines.pipeline);
    this.configSyncStepper = new MachineStepper(machines.configSync, {
      configurations: scope.configurations.filter((c) => c.registered === 'initially').map((c) => c.name),
    });
    this.initializerStepper = new MachineStepper(machines.initializerController);
    this.namespaceControllerStepper = new MachineStepper(machines.namespaceController);
    this.finalizerOwnerStepper = new MachineStepper(machines.finalizerOwner);
    this.timeoutStepper = new MachineStepper(machines.initializerTimeout);
    this.timerStepper = new MachineStepper(machines.timer);
    this.faultStepper = new MachineStepper(machines.failureInjector);
    this.initializers = scope.configurations.flatMap((c) => c.initializers);
    const objects: ObjectSlot[] = [...scope.content];
    for (const init of this.initializers) {
      if (!objects.some((o) => o.resource === init.populates.resource && o.name === init.populates.name)) {
        objects.push(init.populates);
      }
    }
    // One content bit per object slot in a 32-bit integer: refuse a scope that would overflow it.
    if (objects.length > maxContentObjects)
      throw new Error(
        `scope ${scope.name}: ${objects.length} content objects (${objects.map((o) => `${o.resource}/${o.name}`).join(', ')}); the content mask holds ${maxContentObjects} — use fewer objects or initializers with shared objects`,
      );
    this.objects = objects;
    this.authorizer = new RequestAuthorizer(scope, objects, machines.authorization);
    this.viewCache = scope.namespaces.map(() => new WeakMap());
    this.principalRequestTable = scope.principals.flatMap((principal) => {
      const user = { name: principal.name, groups: principal.groups };
      const namespaces = scope.namespaces
        .map((ns, i) => ({ ns, i }))
        .filter(({ ns }) => !principal.namespaces || principal.namespaces.includes(ns.name));
      return principal.requests.flatMap((template) =>
        expandTemplate(this.scope, this.objects, template, user, namespaces).map((request) => ({
          request,
          actor: principal.name,
          id: -1,
        })),
      );
    });
    for (const entry of this.principalRequestTable)
      entry.id = this.requestId(entry.request, entry.actor, 'principal');
  }

  /** The one object for this namespace state (equal states share it, so identity is equality). */
  namespaceState(lifecycle: number, content: number, external: number, timer: number): NamespaceState {
    const key = `${lifecycle},${content},${external},${timer}`;
    let id = this.namespaceStateIds.get(key);
    if (id === undefined) {
      id = this.namespaceStates.length;
      this.namespaceStates.push({ id, lifecycle, content, external, timer });
      this.namespaceStateIds.set(key, id);
    }
    return this.namespaceStates[id];
  }

  // ---------------------------------------------------------------- state access

  initialStates(): SystemState[] {
    const existing = (spec: Scope['namespaces'][number]) => {
      const finalizers = [...(spec.initialFinalizers ?? [kubernetesFinalizer])].sort();
      const lifecycle = this.namespaceStepper.step(
        this.namespaceStepper.initial,
        { type: 'CREATE', pending: [], finalizers },
        `CREATE||${finalizers.join(',')}`,
      ).next;
      const content = (spec.initialContent ?? []).reduce((mask, path) => {
        const slot = this.objects.findIndex((o) => `${o.resource}/${o.name}` === path);
        if (slot < 0)
          throw new Error(
            `scope ${this.scope.name}: namespace ${spec.name} starts with unknown object ${path}`,
          );
        return mask | (1 << slot);
      }, 0);
      return this.namespaceState(lifecycle, content, 0, this.timerStepper.initial);
    };
    return [
      {
        configSync: this.configSyncStepper.initial,
        faults: this.faultStepper.initial,
        registeredConfigs: this.scope.configurations.reduce(
          (mask, c, i) => (c.registered === 'initially' ? mask | (1 << i) : mask),
          0,
        ),
        namespaces: this.scope.namespaces.map((ns) =>
          ns.system || ns.preexisting
            ? existing(ns)
            : this.namespaceState(this.namespaceStepper.initial, 0, 0, this.timerStepper.initial),
        ),
        initializers: this.initializers.map(() => this.initializerStepper.initial),
      },
    ];
  }

  key(s: SystemState): string {
    const parts: number[] = [s.configSync, s.faults, s.registeredConfigs];
    for (const ns of s.namespaces) parts.push(ns.id);
    for (const i of s.initializers) parts.push(i);
    return String.fromCharCode(...parts);
  }

  view(s: SystemState, index: number): NamespaceView {
    const ns = s.namespaces[index];
    const cached = this.viewCache[index].get(ns);
    if (cached) return cached;
    const snapshot = this.namespaceStepper.snapshot(ns.lifecycle);
    const spec = this.scope.namespaces[index];
    const view: NamespaceView = {
      name: spec.name,
      value: snapshot.value as NamespaceStateValue,
      pending: snapshot.context.pending,
      failure: snapshot.context.failure,
      finalizers: snapshot.context.finalizers,
      deletedSecondsAgo: snapshot.context.deletedSecondsAgo,
      createdSecondsAgo: snapshot.context.createdSecondsAgo,
      initialized: snapshot.context.initialized,
      hadInitializers: snapshot.context.hadInitializers,
      content: ns.content,
      external: ns.external,
      failOpenTimer: this.runningTimer(ns),
      timerLost: this.timerValue(ns) === 'lost',
      system: spec.system === true,
    };
    this.viewCache[index].set(ns, view);
    return view;
  }

  views(s: SystemState): NamespaceView[] {
    return s.namespaces.map((_, i) => this.view(s, i));
  }

  configurationFresh(s: SystemState): boolean {
    return this.configSyncStepper.value(s.configSync) === 'fresh';
  }

  /** Whole seconds since the last successful configuration read, capped at the staleness bound. */
  secondsSinceConfigRead(s: SystemState): number {
    return this.configSyncStepper.snapshot(s.configSync).context.secondsSinceRead;
  }

  systemView(s: SystemState): SystemView {
    return {
      secondsSinceConfigRead: this.secondsSinceConfigRead(s),
      configurationFresh: this.configurationFresh(s),
      configReadsFailing: this.configReadsFailing(s),
      configurationsRead: this.configurationsRead(s),
      configurationsRegistered: this.scope.configurations
        .filter((_, k) => s.registeredConfigs & (1 << k))
        .map((c) => c.name),
      crashedInitializers: this.initializers
        .filter((_, k) => this.initializerStepper.value(s.initializers[k]) === 'crashed')
        .map((i) => i.name),
    };
  }

  /** The configuration-read fault is in force (the failure injector's state). */
  configReadsFailing(s: SystemState): boolean {
    return this.faultStepper.value(s.faults) === 'readsFailing';
  }

  timerValue(ns: NamespaceState): TimerStateValue {
    return this.timerStepper.value(ns.timer) as TimerStateValue;
  }

  private timerContext(ns: NamespaceState): TimerContext {
    return this.timerStepper.snapshot(ns.timer).context;
  }

  /** The timer as a reader sees it: which initializer it times and for how long, while it runs. */
  private runningTimer(ns: NamespaceState): NamespaceView['failOpenTimer'] {
    const value = this.timerValue(ns);
    if (value !== 'armed' && value !== 'expired') return null;
    const { initializer, ageSeconds } = this.timerContext(ns);
    return initializer === null ? null : { initializer, ageSeconds };
  }

  /** The timer after `event` (ARM, REARM, DISARM, LOSE, TICK), with the transitions it took. */
  stepTimer(timer: number, event: Parameters<MachineStepper<typeof timerMachine>['step']>[1]) {
    const key =
      event.type === 'ARM' || event.type === 'REARM'
        ? `${event.type}|${event.initializer}|${event.timeoutSeconds}`
        : event.type;
    return this.timerStepper.step(timer, event, key);
  }

  /** The configurations admission last read (AC-3). */
  configurationsRead(s: SystemState): string[] {
    return this.configSyncStepper.snapshot(s.configSync).context.configurations;
  }

  /** The pending list admission injects for a namespace created now (IN-1). */
  pendingToInject(s: SystemState): string[] {
    const read = new Set(this.configurationsRead(s));
    return mergeInitializerConfigurations(
      this.scope.configurations
        .filter((c) => read.has(c.name))
        .map((c) => ({
          metadata: { name: c.name },
          initializers: c.initializers.map((i) => ({
            name: i.name,
            failurePolicy: i.failurePolicy,
            timeoutSeconds: i.timeoutSeconds,
          })),
        })),
    ).map((i) => i.name);
  }

  objectName(slot: number): string {
    const o = this.objects[slot];
    return `${o.resource}/${o.name}`;
  }

  // ---------------------------------------------------------------- successors

  successors(s: SystemState, emit: (event: SystemEvent, next: SystemState) => void): void {
    for (const e of this.enabled(s)) emit(e.event, e.next);
  }

  /** Everything that can happen next, in a fixed order (determinism). */
  enabled(s: SystemState): Enabled[] {
    const out: Enabled[] = [];
    this.principalRequests(s, out);
    this.initializerSteps(s, out);
    this.namespaceControllerSteps(s, out);
    this.finalizerOwnerSteps(s, out);
    this.apiserverSteps(s, out);
    this.configurationSteps(s, out);
    this.clockAndFaults(s, out);
    return out;
  }

  /** The events enabled in a state, without their successors. */
  enabledEvents(s: SystemState): SystemEvent[] {
    return this.enabled(s).map((e) => e.event);
  }

  private principalRequests(s: SystemState, out: Enabled[]): void {
    for (const { request, actor, id } of this.principalRequestTable)
      out.push(this.perform(s, request, actor, 'principal', id));
  }

  /**
   * Performs a request and packages it as an event. A request into one namespace reads only that
   * namespace, the configuration copy and the RoleBindings, so its outcome is memoized on those.
   */
  perform(
    s: SystemState,
    request: ApiRequest,
    actor: string,
    actorKind: ActorKind,
    knownId?: number,
  ): Enabled {
    const requestId = knownId ?? this.requestId(request, actor, actorKind);
    if (request.namespace < 0) return this.performUncached(s, request, actor, actorKind);
    const ns = s.namespaces[request.namespace];
    const rb = this.authorizer.roleBindingMask(s);
    // Bounds keep the packed key exact (below 2^53); beyond them the outcome is simply not memoized.
    const packable = ns.id < 1 << 20 && s.configSync < 1 << 16 && rb < 1 << 16;
    const local = packable ? (ns.id * 65536 + s.configSync) * 65536 + rb : -1;
    let table = this.outcomeTables[requestId];
    if (!table) {
      table = new Map();
      this.outcomeTables[requestId] = table;
    }
    const memo = packable ? table.get(local) : undefined;
    if (memo)
      return {
        event: memo.event,
        next: memo.namespace ? this.withNamespaceState(s, request.namespace, memo.namespace) : s,
      };
    const performed = this.performUncached(s, request, actor, actorKind);
    if (packable) {
      const changed = performed.next !== s;
      table.set(local, {
        event: performed.event,
        namespace: changed ? performed.next.namespaces[request.namespace] : null,
      });
    }
    return performed;
  }

  private requestId(request: ApiRequest, actor: string, actorKind: ActorKind): number {
    const b = request.body;
    const body = b
      ? `${b.initializers?.join(',') ?? '-'}|${b.removePending ?? ''}|${b.removeFirstPending ? 1 : 0}|${b.failure ?? ''}|${b.finalizers?.join(',') ?? '-'}|${b.finalizeWithoutKubernetes ? 1 : 0}|${b.extraFinalizers?.join(',') ?? ''}`
      : '';
    const key = `${actor}|${actorKind}|${request.principal.name}|${request.verb}|${request.target}|${request.namespace}|${request.object}|${request.resource ?? ''}|${request.subresource ?? ''}|${b?.namespace ?? ''}|${body}`;
    let id = this.requestIds.get(key);
    if (id === undefined) {
      id = this.requestIds.size;
      this.requestIds.set(key, id);
    }
    return id;
  }

  private withNamespaceState(s: SystemState, i: number, ns: NamespaceState): SystemState {
    if (s.namespaces[i] === ns) return s;
    const namespaces = s.namespaces.slice();
    namespaces[i] = ns;
    return { ...s, namespaces };
  }

  private performUncached(s: SystemState, request: ApiRequest, actor: string, actorKind: ActorKind): Enabled {
    const result = this.handle(s, request);
    const event = this.internEvent({
      actor,
      actorKind,
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

  internEvent(e: SystemEvent): SystemEvent {
    const key = `${e.actor}|${e.label}|${e.response?.code ?? ''}|${e.response?.cause ?? ''}|${e.transitions.join(',')}|${e.items?.join(',') ?? ''}|${e.request?.callerMayInitialize ?? ''}`;
    let found = this.events.get(key);
    if (!found) {
      found = e;
      this.events.set(key, e);
    }
    return found;
  }

  initializerSpec(name: string): InitializerSpec | undefined {
    return this.initializers.find((i) => i.name === name);
  }

  /** The state with namespace slot i replaced; fields not given keep their values. */
  withNamespace(s: SystemState, i: number, change: Partial<Omit<NamespaceState, 'id'>>): SystemState {
    const old = s.namespaces[i];
    const ns = this.namespaceState(
      change.lifecycle ?? old.lifecycle,
      change.content ?? old.content,
      change.external ?? old.external,
      change.timer ?? old.timer,
    );
    if (ns === old) return s;
    const namespaces = s.namespaces.slice();
    namespaces[i] = ns;
    return { ...s, namespaces };
  }

  // ---------------------------------------------------------------- controllers

  private initializerSteps(s: SystemState, out: Enabled[]): void {
    const account = {
      name: initializerAccount,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
    };
    this.initializers.forEach((spec, k) => {
      const controller = s.initializers[k];
      if (this.initializerStepper.value(controller) === 'running') {
        s.namespaces.forEach((_, i) => {
          const v = this.view(s, i);
          if (v.value !== 'initializing') return;
          const slot = this.objects.findIndex(
            (o) => o.resource === spec.populates.resource && o.name === spec.populates.name,
          );
          const observed = {
            firstPendingIsMe: v.pending[0] === spec.name,
            populated: (v.content & (1 << slot)) !== 0,
          };
          const kinds: ('RECONCILE' | 'PROVISIONING_FAILED')[] = spec.canFail
            ? ['RECONCILE', 'PROVISIONING_FAILED']
            : ['RECONCILE'];
          for (const type of kinds) {
            const step = this.initializerStepper.step(
              controller,
              { type, observed },
              `${type}|${observed.firstPendingIsMe}|${observed.populated}`,
            );
            for (const effect of step.emitted) {
              const base = { principal: account, namespace: i };
              const request: ApiRequest =
                effect.type === 'populateNamespace'
                  ? { ...base, verb: 'create', target: 'content', object: slot }
                  : effect.type === 'removeSelfFromPending'
                    ? {
                        ...base,
                        verb: 'update',
                        target: 'namespace',
                        object: -1,
                        body: { removePending: spec.name },
                      }
                    : {
                        ...base,
                        verb: 'update',
                        target: 'namespace',
                        object: -1,
                        body: { failure: effect.reason },
                      };
              const performed = this.perform(s, request, spec.name, 'initializer');
              out.push(this.withExtraTransitions(performed, step.transitions));
            }
          }
        });
      }
      if (this.scope.faults.initializerCrash && spec.canCrash !== false) {
        const type = this.initializerStepper.value(controller) === 'running' ? 'CRASH' : 'RESTART';
        const step = this.initializerStepper.step(controller, { type }, type);
        if (step.transitions.length > 0) {
          const initializers = s.initializers.slice();
          initializers[k] = step.next;
          out.push({
            event: this.internEvent({
              actor: spec.name,
              actorKind: 'fault',
              label: type === 'CRASH' ? `${spec.name} crashes` : `${spec.name} restarts`,
              fault: type === 'CRASH' ? 'initializer-crash' : 'initializer-restart',
              namespace: -1,
              transitions: step.transitions,
            }),
            next: { ...s, initializers },
          });
        }
      }
    });
  }

  /** The controller's own transitions join the request's; cached by identity (both are interned). */
  private withExtraTransitions(e: Enabled, extra: readonly string[]): Enabled {
    let byExtra = this.mergedEvents.get(e.event);
    if (!byExtra) {
      byExtra = new WeakMap();
      this.mergedEvents.set(e.event, byExtra);
    }
    let merged = byExtra.get(extra);
    if (!merged) {
      merged = this.internEvent({ ...e.event, transitions: [...extra, ...e.event.transitions] });
      byExtra.set(extra, merged);
    }
    return { next: e.next, event: merged };
  }

  private namespaceControllerSteps(s: SystemState, out: Enabled[]): void {
    const account = {
      name: namespaceControllerAccount,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
    };
    s.namespaces.forEach((ns, i) => {
      const v = this.view(s, i);
      if (v.value !== 'terminating') {
        // Only where DELETE leaves the phase to the controller (a design alternative of D-11): it sets Terminating.
        if (v.deletedSecondsAgo !== null && (v.value === 'active' || v.value === 'initializing'))
          out.push(
            this.perform(
              s,
              { principal: account, verb: 'delete', target: 'namespace', namespace: i, object: -1 },
              'namespace-controller',
              'namespace-controller',
            ),
          );
        return;
      }
      const observed = { contentRemains: ns.content !== 0, finalizers: v.finalizers };
      const step = this.namespaceControllerStepper.step(
        this.namespaceControllerStepper.initial,
        { type: 'SYNC', observed },
        `SYNC|${observed.contentRemains}|${observed.finalizers.join(',')}`,
      );
      for (const effect of step.emitted) {
        const slot = this.objects.findIndex((_, k) => (ns.content & (1 << k)) !== 0);
        const base = { principal: account, namespace: i };
        const request: ApiRequest | null =
          effect.type === 'deleteOneContentObject'
            ? slot >= 0
              ? { ...base, verb: 'delete', target: 'content', object: slot }
              : null
            : effect.type === 'finalizeKubernetes'
              ? {
                  ...base,
                  verb: 'finalize',
                  target: 'namespace',
                  object: -1,
                  body: { finalizeWithoutKubernetes: true },
                }
              : { ...base, verb: 'delete', target: 'namespace', object: -1 };
        if (request)
          out.push(
            this.withExtraTransitions(
              this.perform(s, request, 'namespace-controller', 'namespace-controller'),
              step.transitions,
            ),
          );
      }
    });
  }

  private finalizerOwnerSteps(s: SystemState, out: Enabled[]): void {
    this.scope.finalizerOwners.forEach((owner, k) => {
      const account = { name: finalizerOwnerAccount(owner), groups: ['system:serviceaccounts'] };
      s.namespaces.forEach((ns, i) => {
        const v = this.view(s, i);
        if (v.value === 'absent' || v.value === 'removed') return;
        const observed = {
          owner,
          namespaceActive: v.value === 'active',
          namespaceTerminating: v.value === 'terminating',
          finalizers: v.finalizers,
          externalContentExists: (ns.external & (1 << k)) !== 0,
        };
        const step = this.finalizerOwnerStepper.step(
          this.finalizerOwnerStepper.initial,
          { type: 'SYNC', observed },
          `SYNC|${owner}|${v.value}|${v.finalizers.join(',')}|${observed.externalContentExists}`,
        );
        for (const effect of step.emitted) {
          if (effect.type !== 'removeOwnFinalizer') {
            const provision = effect.type === 'provisionExternalContent';
            out.push({
              event: this.internEvent({
                actor: owner,
                actorKind: 'finalizer-owner',
                label: provision
                  ? `provisions its external content for ${v.name}`
                  : `purges its external content for ${v.name}`,
                namespace: i,
                transitions: step.transitions,
              }),
              next: this.withNamespace(s, i, {
                external: provision ? ns.external | (1 << k) : ns.external & ~(1 << k),
              }),
            });
          } else {
            const finalizers = effect.finalizers;
            const request: ApiRequest = {
              principal: account,
              verb: 'finalize',
              target: 'namespace',
              namespace: i,
              object: -1,
              body: { finalizers },
            };
            out.push(
              this.withExtraTransitions(this.perform(s, request, owner, 'finalizer-owner'), step.transitions),
            );
          }
        }
      });
    });
  }

  private apiserverSteps(s: SystemState, out: Enabled[]): void {
    s.namespaces.forEach((ns, i) => {
      // An expired timer fires before time passes on (FP-2: no later than timeoutSeconds).
      if (this.timerValue(ns) !== 'expired') return;
      const v = this.view(s, i);
      if (v.value !== 'initializing' || v.pending.length === 0) return;
      const first = this.initializerSpec(v.pending[0]);
      if (!first) return;
      const observed = { failurePolicy: first.failurePolicy, timerExpired: true, readRepairDue: false };
      const check = this.timeoutStepper.step(
        this.timeoutStepper.initial,
        { type: 'TIMER_CHECK', observed },
        `TIMER|${observed.failurePolicy}|true`,
      );
      if (check.emitted.length === 0) {
        // A design whose policy does nothing on expiry: the spent timer is dropped, so time is not locked.
        const timer = this.stepTimer(ns.timer, { type: 'DISARM' });
        out.push({
          event: this.internEvent({
            actor: 'apiserver',
            actorKind: 'apiserver',
            label: `timer: ${first.name} timed out on ${v.name} (${first.failurePolicy}: nothing acts on it)`,
            namespace: i,
            transitions: [...check.transitions, ...timer.transitions],
          }),
          next: this.withNamespace(s, i, { timer: timer.next }),
        });
      }
      for (const effect of check.emitted) {
        const transitions = [...check.transitions];
        let next: SystemState | null = null;
        let label = '';
        if (effect.type === 'removeTimedOutInitializer') {
          const step = this.namespaceStepper.step(
            ns.lifecycle,
            { type: 'REMOVE_PENDING', name: first.name },
            `REMOVE_PENDING|${first.name}`,
          );
          transitions.push(...step.transitions);
          next = this.apiserver.afterPendingChange(s, i, step.next, transitions);
          label = `timer: ${first.name} timed out on ${v.name} (Ignore: removed from pending)`;
        } else if (effect.type === 'failNamespaceWithTimeout') {
          const step = this.namespaceStepper.step(
            ns.lifecycle,
            { type: 'RECORD_FAILURE', reason: 'Timeout' },
            'RECORD_FAILURE|Timeout',
          );
          const timer = this.stepTimer(ns.timer, { type: 'DISARM' });
          transitions.push(...step.transitions, ...timer.transitions);
          next = this.withNamespace(s, i, { lifecycle: step.next, timer: timer.next });
          label = `timer: ${first.name} timed out on ${v.name} (Fail: result Timeout, 504)`;
        }
        if (next) {
          out.push({
            event: this.internEvent({
              actor: 'apiserver',
              actorKind: 'apiserver',
              label,
              namespace: i,
              transitions,
            }),
            next,
          });
        }
      }
    });
    const running = (ns: NamespaceState) => {
      const value = this.timerValue(ns);
      return value === 'armed' || value === 'expired';
    };
    if (this.scope.faults.apiserverRestart && s.namespaces.some(running)) {
      const restart = this.faultStepper.step(s.faults, { type: 'RESTART_APISERVER' }, 'RESTART_APISERVER');
      const transitions: string[] = [...restart.transitions];
      const loses = restart.emitted.some((e) => e.type === 'loseInitializerTimers');
      const namespaces = s.namespaces.map((ns) => {
        if (!loses || !running(ns)) return ns;
        const lost = this.stepTimer(ns.timer, { type: 'LOSE' });
        transitions.push(...lost.transitions);
        return this.namespaceState(ns.lifecycle, ns.content, ns.external, lost.next);
      });
      out.push({
        event: this.internEvent({
          actor: 'apiserver',
          actorKind: 'fault',
          label: 'apiserver restarts and loses its initializer timers',
          fault: 'apiserver-restart',
          namespace: -1,
          transitions: [...new Set(transitions)],
        }),
        next: { ...s, namespaces },
      });
    }
  }

  private configurationSteps(s: SystemState, out: Enabled[]): void {
    const admin = { name: 'cluster-admin', groups: ['system:masters'] };
    this.scope.configurations.forEach((c, k) => {
      if (c.registered !== 'later' || s.registeredConfigs & (1 << k)) return;
      const response = this.apiserver.createConfiguration(s, c);
      out.push({
        event: this.internEvent({
          actor: admin.name,
          actorKind: 'principal',
          label: `create namespaceinitializerconfigurations/${c.name}`,
          configuration: c.name,
          namespace: -1,
          transitions: [],
          response,
        }),
        next: response.code === 201 ? this.registered(s, s.registeredConfigs | (1 << k)) : s,
      });
    });
  }

  /** The state once a configuration is stored; a design that reads storage before each create sees it at once. */
  private registered(s: SystemState, registeredConfigs: number): SystemState {
    if (!designOf(this.scope).readBeforeEachRequest || this.configReadsFailing(s))
      return { ...s, registeredConfigs };
    const configurations = this.scope.configurations
      .filter((_, k) => registeredConfigs & (1 << k))
      .map((c) => c.name);
    const read = this.configSyncStepper.step(
      s.configSync,
      { type: 'READ_SUCCEEDED', configurations },
      `S|${configurations.join(',')}`,
    );
    return { ...s, registeredConfigs, configSync: read.next };
  }

  /**
   * One second passes: admission reads its configuration, every age grows by one up to its cap. Time
   * may not pass while a timer has expired and not yet fired (a timed-automaton invariant, FP-2).
   */
  private clockAndFaults(s: SystemState, out: Enabled[]): void {
    if (!s.namespaces.some((ns) => this.timerValue(ns) === 'expired')) {
      const configurations = this.scope.configurations
        .filter((_, k) => s.registeredConfigs & (1 << k))
        .map((c) => c.name);
      const read = this.configReadsFailing(s)
        ? this.configSyncStepper.step(s.configSync, { type: 'READ_FAILED' }, 'F')
        : this.configSyncStepper.step(
            s.configSync,
            { type: 'READ_SUCCEEDED', configurations },
            `S|${configurations.join(',')}`,
          );
      const transitions = [...read.transitions];
      const readRepairAfterSeconds = this.scope.clock.readRepairTimeoutSeconds;
      const namespaces = s.namespaces.map((ns) => {
        const aged = this.namespaceStepper.step(
          ns.lifecycle,
          { type: 'TICK', readRepairAfterSeconds },
          `TICK|${readRepairAfterSeconds}`,
        );
        const timer = this.stepTimer(ns.timer, { type: 'TICK' });
        transitions.push(...aged.transitions, ...timer.transitions);
        return this.namespaceState(aged.next, ns.content, ns.external, timer.next);
      });
      const same = namespaces.every((ns, i) => ns === s.namespaces[i]);
      out.push({
        event: this.internEvent({
          actor: 'clock',
          actorKind: 'clock',
          label: `one second passes; configuration read ${this.configReadsFailing(s) ? 'fails' : 'succeeds'}`,
          namespace: -1,
          transitions: [...new Set(transitions)].sort(),
        }),
        next: { ...s, configSync: read.next, namespaces: same ? s.namespaces : namespaces },
      });
    }
    if (this.scope.faults.configReadFailure) {
      const failing = this.configReadsFailing(s);
      const toggle = this.faultStepper.step(
        s.faults,
        { type: failing ? 'END_OUTAGE' : 'START_OUTAGE' },
        failing ? 'END_OUTAGE' : 'START_OUTAGE',
      );
      out.push({
        event: this.internEvent({
          actor: 'fault',
          actorKind: 'fault',
          label: failing ? 'configuration reads recover' : 'configuration reads start failing',
          fault: failing ? 'config-read-recovering' : 'config-read-failing',
          namespace: -1,
          transitions: toggle.transitions,
        }),
        next: { ...s, faults: toggle.next },
      });
    }
  }
}

export type { HttpOutcome, Operation };
