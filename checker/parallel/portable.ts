import type { AnyStateMachine } from 'xstate';
import { canonicalJson, type MachineStepper } from '../../machines/stepper.ts';
import type { NamespaceState, SystemModel, SystemState } from '../../machines/system.ts';

type AnyStepper = MachineStepper<AnyStateMachine>;

/**
 * A system state as text every thread reads alike. Machine snapshots are interned per model, so their
 * ids differ between threads; the text names each snapshot by its value and context instead, and a
 * thread turns it back into its own ids (XState's `resolveState`, then the stepper's interning).
 */
export class PortableStates {
  private readonly texts = new Map<AnyStepper, string[]>();
  private readonly ids = new Map<string, number>();

  private readonly byName: ReturnType<PortableStates['steppers']>;

  constructor(private readonly model: SystemModel) {
    this.byName = this.steppers();
  }

  /** The model's steppers whose snapshots a state holds, seen through their common interface. */
  private steppers(): Record<
    'configSyncStepper' | 'faultStepper' | 'namespaceStepper' | 'timerStepper' | 'initializerStepper',
    AnyStepper
  > {
    const m = this.model;
    return {
      configSyncStepper: m.configSyncStepper as AnyStepper,
      faultStepper: m.faultStepper as AnyStepper,
      namespaceStepper: m.namespaceStepper as AnyStepper,
      timerStepper: m.timerStepper as AnyStepper,
      initializerStepper: m.initializerStepper as AnyStepper,
    };
  }

  private text(stepper: AnyStepper, id: number): string {
    let cache = this.texts.get(stepper);
    if (!cache) {
      cache = [];
      this.texts.set(stepper, cache);
    }
    let text = cache[id];
    if (text === undefined) {
      const snapshot = stepper.snapshot(id) as { value: unknown; context: unknown };
      text = canonicalJson([snapshot.value, snapshot.context ?? null]);
      cache[id] = text;
    }
    return text;
  }

  private id(stepper: AnyStepper, tag: string, text: string): number {
    const cacheKey = `${tag}${text}`;
    let id = this.ids.get(cacheKey);
    if (id === undefined) {
      const [value, context] = JSON.parse(text) as [unknown, Record<string, unknown> | null];
      const machine = stepper.machine as AnyStateMachine;
      id = stepper.intern(machine.resolveState({ value: value as never, context: context ?? {} }));
      this.ids.set(cacheKey, id);
    }
    return id;
  }

  encode(s: SystemState): string {
    const steppers = this.byName;
    return JSON.stringify([
      this.text(steppers.configSyncStepper, s.configSync),
      this.text(steppers.faultStepper, s.faults),
      s.registeredConfigs,
      s.namespaces.map((ns) => [
        this.text(steppers.namespaceStepper, ns.lifecycle),
        ns.content,
        ns.external,
        this.text(steppers.timerStepper, ns.timer),
      ]),
      s.initializers.map((i) => this.text(steppers.initializerStepper, i)),
    ]);
  }

  decode(text: string): SystemState {
    const m = this.model;
    const steppers = this.byName;
    const [configSync, faults, registeredConfigs, namespaces, initializers] = JSON.parse(text) as [
      string,
      string,
      number,
      [string, number, number, string][],
      string[],
    ];
    return {
      configSync: this.id(steppers.configSyncStepper, 'c', configSync),
      faults: this.id(steppers.faultStepper, 'f', faults),
      registeredConfigs,
      namespaces: namespaces.map(
        ([lifecycle, content, external, timer]): NamespaceState =>
          m.namespaceState(
            this.id(steppers.namespaceStepper, 'n', lifecycle),
            content,
            external,
            this.id(steppers.timerStepper, 't', timer),
          ),
      ),
      initializers: initializers.map((i) => this.id(steppers.initializerStepper, 'i', i)),
    };
  }
}
