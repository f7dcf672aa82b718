import { describe, expect, it } from 'vitest';
import { replayFile } from './replay.ts';

/**
 * A Secret's or ConfigMap's data in a request body, answered as the apiserver answers it (issue 25). The
 * expectations are upstream's: a `data` (Secret) or `binaryData` (ConfigMap) value that is not base64 fails
 * the handler's decode, 400 BadRequest, after authorization and before admission; data that decodes but
 * that ValidateSecret or ValidateConfigMap refuses is 422 Invalid, after admission and before storage.
 * Neither request stores anything.
 */
const scenario = (steps: string, namespace = '{ name: team-a }') => `title: request data
requirements: [NS-1]
given:
  namespaces:
    - ${namespace}
  users:
    - { name: root, groups: [system:masters] }
    - { name: eve, groups: [system:authenticated] }
steps:
${steps}`;

const post = (as: string, resource: string, body: string, expect: string) =>
  `  - as: ${as}\n    do: create namespaces/team-a/${resource}\n    body: ${body}\n    expect: ${expect}\n`;
const absent = (resource: string) =>
  `  - as: root\n    do: get namespaces/team-a/${resource}\n    expect: 404\n`;

const passes = (steps: string, namespace?: string) => {
  const report = replayFile('x.yaml', scenario(steps, namespace));
  expect(report.error).toBeUndefined();
  expect(
    report.steps.filter((s) => !s.ok).map((s) => s.mismatch.join(' | ')),
    report.steps.map((s) => s.outcome).join('\n'),
  ).toEqual([]);
  expect(report.status).toBe('passed');
  return report;
};

describe('Secret and ConfigMap data in a request body', () => {
  it('a Secret data value that is not base64 is 400 BadRequest with the decode error, and nothing is stored', () => {
    passes(
      post(
        'root',
        'secrets/s',
        '{ kind: Secret, metadata: { name: s }, data: { pw: "not base64!" } }',
        `{ code: 400, reason: BadRequest, message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3' }`,
      ) + absent('secrets/s'),
    );
  });

  it('a ConfigMap binaryData value that is not base64 is 400 too; its data is plain text', () => {
    passes(
      post(
        'root',
        'configmaps/c',
        '{ kind: ConfigMap, metadata: { name: c }, binaryData: { b: "%%%" } }',
        `{ code: 400, reason: BadRequest, message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 0' }`,
      ) +
        absent('configmaps/c') +
        post('root', 'configmaps/c', '{ kind: ConfigMap, metadata: { name: c }, data: { b: "%%%" } }', '201'),
    );
  });

  it('authorization comes first: a caller without a grant gets 403, not the decode error', () => {
    passes(
      post(
        'eve',
        'secrets/s',
        '{ kind: Secret, metadata: { name: s }, data: { pw: "not base64!" } }',
        '{ code: 403, reason: Forbidden }',
      ),
    );
  });

  it('the decode comes before admission: in a terminating namespace the bad body is 400, a good one 403', () => {
    passes(
      `  - as: root\n    do: delete namespaces/team-a\n    expect: 200\n` +
        post('root', 'secrets/s', '{ kind: Secret, metadata: { name: s }, data: { pw: "!" } }', '400') +
        post('root', 'secrets/s', '{ kind: Secret, metadata: { name: s }, data: { pw: YQ== } }', '403'),
      '{ name: team-a, finalizers: [kubernetes, example.com/hold] }',
    );
  });

  it('a typed Secret missing what its type requires is 422 with upstream field errors', () => {
    passes(
      post(
        'root',
        'secrets/t',
        '{ kind: Secret, metadata: { name: t }, type: kubernetes.io/tls, data: { tls.crt: YQ== } }',
        `{ code: 422, reason: Invalid, cause: FieldValueRequired, message: 'Secret "t" is invalid: data[tls.key]: Required value' }`,
      ) +
        absent('secrets/t') +
        post(
          'root',
          'secrets/d',
          '{ kind: Secret, metadata: { name: d }, type: kubernetes.io/dockerconfigjson, stringData: { .dockerconfigjson: hello } }',
          `{ code: 422, message: 'Secret "d" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character ''h'' looking for beginning of value' }`,
        ) +
        post(
          'root',
          'secrets/a',
          '{ kind: Secret, metadata: { name: a }, type: kubernetes.io/service-account-token }',
          `{ code: 422, message: 'Secret "a" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value' }`,
        ) +
        post(
          'root',
          'secrets/b',
          '{ kind: Secret, metadata: { name: b }, type: kubernetes.io/basic-auth, data: {} }',
          `{ code: 422, message: 'Secret "b" is invalid: [data[%s][username]: Required value, data[%s][password]: Required value]' }`,
        ) +
        // What the type requires may come from stringData, merged over data before validation.
        post(
          'root',
          'secrets/t',
          '{ kind: Secret, metadata: { name: t }, type: kubernetes.io/tls, data: { tls.crt: YQ== }, stringData: { tls.key: k } }',
          '201',
        ),
    );
  });

  it('a ConfigMap key in both data and binaryData, or not a config key, is 422', () => {
    passes(
      post(
        'root',
        'configmaps/c',
        '{ kind: ConfigMap, metadata: { name: c }, data: { k: v }, binaryData: { k: YQ== } }',
        `{ code: 422, cause: FieldValueInvalid, message: 'ConfigMap "c" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData' }`,
      ) +
        post(
          'root',
          'configmaps/c',
          `{ kind: ConfigMap, metadata: { name: c }, data: { "..k": v } }`,
          `{ code: 422, message: 'ConfigMap "c" is invalid: data[..k]: Invalid value: "..k": must not start with ''..''' }`,
        ),
    );
  });

  it('validation comes before storage: a second create of a stored name with bad data is 422, not 409', () => {
    passes(
      post('root', 'secrets/s', '{ kind: Secret, metadata: { name: s } }', '201') +
        post(
          'root',
          'secrets/s',
          '{ kind: Secret, metadata: { name: s }, type: kubernetes.io/ssh-auth }',
          `{ code: 422, message: 'Secret "s" is invalid: data[%s][ssh-privatekey]: Required value' }`,
        ),
    );
  });

  it('the metadata errors come first in one 422 with the data errors', () => {
    const report = replayFile(
      'x.yaml',
      scenario(
        post(
          'root',
          'secrets/s',
          '{ kind: Secret, metadata: { name: s, labels: { "-bad": x } }, data: { "bad key!": YQ== } }',
          '201',
        ),
      ),
    );
    const got = report.steps[0].mismatch.find((line) => line.startsWith('got:')) ?? '';
    expect(got).toMatch(
      /^got: +422 Invalid \(FieldValueInvalid\): Secret "s" is invalid: \[metadata\.labels: Invalid value: "-bad": .*, data\[bad key!\]: Invalid value: "bad key!": a valid config key must consist of/,
    );
  });
});
