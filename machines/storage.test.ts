import { describe, expect, it } from 'vitest';
import type { HttpOutcome } from './http.ts';
import { type StorageRefusal, type StorageSubject, storageResponse } from './storage.ts';

const subject: StorageSubject = { resource: 'namespaces', name: 'team-a', namespace: 'team-a', errors: [] };

describe('storage answers', () => {
  it('NS-1, LC-2, LC-6, IN-3, IN-7, FP-3: every storage refusal is a 4xx with a reason and a message, but try-again', () => {
    for (const refusal of Object.keys(storageResponse) as StorageRefusal[]) {
      const response = storageResponse[refusal](subject);
      expect(response.code, refusal).toBeGreaterThanOrEqual(400);
      // D-45: a taken generated name is shipped's 500 ServerTimeout, the one storage answer that asks to retry.
      expect(response.code, refusal).toBeLessThan(refusal === 'generatedNameTaken' ? 501 : 500);
      expect(response.reason, refusal).not.toBe('');
      expect(response.message, refusal).toMatch(/\S/);
    }
  });

  it('NS-1 (D-1): an invalid namespace name is 422 Invalid with the field errors and cause FieldValueInvalid', () => {
    const response = storageResponse.namespaceNameInvalid({
      resource: 'namespaces',
      namespace: 'Team_A',
      name: 'Team_A',
      errors: ['metadata.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of ...'],
    });
    expect(response).toMatchObject({ code: 422, reason: 'Invalid', cause: 'FieldValueInvalid' });
    expect(response.message).toContain('Namespace "Team_A" is invalid');
  });

  it('FP-3 (D-7): a fail-closed configuration registered later is refused 422 with the shipped field error', () => {
    const error = 'initializers[0].failurePolicy: Unsupported value: "Fail": supported values: "Ignore"';
    expect(
      storageResponse.configurationInvalid({
        resource: 'namespaceinitializerconfigurations',
        namespace: '',
        name: '20-quota',
        errors: [error],
      }),
    ).toEqual({
      code: 422,
      reason: 'Invalid',
      cause: 'FieldValueNotSupported',
      message: `NamespaceInitializerConfiguration.admissionregistration.k8s.io "20-quota" is invalid: ${error}`,
    });
  });

  it('IN-2, IN-4 (D-18): initializer transitions are 422s with the decided text and cause', () => {
    const named = {
      ...subject,
      name: 'ns2',
      namespace: 'ns2',
      firstPending: 'a.example.com',
      changed: ['b.example.com'],
    };
    expect(storageResponse.pendingNotFirst(named)).toEqual({
      code: 422,
      reason: 'Invalid',
      cause: 'FieldValueForbidden',
      message:
        'Namespace "ns2" is invalid: spec.initializers.pending: Forbidden: only the first pending initializer may complete; "a.example.com" is pending before "b.example.com"',
    });
    expect(storageResponse.initializersImmutable(named).cause).toBe('FieldValueInvalid');
  });

  it('LC-6: a storage refusal left without its answer is a type error', () => {
    const only = { namespaceNotFound: storageResponse.namespaceNotFound };
    // @ts-expect-error every StorageRefusal needs its answer
    const incomplete: Record<StorageRefusal, (s: StorageSubject) => HttpOutcome> = only;
    expect(incomplete).toBe(only);
  });

  it('NS-3 (D-45): a taken generated name is 500 ServerTimeout, try again', () => {
    expect(storageResponse.generatedNameTaken(subject)).toEqual({
      code: 500,
      reason: 'ServerTimeout',
      message: 'The POST operation against Namespace could not be completed at this time, please try again.',
    });
  });
});
