import { admissionMachine, type Operation } from './admission.ts';
import { ApiServer, type Served } from './apiserver.ts';
import { type AuthorizationMachine, authorizationMachine } from './authorization.ts';
import { configSyncMachine } from './config-sync.ts';
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

/**
 * The composed system: the API server's store, every actor's machine snapshot, the logical clock and
 * the faults in force, as plain data. Machine snapshots are interned ids (see MachineStepper), so a
 * state is a handful of small integers and its key is a short string.
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
  /** Logical second the apiserver armed the first pending initializer's timer; null when disarmed or lost (FP-2, FP-4). */
  timerArmedAt: number | null;
}

export interface SystemState {
  now: number;
  /** Interned snapshot of the admission configuration sync machine. */
  configSync: number;
  configReadFailing: boolean;
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
  authorization: AuthorizationMachine;
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
  deletionTimestamp: number | null;
  createdAt: number | null;
  /** D-25: became ready once (IN-6 reads it, D-19). */
  initialized: boolean;
  /** Created with pending initializers: status shows the Initializing condition (D-22). */
  hadInitializers: boolean;
  content: number;
  external: number;
  /** When the apiserver armed the fail-open timer (FP-2); null when no timer runs. */
  timerArmedAt: number | null;
  system: boolean;
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
  namespaceState(
    lifecycle: number,
    content: number,
    external: number,
    timerArmedAt: number | null,
  ): NamespaceState {
    const key = `${lifecycle},${content},${external},${timerArmedAt ?? ''}`;
    let id = this.namespaceStateIds.get(key);
    if (id === undefined) {
      id = this.namespaceStates.length;
      this.namespaceStates.push({ id, lifecycle, content, external, timerArmedAt });
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
        { type: 'CREATE', pending: [], finalizers, now: 0 },
        `CREATE||${finalizers.join(',')}|0`,
      ).next;
      const content = (spec.initialContent ?? []).reduce((mask, path) => {
        const slot = this.objects.findIndex((o) => `${o.resource}/${o.name}` === path);
        if (slot < 0)
          throw new Error(
            `scope ${this.scope.name}: namespace ${spec.name} starts with unknown object ${path}`,
          );
        return mask | (1 << slot);
      }, 0);
      return this.namespaceState(lifecycle, content, 0, null);
    };
    return [
      {
        now: 0,
        configSync: this.configSyncStepper.initial,
        configReadFailing: false,
        registeredConfigs: this.scope.configurations.reduce(
          (mask, c, i) => (c.registered === 'initially' ? mask | (1 << i) : mask),
          0,
        ),
        namespaces: this.scope.namespaces.map((ns) =>
          ns.system || ns.preexisting
            ? existing(ns)
            : this.namespaceState(this.namespaceStepper.initial, 0, 0, null),
        ),
        initializers: this.initializers.map(() => this.initializerStepper.initial),
      },
    ];
  }

  key(s: SystemState): string {
    const parts: number[] = [s.now, s.configSync, s.configReadFailing ? 1 : 0, s.registeredConfigs];
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
      deletionTimestamp: snapshot.context.deletionTimestamp,
      createdAt: snapshot.context.createdAt,
      initialized: snapshot.context.initialized,
      hadInitializers: snapshot.context.hadInitializers,
      content: ns.content,
      external: ns.external,
      timerArmedAt: ns.timerArmedAt,
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

  lastSuccessfulConfigRead(s: SystemState): number {
    return this.configSyncStepper.snapshot(s.configSync).context.lastSuccessfulReadAt;
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
   * namespace, the configuration copy, the clock and the RoleBindings, so its outcome is memoized on those.
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
    const packable = ns.id < 1 << 17 && s.configSync < 4096 && s.now < 256 && rb < 1 << 16;
    const local = packable ? ((ns.id * 4096 + s.configSync) * 256 + s.now) * 65536 + rb : -1;
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
      change.timerArmedAt !== undefined ? change.timerArmedAt : old.timerArmedAt,
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
      if (this.scope.faults.initializerCrash) {
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
      if (v.value !== 'terminating') return;
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
      const armedAt = ns.timerArmedAt;
      if (armedAt === null) return;
      const v = this.view(s, i);
      if (v.value !== 'initializing' || v.pending.length === 0) return;
      const first = this.initializerSpec(v.pending[0]);
      if (!first) return;
      const observed = {
        failurePolicy: first.failurePolicy,
        timerExpired: s.now - armedAt >= first.timeoutSeconds,
        readRepairDue: false,
      };
      const check = this.timeoutStepper.step(
        this.timeoutStepper.initial,
        { type: 'TIMER_CHECK', observed },
        `TIMER|${observed.failurePolicy}|${observed.timerExpired}`,
      );
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
          next = this.apiserver.afterPendingChange(s, i, step.next);
          label = `timer: ${first.name} timed out on ${v.name} (Ignore: removed from pending)`;
        } else if (effect.type === 'failNamespaceWithTimeout') {
          const step = this.namespaceStepper.step(
            ns.lifecycle,
            { type: 'RECORD_FAILURE', reason: 'Timeout', now: s.now },
            `RECORD_FAILURE|Timeout|${s.now}`,
          );
          transitions.push(...step.transitions);
          next = this.withNamespace(s, i, { lifecycle: step.next, timerArmedAt: null });
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
    if (this.scope.faults.apiserverRestart && s.namespaces.some((ns) => ns.timerArmedAt !== null)) {
      out.push({
        event: this.internEvent({
          actor: 'apiserver',
          actorKind: 'fault',
          label: 'apiserver restarts and loses its initializer timers',
          fault: 'apiserver-restart',
          namespace: -1,
          transitions: [],
        }),
        next: {
          ...s,
          namespaces: s.namespaces.map((ns) =>
            this.namespaceState(ns.lifecycle, ns.content, ns.external, null),
          ),
        },
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
        next: response.code === 201 ? { ...s, registeredConfigs: s.registeredConfigs | (1 << k) } : s,
      });
    });
  }

  private clockAndFaults(s: SystemState, out: Enabled[]): void {
    if (s.now < this.scope.clock.horizonSeconds) {
      const now = s.now + 1;
      const configurations = this.scope.configurations
        .filter((_, k) => s.registeredConfigs & (1 << k))
        .map((c) => c.name);
      const read = s.configReadFailing
        ? this.configSyncStepper.step(s.configSync, { type: 'READ_FAILED', now }, `F|${now}`)
        : this.configSyncStepper.step(
            s.configSync,
            { type: 'READ_SUCCEEDED', now, configurations },
            `S|${now}|${configurations.join(',')}`,
          );
      out.push({
        event: this.internEvent({
          actor: 'clock',
          actorKind: 'clock',
          label: `tick to ${now}s; configuration read ${s.configReadFailing ? 'fails' : 'succeeds'}`,
          namespace: -1,
          transitions: read.transitions,
        }),
        next: { ...s, now, configSync: read.next },
      });
    }
    if (this.scope.faults.configReadFailure) {
      out.push({
        event: this.internEvent({
          actor: 'fault',
          actorKind: 'fault',
          label: s.configReadFailing ? 'configuration reads recover' : 'configuration reads start failing',
          fault: s.configReadFailing ? 'config-read-recovering' : 'config-read-failing',
          namespace: -1,
          transitions: [],
        }),
        next: { ...s, configReadFailing: !s.configReadFailing },
      });
    }
  }
}

export type { HttpOutcome, Operation };
