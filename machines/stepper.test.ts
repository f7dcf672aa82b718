import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createMachine, transition } from 'xstate';
import { admissionFacts as facts } from '../test-support/admission-facts.ts';
import { withDefinition } from '../variants/machine-edit.ts';
import { admissionMachine } from './admission.ts';
import { machineCatalog } from './catalog.ts';
import { configSyncMachine } from './config-sync.ts';
import { finalizerOwnerMachine } from './finalizer-owner.ts';
import { type NamespaceEvent, namespaceMachine } from './namespace.ts';
import { canonicalJson, listTransitions, MachineStepper, transitionIds } from './stepper.ts';

const admissionFacts = facts({ operation: 'create' });

/** What a finalizer owner observes of a terminating namespace that still holds its finalizer. */
const terminatingWithOwnFinalizer = {
  owner: 'o.example.com/x',
  namespaceActive: false,
  namespaceTerminating: true,
  finalizers: ['kubernetes', 'o.example.com/x'],
  externalContentExists: false,
};

describe('listTransitions', () => {
  const namespaceTransitions = listTransitions(namespaceMachine);
  const byId = (id: string) => namespaceTransitions.find((t) => t.id === id);

  it('names every transition <machine>:<state>:<event>[guard]-><target>, with guard, target, actions and requirements', () => {
    expect(byId('namespace:terminating:PURGE[noFinalizersLeft]->removed')).toEqual({
      id: 'namespace:terminating:PURGE[noFinalizersLeft]->removed',
      machine: 'namespace',
      source: 'terminating',
      event: 'PURGE',
      guard: 'noFinalizersLeft',
      target: 'removed',
      actions: ['forgetNamespace'],
      requirements: ['LC-7'],
    });
    expect(byId('namespace:absent:CREATE->initializing')).toMatchObject({
      guard: null,
      target: 'initializing',
      actions: ['recordCreation'],
    });
  });

  it('LC-3: a targetless transition has no target', () => {
    expect(byId('namespace:terminating:DELETE')).toMatchObject({ target: null, actions: [], guard: null });
  });

  it('ids are unique', () => {
    const ids = namespaceTransitions.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists eventless transitions as `always`, in document order', () => {
    const lifecycle = listTransitions(admissionMachine).filter((t) => t.source === 'namespaceLifecycle');
    expect(lifecycle.map((t) => `${t.event}#${t.guard}`)).toEqual([
      'always#contentInMissingNamespace',
      'always#createInTerminatingNamespace',
      'always#deleteOfImmortalNamespace',
      'always#null',
    ]);
  });

  it('names an action given with params by its type', () => {
    const remove = listTransitions(finalizerOwnerMachine).find(
      (t) => t.id === 'finalizerOwner:watching:SYNC[terminatingWithOwnFinalizer]',
    );
    expect(remove?.actions).toEqual(['removeOwnFinalizer']);
  });

  it('returns the same list for repeated calls (the index is cached per machine)', () => {
    expect(listTransitions(namespaceMachine)).toEqual(namespaceTransitions);
  });
});

type StateConfig = { always?: unknown[]; states?: Record<string, StateConfig> };

/** A copy of `machine` with a new guarded transition first in the eventless chain of `path`. */
function withRuleFirst(machine: AnyStateMachine, path: string[], rule: object): AnyStateMachine {
  const edit = (state: StateConfig, rest: string[]): StateConfig =>
    rest.length === 0
      ? { ...state, always: [rule, ...(state.always ?? [])] }
      : {
          ...state,
          states: { ...state.states, [rest[0]]: edit(state.states?.[rest[0]] ?? {}, rest.slice(1)) },
        };
  return withDefinition(machine, (config) => edit(config as StateConfig, path) as typeof config, {
    finalizeOfImmortalNamespace: () => false,
  });
}

/** Each eventless guard chain of a machine: its state path and where its first guarded transition goes. */
function guardedChains(machine: AnyStateMachine): { path: string[]; target: string }[] {
  const firsts = new Map<string, string>();
  for (const t of listTransitions(machine))
    if (t.event === 'always' && t.guard !== null && t.target && !firsts.has(t.source))
      firsts.set(t.source, t.target);
  return [...firsts].map(([source, target]) => ({ path: source.split('.'), target }));
}

describe('transition ids are names, not positions', () => {
  it('a new admission refusal at the top of a guard chain changes no other transition id', () => {
    const refusal = {
      guard: 'finalizeOfImmortalNamespace',
      target: 'refused',
      actions: 'refuseImmortalNamespaceDeletion',
      meta: { requirements: ['LC-10'] },
    };
    const before = listTransitions(admissionMachine).map((t) => t.id);
    const edited = listTransitions(withRuleFirst(admissionMachine, ['namespaceLifecycle'], refusal));
    const added = 'admission:namespaceLifecycle:always[finalizeOfImmortalNamespace]->refused';
    expect(edited.map((t) => t.id).filter((id) => id !== added)).toEqual(before);
    expect(edited.map((t) => t.id)).toContain(added);
    expect(edited.find((t) => t.id === added)?.requirements).toEqual(['LC-10']);
  });

  it('in every guard chain of every machine, a guard added first renames no other transition', () => {
    const edits = machineCatalog.flatMap(({ machine }) =>
      guardedChains(machine).map((chain) => ({ machine, ...chain })),
    );
    expect(edits.length).toBeGreaterThanOrEqual(8);
    for (const { machine, path, target } of edits) {
      const rule = { guard: 'finalizeOfImmortalNamespace', target: `#${machine.id}.${target}` };
      const before = listTransitions(machine).map((t) => t.id);
      const after = listTransitions(withRuleFirst(machine, path, rule)).map((t) => t.id);
      expect(after.length, `${machine.id}:${path.join('.')}`).toBe(before.length + 1);
      expect(after.filter((id) => !id.includes('[finalizeOfImmortalNamespace]'))).toEqual(before);
    }
  });

  it('tells apart only transitions sharing guard and target: by their actions, then by their place', () => {
    const t = (guard: string | null, targets: string[], actions: string[]) => ({ guard, targets, actions });
    expect(
      transitionIds('m', 's', 'GO', [
        t('ready', ['done'], ['a']),
        t('ready', ['done'], ['b']),
        t('ready', ['done'], ['b']),
        t('ready', [], []),
        t(null, ['done'], []),
      ]),
    ).toEqual([
      'm:s:GO[ready]->done/a',
      'm:s:GO[ready]->done/b',
      'm:s:GO[ready]->done/b~2',
      'm:s:GO[ready]',
      'm:s:GO->done',
    ]);
  });

  it('every transition of the catalog has its own id', () => {
    const ids = machineCatalog.flatMap(({ machine }) => listTransitions(machine).map((t) => t.id));
    expect(ids).toHaveLength(159);
    // 136 of the composed system's machines, 23 of seed 002's generic-initialization machine (its shared loops sit once on initializing).
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => /#\d+$/.test(id))).toEqual([]);
  });
});

describe('MachineStepper: interning', () => {
  it('equal snapshots reached by different paths get one id', () => {
    const stepper = new MachineStepper(namespaceMachine);
    const direct = stepper.step(stepper.initial, {
      type: 'CREATE',
      pending: [],
      finalizers: ['kubernetes'],
    }).next;
    const viaFinalize = stepper.step(
      stepper.step(stepper.initial, { type: 'CREATE', pending: [], finalizers: ['kubernetes'] }).next,
      { type: 'FINALIZE', finalizers: ['kubernetes'] },
    ).next;
    expect(viaFinalize).toBe(direct);
    expect(stepper.value(direct)).toBe('active');
    // initial and active: two distinct snapshots.
    expect(stepper.snapshots.length).toBe(2);
  });

  it('different snapshots get different ids, and interning a stored snapshot returns its id', () => {
    const stepper = new MachineStepper(namespaceMachine);
    const bare = stepper.step(stepper.initial, { type: 'CREATE', pending: [], finalizers: [] }).next;
    const withK = stepper.step(stepper.initial, { type: 'CREATE', pending: [], finalizers: ['k'] }).next;
    expect(bare).not.toBe(withK);
    expect(stepper.intern(stepper.snapshot(withK))).toBe(withK);
    expect(stepper.snapshot(withK).context.finalizers).toEqual(['k']);
  });

  it('AC-2: an ignored or self-looping event maps a snapshot to its own id', () => {
    const stepper = new MachineStepper(configSyncMachine, { configurations: ['b', 'a'] });
    expect(stepper.snapshot(stepper.initial).context.configurations).toEqual(['a', 'b']);
    const stale = [1, 2, 3, 4, 5].reduce(
      (id) => stepper.step(id, { type: 'READ_FAILED' }).next,
      stepper.initial,
    );
    const failed = stepper.step(stale, { type: 'READ_FAILED' });
    expect(failed.next).toBe(stale);
    expect(failed.transitions).toEqual(['configSync:stale:READ_FAILED']);
  });
});

describe('MachineStepper: memoized steps', () => {
  it('a repeated step returns the same result object without adding snapshots', () => {
    const stepper = new MachineStepper(namespaceMachine);
    const event = (): NamespaceEvent => ({
      type: 'CREATE',
      pending: ['a'],
      finalizers: ['kubernetes'],
    });
    const first = stepper.step(stepper.initial, event());
    const count = stepper.snapshots.length;
    // An equal event, not the same object: the memo key is the event's canonical JSON.
    expect(stepper.step(stepper.initial, event())).toBe(first);
    expect(stepper.snapshots.length).toBe(count);
  });

  it('the caller’s event key identifies the event: a second event under the same key gets the memo', () => {
    const stepper = new MachineStepper(namespaceMachine);
    const first = stepper.step(stepper.initial, { type: 'CREATE', pending: [], finalizers: [] }, 'create');
    const second = stepper.step(
      stepper.initial,
      { type: 'CREATE', pending: ['a'], finalizers: [] },
      'create',
    );
    expect(second).toBe(first);
    expect(stepper.value(second.next)).toBe('active');
  });
});

describe('MachineStepper: what a step reports', () => {
  it('reports the transition taken and none when the event is ignored', () => {
    const stepper = new MachineStepper(namespaceMachine);
    const created = stepper.step(stepper.initial, { type: 'CREATE', pending: [], finalizers: [] });
    expect(created.transitions).toEqual([
      'namespace:absent:CREATE[createdWithoutPendingInitializers]->active',
    ]);
    const ignored = stepper.step(created.next, { type: 'PURGE' });
    expect(ignored).toEqual({ next: created.next, actions: [], emitted: [], transitions: [] });
  });

  it('LC-3: a targetless transition without actions is still reported as taken', () => {
    const stepper = new MachineStepper(namespaceMachine);
    const active = stepper.step(stepper.initial, { type: 'CREATE', pending: [], finalizers: ['k'] });
    const deleted = stepper.step(active.next, { type: 'DELETE' });
    const again = stepper.step(deleted.next, { type: 'DELETE' });
    expect(again.next).toBe(deleted.next);
    expect(again.transitions).toEqual(['namespace:terminating:DELETE']);
  });

  it('IN-3: reports the whole eventless chain of the admission machine, in order, and its verdict', () => {
    const stepper = new MachineStepper(admissionMachine);
    const step = stepper.step(stepper.initial, { type: 'ADMIT', facts: admissionFacts });
    expect(stepper.value(step.next)).toBe('admitted');
    expect(step.actions).toEqual([]);
    expect(stepper.snapshot(step.next).context.verdict).toEqual({ kind: 'admitted', pending: 'none' });
    expect(step.transitions).toEqual([
      'admission:waiting:ADMIT->namespaceLifecycle',
      'admission:namespaceLifecycle:always->configurationCheck',
      'admission:configurationCheck:always->namespaceInitializers',
      'admission:namespaceInitializers:always->admitted',
    ]);
  });

  it('AC-2: a chain cut short by a refusal reports only the transitions taken', () => {
    const stepper = new MachineStepper(admissionMachine);
    const step = stepper.step(stepper.initial, {
      type: 'ADMIT',
      facts: { ...admissionFacts, configurationFresh: false },
    });
    expect(step.transitions).toEqual([
      'admission:waiting:ADMIT->namespaceLifecycle',
      'admission:namespaceLifecycle:always->configurationCheck',
      'admission:configurationCheck:always[writeWithStaleConfiguration]->refused',
    ]);
    expect(stepper.snapshot(step.next).context.verdict).toEqual({
      kind: 'refused',
      refusal: 'refuseConfigurationUnavailable',
    });
  });

  it('LC-8: reports the typed events a step emits, with their data', () => {
    const stepper = new MachineStepper(finalizerOwnerMachine);
    const step = stepper.step(stepper.initial, {
      type: 'SYNC',
      observed: terminatingWithOwnFinalizer,
    });
    expect(step.emitted).toEqual([{ type: 'removeOwnFinalizer', finalizers: ['kubernetes'] }]);
    expect(step.transitions).toEqual(['finalizerOwner:watching:SYNC[terminatingWithOwnFinalizer]']);
  });
});

describe('MachineStepper: one inspected actor run per step', () => {
  /** XState's own pure step, the oracle: the snapshot reached, the actions it lists, the events it emits. */
  const pure = (machine: AnyStateMachine, before: unknown, event: { type: string }) => {
    const [after, actions] = transition(machine, before as never, event as never);
    const listed = actions as { type: string; params?: unknown }[];
    return {
      snapshot: canonicalJson([after.value, after.context ?? null]),
      actions: listed
        .filter((a) => a.type !== 'xstate.emit')
        .map((a) => ({ type: a.type, params: a.params })),
      emitted: listed
        .filter((a) => a.type === 'xstate.emit')
        .map((a) => (a.params as { event: unknown }).event),
    };
  };

  it('reaches the snapshot and gives the actions and emitted events of XState’s pure transition, along a walk', () => {
    const walks: [AnyStateMachine, { type: string; [k: string]: unknown }[]][] = [
      [
        namespaceMachine,
        [
          { type: 'CREATE', pending: ['a'], finalizers: ['kubernetes'] },
          { type: 'DELETE' },
          { type: 'DELETE' },
          { type: 'FINALIZE', finalizers: [] },
          { type: 'PURGE' },
        ],
      ],
      [admissionMachine, [{ type: 'ADMIT', facts: admissionFacts }]],
      [finalizerOwnerMachine, [{ type: 'SYNC', observed: terminatingWithOwnFinalizer }]],
    ];
    let emitting = 0;
    for (const [machine, events] of walks) {
      const stepper = new MachineStepper(machine);
      let id = stepper.initial;
      for (const event of events) {
        const expected = pure(machine, stepper.snapshot(id), event);
        const step = stepper.compute(id, event as never);
        const after = stepper.snapshot(step.next) as { value: unknown; context?: unknown };
        expect(canonicalJson([after.value, after.context ?? null])).toBe(expected.snapshot);
        expect({ actions: step.actions, emitted: step.emitted }).toEqual({
          actions: expected.actions,
          emitted: expected.emitted,
        });
        emitting += step.emitted.length;
        id = step.next;
      }
    }
    // The walks include a step that emits, so the comparison of emitted events is not vacuous.
    expect(emitting).toBeGreaterThan(0);
  });

  it('a guard that throws fails the step with its error, as XState’s pure transition does', () => {
    const machine = createMachine(
      {
        id: 'throwing',
        initial: 'idle',
        states: { idle: { on: { GO: { guard: 'broken', target: 'done' } } }, done: {} },
      },
      {
        guards: {
          broken: () => {
            throw new Error('the guard broke');
          },
        },
      },
    );
    const stepper = new MachineStepper(machine);
    expect(() => transition(machine, stepper.snapshot(stepper.initial), { type: 'GO' })).toThrow(
      'the guard broke',
    );
    expect(() => stepper.compute(stepper.initial, { type: 'GO' })).toThrow('the guard broke');
  });
});

describe('canonicalJson', () => {
  it('sorts object keys at every depth, so equal data gives one string', () => {
    const a = canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 'x' } });
    const b = canonicalJson({ a: { c: 'x', d: [2, { y: 2, z: 1 }] }, b: 1 });
    expect(a).toBe(b);
    expect(a).toBe('{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}');
  });

  it('keeps array order and writes primitives as JSON', () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(canonicalJson(['a', null, true, 1.5])).toBe('["a",null,true,1.5]');
    expect(canonicalJson('x"y')).toBe('"x\\"y"');
    expect(canonicalJson(null)).toBe('null');
  });
});
