import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { admissionFacts } from '../test-support/admission-facts.ts';
import {
  type AdmissionFacts,
  type AdmissionRefusal,
  type AdmissionVerdict,
  admissionMachine,
  admissionRefusals,
  type Operation,
  type PendingSource,
  refusalResponse,
} from './admission.ts';
import type { Addressed, HttpOutcome } from './http.ts';

const facts = admissionFacts;

const [waiting] = initialTransition(admissionMachine);

/** One ADMIT from the waiting state: the eventless chain runs to a final state in the same step. */
const admit = (overrides: Partial<AdmissionFacts> = {}) => {
  const [next, actions] = transition(admissionMachine, waiting, { type: 'ADMIT', facts: facts(overrides) });
  return { value: next.value, status: next.status, verdict: next.context.verdict, effects: actions.length };
};

const admitted = (pending: PendingSource = 'none') => ({
  value: 'admitted',
  status: 'done',
  verdict: { kind: 'admitted', pending } satisfies AdmissionVerdict,
  effects: 0,
});
const refused = (refusal: AdmissionRefusal) => ({
  value: 'refused',
  status: 'done',
  verdict: { kind: 'refused', refusal } satisfies AdmissionVerdict,
  effects: 0,
});

describe('admission machine: configuration freshness', () => {
  it('starts waiting for a request', () => {
    expect(waiting.value).toBe('waiting');
  });

  it('AC-1: ADMIT leaves the waiting state and the chain ends in a final state', () => {
    expect(admit()).toEqual(admitted());
  });

  it('AC-2 (D-9): every write is refused while the configuration copy is stale', () => {
    const writes: Operation[] = ['create', 'update', 'delete', 'finalize'];
    for (const operation of writes) {
      expect(admit({ operation, configurationFresh: false })).toEqual(
        refused('refuseConfigurationUnavailable'),
      );
      expect(admit({ operation, target: 'namespace', configurationFresh: false })).toEqual(
        refused('refuseConfigurationUnavailable'),
      );
    }
  });

  it('AC-2 (D-9): reads pass a stale configuration copy', () => {
    expect(admit({ operation: 'get', configurationFresh: false })).toEqual(admitted());
    expect(admit({ operation: 'list', configurationFresh: false })).toEqual(admitted());
  });

  it('AC-2, AC-3: a fresh configuration copy lets a write through', () => {
    expect(admit({ operation: 'create' })).toEqual(admitted());
  });
});

describe('admission machine: order of checks (docs/decisions.md)', () => {
  it('NS-2, LC-10, AC-2: NamespaceLifecycle answers before the NamespaceInitializers configuration check', () => {
    expect(admit({ operation: 'create', namespaceExists: false, configurationFresh: false })).toEqual(
      refused('refuseNamespaceNotFound'),
    );
    expect(
      admit({ target: 'namespace', operation: 'delete', namespaceImmortal: true, configurationFresh: false }),
    ).toEqual(refused('refuseImmortalNamespaceDeletion'));
  });

  it('AC-2, IN-3: a stale configuration refuses before the initialize verb is asked', () => {
    expect(
      admit({
        target: 'namespace',
        operation: 'update',
        changesInitializers: true,
        configurationFresh: false,
      }),
    ).toEqual(refused('refuseConfigurationUnavailable'));
  });
});

describe('admission machine: NamespaceLifecycle', () => {
  it('NS-2: creating or updating content in a namespace that does not exist is refused NotFound', () => {
    expect(admit({ namespaceExists: false, operation: 'create' })).toEqual(
      refused('refuseNamespaceNotFound'),
    );
    expect(admit({ namespaceExists: false, operation: 'update' })).toEqual(
      refused('refuseNamespaceNotFound'),
    );
  });

  it('NS-2 (D-15): a DELETE or GET of content in a missing namespace passes admission (storage answers 404 for the object)', () => {
    expect(admit({ namespaceExists: false, operation: 'delete' })).toEqual(admitted());
    expect(admit({ namespaceExists: false, operation: 'get' })).toEqual(admitted());
  });

  it('NS-7 (D-15): a list in a missing namespace, or across all, passes admission (storage answers 200, no items)', () => {
    expect(admit({ operation: 'list', namespaceExists: false })).toEqual(admitted());
  });

  it('NS-2: a namespace request passes the existence check (storage answers for the namespace itself)', () => {
    expect(admit({ target: 'namespace', operation: 'get', namespaceExists: false })).toEqual(admitted());
    expect(admit({ target: 'namespace', operation: 'create', namespaceExists: false })).toEqual(
      admitted('inject'),
    );
  });

  it('LC-4 (D-3): creating content in a Terminating namespace is refused', () => {
    expect(admit({ operation: 'create', namespaceTerminating: true })).toEqual(
      refused('refuseNamespaceTerminating'),
    );
    // Even an initializer (initialize holder) may not create there.
    expect(admit({ operation: 'create', namespaceTerminating: true, callerMayInitialize: true })).toEqual(
      refused('refuseNamespaceTerminating'),
    );
  });

  it('LC-4, LC-5: reads and deletes of content in a Terminating namespace pass, so it can be emptied', () => {
    expect(admit({ operation: 'get', namespaceTerminating: true })).toEqual(admitted());
    expect(admit({ operation: 'delete', namespaceTerminating: true })).toEqual(admitted());
  });

  it('LC-10 (D-2): deleting an immortal namespace is refused; reading it or deleting another passes', () => {
    const ns = { target: 'namespace' as const };
    expect(admit({ ...ns, operation: 'delete', namespaceImmortal: true })).toEqual(
      refused('refuseImmortalNamespaceDeletion'),
    );
    expect(admit({ ...ns, operation: 'get', namespaceImmortal: true })).toEqual(admitted());
    expect(admit({ ...ns, operation: 'delete', namespaceImmortal: false })).toEqual(admitted());
    // Content inside an immortal namespace may still be deleted.
    expect(admit({ operation: 'delete', namespaceImmortal: true })).toEqual(admitted());
  });
});

describe('admission machine: NamespaceInitializers', () => {
  const namespaceCreate = { target: 'namespace' as const, operation: 'create' as const };

  it('IN-1: an ordinary namespace create is admitted and gets the configured pending list', () => {
    expect(admit(namespaceCreate)).toEqual(admitted('inject'));
  });

  it('IN-3 (D-17): a create carrying initializers is refused without the initialize verb', () => {
    expect(admit({ ...namespaceCreate, createCarriesInitializers: true })).toEqual(
      refused('refuseInitializersSetAtCreate'),
    );
  });

  it('IN-3 (D-17): an initialize holder keeps the list it sent; nothing is injected', () => {
    expect(admit({ ...namespaceCreate, createCarriesInitializers: true, callerMayInitialize: true })).toEqual(
      admitted('asSent'),
    );
  });

  it('IN-3: changing the pending list or result needs the initialize verb', () => {
    const update = { target: 'namespace' as const, operation: 'update' as const, changesInitializers: true };
    expect(admit(update)).toEqual(refused('refuseInitializersChangeWithoutInitializeVerb'));
    expect(admit({ ...update, callerMayInitialize: true })).toEqual(admitted());
    expect(admit({ ...update, changesInitializers: false })).toEqual(admitted());
  });
});

describe('admission machine: the chain as a whole', () => {
  it("AC-2, NS-2, LC-4, LC-10, IN-3: every ADMIT ends final with a verdict of its final state's kind, every refusal reachable", () => {
    type Flag = {
      [K in keyof AdmissionFacts]: AdmissionFacts[K] extends boolean ? K : never;
    }[keyof AdmissionFacts];
    const cases: { target: AdmissionFacts['target']; operation: Operation; flags: Flag[] }[] = [
      {
        target: 'content',
        operation: 'create',
        flags: [
          'configurationFresh',
          'namespaceExists',
          'namespaceTerminating',
          'callerMayInitialize',
          'changesInitializers',
        ],
      },
      {
        target: 'namespace',
        operation: 'create',
        flags: ['configurationFresh', 'callerMayInitialize', 'createCarriesInitializers'],
      },
      {
        target: 'namespace',
        operation: 'delete',
        flags: ['configurationFresh', 'namespaceExists', 'namespaceImmortal'],
      },
    ];
    const refusals = new Set<string>(admissionRefusals);
    const seen = new Set<string>();
    for (const { target, operation, flags } of cases) {
      for (let mask = 0; mask < 1 << flags.length; mask++) {
        const overrides: Partial<AdmissionFacts> = { target, operation };
        flags.forEach((flag, bit) => {
          overrides[flag] = (mask & (1 << bit)) !== 0;
        });
        const outcome = admit(overrides);
        expect(outcome.status).toBe('done');
        expect(outcome.verdict?.kind).toBe(outcome.value);
        if (outcome.verdict?.kind === 'refused') seen.add(outcome.verdict.refusal);
      }
    }
    expect(seen).toEqual(refusals);
  });
});

describe('admission refusals on the wire', () => {
  const addressed: Addressed = { resource: 'configmaps', name: 'app', namespace: 'team-a' };

  it('AC-2, NS-2, LC-4, LC-10, IN-3: every refusal answers with an error status, a reason and a message', () => {
    for (const refusal of admissionRefusals) {
      const response = refusalResponse[refusal](addressed);
      expect(response.code, refusal).toBeGreaterThanOrEqual(400);
      expect(response.reason, refusal).not.toBe('');
      expect(response.message, refusal).toMatch(/\S/);
    }
  });

  it("IN-3 (D-17): the initialize refusals end in RBAC's empty reason, as shipped", () => {
    expect(refusalResponse.refuseInitializersSetAtCreate({ ...addressed, namespace: 'ns1' })).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'namespaces "ns1" is forbidden: create with initializers denied: ',
    });
  });

  it('AC-2: a refusal left without its response is a type error, not a crash at run time', () => {
    // @ts-expect-error every AdmissionRefusal needs its response: this Record misses all but one
    const incomplete: Record<AdmissionRefusal, (a: Addressed) => HttpOutcome> = {
      refuseNamespaceNotFound: refusalResponse.refuseNamespaceNotFound,
    };
    expect(Object.keys(incomplete)).toEqual(['refuseNamespaceNotFound']);
  });
});
