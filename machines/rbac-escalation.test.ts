import { describe, expect, it } from 'vitest';
import { compactString, uncovered } from './rbac-escalation.ts';

/**
 * Covers on non-resource URLs (pkg/apis/rbac/validation/policy_comparator_test.go, 1.6 line): the expected
 * uncovered subrules are the test's own, written out here.
 */
const url = (urls: string[], verbs: string[]) => ({
  apiGroups: [],
  resources: [],
  verbs,
  nonResourceURLs: urls,
});

describe('uncovered, non-resource URLs', () => {
  it('* covers every path; an exact path covers itself', () => {
    expect(uncovered([url(['*'], ['*'])], [url(['/apis', '/apis/v1', '/'], ['*'])])).toEqual([]);
    expect(uncovered([url(['/apis'], ['*'])], [url(['/apis'], ['*'])])).toEqual([]);
  });

  it('a prefix with * covers the paths below it, not the prefix itself', () => {
    expect(uncovered([url(['/apis/*'], ['*'])], [url(['/apis/v1/foo', '/apis/v1'], ['get'])])).toEqual([]);
    const missing = uncovered([url(['/apis/*'], ['*'])], [url(['/apis', '/apis/v1'], ['get'])]);
    expect(missing.map(compactString)).toEqual(['{NonResourceURLs:["/apis"], Verbs:["get"]}']);
  });

  it('a resource rule never covers a non-resource URL', () => {
    const owner = [{ apiGroups: ['v1'], resources: ['builds'], verbs: ['get'] }];
    const servant = [
      { apiGroups: ['v1'], resources: ['builds'], verbs: ['get'], nonResourceURLs: ['/apis'] },
    ];
    expect(uncovered(owner, servant).map(compactString)).toEqual([
      '{NonResourceURLs:["/apis"], Verbs:["get"]}',
    ]);
  });
});
