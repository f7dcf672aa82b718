import { describe, expect, it } from 'vitest';
import { formatReport } from './format.ts';
import { replayFile } from './replay.ts';

/** RB-4: RBAC manifests of every shape Kubernetes accepts reach the model; invalid ones are refused with a line. */

const scenario = (manifests: string, steps: string) => `title: RBAC shapes
requirements: [RB-4]
given:
  namespaces: [{ name: ns1 }, { name: ns2 }]
  objects: [{ kind: Secret, namespace: ns1, name: s }, { kind: Secret, namespace: ns2, name: s }]
  manifests:
${manifests}
steps:
${steps}
`;

const roleAndBinding = (
  namespace: string,
  subjects: string,
) => `    - apiVersion: rbac.authorization.k8s.io/v1
      kind: Role
      metadata: { name: reader, namespace: ${namespace} }
      rules: [{ apiGroups: [""], resources: [secrets], verbs: [get] }]
    - apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: { name: readers, namespace: ${namespace} }
      roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader }
      subjects: ${subjects}`;

const get = (who: string, ns: string, code: number) =>
  `  - as: ${who}\n    do: get namespaces/${ns}/secrets/s\n    expect: ${code}`;

describe('RBAC manifests in scenarios', () => {
  it('RB-4 a Role, a RoleBinding to it with several subjects, and same names differing per namespace replay', () => {
    const text = scenario(
      [
        roleAndBinding('ns1', '[{ kind: User, name: ann }, { kind: Group, name: ops }]'),
        roleAndBinding('ns2', '[{ kind: ServiceAccount, name: bot }]'),
      ].join('\n'),
      [
        get('ann', 'ns1', 200),
        get('ann', 'ns2', 403),
        get('system:serviceaccount:ns2:bot', 'ns2', 200),
        get('system:serviceaccount:ns2:bot', 'ns1', 403),
        get('system:serviceaccount:ns1:bot', 'ns2', 403),
      ].join('\n'),
    );
    const report = replayFile('shapes.yaml', text);
    expect(formatReport(report).join('\n')).not.toMatch(/unsupported/);
    expect(report.status).toBe('passed');
  });

  it('RB-4 a ClusterRoleBinding to a Role is refused as Kubernetes refuses it, naming the line and the fix', () => {
    const text = scenario(
      `    - apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata: { name: wrong }
      roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader }
      subjects: [{ kind: User, name: ann }]`,
      get('ann', 'ns1', 403),
    );
    const report = replayFile('wrong.yaml', text);
    expect(report.status).toBe('malformed');
    expect(formatReport(report)[0]).toMatch(
      /^MALFORMED wrong\.yaml:\d+: given\.manifests\[0\]\.roleRef\.kind: a ClusterRoleBinding can only refer to a ClusterRole .*use kind: ClusterRole/,
    );
  });
});
