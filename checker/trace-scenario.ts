import { isDeepStrictEqual } from 'node:util';
import { Document } from 'yaml';
import { entriesField } from '../machines/initializer-config.ts';
import { initializerConfigurationApiVersion } from '../machines/k8s-types.ts';
import { configurationEntries, configurationResource } from '../machines/scope.ts';
import type { ApiRequest, HttpOutcome, SystemEvent, SystemState } from '../machines/system.ts';
import { SystemModel } from '../machines/system.ts';
import { baseVariantName, machinesFor } from '../machines/variants.ts';
import { scopeToDocument } from './scope-yaml.ts';
import { actionData } from './state-view.ts';
import type { TraceReplay } from './trace-replay.ts';

/**
 * `replay --trace FILE --to-scenario OUT.yaml`: a counterexample as a scenario (scenarios/*.yaml), so
 * it becomes a regression test in one command. The world is the trace's scope inline (`given.scope`);
 * each step is the trace's action in scenario words; each expectation is what the machines as written
 * answer, and the scenario ends by checking the namespaces as the machines as written leave them.
 * So it passes on the model and fails on the variant that broke the property.
 */

type Replayed = Extract<TraceReplay, { replayed: true }>;
type ScenarioStep = Record<string, unknown>;

const expectOf = (r: HttpOutcome | undefined): unknown =>
  r ? (r.cause ? { code: r.code, reason: r.reason, cause: r.cause } : `${r.code} ${r.reason}`) : 200;

/** A principal's request in scenario words: request line and body, by names. */
function requestStep(model: SystemModel, state: SystemState, r: ApiRequest): ScenarioStep {
  const ns = r.namespace >= 0 ? model.scope.namespaces[r.namespace].name : undefined;
  const object = r.object >= 0 ? model.objects[r.object] : undefined;
  const who = { as: r.principal.name, groups: r.principal.groups };
  // The body's own name and namespace, where the request sent them (NS-4: D-14, D-38).
  const metadata = {
    ...(r.body?.name !== undefined ? { name: r.body.name } : {}),
    ...(r.body?.namespace !== undefined ? { namespace: r.body.namespace } : {}),
  };
  const named = Object.keys(metadata).length > 0 ? { metadata } : {};
  if (r.target === 'content') {
    if (r.verb === 'list')
      return { ...who, do: ns ? `list namespaces/${ns}/${r.resource}` : `list ${r.resource}` };
    const line = `${r.verb} namespaces/${ns}/${object?.resource}/${object?.name}`;
    return { ...who, do: line, ...(Object.keys(named).length > 0 ? { body: named } : {}) };
  }
  if (r.verb === 'list') return { ...who, do: 'list namespaces' };
  const line = `${r.verb === 'finalize' ? 'update' : r.verb} namespaces/${ns}${r.verb === 'finalize' ? '/finalize' : ''}`;
  const b = r.body ?? {};
  const pending = ns ? model.view(state, r.namespace).pending : [];
  const spec: Record<string, unknown> = {};
  if (r.verb === 'finalize') return { ...who, do: line, body: { spec: { finalizers: b.finalizers ?? [] } } };
  if (b.extraFinalizers && b.extraFinalizers.length > 0) spec.finalizers = b.extraFinalizers;
  if (b.finalizers) spec.finalizers = b.finalizers;
  if (b.initializers) spec.initializers = { pending: b.initializers.map((name) => ({ name })) };
  const removed = b.removePending ?? (b.removeFirstPending ? pending[0] : undefined);
  if (removed !== undefined)
    spec.initializers = { pending: pending.filter((n) => n !== removed).map((name) => ({ name })) };
  if (b.failure !== undefined)
    spec.initializers = {
      pending: pending.map((name) => ({ name })),
      result: { status: 'Failure', reason: b.failure },
    };
  const body = { ...named, ...(Object.keys(spec).length > 0 ? { spec } : {}) };
  return { ...who, do: line, ...(Object.keys(body).length > 0 ? { body } : {}) };
}

/** A configuration request (the cluster admin's create, get, update or delete, D-32) in scenario words. */
function configurationStep(model: SystemModel, r: ApiRequest): ScenarioStep | null {
  if (!r.configuration) return null;
  const c = model.scope.configurations[r.configuration.slot];
  const kind = c.kind ?? 'NamespaceInitializerConfiguration';
  const step: ScenarioStep = {
    as: r.principal.name,
    groups: r.principal.groups,
    do: `${r.verb} ${configurationResource[kind]}/${c.name}`,
  };
  if (r.verb !== 'create' && r.verb !== 'update') return step;
  const entries = configurationEntries(c, r.configuration.version).map((i) => ({
    name: i.name,
    failurePolicy: i.failurePolicy,
    timeoutSeconds: i.timeoutSeconds,
    ...(i.rules ? { rules: i.rules } : {}),
  }));
  const list = entriesField(kind);
  return {
    ...step,
    body: {
      apiVersion: initializerConfigurationApiVersion,
      kind,
      metadata: { name: c.name },
      [list]: entries,
    },
  };
}

/** Any other step in scenario words; null for the API server's timers, which `tick` fires itself. */
function otherStep(model: SystemModel, event: SystemEvent): ScenarioStep | null {
  switch (event.fault) {
    case 'initializer-crash':
      return { crash: event.actor };
    case 'initializer-restart':
      return { restart: event.actor };
    case 'apiserver-restart':
      return { crash: 'apiserver' };
    case 'config-read-failing':
      return { fail: 'config-read' };
    case 'config-read-recovering':
      return { recover: 'config-read' };
  }
  if (event.actorKind === 'clock') return { tick: 1 };
  if (event.actorKind === 'apiserver') return null;
  const ns = event.namespace >= 0 ? model.scope.namespaces[event.namespace].name : undefined;
  return { step: event.actor, ...(ns ? { namespace: ns } : {}) };
}

/** What the machines as written do with the trace's actions, step by step, as far as they can follow it. */
function onTheModel(result: Replayed): {
  steps: ScenarioStep[];
  end: { model: SystemModel; state: SystemState };
} {
  const machines = machinesFor(baseVariantName, result.model.scope);
  if (!machines) throw new Error(`no machines for ${baseVariantName}`);
  const model = new SystemModel(result.model.scope, machines);
  let state =
    model.initialStates().find((s) => isDeepStrictEqual(s, result.initial)) ?? model.initialStates()[0];
  const steps: ScenarioStep[] = [];
  for (const { event } of result.steps) {
    if (event.request && event.actorKind === 'principal') {
      const step = configurationStep(model, event.request) ?? requestStep(model, state, event.request);
      const answer = model.handle(state, event.request);
      steps.push({ ...step, expect: expectOf(answer.response) });
      state = answer.state;
      continue;
    }
    const step = otherStep(model, event);
    const data = actionData(result.model, event);
    const same = model.enabled(state).find((e) => isDeepStrictEqual(actionData(model, e.event), data));
    if (same) state = same.next;
    if (step) steps.push(step);
  }
  return { steps, end: { model, state } };
}

/** The namespaces as the machines as written leave them: the scenario's last word. */
function finalChecks({ model, state }: { model: SystemModel; state: SystemState }): ScenarioStep[] {
  return model.views(state).map((v) => {
    const exists = v.value !== 'absent' && v.value !== 'removed';
    const objects = model.objects
      .filter((_, k) => v.content & (1 << k))
      .map((o) => ({ kind: kindOf(o.resource), name: o.name }));
    return {
      check: {
        namespace: v.name,
        exists,
        ...(exists ? { finalizers: [...v.finalizers], pending: [...v.pending] } : {}),
        // Also where it is gone: what a removed namespace left behind is what no-orphans judges.
        objects,
      },
    };
  });
}

const kinds: Record<string, string> = {
  configmaps: 'ConfigMap',
  secrets: 'Secret',
  pods: 'Pod',
  resourcequotas: 'ResourceQuota',
  networkpolicies: 'NetworkPolicy',
  rolebindings: 'RoleBinding',
  roles: 'Role',
};
const kindOf = (resource: string) => kinds[resource] ?? resource;

/** The scenario YAML of a replayed counterexample. */
export function traceToScenario(result: Replayed, file: string): string {
  const { steps, end } = onTheModel(result);
  const scenario = {
    title: `${result.property.id} on ${result.variant}: the counterexample as a regression test`,
    requirements: result.property.requirements,
    source: `npm run replay -- --trace ${file} --to-scenario`,
    ...(result.variant === baseVariantName ? {} : { variant: result.variant }),
    given: { scope: scopeToDocument(result.model.scope) },
    steps: [...steps, ...finalChecks(end)],
  };
  const header =
    result.variant === baseVariantName
      ? [
          `# ${result.property.statement}`,
          `# Written from ${file}. The expectations are the model's answers.`,
        ]
      : [
          `# ${result.property.statement}`,
          `# Written from ${file}. The expectations are the model's answers: on ${result.variant} a step`,
          '# or a final check differs. Remove `variant:` to replay it on the model, where it passes.',
        ];
  return `${header.join('\n')}\n${new Document(scenario, { aliasDuplicateObjects: false }).toString({ lineWidth: 100 })}`;
}
