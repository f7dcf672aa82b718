import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { thrownMessage } from '../../test-support/run-command.ts';
import { parseScope, ScopeFileError } from '../cli/scope-file.ts';
import { loadScenario, ScenarioFileError } from '../scenario/load.ts';

/** Every number a scope or scenario takes is bounded by what the model means (D-32's timeouts, FP-4's global timeout). */
describe('numbers the model cannot mean are refused', () => {
  const quick = () => readFile('scopes/default.yaml', 'utf8');
  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  const scopeRefusal = (text: string) => thrownMessage(ScopeFileError, () => parseScope(text, 'scope.yaml'));

  it("an initializer's timeoutSeconds above D-32's 30 s", async () => {
    const text = (await quick()).replace(/timeoutSeconds: \d+/, 'timeoutSeconds: 3600');
    expect(scopeRefusal(text)).toBe(
      `scope.yaml:${lineOf(text, '3600')}: manifests[${/manifests\[(\d+)\]/.exec(scopeRefusal(text) ?? '')?.[1]}].initializers[0].timeoutSeconds: 3600 is too large (D-32: an initializer's timeoutSeconds is 1 to 30); fix: use at most 30`,
    );
  });

  it('a read-repair timeout of 1e15', async () => {
    const text = (await quick()).replace(/readRepairTimeoutSeconds: \d+/, 'readRepairTimeoutSeconds: 1e15');
    expect(scopeRefusal(text)).toBe(
      `scope.yaml:${lineOf(text, '1e15')}: clock.readRepairTimeoutSeconds: 1000000000000000 is too large (FP-4: the global timeout is 10 min; D-8 scales time, so a few seconds suffice); fix: use at most 600`,
    );
  });

  it("the intent's timeouts, by the same bounds", async () => {
    const text = (await quick()).replace(/readRepairSeconds: \d+/, 'readRepairSeconds: 3601');
    expect(scopeRefusal(text)).toMatch(
      /intent\.timeouts\.readRepairSeconds: 3601 is too large \(FP-4: .*fix: use at most 600$/,
    );
  });

  it("a scenario's starting configuration with a one-hour timeout", () => {
    const source = [
      'title: a configuration the apiserver would refuse',
      'requirements: [FP-1]',
      'given:',
      '  manifests:',
      '    - apiVersion: admissionregistration.k8s.io/v1alpha1',
      '      kind: NamespaceInitializerConfiguration',
      '      metadata: { name: slow }',
      '      initializers: [{ name: slow.example.com, timeoutSeconds: 3600 }]',
      'steps:',
      '  - tick: 1',
      '',
    ].join('\n');
    const message = thrownMessage(ScenarioFileError, () => loadScenario('slow.yaml', source));
    expect(message).toMatch(/^slow\.yaml:8: given\.manifests\[0\]\.initializers\[0\]\.timeoutSeconds: .*30/);
  });
});
