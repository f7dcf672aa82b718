import { describe, expect, it } from 'vitest';
import type { HttpOutcome } from './http.ts';
import { type StorageRefusal, type StorageSubject, storageResponse } from './storage.ts';

const subject: StorageSubject = { what: 'update namespaces/team-a', name: 'team-a', errors: [] };

describe('storage answers', () => {
  it('NS-1, LC-2, LC-6, IN-3, IN-7, FP-3: every storage refusal is a 4xx with a reason and a message', () => {
    for (const refusal of Object.keys(storageResponse) as StorageRefusal[]) {
      const response = storageResponse[refusal](subject);
      expect(response.code, refusal).toBeGreaterThanOrEqual(400);
      expect(response.code, refusal).toBeLessThan(500);
      expect(response.reason, refusal).not.toBe('');
      expect(response.message, refusal).toMatch(/\S/);
    }
  });

  it('NS-1 (D-1): an invalid namespace name is 422 Invalid with the field errors and cause FieldValueInvalid', () => {
    const response = storageResponse.namespaceNameInvalid({
      what: 'create namespaces/Team_A',
      name: 'Team_A',
      errors: ['metadata.name: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of ...'],
    });
    expect(response).toMatchObject({ code: 422, reason: 'Invalid', cause: 'FieldValueInvalid' });
    expect(response.message).toContain('Namespace "Team_A" is invalid');
  });

  it('FP-3: a fail-closed configuration registered later is refused 422, naming it', () => {
    expect(storageResponse.configurationFailClosed({ what: '', name: '20-quota' })).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        'namespaceinitializerconfigurations/20-quota: new configurations must be fail-open (failurePolicy Ignore)',
    });
  });

  it('LC-6: a storage refusal left without its answer is a type error', () => {
    const only = { namespaceNotFound: storageResponse.namespaceNotFound };
    // @ts-expect-error every StorageRefusal needs its answer
    const incomplete: Record<StorageRefusal, (s: StorageSubject) => HttpOutcome> = only;
    expect(incomplete).toBe(only);
  });
});
