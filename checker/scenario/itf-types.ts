import { ItfEncodingError, type ItfValue } from './itf.ts';

/**
 * The types of a trace's variables, written two ways: Apalache's type syntax for ITF's
 * `#meta.varTypes`, and a Quint module (`npm run export -- --quint-types`) a Quint or Apalache model
 * can import. The types describe the readable state of checker/scenario/state-view.ts in Quint's terms: one
 * record shape per map (a namespace is a variant, absent, removed or existing, each with its fields),
 * enums as variants (`{"tag": "Active", "value": {"#tup": []}}` in ITF), absent values as `Option`.
 *
 * This file knows the readable view's shape (plain data), never the model's encoding.
 */

/** A type, as both languages write it; `ref` names a declared alias or sum type. */
export type ItfType =
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'str' }
  | { kind: 'set'; of: ItfType }
  | { kind: 'list'; of: ItfType }
  | { kind: 'map'; key: ItfType; value: ItfType }
  | { kind: 'record'; fields: Record<string, ItfType> }
  | { kind: 'option'; of: ItfType }
  | { kind: 'ref'; name: string };

/** A declared type: an alias of a record, or a sum type whose cases carry a value or none (unit). */
export type TypeDeclaration =
  | { name: string; kind: 'alias'; type: ItfType }
  | { name: string; kind: 'sum'; cases: readonly (readonly [tag: string, payload: ItfType | null])[] };

const bool: ItfType = { kind: 'bool' };
const int: ItfType = { kind: 'int' };
const str: ItfType = { kind: 'str' };
const setOf = (of: ItfType): ItfType => ({ kind: 'set', of });
const listOf = (of: ItfType): ItfType => ({ kind: 'list', of });
const mapOf = (key: ItfType, value: ItfType): ItfType => ({ kind: 'map', key, value });
const record = (fields: Record<string, ItfType>): ItfType => ({ kind: 'record', fields });
const option = (of: ItfType): ItfType => ({ kind: 'option', of });
const ref = (name: string): ItfType => ({ kind: 'ref', name });

/** Enum values of the readable view and their variant tags (unique in the module, none a Quint built-in). */
export const enumTags = {
  Phase: { Initializing: 'Initializing', Active: 'Active', Terminating: 'Terminating' },
  ControllerState: { running: 'Running', crashed: 'Crashed' },
  DeletionTimestamp: { unset: 'DeletionUnset', set: 'DeletionSet' },
  Fault: {
    'initializer-crash': 'InitializerCrash',
    'initializer-restart': 'InitializerRestart',
    'apiserver-restart': 'ApiserverRestart',
    'config-read-failing': 'ConfigReadFailing',
    'config-read-recovering': 'ConfigReadRecovering',
  },
  Verb: {
    create: 'CreateVerb',
    get: 'GetVerb',
    list: 'ListVerb',
    update: 'UpdateVerb',
    delete: 'DeleteVerb',
    finalize: 'FinalizeVerb',
  },
  Target: {
    namespace: 'NamespaceTarget',
    content: 'ContentTarget',
    configuration: 'ConfigurationTarget',
    'cluster-object': 'ClusterObjectTarget',
  },
  RoleKind: { ClusterRole: 'ClusterRole', Role: 'Role' },
} as const;

const enumDeclaration = (name: keyof typeof enumTags): TypeDeclaration => ({
  name,
  kind: 'sum',
  cases: Object.values(enumTags[name]).map((tag) => [tag, null] as const),
});

/** Every optional body field of a request, as sent; a field not listed here cannot be written. */
const bodyFields: Record<string, ItfType> = {
  namespace: option(str),
  name: option(str),
  initializers: option(listOf(str)),
  removePending: option(str),
  roleRef: option(record({ kind: ref('RoleKind'), name: str })),
  phase: option(str),
  labels: option(mapOf(str, str)),
  annotations: option(mapOf(str, str)),
  pending: option(listOf(str)),
  removeFirstPending: bool,
  finalizeWithoutKubernetes: bool,
  failure: option(str),
  finalizers: option(listOf(str)),
  extraFinalizers: option(listOf(str)),
  metadataFinalizers: option(listOf(str)),
  propagationPolicy: option(str),
};
const bodyFlags = new Set(['removeFirstPending', 'finalizeWithoutKubernetes']);

/** The declarations, in the order a reader meets them: the state first, then the actions' arguments. */
export const typeDeclarations: readonly TypeDeclaration[] = [
  {
    name: 'Option',
    kind: 'sum',
    cases: [
      ['Some', ref('a')],
      ['None', null],
    ],
  },
  enumDeclaration('Phase'),
  {
    name: 'InitializationResult',
    kind: 'sum',
    cases: [
      ['NoResult', null],
      ['Failure', str],
    ],
  },
  enumDeclaration('DeletionTimestamp'),
  {
    name: 'InitializerTimer',
    kind: 'sum',
    cases: [
      ['NoTimer', null],
      ['TimerLost', null],
      ['TimerArmed', record({ initializer: str, ageSeconds: int })],
    ],
  },
  {
    name: 'NamespaceObject',
    kind: 'sum',
    cases: [
      ['Absent', record({ content: setOf(str) })],
      ['Removed', record({ content: setOf(str) })],
      [
        'Exists',
        record({
          phase: ref('Phase'),
          pendingInitializers: listOf(str),
          finalizers: listOf(str),
          initializationResult: ref('InitializationResult'),
          deletionTimestamp: ref('DeletionTimestamp'),
          initializerTimer: ref('InitializerTimer'),
          content: setOf(str),
          externalContent: setOf(str),
        }),
      ],
    ],
  },
  enumDeclaration('ControllerState'),
  {
    name: 'AdmissionConfiguration',
    kind: 'alias',
    type: record({ fresh: bool, secondsSinceRead: int, readsFailing: bool, stored: setOf(str) }),
  },
  enumDeclaration('Fault'),
  enumDeclaration('Verb'),
  enumDeclaration('Target'),
  enumDeclaration('RoleKind'),
  { name: 'Body', kind: 'alias', type: record(bodyFields) },
  {
    name: 'Request',
    kind: 'alias',
    type: record({
      user: str,
      groups: listOf(str),
      verb: ref('Verb'),
      target: ref('Target'),
      namespace: option(str),
      object: option(str),
      resource: option(str),
      watch: option(bool),
      body: option(ref('Body')),
    }),
  },
  {
    name: 'NondetPicks',
    kind: 'alias',
    type: record({
      actor: option(str),
      namespace: option(str),
      fault: option(ref('Fault')),
      configuration: option(str),
      request: option(ref('Request')),
    }),
  },
];

/** The state variables and their types (the `vars` of a trace, but `mbt::actionTaken` and `mbt::nondetPicks`). */
export const stateVarTypes: Readonly<Record<string, ItfType>> = {
  admissionConfiguration: ref('AdmissionConfiguration'),
  initializerControllers: mapOf(str, ref('ControllerState')),
  namespaces: mapOf(str, ref('NamespaceObject')),
};

/**
 * D-23: the ClusterRoles and ClusterRoleBindings a scope's `clusterObjects` declares that are stored, by
 * `clusterroles/NAME` or `clusterrolebindings/NAME`, each with the version stored (its place among the
 * scope's entries of that kind and name, from 0; the scope document holds them). A variable only of a
 * scope that declares cluster objects, as the model's state holds that lane only then.
 */
export const clusterObjectsType: ItfType = mapOf(str, int);

/** The state variables of a scope's traces: `clusterObjects` besides the others when it declares any. */
export function stateVarTypesOf(scope: { clusterObjects?: boolean }): Readonly<Record<string, ItfType>> {
  return scope.clusterObjects ? { ...stateVarTypes, clusterObjects: clusterObjectsType } : stateVarTypes;
}

/** The trace's parameters: the scope's name and the whole scope, as JSON text in the scope file format. */
export const paramTypes: Readonly<Record<string, ItfType>> = { scope: str, scopeDocument: str };

/** The names of the actions, `mbt::actionTaken`: `init` for state 0, then one per kind of actor. */
export const actionNames: Readonly<Record<string, string>> = {
  principal: 'principalRequest',
  initializer: 'initializerStep',
  'namespace-controller': 'namespaceControllerStep',
  'finalizer-owner': 'finalizerOwnerStep',
  apiserver: 'apiserverStep',
  clock: 'tick',
  fault: 'fault',
};
export const stutterActionName = 'stutter';

const declared = new Map(typeDeclarations.map((d) => [d.name, d]));

// ---- Apalache's type syntax (ADR-002/ADR-014), every alias written out ----

function apalache(type: ItfType, nested: boolean, param?: ItfType): string {
  switch (type.kind) {
    case 'bool':
      return 'Bool';
    case 'int':
      return 'Int';
    case 'str':
      return 'Str';
    case 'set':
      return `Set(${apalache(type.of, false, param)})`;
    case 'list':
      return `Seq(${apalache(type.of, false, param)})`;
    case 'map':
      return `(${apalache(type.key, true, param)} -> ${apalache(type.value, true, param)})`;
    case 'record':
      return `{ ${Object.entries(type.fields)
        .map(([f, t]) => `${f}: ${apalache(t, true, param)}`)
        .join(', ')} }`;
    case 'option':
      return apalache(ref('Option'), nested, type.of);
    case 'ref': {
      if (type.name === 'a' && param) return apalache(param, nested);
      const d = declared.get(type.name);
      if (!d) throw new Error(`no declared type ${type.name}`);
      if (d.kind === 'alias') return apalache(d.type, nested, param);
      const sum = d.cases
        .map(([tag, payload]) => `${tag}(${payload ? apalache(payload, false, param) : 'UNIT'})`)
        .join(' | ');
      return nested ? `(${sum})` : sum;
    }
  }
}

/** A variable's type in Apalache's syntax, as `#meta.varTypes` holds it. */
export const apalacheType = (type: ItfType): string => apalache(type, false);

/** `#meta.varTypes` of a trace: every variable and parameter (`clusterObjects` for a scope with any). */
export function varTypes(scope: { clusterObjects?: boolean } = {}): Record<string, string> {
  const types: Record<string, string> = {};
  for (const [name, type] of Object.entries({ ...paramTypes, ...stateVarTypesOf(scope) }))
    types[name] = apalacheType(type);
  types['mbt::actionTaken'] = 'Str';
  types['mbt::nondetPicks'] = apalacheType(ref('NondetPicks'));
  return types;
}

// ---- Quint ----

function quint(type: ItfType): string {
  switch (type.kind) {
    case 'bool':
      return 'bool';
    case 'int':
      return 'int';
    case 'str':
      return 'str';
    case 'set':
      return `Set[${quint(type.of)}]`;
    case 'list':
      return `List[${quint(type.of)}]`;
    case 'map':
      return `${quint(type.key)} -> ${quint(type.value)}`;
    case 'record':
      return `{ ${Object.entries(type.fields)
        .map(([f, t]) => `${f}: ${quint(t)}`)
        .join(', ')} }`;
    case 'option':
      return `Option[${quint(type.of)}]`;
    case 'ref':
      return type.name;
  }
}

/** The Quint text of every declaration, the state variables, and the scope's facts as values. */
export function quintTypesModule(
  scope: {
    name: string;
    namespaces: readonly string[];
    initializers: readonly string[];
    /** The scope declares cluster RBAC objects (D-23): its state has `clusterObjects`. */
    clusterObjects?: boolean;
  },
  moduleName = quintModuleName(scope.name),
): string {
  const vars = stateVarTypesOf(scope);
  const lines = [
    `// The state of nsmodel's model for scope ${JSON.stringify(scope.name)}, as its ITF traces hold it.`,
    '// Generated by npm run export -- --quint-types; a trace of this scope typechecks against it.',
    `module ${moduleName} {`,
  ];
  for (const d of typeDeclarations) {
    if (d.kind === 'alias') lines.push(`  type ${d.name} = ${quint(d.type)}`);
    else {
      const params = d.name === 'Option' ? '[a]' : '';
      const cases = d.cases.map(([tag, payload]) => (payload ? `${tag}(${quint(payload)})` : tag));
      lines.push(`  type ${d.name}${params} =`, ...cases.map((c) => `    | ${c}`));
    }
  }
  lines.push(
    `  type Params = ${quint(record(paramTypes))}`,
    `  type State = ${quint(record(vars))}`,
    '',
    '  // The trace parameters (ITF params): constant along a trace.',
    ...Object.entries(paramTypes).map(([name, type]) => `  const ${name}: ${quint(type)}`),
    '',
    ...Object.entries(vars).map(([name, type]) => `  var ${name}: ${quint(type)}`),
    '',
    `  pure val scopeName: str = ${JSON.stringify(scope.name)}`,
    `  pure val namespaceNames: Set[str] = Set(${scope.namespaces.map((n) => JSON.stringify(n)).join(', ')})`,
    `  pure val initializerNames: Set[str] = Set(${scope.initializers.map((n) => JSON.stringify(n)).join(', ')})`,
    `  // mbt::actionTaken is one of these; mbt::nondetPicks is a NondetPicks.`,
    `  pure val actionNames: Set[str] = Set(${[
      'init',
      ...new Set(Object.values(actionNames)),
      stutterActionName,
    ]
      .map((n) => JSON.stringify(n))
      .join(', ')})`,
    '}',
    '',
  );
  return lines.join('\n');
}

/** A Quint module name for a scope: letters, digits and underscores, starting with a letter. */
export function quintModuleName(scopeName: string): string {
  return `nsmodel_${scopeName.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

// ---- Values: the readable view in these types, and back ----

export const unitValue: ItfValue = { '#tup': [] };
export const variant = (tag: string, value: ItfValue = unitValue): ItfValue => ({ tag, value });
export const some = (value: ItfValue): ItfValue => variant('Some', value);
export const none: ItfValue = variant('None');

const tagOf = <E extends keyof typeof enumTags>(kind: E, value: unknown, path: string): ItfValue => {
  const tags = enumTags[kind] as Record<string, string>;
  const tag = typeof value === 'string' ? tags[value] : undefined;
  if (tag === undefined)
    throw new ItfEncodingError(
      path,
      `${JSON.stringify(value)} is no ${kind} (${Object.keys(tags).join(', ')})`,
    );
  return variant(tag);
};
const int$ = (n: unknown): ItfValue => ({ '#bigint': String(n) });
const strings = (v: unknown): ItfValue => [...((v as Iterable<string>) ?? [])].map(String);
const stringSet = (v: unknown): ItfValue => ({ '#set': [...(v as Iterable<string>)].map(String).sort() });
const optional = (v: unknown, encode: (x: unknown) => ItfValue): ItfValue =>
  v === undefined || v === null ? none : some(encode(v));
const stringMap = (v: unknown): ItfValue => ({
  '#map': Object.entries(v as Record<string, string>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, x]): [ItfValue, ItfValue] => [k, String(x)]),
});

function namespaceValue(v: Record<string, unknown>, path: string): ItfValue {
  if (v.exists !== true)
    return variant(v.removed === true ? 'Removed' : 'Absent', { content: stringSet(v.content) });
  const result = String(v.initializationResult);
  const failure = /^Failure \((.*)\)$/.exec(result);
  if (result !== 'none' && !failure)
    throw new ItfEncodingError(`${path}.initializationResult`, `${JSON.stringify(result)} is no result`);
  const timer = v.initializerTimer;
  return variant('Exists', {
    phase: tagOf('Phase', v.phase, `${path}.phase`),
    pendingInitializers: strings(v.pendingInitializers),
    finalizers: strings(v.finalizers),
    initializationResult: failure ? variant('Failure', failure[1]) : variant('NoResult'),
    deletionTimestamp: tagOf('DeletionTimestamp', v.deletionTimestamp, `${path}.deletionTimestamp`),
    initializerTimer:
      timer === 'none'
        ? variant('NoTimer')
        : timer === 'lost'
          ? variant('TimerLost')
          : variant('TimerArmed', {
              initializer: String((timer as { initializer: string }).initializer),
              ageSeconds: int$((timer as { ageSeconds: number }).ageSeconds),
            }),
    content: stringSet(v.content),
    externalContent: stringSet(v.externalContent),
  });
}

/** The readable view of a state (checker/scenario/state-view.ts) as typed ITF values, one per state variable. */
export function typedState(view: Record<string, unknown>): Record<string, ItfValue> {
  const admission = view.admissionConfiguration as Record<string, unknown>;
  const controllers = view.initializerControllers as Map<string, string>;
  const namespaces = view.namespaces as Map<string, Record<string, unknown>>;
  const byKey = (a: [ItfValue, ItfValue], b: [ItfValue, ItfValue]) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
  return {
    admissionConfiguration: {
      fresh: Boolean(admission.fresh),
      secondsSinceRead: int$(admission.secondsSinceRead),
      readsFailing: Boolean(admission.readsFailing),
      stored: stringSet(admission.stored),
    },
    initializerControllers: {
      '#map': [...controllers]
        .map(([k, v]): [ItfValue, ItfValue] => [
          k,
          tagOf('ControllerState', v, `initializerControllers[${k}]`),
        ])
        .sort(byKey),
    },
    namespaces: {
      '#map': [...namespaces]
        .map(([k, v]): [ItfValue, ItfValue] => [k, namespaceValue(v, `namespaces[${k}]`)])
        .sort(byKey),
    },
    ...(view.clusterObjects
      ? {
          clusterObjects: {
            '#map': [...(view.clusterObjects as Map<string, number>)]
              .map(([k, v]): [ItfValue, ItfValue] => [k, int$(v)])
              .sort(byKey),
          },
        }
      : {}),
  };
}

function bodyValue(body: Record<string, unknown>, path: string): ItfValue {
  for (const key of Object.keys(body))
    if (!(key in bodyFields))
      throw new ItfEncodingError(`${path}.${key}`, 'a body field the ITF types do not declare');
  const rec: Record<string, ItfValue> = {};
  for (const key of Object.keys(bodyFields)) {
    const v = body[key];
    const type = bodyFields[key];
    if (bodyFlags.has(key)) rec[key] = v === true;
    else if (key === 'labels' || key === 'annotations') rec[key] = optional(v, stringMap);
    else if (key === 'roleRef')
      rec[key] = optional(v, (r) => ({
        kind: tagOf('RoleKind', (r as { kind: string }).kind, `${path}.roleRef.kind`),
        name: String((r as { name: string }).name),
      }));
    else if (type.kind === 'option' && type.of.kind === 'list') rec[key] = optional(v, strings);
    else rec[key] = optional(v, (x) => String(x));
  }
  return rec;
}

/**
 * A step's arguments (checker/scenario/state-view.ts's actionData: who, which namespace, which fault or
 * configuration, which request with which body) as `mbt::nondetPicks`: every pick an Option.
 */
export function nondetPicks(data: Record<string, unknown>): ItfValue {
  const request = data.request as Record<string, unknown> | undefined;
  return {
    actor: optional(data.actor, (x) => String(x)),
    namespace: optional(data.namespace, (x) => String(x)),
    fault: optional(data.fault, (x) => tagOf('Fault', x, 'fault')),
    configuration: optional(data.configuration, (x) => String(x)),
    request: optional(request, (r) => {
      const q = r as Record<string, unknown>;
      return {
        user: String(q.user),
        groups: strings(q.groups),
        verb: tagOf('Verb', q.verb, 'request.verb'),
        target: tagOf('Target', q.target, 'request.target'),
        namespace: optional(q.namespace, (x) => String(x)),
        object: optional(q.object, (x) => String(x)),
        resource: optional(q.resource, (x) => String(x)),
        watch: optional(q.watch, (x) => x === true),
        body: optional(q.body, (b) => bodyValue(b as Record<string, unknown>, 'request.body')),
      };
    }),
  };
}

/** The picks of a step that picks nothing (the initial state, a stutter). */
export const noPicks: ItfValue = {
  actor: none,
  namespace: none,
  fault: none,
  configuration: none,
  request: none,
};

/** `mbt::actionTaken` of a step by the kind of its actor. */
export function actionName(actorKind: string): string {
  const name = actionNames[actorKind];
  if (!name) throw new ItfEncodingError('actorKind', `${JSON.stringify(actorKind)} has no action name`);
  return name;
}

// ---- Back to the readable view (the report's stepper shows it) ----

const isVariant = (v: unknown): v is { tag: string; value: ItfValue } =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  typeof (v as { tag?: unknown }).tag === 'string';
const untag = (kind: keyof typeof enumTags, tag: string): string =>
  Object.entries(enumTags[kind] as Record<string, string>).find(([, t]) => t === tag)?.[0] ?? tag;
const setItems = (v: unknown): unknown[] =>
  ((v as { '#set'?: unknown[] })['#set'] ?? (v as unknown[])) as unknown[];
const num = (v: unknown): unknown =>
  typeof v === 'object' && v !== null && '#bigint' in v ? Number((v as { '#bigint': string })['#bigint']) : v;
const mapPairs = (v: unknown): [unknown, unknown][] => {
  const pairs = typeof v === 'object' && v !== null ? (v as { '#map'?: unknown })['#map'] : undefined;
  return Array.isArray(pairs) ? (pairs as [unknown, unknown][]) : [];
};

/**
 * A typed state (typedState's output, or the same written by another tool) as the readable view's plain
 * data, as decodeItfValue reads an untyped one: sets as arrays, maps with string keys as objects.
 */
export function readableOfTyped(vars: Record<string, unknown>): Record<string, unknown> {
  const admission = vars.admissionConfiguration as Record<string, unknown>;
  const namespace = (v: unknown): unknown => {
    if (!isVariant(v)) return v;
    const value = v.value as unknown as Record<string, unknown>;
    if (v.tag !== 'Exists')
      return { exists: false, removed: v.tag === 'Removed', content: setItems(value.content) };
    const result = value.initializationResult as { tag: string; value: unknown };
    const timer = value.initializerTimer as { tag: string; value: Record<string, unknown> };
    return {
      exists: true,
      phase: untag('Phase', (value.phase as { tag: string }).tag),
      pendingInitializers: value.pendingInitializers,
      finalizers: value.finalizers,
      initializationResult: result.tag === 'Failure' ? `Failure (${String(result.value)})` : 'none',
      deletionTimestamp: untag('DeletionTimestamp', (value.deletionTimestamp as { tag: string }).tag),
      initializerTimer:
        timer.tag === 'TimerArmed'
          ? { initializer: timer.value.initializer, ageSeconds: num(timer.value.ageSeconds) }
          : timer.tag === 'TimerLost'
            ? 'lost'
            : 'none',
      content: setItems(value.content),
      externalContent: setItems(value.externalContent),
    };
  };
  return {
    admissionConfiguration: {
      fresh: admission.fresh,
      secondsSinceRead: num(admission.secondsSinceRead),
      readsFailing: admission.readsFailing,
      stored: setItems(admission.stored),
    },
    initializerControllers: Object.fromEntries(
      mapPairs(vars.initializerControllers).map(([k, v]) => [
        k,
        isVariant(v) ? untag('ControllerState', v.tag) : v,
      ]),
    ),
    namespaces: Object.fromEntries(mapPairs(vars.namespaces).map(([k, v]) => [k, namespace(v)])),
    ...(vars.clusterObjects !== undefined
      ? { clusterObjects: Object.fromEntries(mapPairs(vars.clusterObjects).map(([k, v]) => [k, num(v)])) }
      : {}),
  };
}

/** Whether a state's variables are in the typed shape (a namespace or controller written as a variant). */
export function isTypedState(vars: Record<string, unknown>): boolean {
  const first = [...mapPairs(vars.namespaces), ...mapPairs(vars.initializerControllers)][0];
  return first !== undefined && isVariant(first[1]);
}
