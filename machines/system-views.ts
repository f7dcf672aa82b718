import { mergeInitializerConfigurations } from './initializer-config.ts';
import type { NamespaceStateValue } from './namespace.ts';
import { SystemSpace } from './system-space.ts';
import type { NamespaceState, NamespaceView, SystemState, SystemView } from './system-types.ts';
import type { TimerContext, TimerStateValue } from './timer.ts';

/** What properties, replay and reports read: each namespace and the system by name, never a mask or an id. */
export class SystemViews extends SystemSpace {
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
}
