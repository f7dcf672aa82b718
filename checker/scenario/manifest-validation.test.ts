import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { illegalBase64Byte } from '../cli/kubernetes-validation.ts';
import { loadScenario } from './load.ts';

/**
 * Scenario manifests of every kind `given` accepts, judged as the apiserver judges them (issue 25): each
 * fixture holds one manifest Kubernetes refuses, and the refusal names the file, the manifest's line, the
 * field and upstream's message.
 */
const folder = 'checker/fixtures/scenario-manifests';
const refusals: [string, string, RegExp][] = [
  [
    '01-secret-nonb64.yaml',
    'data.password',
    /cannot be handled as a Secret: illegal base64 data at input byte 7 \(fix: .*stringData/,
  ],
  ['02-secret-badpad.yaml', 'data.password', /illegal base64 data at input byte 3/],
  [
    '04-secret-badkey.yaml',
    'stringData.pass word',
    /Invalid value: "pass word": a valid config key must consist of/,
  ],
  [
    '05-configmap-binary.yaml',
    'binaryData.k',
    /cannot be handled as a ConfigMap: illegal base64 data at input byte 0/,
  ],
  // Upstream names the data key: `data[k]: Invalid value: "k": duplicate of key present in binaryData`.
  ['06-configmap-dupkey.yaml', 'data.k', /Invalid value: "k": duplicate of key present in binaryData/],
  ['07-label-key.yaml', 'metadata.labels', /Invalid value: "bad key!": name part must consist of/],
  ['08-label-value.yaml', 'metadata.labels', /Invalid value: "-bad-": a valid label must be an empty string/],
  [
    '09-pod-no-containers.yaml',
    'spec.containers',
    /Kubernetes' Pod schema refuses it: required \(fix: add containers\)/,
  ],
  [
    '10-ns-finalizer.yaml',
    'spec.finalizers[0]',
    /"origin": name is neither a standard finalizer name nor is it fully qualified/,
  ],
  ['11-quota-bad.yaml', 'spec.hard.pods', /Kubernetes' ResourceQuota schema refuses it/],
  ['12-netpol-bad.yaml', 'spec.podSelector', /Kubernetes' NetworkPolicy schema refuses it: must be object/],
  [
    '13-config-name.yaml',
    'metadata.name',
    /Invalid value: "Bad_Name": not a InitializerConfiguration name: a lowercase RFC 1123 subdomain/,
  ],
  [
    '14-hook-name.yaml',
    'externalAdmissionHooks[0].name',
    /"hook": should be a domain with at least three segments/,
  ],
  [
    '15-annotation-key.yaml',
    'metadata.annotations',
    /Invalid value: "a\/b\/c": a qualified name must consist of/,
  ],
  // Past every safe integer, yet told D-32's bound rather than the safe-integer one.
  [
    '16-timeout-past-safe-integers.yaml',
    'initializers[0].timeoutSeconds',
    /D-32: an initializer's timeoutSeconds is 1 to 30 \(got 1e\+23\)/,
  ],
  // ValidateSecret by type: the keys and the annotation each type requires, stringData merged over data.
  [
    '17-secret-tls-key.yaml',
    'data.tls.key',
    /Required value \(fix: a Secret of type kubernetes.io\/tls needs it/,
  ],
  ['18-secret-basic-auth.yaml', 'data.username', /Required value/],
  [
    '19-secret-token-annotation.yaml',
    'metadata.annotations.kubernetes.io/service-account.name',
    /Required value/,
  ],
  [
    '20-secret-dockerconfigjson.yaml',
    'stringData..dockerconfigjson',
    /Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map\[string\]interface \{\}/,
  ],
];

describe('scenario manifests get Kubernetes validation', () => {
  it.each(refusals)('%s is refused at its field, with the file and line', (file, field, message) => {
    const path = join(folder, file);
    expect(() => loadScenario(path)).toThrow(`${path}:9: given.manifests[0].${field}: `);
    expect(() => loadScenario(path)).toThrow(message);
  });

  it('stringData holds plain text, as upstream accepts it', () => {
    expect(loadScenario(join(folder, '03-secret-stringdata-ok.yaml')).manifests).toHaveLength(1);
  });

  it('a typed Secret that has what its type requires is taken', () => {
    expect(loadScenario(join(folder, '21-secret-typed-ok.yaml')).manifests).toHaveLength(1);
  });

  it('decodes base64 as Go does: padding, newlines skipped, and the first refused byte', () => {
    expect(illegalBase64Byte('aGk=')).toBeUndefined();
    expect(illegalBase64Byte('aGVs\nbG8=')).toBeUndefined();
    expect(illegalBase64Byte('')).toBeUndefined();
    expect(illegalBase64Byte('aGk')).toBe(3);
    expect(illegalBase64Byte('a=Gk')).toBe(2);
    expect(illegalBase64Byte('aG k')).toBe(2);
    expect(illegalBase64Byte('a===')).toBe(1);
  });

  it('refuses an unknown YAML tag, which the parser only warns of, and a status code past 599 with its bound', () => {
    const text = (line: string) =>
      `title: t\nrequirements: [NS-1]\ngiven:\n  namespaces: [{ name: team-a }]\nsteps:\n${line}\n`;
    expect(() =>
      loadScenario('x.yaml', text('  - check: !custom { namespace: team-a, exists: true }')),
    ).toThrow('x.yaml:6: YAML: unknown tag: !custom');
    expect(() =>
      loadScenario(
        'x.yaml',
        text('  - as: root\n    do: get namespaces/team-a\n    expect: { code: 99999999999999999999 }'),
      ),
    ).toThrow(/x\.yaml:8: steps\[0\]\.expect\.code: Too big: expected number to be <=599/);
  });
});
