import { describe, expect, it } from 'vitest';
import { scopeByName } from '../cli/scope-file.ts';
import { goldenOf } from '../judging/manifest.ts';
import { compiledFor, releaseCompiled } from './compiled.ts';
import { exploreCompiled } from './compiled-explore.ts';
import { systemModel } from './system-model.ts';

// verify lets go of the compiled tables once liveness is judged (scripts/verify.ts, docs/performance.md).
describe('releaseCompiled (checker/model/compiled.ts)', () => {
  it('drops the cached compiled form of one model: the next compiledFor builds tables that search the same', () => {
    const model = systemModel(scopeByName('admin-finalize'));
    const other = systemModel(scopeByName('admin-finalize'));
    const first = compiledFor(model);
    const kept = compiledFor(other);
    expect(compiledFor(model)).toBe(first);
    const before = exploreCompiled(first);
    releaseCompiled(model);
    const rebuilt = compiledFor(model);
    expect(rebuilt).not.toBe(first);
    // Only that model's form is dropped.
    expect(compiledFor(other)).toBe(kept);
    const after = exploreCompiled(rebuilt);
    // The scope's pinned count (scopes/admin-finalize.yaml), reached by the fresh tables as by the first.
    const golden = goldenOf('admin-finalize');
    expect(after.states).toBe(golden?.explored ? golden.states : undefined);
    expect([after.states, after.transitions]).toEqual([before.states, before.transitions]);
  });
});
