import { KeyedCache, ObjectCache } from '../checker/engine/caches.ts';
import { mergeInitializerConfigurations } from './initializer-config.ts';
import type { NamespaceStateValue } from './namespace.ts';
import { anyRuleMatches } from './rules.ts';
import { type ConfigurationSpec, configurationEntries, type InitializerSpec } from './scope.ts';
import { SystemSpace } from './system-space.ts';
import type {
  NamespaceListing,
  NamespaceState,
  NamespaceView,
  SystemState,
  SystemView,
} from './system-types.ts';
import type { TimerContext, TimerStateValue } from './timer.ts';

/** What properties, replay and reports read: each namespace and the system by name, never a mask or an id. */
export class SystemViews extends SystemSpace {
  /** The pending list injected per configuration copy (remembered by the engine's cache). */
  private readonly injected = new KeyedCache<
    number,
    { names: string[]; inForce: Map<string, InitializerSpec> }
  >();
  private readonly listings = new ObjectCache<NamespaceState, NamespaceListing>();

  view(s: SystemState, index: number): NamespaceView {
    const ns = s.namespaces[index];
    const cached = this.viewCache[index].find(ns);
    if (cached) return cached;
    const snapshot = this.namespaceStepper.snapshot(ns.lifecycle);
    const spec = this.scope.namespaces[index];
    const view: NamespaceView = {
      name: spec.name,
      value: snapshot.value as NamespaceStateValue,
      pending: snapshot.context.pending,
      failure: snapshot.context.failure,
      finalizers: snapshot.context.finalizers,
      metadataFinalizers: snapshot.context.metadataFinalizers,
      deletedSecondsAgo: snapshot.context.deletedSecondsAgo,
      createdSecondsAgo: snapshot.context.createdSecondsAgo,
      initialized: snapshot.context.initialized,
      hadInitializers: snapshot.context.hadInitializers,
      creator: snapshot.context.creator,
      content: ns.content,
      external: ns.external,
      failOpenTimer: this.runningTimer(ns),
      timerLost: this.timerValue(ns) === 'lost',
      system: spec.system === true,
    };
    return this.viewCache[index].set(ns, view);
  }

  /** What a request across every namespace reads of this one (NamespaceListing), the same in every slot. */
  listing(ns: NamespaceState): NamespaceListing {
    return this.listings.get(ns, () => {
      const snapshot = this.namespaceStepper.snapshot(ns.lifecycle);
      const value = snapshot.value as NamespaceStateValue;
      return {
        exists: value !== 'absent' && value !== 'removed',
        initialized: snapshot.context.initialized,
        content: ns.content,
      };
    });
  }

  /**
   * The last two states' namespace views, by their namespace states (interned: compared by identity):
   * judging reads them for a step's before and after, or a state's, many times over. Frozen, as they are
   * handed out again.
   */
  private readonly viewsOf: NamespaceState[][] = [[], []];
  private readonly viewsKept: (readonly NamespaceView[] | undefined)[] = [undefined, undefined];
  private viewsNext = 0;

  views(s: SystemState): readonly NamespaceView[] {
    for (let k = 0; k < 2; k++) {
      const kept = this.viewsKept[k];
      if (kept !== undefined && sameStates(this.viewsOf[k], s.namespaces)) return kept;
    }
    const views = Object.freeze(s.namespaces.map((_, i) => this.view(s, i)));
    const k = this.viewsNext;
    this.viewsNext = 1 - k;
    const key = this.viewsOf[k];
    if (key.length !== s.namespaces.length) key.length = s.namespaces.length;
    for (let i = 0; i < s.namespaces.length; i++) key[i] = s.namespaces[i];
    this.viewsKept[k] = views;
    return views;
  }

  /** The stored cluster RBAC objects (D-23): one bit per version the scope may request; 0 in a scope with none. */
  storedClusterObjects(s: SystemState): number {
    return s.clusterObjects ?? 0;
  }

  configurationFresh(s: SystemState): boolean {
    return this.configSyncStepper.value(s.configSync) === 'fresh';
  }

  /** Whole seconds since the last successful configuration read, capped at the staleness bound. */
  secondsSinceConfigRead(s: SystemState): number {
    return this.configSyncStepper.snapshot(s.configSync).context.secondsSinceRead;
  }

  /**
   * The last system view built, and the lanes it was built from: judging reads it for a step's before and
   * after, which share these lanes on most steps (a namespace's). Frozen, as it is handed out again.
   */
  private lastView: Readonly<SystemView> | undefined;
  private lastViewLanes: number[] = [];

  systemView(s: SystemState): SystemView {
    const lanes = this.lastViewLanes;
    if (
      this.lastView !== undefined &&
      lanes[0] === s.configSync &&
      lanes[1] === s.faults &&
      lanes[2] === s.registeredConfigs &&
      sameInitializers(lanes, s.initializers)
    )
      return this.lastView;
    const view = this.builtSystemView(s);
    Object.freeze(view.crashedInitializers);
    Object.freeze(view.configurationsRegistered);
    Object.freeze(view.configurationVersionsRegistered);
    this.lastView = Object.freeze(view);
    lanes.length = 3 + s.initializers.length;
    lanes[0] = s.configSync;
    lanes[1] = s.faults;
    lanes[2] = s.registeredConfigs;
    for (let k = 0; k < s.initializers.length; k++) lanes[3 + k] = s.initializers[k];
    return view;
  }

  private builtSystemView(s: SystemState): SystemView {
    return {
      secondsSinceConfigRead: this.secondsSinceConfigRead(s),
      configurationFresh: this.configurationFresh(s),
      configReadsFailing: this.configReadsFailing(s),
      configurationsRead: this.configurationsRead(s),
      configurationsRegistered: this.storedConfigurations(s).configurations,
      configurationVersionsRegistered: this.storedConfigurations(s).versions,
      configurationVersionsRead: this.configurationVersionsRead(s),
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

  /** The namespace slots whose state differs between a step's before and after (interned: compared by identity). */
  changedSlots(before: SystemState, after: SystemState): readonly number[] {
    if (before === after) return noSlots;
    const slots = before.namespaces.length;
    // By a mask of the changed slots, each list built once (frozen): judging asks this on every step.
    if (slots > 30) return changedSlotList(before, after);
    let mask = 0;
    for (let i = 0; i < slots; i++) if (before.namespaces[i] !== after.namespaces[i]) mask |= 1 << i;
    if (mask === 0) return noSlots;
    let list = this.changedLists[mask];
    if (list === undefined) {
      list = Object.freeze(changedSlotList(before, after));
      this.changedLists[mask] = list;
    }
    return list;
  }

  private readonly changedLists: (readonly number[] | undefined)[] = [];

  /** Whether admission's configuration copy (and its age) is the same in both states. */
  sameConfigurationCopy(a: SystemState, b: SystemState): boolean {
    return a.configSync === b.configSync;
  }

  /** The configurations admission last read (AC-3). */
  configurationsRead(s: SystemState): string[] {
    return this.configSyncStepper.snapshot(s.configSync).context.configurations;
  }

  /** FP-3: the version admission read of each configuration an update changed (absent: as created). */
  configurationVersionsRead(s: SystemState): Record<string, number> {
    return this.configSyncStepper.snapshot(s.configSync).context.versions;
  }

  /** The pending list admission injects for a namespace created now (IN-1), from the copy it read (AC-3). */
  pendingToInject(s: SystemState): string[] {
    return this.fromCopy(s).names;
  }

  /**
   * D-32: the failure policy and timeout the apiserver applies to an initializer: the entry of the
   * copy admission last read (an update applies within a read, FP-3), else the scope's declaration
   * (a client-supplied pending list), else none — no timer, read-repair alone (FP-5).
   */
  initializerInForce(s: SystemState, name: string): InitializerSpec | undefined {
    return this.fromCopy(s).inForce.get(name) ?? this.initializerSpec(name);
  }

  private fromCopy(s: SystemState): { names: string[]; inForce: Map<string, InitializerSpec> } {
    return this.injected.find(s.configSync) ?? this.injected.set(s.configSync, this.injectedBy(s));
  }

  private injectedBy(s: SystemState): { names: string[]; inForce: Map<string, InitializerSpec> } {
    const { configurations, versions } = this.configSyncStepper.snapshot(s.configSync).context;
    const read = new Set(configurations);
    const chosen = this.scope.configurations
      .filter((c) => read.has(c.name))
      .map((c) => ({
        name: c.name,
        entries: configurationEntries(c, versions[c.name] ?? 0).filter((e) => appliesToNamespaces(c, e)),
      }));
    const inForce = new Map<string, InitializerSpec>();
    for (const c of chosen) for (const e of c.entries) if (!inForce.has(e.name)) inForce.set(e.name, e);
    const merge = this.machines.configurationMerge ?? mergeInitializerConfigurations;
    const names = merge(
      chosen.map((c) => ({
        metadata: { name: c.name },
        initializers: c.entries.map((i) => ({
          name: i.name,
          failurePolicy: i.failurePolicy,
          timeoutSeconds: i.timeoutSeconds,
        })),
      })),
    ).map((i) => i.name);
    return { names, inForce };
  }

  /** The version of configuration k in the store, or null when it is not stored. */
  storedVersion(s: SystemState, k: number): number | null {
    if (!(s.registeredConfigs & (1 << k))) return null;
    if (this.configurationVersionBits < 0) return 0;
    return (s.registeredConfigs >> (this.configurationVersionBits + 3 * k)) & 7;
  }

  /** The store with configuration k at `version`, or without it (null). */
  withStoredVersion(registeredConfigs: number, k: number, version: number | null): number {
    const cleared =
      this.configurationVersionBits < 0
        ? registeredConfigs & ~(1 << k)
        : registeredConfigs & ~(1 << k) & ~(7 << (this.configurationVersionBits + 3 * k));
    if (version === null) return cleared;
    const shifted =
      this.configurationVersionBits < 0 ? 0 : version << (this.configurationVersionBits + 3 * k);
    return cleared | (1 << k) | shifted;
  }

  /** What a consistent LIST of the configurations returns: the names stored and the versions updates gave them. */
  storedConfigurations(s: SystemState): { configurations: string[]; versions: Record<string, number> } {
    const configurations: string[] = [];
    const versions: Record<string, number> = {};
    this.scope.configurations.forEach((c, k) => {
      const version = this.storedVersion(s, k);
      if (version === null) return;
      configurations.push(c.name);
      if (version > 0) versions[c.name] = version;
    });
    return { configurations, versions };
  }

  /** Admission reads the store (AC-2): the config-sync machine's step on a successful read of what is stored now. */
  readStore(s: SystemState) {
    const { configurations, versions } = this.storedConfigurations(s);
    // Remembered under the event's canonical JSON: the names read and the versions updates gave them.
    return this.configSyncStepper.step(s.configSync, { type: 'READ_SUCCEEDED', configurations, versions });
  }

  objectName(slot: number): string {
    const o = this.objects[slot];
    return `${o.resource}/${o.name}`;
  }
}

/**
 * Which entries add an initializer to a namespace create: every one of 000's NamespaceInitializerConfiguration,
 * an InitializerConfiguration entry whose rules match core v1 namespaces (AC-4), never a webhook (AC-5).
 */
function appliesToNamespaces(c: ConfigurationSpec, entry: InitializerSpec): boolean {
  const kind = c.kind ?? 'NamespaceInitializerConfiguration';
  if (kind === 'NamespaceInitializerConfiguration') return true;
  if (kind === 'ExternalAdmissionHookConfiguration') return false;
  return anyRuleMatches(entry.rules ?? [], namespacesResource);
}

const namespacesResource = { apiGroup: '', apiVersion: 'v1', resource: 'namespaces' };

/** Whether `lanes` after its first three hold exactly `initializers`. */
function sameInitializers(lanes: readonly number[], initializers: readonly number[]): boolean {
  if (lanes.length !== 3 + initializers.length) return false;
  for (let k = 0; k < initializers.length; k++) if (lanes[3 + k] !== initializers[k]) return false;
  return true;
}

const noSlots: readonly number[] = Object.freeze([]);

function changedSlotList(before: SystemState, after: SystemState): number[] {
  const changed: number[] = [];
  for (let i = 0; i < before.namespaces.length; i++)
    if (before.namespaces[i] !== after.namespaces[i]) changed.push(i);
  return changed;
}

/** Whether two states' namespace states are the very same objects, slot by slot. */
function sameStates(kept: readonly NamespaceState[], namespaces: readonly NamespaceState[]): boolean {
  if (kept.length !== namespaces.length) return false;
  for (let i = 0; i < kept.length; i++) if (kept[i] !== namespaces[i]) return false;
  return true;
}
