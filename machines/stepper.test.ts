import { describe, expect, it } from 'vitest';
import { admissionFacts as facts } from '../test-support/admission-facts.ts';
import { admissionMachine } from './admission.ts';
import { configSyncMachine } from './config-sync.ts';
import { finalizerOwnerMachine } from './finalizer-owner.ts';
import { type NamespaceEvent, namespaceMachine } from './namespace.ts';
import { canonicalJson, listTransitions, MachineStepper } from './stepper.ts';

const admissionFacts = facts({ operation: 'create' });

describe('listTransitions', () => {
  const namespaceTransitions = listTransitions(namespaceMachine);
  const byId = (id: string) => namespaceTransitions.find((t) => t.id === id);

  it('names every transition <machine>:<state>:<event>#<index>, with guard, target, actions and requirements', () => {
    expect(byId('namespace:terminating:PURGE#0')).toEqual({
      id: 'namespace:terminating:PURGE#0',
      machine: 'namespace',
      source: 'terminating',
      event: 'PURGE',
      guard: 'noFinalizersLeft',
      target: 'removed',
      actions: ['forgetNamespace'],
      requirements: ['LC-7'],
    });
    expect(byId('namespace:absent:CREATE#1')).toMatchObject({
      guard: null,
      target: 'initializing',
      actions: ['recordCreation'],
    });
  });

  it('LC-3: a targetless transition has no target', () => {
    expect(byId('namespace:terminating:DELETE#0')).toMatchObject({ target: null, actions: [], guard: null });
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
      (t) => t.id === 'finalizerOwner:watching:SYNC#2',
    );
    expect(remove?.actions).toEqual(['removeOwnFinalizer']);
  });

  it('returns the same list for repeated calls (the index is cached per machine)', () => {
    expect(listTransitions(namespaceMachine)).toEqual(namespaceTransitions);
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
    expect(failed.transitions).toEqual(['configSync:stale:READ_FAILED#0']);
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
    expect(created.transitions).toEqual(['namespace:absent:CREATE#0']);
    const ignored = stepper.step(created.next, { type: 'PURGE' });
    expect(ignored).toEqual({ next: created.next, actions: [], emitted: [], transitions: [] });
  });

  it('LC-3: a targetless transition without actions is still reported as taken', () => {
    const stepper = new MachineStepper(namespaceMachine);
    const active = stepper.step(stepper.initial, { type: 'CREATE', pending: [], finalizers: ['k'] });
    const deleted = stepper.step(active.next, { type: 'DELETE' });
    const again = stepper.step(deleted.next, { type: 'DELETE' });
    expect(again.next).toBe(deleted.next);
    expect(again.transitions).toEqual(['namespace:terminating:DELETE#0']);
  });

  it('IN-3: reports the whole eventless chain of the admission machine, in order, and its verdict', () => {
    const stepper = new MachineStepper(admissionMachine);
    const step = stepper.step(stepper.initial, { type: 'ADMIT', facts: admissionFacts });
    expect(stepper.value(step.next)).toBe('admitted');
    expect(step.actions).toEqual([]);
    expect(stepper.snapshot(step.next).context.verdict).toEqual({ kind: 'admitted', pending: 'none' });
    expect(step.transitions).toEqual([
      'admission:waiting:ADMIT#0',
      'admission:namespaceLifecycle:always#3',
      'admission:configurationCheck:always#1',
      'admission:namespaceInitializers:always#4',
    ]);
  });

  it('AC-2: a chain cut short by a refusal reports only the transitions taken', () => {
    const stepper = new MachineStepper(admissionMachine);
    const step = stepper.step(stepper.initial, {
      type: 'ADMIT',
      facts: { ...admissionFacts, configurationFresh: false },
    });
    expect(step.transitions).toEqual([
      'admission:waiting:ADMIT#0',
      'admission:namespaceLifecycle:always#3',
      'admission:configurationCheck:always#0',
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
      observed: {
        owner: 'o.example.com/x',
        namespaceActive: false,
        namespaceTerminating: true,
        finalizers: ['kubernetes', 'o.example.com/x'],
        externalContentExists: false,
      },
    });
    expect(step.emitted).toEqual([{ type: 'removeOwnFinalizer', finalizers: ['kubernetes'] }]);
    expect(step.transitions).toEqual(['finalizerOwner:watching:SYNC#2']);
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
