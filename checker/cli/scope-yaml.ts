import { Document, isScalar, isSeq, visit } from 'yaml';
import { bootstrapClusterRoles } from '../../machines/bootstrap-rbac.ts';
import type { ClusterRole } from '../../machines/k8s-types.ts';
import type {
  ClusterObjectSpec,
  ClusterRoleBindingSpec,
  ConfigurationSpec,
  InitializerSpec,
  ObjectSlot,
  Scope,
  SubjectSpec,
} from '../../machines/scope.ts';
import { closest } from './request-line.ts';
import {
  accessReviewRefusal,
  builtInGroupResources,
  declaredResource,
  isAccessReview,
  manifestSchemas,
  type ObjectDefinition,
  rbacGroup,
  type ScopeContentKind,
  type ScopeDocument,
  type ScopeManifest,
  scopeContentKinds,
  scopeManifestKinds,
} from './scope-format.ts';
import { type FieldPath, issueOfZod, type ScopeIssue } from './scope-issues.ts';

/**
 * A scope file's document to the model's Scope (machines/scope.ts) and back. The checks here are the
 * ones a schema cannot say: references between fields (roles, namespaces, users, configurations).
 */

// Object slots are bits of a 32-bit mask in the system state, so each kind of slot stays below 31.
const slotLimit = 30;

const resourceKinds = new Map<string, ScopeContentKind>(
  Object.entries(scopeContentKinds).map(([kind, resource]) => [resource, kind as ScopeContentKind]),
);

const suggest = (word: string, known: readonly string[]): string => {
  const guess = closest(word, known);
  const list = known.length > 0 ? `known: ${known.join(', ')}` : 'none is defined';
  return guess ? `did you mean "${guess}"? ${list}` : list;
};

const toSubjectSpec = (s: { kind: SubjectSpec['kind']; name: string; namespace?: string }): SubjectSpec => ({
  kind: s.kind,
  name: s.name,
  ...(s.namespace ? { namespace: s.namespace } : {}),
});

/** A document to a Scope, or every issue found (the caller reports the first). */
export function documentToScope(doc: ScopeDocument): { scope: Scope } | { issues: ScopeIssue[] } {
  const issues: ScopeIssue[] = [];
  const issue = (path: FieldPath, problem: string, fix: string) => issues.push({ path, problem, fix });
  const duplicates = (items: readonly string[], path: (i: number) => FieldPath, what: string) =>
    items.forEach((item, i) => {
      if (items.indexOf(item) !== i)
        issue(path(i), `${what} "${item}" is listed twice`, 'give each a distinct name');
    });

  const namespaceNames = doc.namespaces.map((n) => n.name);
  const userNames = doc.users.map((u) => u.name);
  duplicates(namespaceNames, (i) => ['namespaces', i, 'name'], 'namespace');
  // A user may have several entries, each with its own namespaces and requests, but is one identity.
  doc.users.forEach((user, i) => {
    const first = doc.users.find((u) => u.name === user.name);
    if (
      first &&
      first !== user &&
      (first.groups.join() !== user.groups.join() || !first.tenant !== !user.tenant)
    )
      issue(
        ['users', i, 'name'],
        `user "${user.name}" is listed twice with other groups or tenancy`,
        'give every entry of a user the same groups and tenant flag, or a distinct name',
      );
  });

  // ---- manifests, each by its kind
  const clusterRoles: ClusterRole[] = [];
  const clusterRoleBindings: ClusterRoleBindingSpec[] = [];
  const configurations: {
    name: string;
    entries: { name: string; failurePolicy?: 'Ignore' | 'Fail'; timeoutSeconds?: number }[];
    path: FieldPath;
  }[] = [];
  const manifests: { manifest: ScopeManifest; path: FieldPath }[] = [];
  doc.manifests.forEach((raw, i) => {
    const path = ['manifests', i];
    const kind = raw.kind;
    if (typeof kind !== 'string' || !(scopeManifestKinds as string[]).includes(kind)) {
      issue(
        [...path, 'kind'],
        kind === undefined ? 'a manifest without kind' : `unknown manifest kind ${JSON.stringify(kind)}`,
        `${suggest(String(kind ?? ''), scopeManifestKinds)} (Roles and RoleBindings go under content)`,
      );
      return;
    }
    const parsed = manifestSchemas[kind as keyof typeof manifestSchemas].safeParse(raw);
    if (!parsed.success) {
      issues.push(issueOfZod(parsed.error.issues, raw, path));
      return;
    }
    manifests.push({ manifest: parsed.data, path });
  });
  const ownRoleNames = manifests.flatMap(({ manifest }) =>
    manifest.kind === 'ClusterRole' ? [manifest.metadata.name] : [],
  );
  const knownClusterRoles = [
    ...new Set([...bootstrapClusterRoles.map((r) => r.metadata.name), ...ownRoleNames]),
  ];
  const seen = new Set<string>();
  for (const { manifest, path } of manifests) {
    const key = `${manifest.kind}/${manifest.metadata.name}`;
    if (seen.has(key))
      issue([...path, 'metadata', 'name'], `${key} is defined twice`, 'give each a distinct name');
    seen.add(key);
    switch (manifest.kind) {
      case 'ClusterRole':
        clusterRoles.push({
          metadata: { name: manifest.metadata.name },
          rules: manifest.rules.map(copyRule),
        });
        break;
      case 'ClusterRoleBinding':
        if (!knownClusterRoles.includes(manifest.roleRef.name))
          issue(
            [...path, 'roleRef', 'name'],
            `no ClusterRole "${manifest.roleRef.name}"`,
            suggest(manifest.roleRef.name, knownClusterRoles),
          );
        manifest.subjects.forEach((s, k) => {
          if (s.kind === 'ServiceAccount' && !s.namespace)
            issue(
              [...path, 'subjects', k, 'namespace'],
              'a ServiceAccount subject of a ClusterRoleBinding needs its namespace',
              'add namespace: NAME',
            );
        });
        clusterRoleBindings.push({
          name: manifest.metadata.name,
          clusterRole: manifest.roleRef.name,
          subjects: manifest.subjects.map(toSubjectSpec),
        });
        break;
      case 'NamespaceInitializerConfiguration':
        configurations.push({ name: manifest.metadata.name, entries: manifest.initializers, path });
        break;
    }
  }
  // ---- cluster RBAC objects users may request (D-23)
  const clusterObjects: ClusterObjectSpec[] = [];
  (doc.clusterObjects ?? []).forEach((entry, i) => {
    const path = ['clusterObjects', i, 'manifest'];
    const raw = entry.manifest;
    if (raw.kind !== 'ClusterRole' && raw.kind !== 'ClusterRoleBinding') {
      issue(
        [...path, 'kind'],
        `a requestable cluster object is a ClusterRole or ClusterRoleBinding, not ${JSON.stringify(raw.kind ?? null)}`,
        'use kind: ClusterRole or kind: ClusterRoleBinding',
      );
      return;
    }
    const parsed = manifestSchemas[raw.kind].safeParse(raw);
    if (!parsed.success) {
      issues.push(issueOfZod(parsed.error.issues, raw, path));
      return;
    }
    const manifest = parsed.data;
    // D-23: entries of one kind and name are versions of one object (an update stores the one it sends);
    // at most one of them is stored from the start.
    const key = `${manifest.kind}/${manifest.metadata.name}`;
    if (seen.has(key) && !clusterObjects.some((o) => `${o.kind}/${o.name}` === key))
      issue([...path, 'metadata', 'name'], `${key} is defined twice`, 'give each a distinct name');
    if (entry.initially && clusterObjects.some((o) => `${o.kind}/${o.name}` === key && o.initially))
      issue(
        [...path, 'metadata', 'name'],
        `two versions of ${key} are stored from the start`,
        'mark one version initially: true',
      );
    seen.add(key);
    const extra = {
      ...(entry.initially ? { initially: true } : {}),
      ...(entry.requestedBy ? { requestedBy: [...entry.requestedBy] } : {}),
    };
    if (manifest.kind === 'ClusterRole') {
      clusterObjects.push({
        kind: 'ClusterRole',
        name: manifest.metadata.name,
        rules: manifest.rules.map(copyRule),
        ...extra,
      });
      return;
    }
    if (manifest.kind !== 'ClusterRoleBinding') return;
    const roles = [
      ...knownClusterRoles,
      ...(doc.clusterObjects ?? []).flatMap((o) =>
        o.manifest.kind === 'ClusterRole' ? [String((o.manifest.metadata as { name?: unknown })?.name)] : [],
      ),
    ];
    if (!roles.includes(manifest.roleRef.name))
      issue(
        [...path, 'roleRef', 'name'],
        `no ClusterRole "${manifest.roleRef.name}"`,
        suggest(manifest.roleRef.name, roles),
      );
    clusterObjects.push({
      kind: 'ClusterRoleBinding',
      name: manifest.metadata.name,
      clusterRole: manifest.roleRef.name,
      subjects: manifest.subjects.map(toSubjectSpec),
      ...extra,
    });
  });
  const configurationNames = configurations.map((c) => c.name);
  for (const field of ['registeredLater', 'deletableConfigurations'] as const)
    (doc[field] ?? []).forEach((named, i) => {
      if (!configurationNames.includes(named))
        issue(
          [field, i],
          `no NamespaceInitializerConfiguration "${named}"`,
          suggest(named, configurationNames),
        );
    });
  for (const updated of Object.keys(doc.configurationUpdates ?? {}))
    if (!configurationNames.includes(updated))
      issue(
        ['configurationUpdates', updated],
        `no NamespaceInitializerConfiguration "${updated}"`,
        suggest(updated, configurationNames),
      );

  // ---- objects: content first, then what each initializer creates, in configuration order
  const content: ObjectSlot[] = [];
  const roleNames = doc.content.filter((o) => o.kind === 'Role').map((o) => o.name);
  const toSlot = (o: ObjectDefinition, path: FieldPath): ObjectSlot => {
    checkDefinition(o, path);
    const slot: ObjectSlot = {
      resource: scopeContentKinds[o.kind],
      name: o.name,
      ...rbacOf(o),
      ...(o.requestedBy ? { requestedBy: [...o.requestedBy] } : {}),
    };
    if (o.byNamespace) {
      for (const [ns, body] of Object.entries(o.byNamespace)) {
        if (!namespaceNames.includes(ns))
          issue(
            [...path, 'byNamespace', ns],
            `no namespace "${ns}" in this scope`,
            suggest(ns, namespaceNames),
          );
        checkDefinition({ kind: o.kind, name: o.name, ...body }, [...path, 'byNamespace', ns]);
      }
      slot.byNamespace = Object.fromEntries(
        Object.entries(o.byNamespace).map(([ns, body]) => [
          ns,
          rbacOf({ kind: o.kind, name: o.name, ...body }),
        ]),
      );
    }
    return slot;
  };
  const checkDefinition = (o: Omit<ObjectDefinition, 'byNamespace'>, path: FieldPath) => {
    if (o.kind === 'RoleBinding') {
      if (!o.roleRef)
        issue(
          [...path, 'roleRef'],
          'a RoleBinding needs roleRef',
          'add roleRef: { kind: ClusterRole, name: ROLE }',
        );
      if (!o.subjects)
        issue(
          [...path, 'subjects'],
          'a RoleBinding needs subjects',
          'add subjects: [{ kind: User, name: $creator }]',
        );
      if (o.roleRef?.kind === 'ClusterRole' && !knownClusterRoles.includes(o.roleRef.name))
        issue(
          [...path, 'roleRef', 'name'],
          `no ClusterRole "${o.roleRef.name}"`,
          suggest(o.roleRef.name, knownClusterRoles),
        );
      if (o.roleRef?.kind === 'Role' && !roleNames.includes(o.roleRef.name))
        issue(
          [...path, 'roleRef', 'name'],
          `no Role "${o.roleRef.name}" under content`,
          suggest(o.roleRef.name, roleNames),
        );
    } else if (o.roleRef || o.subjects) {
      issue(
        [...path, o.roleRef ? 'roleRef' : 'subjects'],
        `a ${o.kind} has no ${o.roleRef ? 'roleRef' : 'subjects'}`,
        'remove it, or make the object a RoleBinding',
      );
    }
    if (o.kind === 'Role' && !o.rules)
      issue([...path, 'rules'], 'a Role needs rules', 'add rules: [{ apiGroups, resources, verbs }]');
    if (o.kind !== 'Role' && o.rules)
      issue([...path, 'rules'], `a ${o.kind} has no rules`, 'remove it, or make the object a Role');
  };
  doc.content.forEach((o, i) => {
    content.push(toSlot(o, ['content', i]));
  });
  duplicates(
    doc.content.map((o) => `${o.kind}/${o.name}`),
    (i) => ['content', i, 'name'],
    'object',
  );
  // ---- declared kinds: one per group and resource, none a built-in; their objects follow content's
  const declared = new Set<string>();
  (doc.kinds ?? []).forEach((k, i) => {
    const resource = declaredResource(k);
    if (builtInGroupResources.some((b) => b.group === k.group && b.resource === k.resource))
      issue(
        ['kinds', i, 'resource'],
        `${k.resource} in group "${k.group}" is a built-in kind`,
        'leave it out of kinds and list its objects under content',
      );
    else if (isAccessReview(k))
      issue(
        ['kinds', i, 'resource'],
        accessReviewRefusal(k),
        'leave it out of kinds: a declared kind is content stored in a namespace',
      );
    else if (declared.has(resource))
      issue(
        ['kinds', i, 'resource'],
        `${k.resource} in group "${k.group}" is declared twice`,
        'declare it once',
      );
    declared.add(resource);
    duplicates(k.objects, (j) => ['kinds', i, 'objects', j], 'object');
    for (const name of k.objects) content.push({ resource, name, kind: k.kind });
  });

  const initializerNames = configurations.flatMap((c) => c.entries.map((e) => e.name));
  for (const behaviour of Object.keys(doc.initializers)) {
    if (!initializerNames.includes(behaviour))
      issue(
        ['initializers', behaviour],
        `no NamespaceInitializerConfiguration lists initializer "${behaviour}"`,
        suggest(behaviour, initializerNames),
      );
  }
  const initializerSpec = (entry: (typeof configurations)[number]['entries'][number]): InitializerSpec => {
    const behaviour = doc.initializers[entry.name];
    const creates: ObjectDefinition = behaviour?.creates ?? { kind: 'ConfigMap', name: entry.name };
    return {
      name: entry.name,
      failurePolicy: entry.failurePolicy ?? 'Ignore',
      timeoutSeconds: entry.timeoutSeconds ?? 5,
      populates: toSlot(creates, ['initializers', entry.name, 'creates']),
      canFail: behaviour?.canFail ?? false,
      ...(behaviour?.canCrash === false ? { canCrash: false } : {}),
    };
  };
  const configurationSpecs: ConfigurationSpec[] = configurations.map((c) => {
    const updates = doc.configurationUpdates?.[c.name] ?? [];
    updates.forEach((u, k) => {
      u.initializers.forEach((entry, j) => {
        if (!initializerNames.includes(entry.name))
          issue(
            ['configurationUpdates', c.name, k, 'initializers', j, 'name'],
            `no NamespaceInitializerConfiguration lists initializer "${entry.name}"`,
            'an update may change, reorder or drop the initializers the manifests list',
          );
      });
    });
    return {
      name: c.name,
      initializers: c.entries.map(initializerSpec),
      registered: (doc.registeredLater ?? []).includes(c.name) ? 'later' : 'initially',
      ...(updates.length > 0
        ? { updates: updates.map((u) => ({ initializers: u.initializers.map(initializerSpec) })) }
        : {}),
      ...((doc.deletableConfigurations ?? []).includes(c.name) ? { deletable: true } : {}),
    };
  });
  const slots = content.length + initializerNames.length;
  if (slots > slotLimit)
    issue(
      ['content'],
      `at most ${slotLimit} objects (content plus one per initializer), got ${slots}`,
      'remove some objects or initializers',
    );

  // ---- namespaces and users
  doc.namespaces.forEach((ns, i) => {
    const path = ['namespaces', i];
    const exists = ns.system || ns.preexisting;
    if (!exists && (ns.initialFinalizers || ns.initialObjects))
      issue(
        [...path, ns.initialFinalizers ? 'initialFinalizers' : 'initialObjects'],
        `namespace "${ns.name}" does not exist at the start`,
        'add preexisting: true, or remove it',
      );
    (ns.finalizers ?? []).forEach((f, k) => {
      if (!doc.finalizerOwners.includes(f))
        issue(
          [...path, 'finalizers', k],
          `no owner for finalizer "${f}": the namespace could never go`,
          'add it to finalizerOwners',
        );
    });
    (ns.initialObjects ?? []).forEach((o, k) => {
      const made = (c: { kind: string; name: string }) => c.kind === o.kind && c.name === o.name;
      // An object an initializer creates may also exist from the start (an initialized namespace).
      if (!doc.content.some(made) && !Object.values(doc.initializers).some((i) => made(i.creates)))
        issue([...path, 'initialObjects', k], `no ${o.kind} "${o.name}" under content`, 'add it to content');
    });
  });
  doc.users.forEach((user, i) => {
    (user.namespaces ?? []).forEach((ns, k) => {
      if (!namespaceNames.includes(ns))
        issue(
          ['users', i, 'namespaces', k],
          `no namespace "${ns}" in this scope`,
          suggest(ns, namespaceNames),
        );
    });
  });
  const symmetryNames = { users: userNames, namespaces: namespaceNames };
  for (const key of ['users', 'namespaces'] as const) {
    (doc.symmetry?.[key] ?? []).forEach((set, i) => {
      set.forEach((member, k) => {
        if (!symmetryNames[key].includes(member))
          issue(
            ['symmetry', key, i, k],
            `no ${key === 'users' ? 'user' : 'namespace'} "${member}"`,
            suggest(member, symmetryNames[key]),
          );
      });
    });
  }
  if (issues.length > 0) return { issues };

  const scope: Scope = {
    name: doc.name,
    description: doc.description,
    namespaces: doc.namespaces.map((ns) => ({
      name: ns.name,
      ...(ns.creator ? { creator: ns.creator } : {}),
      ...(ns.finalizers ? { extraFinalizers: [...ns.finalizers] } : {}),
      ...(ns.metadataFinalizers ? { metadataFinalizers: [...ns.metadataFinalizers] } : {}),
      ...(ns.system ? { system: true } : {}),
      ...(ns.preexisting ? { preexisting: true } : {}),
      ...(ns.initialFinalizers ? { initialFinalizers: [...ns.initialFinalizers] } : {}),
      ...(ns.initialObjects
        ? { initialContent: ns.initialObjects.map((o) => `${scopeContentKinds[o.kind]}/${o.name}`) }
        : {}),
    })),
    configurations: configurationSpecs,
    principals: doc.users.map((u) => ({
      name: u.name,
      groups: [...u.groups],
      ...(u.tenant ? { tenant: true } : {}),
      ...(u.namespaces ? { namespaces: [...u.namespaces] } : {}),
      requests: [...u.requests],
    })),
    clusterRoleBindings,
    ...(clusterRoles.length > 0 ? { clusterRoles } : {}),
    content,
    ...(clusterObjects.length > 0 ? { clusterObjects } : {}),
    ...(doc.kinds && doc.kinds.length > 0
      ? { kinds: doc.kinds.map(({ objects: _objects, ...k }) => ({ ...k })) }
      : {}),
    finalizerOwners: [...doc.finalizerOwners],
    faults: { ...doc.faults },
    clock: { ...doc.clock },
    ...(doc.intent ? { intent: doc.intent } : {}),
    ...(doc.symmetry ? { symmetry: doc.symmetry } : {}),
  };
  return { scope };
}

const copyRule = (r: ClusterRole['rules'][number]) => ({
  apiGroups: [...r.apiGroups],
  resources: [...r.resources],
  verbs: [...r.verbs],
  ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}),
});

/** A definition's RBAC meaning as the model holds it (ObjectSlot's roleBinding or role). */
function rbacOf(o: Omit<ObjectDefinition, 'byNamespace'>): Pick<ObjectSlot, 'roleBinding' | 'role'> {
  if (o.kind === 'Role' && o.rules) return { role: { rules: o.rules.map(copyRule) } };
  if (o.kind !== 'RoleBinding' || !o.roleRef || !o.subjects) return {};
  const [first, ...more] = o.subjects;
  return {
    roleBinding: {
      clusterRole: o.roleRef.name,
      ...(o.roleRef.kind === 'Role' ? { roleKind: 'Role' as const } : {}),
      subject: first.name,
      ...(first.kind !== 'User' ? { subjectKind: first.kind } : {}),
      ...(first.namespace ? { subjectNamespace: first.namespace } : {}),
      ...(more.length > 0 ? { moreSubjects: more.map(toSubjectSpec) } : {}),
    },
  };
}

// ---- the other way: a Scope as the document a user would write

const subjectOut = (s: SubjectSpec) => ({
  kind: s.kind,
  ...(s.kind === 'ServiceAccount' ? {} : { apiGroup: rbacGroup }),
  name: s.name,
  ...(s.namespace ? { namespace: s.namespace } : {}),
});

function definitionOf(slot: ObjectSlot): ObjectDefinition {
  const kind = resourceKinds.get(slot.resource);
  if (!kind)
    throw new Error(`scope object ${slot.resource}/${slot.name}: no kind for resource ${slot.resource}`);
  const body = (rbac: Pick<ObjectSlot, 'roleBinding' | 'role'>) => {
    const rb = rbac.roleBinding;
    return {
      ...(rb
        ? {
            roleRef: {
              apiGroup: rbacGroup as typeof rbacGroup,
              kind: rb.roleKind ?? 'ClusterRole',
              name: rb.clusterRole,
            },
            subjects: [
              subjectOut({
                kind: rb.subjectKind ?? 'User',
                name: rb.subject,
                ...(rb.subjectNamespace ? { namespace: rb.subjectNamespace } : {}),
              }),
              ...(rb.moreSubjects ?? []).map(subjectOut),
            ],
          }
        : {}),
      ...(rbac.role ? { rules: rbac.role.rules } : {}),
    };
  };
  return {
    kind,
    name: slot.name,
    ...body(slot),
    ...(slot.byNamespace
      ? { byNamespace: Object.fromEntries(Object.entries(slot.byNamespace).map(([ns, r]) => [ns, body(r)])) }
      : {}),
    ...(slot.requestedBy ? { requestedBy: [...slot.requestedBy] } : {}),
  };
}

/** A Scope as the scope file's document (the inverse of documentToScope for every scope it accepts). */
export function scopeToDocument(scope: Scope): ScopeDocument {
  const initializers: ScopeDocument['initializers'] = {};
  for (const c of scope.configurations)
    for (const i of c.initializers)
      initializers[i.name] = {
        creates: definitionOf(i.populates),
        canFail: i.canFail,
        ...(i.canCrash === false ? { canCrash: false } : {}),
      };
  const later = scope.configurations.filter((c) => c.registered === 'later').map((c) => c.name);
  const updated = scope.configurations.filter((c) => c.updates?.length);
  const deletable = scope.configurations.filter((c) => c.deletable).map((c) => c.name);
  const resourceOf = (path: string) => {
    const [resource, ...name] = path.split('/');
    const kind = resourceKinds.get(resource);
    if (!kind) throw new Error(`initial content ${path}: no kind for resource ${resource}`);
    return { kind, name: name.join('/') };
  };
  return {
    name: scope.name,
    description: scope.description,
    namespaces: scope.namespaces.map((ns) => ({
      name: ns.name,
      ...(ns.creator ? { creator: ns.creator } : {}),
      ...(ns.extraFinalizers ? { finalizers: ns.extraFinalizers } : {}),
      ...(ns.metadataFinalizers ? { metadataFinalizers: ns.metadataFinalizers } : {}),
      ...(ns.system ? { system: true } : {}),
      ...(ns.preexisting ? { preexisting: true } : {}),
      ...(ns.initialFinalizers ? { initialFinalizers: ns.initialFinalizers } : {}),
      ...(ns.initialContent ? { initialObjects: ns.initialContent.map(resourceOf) } : {}),
    })),
    users: scope.principals.map((p) => ({
      name: p.name,
      groups: p.groups,
      ...(p.tenant ? { tenant: true } : {}),
      ...(p.namespaces ? { namespaces: p.namespaces } : {}),
      requests: p.requests,
    })),
    manifests: [
      ...(scope.clusterRoles ?? []).map((r) => ({
        apiVersion: `${rbacGroup}/v1`,
        kind: 'ClusterRole',
        metadata: { name: r.metadata.name },
        rules: r.rules,
      })),
      ...scope.clusterRoleBindings.map((b) => ({
        apiVersion: `${rbacGroup}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: b.name },
        roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: b.clusterRole },
        subjects: b.subjects.map(subjectOut),
      })),
      ...scope.configurations.map((c) => ({
        apiVersion: 'admissionregistration.k8s.io/v1alpha1',
        kind: 'NamespaceInitializerConfiguration',
        metadata: { name: c.name },
        initializers: c.initializers.map((i) => ({
          name: i.name,
          failurePolicy: i.failurePolicy,
          timeoutSeconds: i.timeoutSeconds,
        })),
      })),
    ],
    ...(later.length > 0 ? { registeredLater: later } : {}),
    ...(updated.length > 0
      ? {
          configurationUpdates: Object.fromEntries(
            updated.map((c) => [
              c.name,
              (c.updates ?? []).map((u) => ({
                initializers: u.initializers.map((i) => ({
                  name: i.name,
                  failurePolicy: i.failurePolicy,
                  timeoutSeconds: i.timeoutSeconds,
                })),
              })),
            ]),
          ),
        }
      : {}),
    ...(deletable.length > 0 ? { deletableConfigurations: deletable } : {}),
    ...(scope.clusterObjects && scope.clusterObjects.length > 0
      ? {
          clusterObjects: scope.clusterObjects.map((o) => ({
            manifest:
              o.kind === 'ClusterRole'
                ? {
                    apiVersion: `${rbacGroup}/v1`,
                    kind: 'ClusterRole',
                    metadata: { name: o.name },
                    rules: o.rules ?? [],
                  }
                : {
                    apiVersion: `${rbacGroup}/v1`,
                    kind: 'ClusterRoleBinding',
                    metadata: { name: o.name },
                    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: o.clusterRole ?? '' },
                    subjects: (o.subjects ?? []).map(subjectOut),
                  },
            ...(o.initially ? { initially: true } : {}),
            ...(o.requestedBy ? { requestedBy: o.requestedBy } : {}),
          })),
        }
      : {}),
    initializers,
    content: scope.content.filter((o) => o.kind === undefined).map(definitionOf),
    ...(scope.kinds && scope.kinds.length > 0
      ? {
          kinds: scope.kinds.map((k) => ({
            ...k,
            objects: scope.content.filter((o) => o.resource === declaredResource(k)).map((o) => o.name),
          })),
        }
      : {}),
    finalizerOwners: scope.finalizerOwners,
    faults: scope.faults,
    clock: scope.clock,
    ...(scope.intent ? { intent: scope.intent } : {}),
    ...(scope.symmetry ? { symmetry: scope.symmetry } : {}),
  };
}

/** The scope file a Scope is written as: deterministic, with a header saying what the file is. */
export function scopeToYaml(scope: Scope): string {
  const header = [
    `# Scope "${scope.name}": what \`npm run verify -- --scope ${scope.name}\` explores.`,
    '# Format: checker/cli/scope-format.ts (namespaces, users and their requests, RBAC and initializer',
    '# configurations as Kubernetes manifests, what each initializer creates, faults, clock).',
  ];
  const doc = new Document(scopeToDocument(scope), { aliasDuplicateObjects: false });
  // Lists of plain names read best on one line, as kubectl users write them.
  visit(doc, {
    Seq(_, seq) {
      if (!isSeq(seq) || !seq.items.every((item) => isScalar(item))) return;
      seq.flow =
        seq.items.reduce((n, item) => n + String(isScalar(item) ? item.value : '').length + 2, 0) < 70;
    },
  });
  return `${header.join('\n')}\n${doc.toString({ lineWidth: 100, flowCollectionPadding: false })}`;
}
