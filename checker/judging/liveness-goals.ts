import type { SystemModel, SystemState } from '../../machines/system.ts';
import type { LivenessProperty } from '../../properties/types.ts';
import { PairIds } from '../engine/pair-ids.ts';
import { grown } from '../engine/state-store.ts';

/**
 * A liveness goal's answer in a state: its goal met (`q`), pending, or pending with its premise (`p`).
 * `always` marks a goal whose run read more than its key holds: it is asked again on every state.
 */
export const goalAnswer = { met: 1, pending: 2, triggered: 3, always: 4 } as const;
export type GoalAnswer = (typeof goalAnswer)[keyof typeof goalAnswer];

/** The fields of a state outside its namespace slots: all of them are part of every key. */
const outsideFields = new Set<PropertyKey>([
  'configSync',
  'faults',
  'registeredConfigs',
  'initializers',
  'clusterObjects',
]);

/** An array index as a property key: a string of digits (no other key of an array starts with one). */
const isIndex = (key: PropertyKey): boolean => {
  if (typeof key !== 'string' || key.length === 0) return false;
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57;
};

/** One goal: a property on one namespace slot (-1 for the system). */
export interface GoalOf {
  property: LivenessProperty;
  slot: number;
}

/**
 * Each goal's `p` and `q`, asked once per (goal, its own slot's namespace state, the state's fields
 * outside the slots) instead of once per state: goals are per namespace, and a new state mostly differs
 * from those seen before in the other slots. A run is tracked: it reads the state through a proxy that
 * notes every field and slot it touches. Its answer is remembered only when it read nothing but its own
 * slot and the fields outside the slots (all of which the key holds, and the model's scope, which is
 * fixed); a run that read another slot, or the state in any other way, is asked again on every state.
 * Exact for deterministic `p` and `q`, as the properties are; the properties themselves stay as written.
 */
export class GoalMemo {
  private readonly outside = new PairIds();
  private readonly classes = new PairIds();
  /** Per (class, property): an answer, 0 while unknown. */
  private answers = new Uint8Array(0);
  private readonly propertyOf: Int32Array;
  private readonly properties: number;
  private readonly slotClass: Int32Array;
  /** While a tracked run lasts: the slot it may read, and whether it read beyond its key. */
  private slot = -1;
  private beyond = false;
  /** Runs of `p` or `q` (tracked or not), for tests and figures. */
  runs = 0;
  /** The traps of a tracked run, made once: every read of the state or its slots is noted. */
  private readonly slotsTraps: ProxyHandler<SystemState['namespaces']>;
  private readonly stateTraps: ProxyHandler<SystemState>;
  /** The proxy of the slots of the state a tracked run reads. */
  private slots: SystemState['namespaces'] = [];

  constructor(
    private readonly model: SystemModel,
    private readonly goals: readonly GoalOf[],
  ) {
    const properties = [...new Set(goals.map((g) => g.property))];
    this.properties = properties.length;
    this.propertyOf = Int32Array.from(goals, (g) => properties.indexOf(g.property));
    this.slotClass = new Int32Array(model.scope.namespaces.length + 1);
    // Any way to enumerate or probe the state's fields reads what no key holds.
    const enumerating = {
      has: (target: object, key: PropertyKey) => {
        this.beyond = true;
        return Reflect.has(target, key);
      },
      ownKeys: (target: object) => {
        this.beyond = true;
        return Reflect.ownKeys(target);
      },
      getOwnPropertyDescriptor: (target: object, key: PropertyKey) => {
        this.beyond = true;
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    };
    this.slotsTraps = {
      ...enumerating,
      get: (target, key) => {
        if (isIndex(key) && Number(key) !== this.slot) this.beyond = true;
        return Reflect.get(target, key);
      },
    };
    this.stateTraps = {
      ...enumerating,
      get: (target, key) => {
        if (key === 'namespaces') return this.slots;
        if (!outsideFields.has(key)) this.beyond = true;
        return Reflect.get(target, key);
      },
    };
  }

  /** Bytes of the remembered answers and their keys. */
  get bytes(): number {
    return this.answers.byteLength + this.outside.bytes + this.classes.bytes;
  }

  /** Calls `answer(j, a)` for every goal `j` of `state`, in goal order. */
  judge(state: SystemState, answer: (goal: number, a: GoalAnswer) => void): void {
    this.classesOf(state);
    for (let j = 0; j < this.goals.length; j++) answer(j, this.answer(j, state));
  }

  /**
   * The classes of `state`'s slots, at i + 1 for slot i and at 0 for the system (the outside fields' id
   * with the slot's namespace state id): goals of one class have the same answers wherever it occurs,
   * unless one of them reads beyond it (`kept`). Valid until the next call; `answer` reads it.
   */
  classesOf(state: SystemState): Int32Array {
    let outside = this.outside.id(this.outside.id(state.configSync, state.faults), state.registeredConfigs);
    outside = this.outside.id(outside, state.clusterObjects ?? -1);
    for (const k of state.initializers) outside = this.outside.id(outside, k);
    const slots = this.slotClass.length;
    this.slotClass[0] = this.classes.id(-1, outside * slots);
    for (let i = 0; i < slots - 1; i++)
      this.slotClass[i + 1] = this.classes.id(state.namespaces[i].id, outside * slots + i + 1);
    this.answers = grown(this.answers, this.classes.size * this.properties - 1);
    return this.slotClass;
  }

  /** Goal j's answer in `state`, whose classes `classesOf` found last: kept per class, or asked again. */
  answer(j: number, state: SystemState): GoalAnswer {
    const { property, slot } = this.goals[j];
    const at = this.slotClass[slot + 1] * this.properties + this.propertyOf[j];
    let known = this.answers[at] as GoalAnswer | 0;
    if (known === 0) {
      known = this.learn(property, slot, state);
      this.answers[at] = known;
    }
    return known === goalAnswer.always ? this.ask(this.model, property, slot, state) : known;
  }

  /** Whether goal j's answer is kept for the class it was last asked in (it read nothing beyond it). */
  kept(j: number): boolean {
    const { slot } = this.goals[j];
    return (
      this.answers[this.slotClass[slot + 1] * this.properties + this.propertyOf[j]] !== goalAnswer.always
    );
  }

  private ask(model: SystemModel, property: LivenessProperty, slot: number, state: SystemState): GoalAnswer {
    this.runs++;
    if (property.q(model, state, slot)) return goalAnswer.met;
    this.runs++;
    return property.p === undefined || property.p(model, state, slot)
      ? goalAnswer.triggered
      : goalAnswer.pending;
  }

  /** The goal asked on a tracked copy of `state`: its answer, or `always` when it read beyond its key. */
  private learn(property: LivenessProperty, slot: number, state: SystemState): GoalAnswer {
    this.slot = slot;
    this.beyond = false;
    const answer = this.ask(this.model, property, slot, this.tracked(state));
    return this.beyond ? goalAnswer.always : answer;
  }

  /** `state` as a run sees it, every read noted: the own slot and the outside fields are within the key. */
  private tracked(state: SystemState): SystemState {
    this.slots = new Proxy(state.namespaces, this.slotsTraps);
    return new Proxy(state, this.stateTraps);
  }
}
