import type { ZodType } from 'zod';
import {
  dnsLabelErrors,
  dnsSubdomainErrors,
  generatedName,
  validateFinalizerName,
  validateNamespaceName,
} from '../../machines/names.ts';
import { specBodyIssue } from '../cli/kubernetes-validation.ts';
import { closest, parseRequestLine, RequestLineError } from '../cli/request-line.ts';
import { declaredResource } from '../cli/scope-format.ts';
import type { FieldPath } from '../cli/scope-issues.ts';
import {
  type ContentKind,
  contentBodySchemas,
  contentKinds,
  type GivenInput,
  type ManifestInput,
  maxModelObjects,
  type StepInput,
} from './schema.ts';

/**
 * What a scenario must satisfy beyond its shape, checked before anything runs, as Kubernetes would
 * refuse it: every name `given` builds passes the model's own validators (machines/names.ts); no
 * entry is listed twice; every principal, namespace and initializer a step names is declared somewhere
 * (or is built in); request bodies are checked per kind; the model's object slots are not exceeded.
 * Each problem is thrown as a field problem, which the loader turns into `file:line: field: problem`.
 */
export interface ValidationProblem {
  path: FieldPath;
  problem: string;
  hint?: string;
  key?: string;
}

/** Namespaces every cluster has. */
const builtInNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** The first error of a name validator, without the 422's `metadata.name: Invalid value: "x": ` prefix. */
const firstError = (errors: string[]): string | undefined =>
  errors[0]?.replace(/^.*Invalid value: "[^"]*": /, '');

type Manifest = ManifestInput | { kind: string; metadata: { name: string; namespace?: string } };

export function validateScenario(
  given: GivenInput | undefined,
  manifests: readonly Manifest[],
  steps: readonly StepInput[],
): ValidationProblem | undefined {
  const problems: ValidationProblem[] = [];
  const report = (path: FieldPath, problem: string, hint?: string, key?: string) => {
    problems.push({ path, problem, ...(hint ? { hint } : {}), ...(key ? { key } : {}) });
  };
  const namespaces = new Set(builtInNamespaces);
  const principals = new Set<string>();
  const initializers: string[] = [];
  const objectSlots = new Set<string>();
  const addSlot = (resource: string, name: string, path: FieldPath) => {
    objectSlots.add(`${resource}/${name}`);
    if (objectSlots.size === maxModelObjects + 1)
      report(
        path,
        `object ${resource}/${name} is one more than the model holds`,
        `at most ${maxModelObjects} objects (resource/name pairs) per scenario`,
      );
  };

  // A scope given inline (checker/cli/scope-format.ts, checked when compiled) names namespaces, users, initializers.
  const inline = (given?.scope ?? {}) as {
    namespaces?: { name?: unknown }[];
    users?: { name?: unknown }[];
    initializers?: Record<string, unknown>;
  };
  for (const ns of Array.isArray(inline.namespaces) ? inline.namespaces : [])
    if (typeof ns?.name === 'string') namespaces.add(ns.name);
  for (const user of Array.isArray(inline.users) ? inline.users : [])
    if (typeof user?.name === 'string') principals.add(user.name);
  initializers.push(...Object.keys(inline.initializers ?? {}));

  // ---- given: names the model's validators accept, each listed once
  const seenNamespaces = new Set<string>();
  (given?.namespaces ?? []).forEach((ns, i) => {
    const path = ['given', 'namespaces', i];
    const error = firstError(validateNamespaceName(ns.name));
    if (error) report([...path, 'name'], `invalid namespace name ${JSON.stringify(ns.name)}: ${error}`);
    if (seenNamespaces.has(ns.name))
      report(
        [...path, 'name'],
        `namespace ${JSON.stringify(ns.name)} is listed twice`,
        'list each namespace once',
      );
    seenNamespaces.add(ns.name);
    namespaces.add(ns.name);
    const finalizers = new Set<string>();
    (ns.finalizers ?? []).forEach((f, k) => {
      const finalizerError = firstError(validateFinalizerName(f));
      if (finalizerError)
        report([...path, 'finalizers', k], `invalid finalizer ${JSON.stringify(f)}: ${finalizerError}`);
      if (finalizers.has(f))
        report([...path, 'finalizers', k], `finalizer ${JSON.stringify(f)} is listed twice`);
      finalizers.add(f);
    });
    if (ns.creator) principals.add(ns.creator);
  });
  const seenObjects = new Set<string>();
  (given?.objects ?? []).forEach((o, i) => {
    const path = ['given', 'objects', i];
    const namespace = o.namespace ?? 'default';
    const nsError = firstError(dnsLabelErrors(namespace));
    if (nsError) report([...path, 'namespace'], `invalid namespace ${JSON.stringify(namespace)}: ${nsError}`);
    const nameError = firstError(dnsSubdomainErrors(o.name));
    if (nameError)
      report([...path, 'name'], `invalid ${o.kind} name ${JSON.stringify(o.name)}: ${nameError}`);
    const key = `${o.kind}/${namespace}/${o.name}`;
    if (seenObjects.has(key))
      report(path, `${o.kind} ${namespace}/${o.name} is listed twice`, 'list each object once');
    seenObjects.add(key);
    namespaces.add(namespace);
    addSlot(contentKinds[o.kind].resource, o.name, path);
  });
  const seenUsers = new Set<string>();
  (given?.users ?? []).forEach((u, i) => {
    if (seenUsers.has(u.name))
      report(
        ['given', 'users', i, 'name'],
        `user ${JSON.stringify(u.name)} is listed twice`,
        'list each user once, with all groups',
      );
    seenUsers.add(u.name);
    principals.add(u.name);
  });
  const seenManifests = new Set<string>();
  manifests.forEach((m, i) => {
    const path = ['given', 'manifests', i];
    const { name, namespace } = m.metadata;
    const key = `${m.kind}/${namespace ?? ''}/${name}`;
    if (seenManifests.has(key))
      report(
        [...path, 'metadata', 'name'],
        `${m.kind} ${namespace ? `${namespace}/` : ''}${name} is listed twice`,
      );
    seenManifests.add(key);
    if (namespace !== undefined) {
      const error = firstError(dnsLabelErrors(namespace));
      if (error)
        report(
          [...path, 'metadata', 'namespace'],
          `invalid namespace ${JSON.stringify(namespace)}: ${error}`,
        );
      namespaces.add(namespace);
    }
    if (m.kind === 'Namespace') {
      const error = firstError(validateNamespaceName(name));
      if (error)
        report([...path, 'metadata', 'name'], `invalid namespace name ${JSON.stringify(name)}: ${error}`);
      namespaces.add(name);
    } else if (m.kind in contentKinds) {
      const error = firstError(dnsSubdomainErrors(name));
      if (error)
        report([...path, 'metadata', 'name'], `invalid ${m.kind} name ${JSON.stringify(name)}: ${error}`);
      addSlot(contentKinds[m.kind as ContentKind].resource, name, path);
    }
    if ('subjects' in m && Array.isArray(m.subjects))
      for (const s of m.subjects) principals.add(subjectPrincipal(s));
    if (m.kind === 'NamespaceInitializerConfiguration' && 'initializers' in m) {
      const names = new Set<string>();
      (m.initializers ?? []).forEach((entry, k) => {
        const entryPath = [...path, 'initializers', k, 'name'];
        const error = firstError(dnsSubdomainErrors(entry.name));
        if (error) report(entryPath, `invalid initializer name ${JSON.stringify(entry.name)}: ${error}`);
        else if (entry.name.split('.').length < 3)
          report(
            entryPath,
            `invalid initializer name ${JSON.stringify(entry.name)}: an initializer name is fully qualified, with at least three dot-separated segments`,
            'e.g. policy.example.com',
          );
        if (names.has(entry.name))
          report(
            entryPath,
            `initializer ${JSON.stringify(entry.name)} is listed twice in this configuration`,
          );
        names.add(entry.name);
        initializers.push(entry.name);
      });
    }
  });
  for (const name of initializers) {
    const creates = given?.initializers?.[name]?.creates;
    addSlot(creates ? contentKinds[creates.kind].resource : 'configmaps', creates?.name ?? name, [
      'given',
      'manifests',
    ]);
    for (const s of creates?.subjects ?? []) principals.add(subjectPrincipal(s));
  }
  for (const key of Object.keys(given?.initializers ?? {})) {
    if (initializers.includes(key)) continue;
    const guess = closest(key, initializers);
    report(
      ['given', 'initializers', key],
      `no initializer "${key}" in any NamespaceInitializerConfiguration`,
      guess
        ? `did you mean "${guess}"?`
        : initializers.length > 0
          ? `initializers: ${initializers.join(', ')}`
          : 'declare it in a NamespaceInitializerConfiguration manifest',
      key,
    );
  }

  // ---- steps: what they create declares; what they only name must be declared
  const draws = new Map<string, number>();
  const declared = (given?.kinds ?? []).map(declaredResource);
  const versions = new Map((given?.kinds ?? []).map((k) => [declaredResource(k), k.version]));
  steps.forEach((step, i) => {
    if (step.kind !== 'do') return;
    const path = ['steps', i];
    if (step.groups !== undefined || step.as.startsWith('system:')) principals.add(step.as);
    let line: ReturnType<typeof parseRequestLine>;
    try {
      line = parseRequestLine(step.do, declared, versions);
    } catch (error) {
      if (error instanceof RequestLineError) return; // the compiler reports it with its hint
      throw error;
    }
    const target = line.path;
    if (target.kind === 'namespace') namespaces.add(target.name);
    if (target.kind === 'content' || target.kind === 'content-list') namespaces.add(target.namespace);
    const bodyName = (step.body?.metadata as { name?: unknown } | undefined)?.name;
    if (target.kind === 'namespaces' && typeof bodyName === 'string') namespaces.add(bodyName);
    // A create with generateName names the namespace the server generates (D-45), drawn in step order.
    const prefix = (step.body?.metadata as { generateName?: unknown } | undefined)?.generateName;
    if (
      target.kind === 'namespaces' &&
      line.verb === 'create' &&
      bodyName === undefined &&
      typeof prefix === 'string'
    ) {
      const draw = draws.get(prefix) ?? 0;
      draws.set(prefix, draw + 1);
      namespaces.add(generatedName(prefix, draw));
    }
    if (
      target.kind === 'content' &&
      target.name !== undefined &&
      (line.verb === 'create' || line.verb === 'update')
    )
      addSlot(target.resource, target.name, [...path, 'do']);
    // A DELETE's body is DeleteOptions, which the compiler judges (D-46), not an object of the path's kind.
    if (target.kind === 'content' && step.body !== undefined && line.verb !== 'delete') {
      const kind = Object.entries(contentKinds).find(([, k]) => k.resource === target.resource)?.[0] as
        | ContentKind
        | undefined;
      if (kind) {
        const problem = bodyProblem(kind, step.body, [...path, 'body']);
        if (problem) problems.push(problem);
        // A create or update sends an object; a Pod's, quota's or policy's spec is the schema's to judge.
        const refused =
          !problem && ['create', 'update', 'patch'].includes(line.verb)
            ? specBodyIssue(kind, step.body, [...path, 'body'])
            : undefined;
        if (refused)
          problems.push({
            path: refused.path,
            problem: `${refused.problem}; the apiserver refuses this body, an answer the model (which keeps no ${kind} spec) cannot give`,
            hint: refused.fix,
          });
        const subjects = (step.body as { subjects?: unknown }).subjects;
        if (Array.isArray(subjects))
          for (const s of subjects) if (isSubject(s)) principals.add(subjectPrincipal(s));
      }
    }
  });
  steps.forEach((step, i) => {
    const path = ['steps', i];
    if (step.kind === 'do' && !principals.has(step.as)) {
      const guess = closest(step.as, [...principals]);
      report(
        [...path, 'as'],
        `no principal "${step.as}" is declared`,
        guess
          ? `did you mean "${guess}"?`
          : 'declare it under given.users, as a binding subject, or give its groups on the step',
      );
    }
    const named: { name: string; field: (string | number)[] }[] =
      step.kind === 'check'
        ? [{ name: step.check.namespace, field: [...path, 'check', 'namespace'] }]
        : (step.kind === 'run' || step.kind === 'step') && step.namespace !== undefined
          ? [{ name: step.namespace, field: [...path, 'namespace'] }]
          : step.kind === 'eventually'
            ? step.eventually.any.flatMap((c, k) =>
                'namespace' in c
                  ? [{ name: c.namespace, field: [...path, 'eventually', 'any', k, 'namespace'] }]
                  : [],
              )
            : [];
    for (const { name, field } of named) {
      if (namespaces.has(name)) continue;
      const guess = closest(name, [...namespaces]);
      report(
        field,
        `namespace "${name}" is named nowhere else in this scenario`,
        guess ? `did you mean "${guess}"?` : 'create it in a step or list it under given.namespaces',
      );
    }
  });
  return problems[0];
}

const isSubject = (value: unknown): value is { kind: string; name: string; namespace?: string } =>
  typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';

/** The user name a subject authenticates as: a ServiceAccount is `system:serviceaccount:<ns>:<name>`. */
function subjectPrincipal(subject: { kind: string; name: string; namespace?: string }): string {
  return subject.kind === 'ServiceAccount'
    ? `system:serviceaccount:${subject.namespace ?? 'default'}:${subject.name}`
    : subject.name;
}

/** A request body checked against its kind: the kind must match the path, and no unknown field is allowed. */
function bodyProblem(
  kind: ContentKind,
  body: Record<string, unknown>,
  path: FieldPath,
): ValidationProblem | undefined {
  if (body.kind !== undefined && body.kind !== kind) {
    return {
      path: [...path, 'kind'],
      problem: `a ${String(body.kind)} body posted to ${contentKinds[kind].resource}`,
      hint: `this path holds ${kind} objects: kind: ${kind}, or post to the ${String(body.kind)} path`,
    };
  }
  const schema = contentBodySchemas[kind] as ZodType;
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    const allowed = Object.keys((schema as unknown as { shape: object }).shape);
    const guess = closest(key, allowed);
    return {
      path: [...path, ...(issue.path as (string | number)[]), key],
      problem: `unknown field "${key}" in a ${kind}`,
      hint: `${guess ? `did you mean "${guess}"? ` : ''}fields of a ${kind}: ${allowed.join(', ')}`,
      key,
    };
  }
  return {
    path: [...path, ...(issue.path as (string | number)[])],
    problem: `${kind} body: ${issue.message}`,
  };
}
