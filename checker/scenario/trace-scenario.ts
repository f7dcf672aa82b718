import { isDeepStrictEqual } from 'node:util';
import { Document } from 'yaml';
import { finalizersSent, nonePending, pendingNameSent } from '../../machines/apiserver.ts';
import { entriesField } from '../../machines/initializer-config.ts';
import { initializerConfigurationApiVersion } from '../../machines/k8s-types.ts';
import { conditionsOf, phaseOf } from '../../machines/namespace.ts';
import type { Scope } from '../../machines/scope.ts';
import { configurationEntries, configurationResource } from '../../machines/scope.ts';
import type {
  ApiRequest,
  HttpOutcome,
  SystemEvent,
  SystemModel,
  SystemState,
} from '../../machines/system.ts';
import type { ActorKind } from '../../machines/system-types.ts';
import { baseVariantName, machinesFor } from '../../variants/variants.ts';
import { UsageError } from '../cli/cli.ts';
import { scopeToDocument } from '../cli/scope-yaml.ts';
import { systemModel } from '../model/system-model.ts';
import { controllerStep, expiredTimers } from './replay.ts';
import { actionData } from './state-view.ts';
import type { TraceReplay } from './trace-replay.ts';

/**
 * `replay --trace FILE --to-scenario OUT.yaml`: a counterexample as a scenario (scenarios/*.yaml), so
 * it becomes a regression test in one command. The world is the trace's scope inline (`given.scope`);
 * each step is the trace's action in scenario words; each expectation is what the machines as written
 * answer, and the scenario ends by checking the namespaces and admission's configuration copy as the
 * machines as written leave them.
 * So it passes on the model and fails on the variant that broke the property.
 */

type Replayed = Extract<TraceReplay, { replayed: true }>;
type ScenarioStep = Record<string, unknown>;

const expectOf = (r: HttpOutcome | undefined): unknown =>
  r ? (r.cause ? { code: r.code, reason: r.reason, cause: r.cause } : `${r.code} ${r.reason}`) : 200;

/**
 * A principal's request in scenario words: request line and body, by names. A body the model resolves
 * against the stored namespace when it serves it (remove the first pending initializer, finalize without
 * `kubernetes`) is written as the list it resolves to in `state`, the state the request is served in.
 */
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
  const step = (line: string, body: Record<string, unknown>): ScenarioStep => ({
    ...who,
    do: line,
    ...(Object.keys(body).length > 0 ? { body } : {}),
  });
  if (r.target === 'content') {
    if (r.verb === 'list') {
      // A watch is written as the verb it is; the scenario serves it as the list it starts with (D-16).
      const verb = r.watch ? 'watch' : 'list';
      return { ...who, do: ns ? `${verb} namespaces/${ns}/${r.resource}` : `${verb} ${r.resource}` };
    }
    if (r.collection) return { ...who, do: `deletecollection namespaces/${ns}/${r.resource}` };
    return step(`${r.verb} namespaces/${ns}/${object?.resource}/${object?.name}`, named);
  }
  if (r.verb === 'list' || ns === undefined)
    return { ...who, do: r.watch ? 'watch namespaces' : 'list namespaces' };
  // The status sub-resource carries no spec (NS-5).
  if (r.subresource) return step(`${r.verb} namespaces/${ns}/${r.subresource}`, named);
  const b = r.body ?? {};
  const stored = model.view(state, r.namespace);
  const withSpec = (spec: Record<string, unknown>) => ({ ...named, spec });
  const pendingList = (names: readonly string[]) => names.map((name) => ({ name }));
  switch (r.verb) {
    case 'finalize':
      return step(`update namespaces/${ns}/finalize`, withSpec({ finalizers: finalizersSent(stored, b) }));
    case 'create': {
      const finalizers = [...(b.extraFinalizers ?? []), ...(b.finalizers ?? [])];
      // The generated name is written in the path, the prefix kept in the body: the same request (D-45).
      const createMetadata = {
        ...metadata,
        ...(b.generateName !== undefined ? { generateName: b.generateName } : {}),
        ...(b.metadataFinalizers ? { finalizers: b.metadataFinalizers } : {}),
      };
      const generated = Object.keys(createMetadata).length > 0 ? { metadata: createMetadata } : {};
      return step(`create namespaces/${ns}`, {
        ...generated,
        ...(finalizers.length > 0 || b.initializers
          ? {
              spec: {
                ...(finalizers.length > 0 ? { finalizers } : {}),
                ...(b.initializers ? { initializers: { pending: pendingList(b.initializers) } } : {}),
              },
            }
          : {}),
      });
    }
    case 'update': {
      if (b.failure !== undefined)
        return step(
          `update namespaces/${ns}`,
          withSpec({
            initializers: {
              pending: pendingList(stored.pending),
              result: { status: 'Failure', reason: b.failure },
            },
          }),
        );
      if (b.removePending !== undefined || b.removeFirstPending) {
        const removed = pendingNameSent(stored, b);
        if (stored.value !== 'initializing')
          // Any list sent once initialization has ended is a change refused as such (IN-4, D-18): the name is sent.
          return step(
            `update namespaces/${ns}`,
            withSpec({
              initializers: {
                pending: pendingList(removed === nonePending ? [] : [removed]),
              },
            }),
          );
        if (!stored.pending.includes(removed))
          throw new UsageError(
            `--to-scenario: ${r.principal.name}'s update of ${ns} removes ${removed}, which is not pending there (pending ${JSON.stringify(stored.pending)}): a scenario's body is the whole pending list and cannot name an absent entry; the scenario is not written`,
          );
        return step(
          `update namespaces/${ns}`,
          withSpec({ initializers: { pending: pendingList(stored.pending.filter((n) => n !== removed)) } }),
        );
      }
      return step(`update namespaces/${ns}`, {
        ...withSpec({ finalizers: b.finalizers ?? [] }),
        ...(b.metadataFinalizers ? { metadata: { ...metadata, finalizers: b.metadataFinalizers } } : {}),
      });
    }
    // D-46: a DELETE's body is DeleteOptions, sent only with a propagationPolicy.
    case 'delete':
      return step(
        `delete namespaces/${ns}`,
        b.propagationPolicy ? { kind: 'DeleteOptions', propagationPolicy: b.propagationPolicy } : {},
      );
    default:
      return step(`${r.verb} namespaces/${ns}`, named);
  }
}

/** A ClusterRole or ClusterRoleBinding request (D-23) in scenario words: its path, and the object as the body. */
function clusterObjectStep(model: SystemModel, r: ApiRequest): ScenarioStep | null {
  const o = r.target === 'cluster-object' ? model.scope.clusterObjects?.[r.object] : undefined;
  if (!o) return null;
  const rbac = 'rbac.authorization.k8s.io';
  const step: ScenarioStep = {
    as: r.principal.name,
    groups: r.principal.groups,
    do: `${r.verb} ${o.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings'}/${o.name}`,
  };
  if (r.verb !== 'create' && r.verb !== 'update') return step;
  return {
    ...step,
    body:
      o.kind === 'ClusterRole'
        ? { rules: o.rules ?? [] }
        : {
            roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: o.clusterRole ?? '' },
            subjects: (o.subjects ?? []).map((s) =>
              s.kind === 'ServiceAccount'
                ? { kind: s.kind, name: s.name, ...(s.namespace ? { namespace: s.namespace } : {}) }
                : { kind: s.kind, apiGroup: rbac, name: s.name },
            ),
          },
  };
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

/** A fault in scenario words; null for any other step. */
function otherStep(event: SystemEvent): ScenarioStep | null {
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
  return null;
}

const controllerKinds: readonly ActorKind[] = ['initializer', 'namespace-controller', 'finalizer-owner'];

/**
 * What the machines as written do with the trace's actions, step by step: a request is sent as the
 * trace sent it; a controller's step is what `step: ACTOR` does on the model (the replayer's own choice),
 * or `run: ACTOR` where the model's controller has nothing to do there (a run that does nothing passes);
 * a second of the clock is `tick: 1`, with the API server's timers it lets fire, as the replayer ticks.
 */
export function onTheModel(result: Pick<Replayed, 'scope' | 'initial' | 'model' | 'steps'>): {
  steps: ScenarioStep[];
  end: End;
} {
  // ClusterRoles and ClusterRoleBindings a variant's data adds are what its requests address (D-23): the
  // model is sent the same requests, so it knows them too (a scenario step's body defines them).
  const added = result.model.scope.clusterObjects;
  const scope =
    added && added !== result.scope.clusterObjects
      ? { ...result.scope, clusterObjects: added }
      : result.scope;
  const machines = machinesFor(baseVariantName, scope);
  if (!machines) throw new Error(`no machines for ${baseVariantName}`);
  const model = systemModel(scope, machines);
  let state =
    model.initialStates().find((s) => isDeepStrictEqual(s, result.initial)) ?? model.initialStates()[0];
  const steps: ScenarioStep[] = [];
  const stamps = new DeletionStamps();
  for (const { event } of result.steps) {
    stamps.see(model, state);
    if (event.actorKind === 'clock') stamps.tick();
    if (event.request && event.actorKind === 'principal') {
      const step =
        clusterObjectStep(model, event.request) ??
        configurationStep(model, event.request) ??
        requestStep(model, state, event.request);
      const answer = model.handle(state, event.request);
      steps.push({ ...step, expect: expectOf(answer.response) });
      state = answer.state;
      continue;
    }
    if (controllerKinds.includes(event.actorKind)) {
      const ns = event.namespace >= 0 ? model.scope.namespaces[event.namespace].name : undefined;
      const where = ns ? { namespace: ns } : {};
      const chosen = controllerStep(
        model,
        state,
        event.actor,
        [event.actorKind],
        event.namespace >= 0 ? event.namespace : undefined,
      );
      if (!chosen) {
        steps.push({ run: event.actor, ...where });
        continue;
      }
      const answer = chosen.event.response ? { expect: expectOf(chosen.event.response) } : {};
      steps.push({ step: event.actor, ...where, ...answer });
      state = chosen.next;
      continue;
    }
    // The API server's timers fire with the tick before them, as the replayer fires them.
    if (event.actorKind === 'apiserver') continue;
    if (event.actorKind === 'clock') {
      const clock = model.enabled(state).find((e) => e.event.actorKind === 'clock');
      if (clock) state = [clock, ...expiredTimers(model, clock.next)].at(-1)?.next ?? state;
      steps.push({ tick: 1 });
      continue;
    }
    const step = otherStep(event);
    const data = actionData(result.model, event);
    const same = model.enabled(state).find((e) => isDeepStrictEqual(actionData(model, e.event), data));
    if (same) state = same.next;
    if (step) steps.push(step);
  }
  stamps.see(model, state);
  return { steps, end: { model, state, stamps: stamps.stamps } };
}

export interface End {
  model: SystemModel;
  state: SystemState;
  /** Each deleted namespace's deletion timestamp, in the scenario's seconds. */
  stamps: ReadonlyMap<number, number>;
}

/**
 * Deletion timestamps in scenario seconds, derived from the ages the model keeps: the same derivation
 * as the replayer's, so a final check can name the second a namespace was deleted (D-10, LC-3).
 */
class DeletionStamps {
  readonly stamps = new Map<number, number>();
  private elapsed = 0;

  tick(): void {
    this.elapsed += 1;
  }

  see(model: SystemModel, state: SystemState): void {
    model.views(state).forEach((v, i) => {
      if (v.deletedSecondsAgo === null) this.stamps.delete(i);
      else if (!this.stamps.has(i) || v.deletedSecondsAgo === 0)
        this.stamps.set(i, this.elapsed - v.deletedSecondsAgo);
    });
  }
}

/** The namespaces as the machines as written leave them, in every field a check compares: the scenario's last word. */
export function finalChecks({ model, state, stamps }: End): ScenarioStep[] {
  return model.views(state).map((v, i) => {
    const exists = v.value !== 'absent' && v.value !== 'removed';
    const objects = model.objects
      .filter((_, k) => v.content & (1 << k))
      .map((o) => ({ kind: kindOf(o.resource), name: o.name }));
    const external = model.scope.finalizerOwners.filter((_, k) => v.external & (1 << k));
    return {
      check: {
        namespace: v.name,
        exists,
        ...(exists
          ? {
              phase: phaseOf(v.value),
              finalizers: [...v.finalizers],
              pending: [...v.pending],
              creator: v.creator ?? null,
              result: v.failure ? { status: 'Failure', reason: v.failure.reason } : 'none',
              conditions: conditionsOf(v.value, v.hadInitializers),
              deletionTimestamp: stamps.get(i) ?? false,
              timer: v.failOpenTimer
                ? { initializer: v.failOpenTimer.initializer, ageSeconds: v.failOpenTimer.ageSeconds }
                : 'none',
            }
          : {}),
        // Also where it is gone: what a removed namespace left behind is what no-orphans judges.
        objects,
        externalContent: external,
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

/**
 * The scenario of a replayed trace, `what` it is, as a regression test: the run's steps with the model's
 * answers, then the checks of where it ends (the state and the admission's configuration) and `goals`.
 */
export function regressionScenario(
  result: { property: { id: string; requirements: readonly string[] }; variant: string; scope: Scope },
  file: string,
  what: string,
  { steps, end }: ReturnType<typeof onTheModel>,
  goals: ScenarioStep[] = [],
) {
  return {
    title: `${result.property.id} on ${result.variant}: ${what} as a regression test`,
    requirements: result.property.requirements,
    source: `npm run replay -- --trace ${file} --to-scenario`,
    ...(result.variant === baseVariantName ? {} : { variant: result.variant }),
    given: { scope: scopeToDocument(result.scope) },
    steps: [
      ...steps,
      ...finalChecks(end),
      {
        admission: {
          fresh: end.model.configurationFresh(end.state),
          read: end.model.configurationsRead(end.state),
        },
      },
      ...goals,
    ],
  };
}

/** The scenario YAML of a replayed counterexample. */
export function traceToScenario(result: Replayed, file: string): string {
  const scenario = regressionScenario(result, file, 'the counterexample', onTheModel(result));
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
