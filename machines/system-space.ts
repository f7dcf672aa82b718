import { Interner, KeyedCache, ObjectCache } from '../checker/engine/caches.ts';
import type { admissionMachine } from './admission.ts';
import type { configSyncMachine } from './config-sync.ts';
import type { failureInjectorMachine } from './failure-injector.ts';
import type { finalizerOwnerMachine } from './finalizer-owner.ts';
import type { initializerControllerMachine } from './initializer-controller.ts';
import type { initializerTimeoutMachine } from './initializer-timeout.ts';
import { defaultMachines, type MachineSet } from './machine-set.ts';
import type { namespaceMachine } from './namespace.ts';
import { kubernetesFinalizer, type namespaceControllerMachine } from './namespace-controller.ts';
import type { pipelineMachine } from './pipeline.ts';
import { RequestAuthorizer } from './request-authorization.ts';
import type { InitializerSpec, ObjectSlot, Scope } from './scope.ts';
import { MachineStepper } from './stepper.ts';
import {
  type Enabled,
  maxContentObjects,
  type NamespaceState,
  type NamespaceView,
  type SystemEvent,
  type SystemState,
} from './system-types.ts';
import type { timerMachine } from './timer.ts';

/**
 * The system's state space: one stepper per machine, the scope's object slots, and the interning that
 * makes equal namespace states and equal events one object each. No rule of the documents lives here.
 */
export class SystemSpace {
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
  /** Every object slot: the scope's content, then each initializer's object. */
  readonly objects: ObjectSlot[];
  readonly initializers: InitializerSpec[];
  /** Where the stored versions start in `registeredConfigs`; -1 when no configuration has updates. */
  protected readonly configurationVersionBits: number;
  // Interning and caches are the engine's (checker/engine/caches.ts); this class says only what identifies a value.
  private readonly events = new KeyedCache<string, SystemEvent>();
  private readonly namespaceStates = new Interner<NamespaceState>();
  protected readonly viewCache: ObjectCache<NamespaceState, NamespaceView>[];
  private readonly mergedEvents = new ObjectCache<SystemEvent, ObjectCache<readonly string[], SystemEvent>>();

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
    // One controller per initializer a configuration names as created, then those only updates name (FP-3).
    const initializers = scope.configurations.flatMap((c) => c.initializers);
    for (const c of scope.configurations)
      for (const update of c.updates ?? [])
        for (const i of update.initializers)
          if (!initializers.some((known) => known.name === i.name)) initializers.push(i);
    this.initializers = initializers;
    this.configurationVersionBits = checkConfigurationBits(scope);
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
    if ((scope.clusterObjects?.length ?? 0) > 30)
      throw new Error(
        `scope ${scope.name}: ${scope.clusterObjects?.length} cluster objects; their presence mask holds 30 — declare fewer`,
      );
    // `$creator` names who sent the namespace's create, as its lifecycle records it (D-34); a binding
    // orphaned by a removal (only after an LC-9 violation) keeps naming the declared creator.
    this.authorizer = new RequestAuthorizer(
      scope,
      objects,
      machines.authorization,
      (ns, i) =>
        (ns.lifecycle === undefined ? null : this.namespaceStepper.snapshot(ns.lifecycle).context.creator) ??
        scope.namespaces[i].creator,
    );
    this.viewCache = scope.namespaces.map(() => new ObjectCache());
  }

  /** The one object for this namespace state (equal states share it, so identity is equality). */
  namespaceState(lifecycle: number, content: number, external: number, timer: number): NamespaceState {
    const key = `${lifecycle},${content},${external},${timer}`;
    const known = this.namespaceStates.find(key);
    if (known !== undefined) return this.namespaceStates.values[known];
    return this.namespaceStates.value(key, (id) => ({
      id,
      lifecycle,
      content,
      external,
      timer,
    }));
  }
  /** The interned namespace state with this id (a packed state names its namespaces by id). */
  namespaceStateById(id: number): NamespaceState {
    const ns = this.namespaceStates.values[id];
    if (ns === undefined) throw new RangeError(`no namespace state with id ${id}`);
    return ns;
  }

  initialStates(): SystemState[] {
    const existing = (spec: Scope['namespaces'][number]) => {
      const finalizers = [...(spec.initialFinalizers ?? [kubernetesFinalizer])].sort();
      // Made before the run: by its declared creator, or by the cluster itself (a system namespace).
      const creator = spec.creator;
      const lifecycle = this.namespaceStepper.step(
        this.namespaceStepper.initial,
        { type: 'CREATE', pending: [], finalizers, ...(creator ? { creator } : {}) },
        `CREATE||${finalizers.join(',')}|${creator ?? ''}`,
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
        // A scope without requestable cluster objects keeps the field out of its states (and keys).
        ...(this.scope.clusterObjects?.length
          ? {
              clusterObjects: this.scope.clusterObjects.reduce(
                (mask, o, k) => (o.initially ? mask | (1 << k) : mask),
                0,
              ),
            }
          : {}),
      },
    ];
  }

  /** The timer after `event` (ARM, REARM, DISARM, LOSE, TICK), with the transitions it took. */
  stepTimer(timer: number, event: Parameters<MachineStepper<typeof timerMachine>['step']>[1]) {
    const key =
      event.type === 'ARM' || event.type === 'REARM'
        ? `${event.type}|${event.initializer}|${event.timeoutSeconds}`
        : event.type;
    return this.timerStepper.step(timer, event, key);
  }

  /** The state with namespace slot i replaced by an interned namespace state. */
  withNamespaceState(s: SystemState, i: number, ns: NamespaceState): SystemState {
    if (s.namespaces[i] === ns) return s;
    const namespaces = s.namespaces.slice();
    namespaces[i] = ns;
    return { ...s, namespaces };
  }

  internEvent(e: SystemEvent): SystemEvent {
    const key = `${e.actor}|${e.label}|${e.response?.code ?? ''}|${e.response?.cause ?? ''}|${e.response?.message ?? ''}|${e.transitions.join(',')}|${e.items?.join(',') ?? ''}|${e.request?.callerMayInitialize ?? ''}|${e.command?.kind ?? ''}|${e.request?.object ?? ''}`;
    return this.events.find(key) ?? this.events.set(key, e);
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

  /** The controller's own transitions join the request's; cached by identity (both are interned). */
  withExtraTransitions(e: Enabled, extra: readonly string[]): Enabled {
    const merged = this.mergedEvents
      .get(e.event, () => new ObjectCache())
      .get(extra, () => this.internEvent({ ...e.event, transitions: [...extra, ...e.event.transitions] }));
    return { next: e.next, event: merged };
  }
}

/**
 * Versions are packed 3 bits per configuration after the presence bits, and the state key holds the
 * store in one 16-bit character: refuse a scope that would overflow it.
 */
function checkConfigurationBits(scope: Scope): number {
  const count = scope.configurations.length;
  if (scope.configurations.some((c) => (c.updates?.length ?? 0) > 7))
    throw new Error(
      `scope ${scope.name}: a configuration has more than 7 updates; the store keeps 3 bits of version — use fewer`,
    );
  if (!scope.configurations.some((c) => c.updates?.length)) {
    if (count > 16)
      throw new Error(`scope ${scope.name}: ${count} configurations; the store holds 16 — use fewer`);
    return -1;
  }
  if (count * 4 > 16)
    throw new Error(
      `scope ${scope.name}: ${count} configurations, some with updates, need ${count * 4} bits; the store holds 16 — use at most 4 configurations`,
    );
  return count;
}
