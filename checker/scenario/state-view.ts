import { phaseOf } from '../../machines/namespace.ts';
import type { NamespaceView, SystemEvent, SystemModel, SystemState } from '../../machines/system.ts';
import type { ItfAction } from './itf.ts';

/**
 * A system state as a reviewer reads it, in Kubernetes words and plain data (records, sets, maps): the
 * one place that knows the model's encoding, so ITF traces and the HTML report stay independent of it.
 */
export function readableState(model: SystemModel, s: SystemState): Record<string, unknown> {
  return {
    admissionConfiguration: {
      fresh: model.configurationFresh(s),
      secondsSinceRead: model.secondsSinceConfigRead(s),
      readsFailing: model.configReadsFailing(s),
      stored: new Set(
        model.scope.configurations.filter((_, k) => s.registeredConfigs & (1 << k)).map((c) => c.name),
      ),
    },
    initializerControllers: new Map(
      model.initializers.map((spec, k) => [
        spec.name,
        String(model.initializerStepper.value(s.initializers[k])),
      ]),
    ),
    namespaces: new Map(model.views(s).map((v) => [v.name, namespaceObject(model, v)])),
    ...(model.scope.clusterObjects?.length ? { clusterObjects: storedClusterObjects(model, s) } : {}),
  };
}

/**
 * D-23: the scope's cluster RBAC objects stored, `clusterroles/NAME` or `clusterrolebindings/NAME` to the
 * version stored: its place among the scope's entries of that kind and name, from 0.
 */
function storedClusterObjects(model: SystemModel, s: SystemState): Map<string, number> {
  const objects = model.scope.clusterObjects ?? [];
  const stored = new Map<string, number>();
  objects.forEach((o, k) => {
    if (((s.clusterObjects ?? 0) & (1 << k)) === 0) return;
    const version = objects.slice(0, k).filter((v) => v.kind === o.kind && v.name === o.name).length;
    stored.set(`${o.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings'}/${o.name}`, version);
  });
  return new Map([...stored].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function namespaceObject(model: SystemModel, v: NamespaceView): Record<string, unknown> {
  const content = model.objects.filter((_, k) => v.content & (1 << k)).map((o) => `${o.resource}/${o.name}`);
  const external = model.scope.finalizerOwners.filter((_, k) => v.external & (1 << k));
  const exists = v.value !== 'absent' && v.value !== 'removed';
  if (!exists) return { exists: false, removed: v.value === 'removed', content: new Set(content) };
  return {
    exists: true,
    phase: phaseOf(v.value) ?? String(v.value),
    pendingInitializers: [...v.pending],
    finalizers: [...v.finalizers],
    initializationResult: v.failure ? `Failure (${v.failure.reason})` : 'none',
    deletionTimestamp: v.deletedSecondsAgo === null ? 'unset' : 'set',
    initializerTimer: v.failOpenTimer
      ? { initializer: v.failOpenTimer.initializer, ageSeconds: v.failOpenTimer.ageSeconds }
      : v.timerLost
        ? 'lost'
        : 'none',
    content: new Set(content),
    externalContent: new Set(external),
  };
}

/**
 * A step's action as data, by names rather than slots: who sent which request with which body, or
 * which fault or configuration it was. `replay --trace` finds the step by this, never by the label.
 */
/** The object a request addresses as RESOURCE/NAME: a content object, or a ClusterRole or ClusterRoleBinding (D-23). */
function objectPath(model: SystemModel, r: NonNullable<SystemEvent['request']>): string | null {
  if (r.object < 0) return null;
  if (r.target === 'cluster-object') {
    const o = model.scope.clusterObjects?.[r.object];
    return o ? `${o.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings'}/${o.name}` : null;
  }
  return `${model.objects[r.object].resource}/${model.objects[r.object].name}`;
}

export function actionData(model: SystemModel, event: SystemEvent): Record<string, unknown> {
  const r = event.request;
  const namespace = (slot: number) => (slot >= 0 ? (model.scope.namespaces[slot]?.name ?? null) : null);
  return {
    actor: event.actor,
    actorKind: event.actorKind,
    namespace: namespace(event.namespace),
    ...(event.fault ? { fault: event.fault } : {}),
    ...(event.configuration ? { configuration: event.configuration } : {}),
    ...(r
      ? {
          request: {
            user: r.principal.name,
            groups: [...r.principal.groups],
            verb: r.verb,
            target: r.target,
            namespace: namespace(r.namespace),
            object: objectPath(model, r),
            ...(r.resource ? { resource: r.resource } : {}),
            // A watch is a list on the wire only until it stays open (D-16, D-47): replay must tell them apart.
            ...(r.watch ? { watch: true } : {}),
            ...(r.body ? { body: JSON.parse(JSON.stringify(r.body)) } : {}),
          },
        }
      : {}),
  };
}

/** A step as an ITF action: `alice: delete namespaces/team-a -> 200 OK`, with the facts replay needs. */
export function stepAction(event: SystemEvent, model?: SystemModel): ItfAction {
  const response = event.response
    ? `${event.response.code} ${event.response.reason}${event.response.cause ? ` (${event.response.cause})` : ''}`
    : undefined;
  return {
    label: `${event.actor}: ${event.label}${response ? ` -> ${response}` : ''}`,
    details: {
      actor: event.actor,
      actorKind: event.actorKind,
      event: event.label,
      ...(model ? { data: actionData(model, event) } : {}),
      ...(event.response
        ? {
            response: {
              code: event.response.code,
              reason: event.response.reason,
              ...(event.response.cause ? { cause: event.response.cause } : {}),
            },
          }
        : {}),
    },
  };
}
