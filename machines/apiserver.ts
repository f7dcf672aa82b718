import { type AdmissionFacts, type AdmissionVerdict, refusalResponse } from './admission.ts';
import { type Addressed, type HttpOutcome, ok } from './http.ts';
import { validateFinalizerNames, validateNamespaceName } from './names.ts';
import type { NamespaceEvent } from './namespace.ts';
import { kubernetesFinalizer } from './namespace-controller.ts';
import type { AuthorizationRequest } from './request-authorization.ts';
import { type ConfigurationSpec, immortalNamespaces } from './scope.ts';
import { type StorageRefusal, storageResponse } from './storage.ts';
import type { ApiRequest, SystemModel, SystemState } from './system.ts';

/** What serving one request did: the state after it, the answer, and the machine transitions taken. */
export interface Served {
  state: SystemState;
  response: HttpOutcome;
  transitions: string[];
  callerMayInitialize: boolean;
  changesInitializers: boolean;
  items?: string[];
}

/**
 * The API server serving one request: authorization and admission decide (machines), storage applies
 * it to the namespace machine and the content store, and every answer comes from the refusal tables of
 * admission and storage. Nothing changes when the request is refused.
 */
export class ApiServer {
  constructor(private readonly system: SystemModel) {}

  describeRequest(s: SystemState, r: ApiRequest): string {
    const ns = r.namespace >= 0 ? this.system.scope.namespaces[r.namespace].name : '';
    if (r.target === 'namespace') {
      if (r.verb === 'finalize')
        return `finalize namespaces/${ns} ${JSON.stringify(this.resolveFinalizers(s, r))}`;
      if (r.verb === 'update') {
        if (r.body?.removePending || r.body?.removeFirstPending)
          return `update namespaces/${ns} (remove pending ${this.resolvePendingName(s, r)})`;
        if (r.body?.failure) return `update namespaces/${ns} (result Failure: ${r.body.failure})`;
        return `update namespaces/${ns} (finalizers ${JSON.stringify(r.body?.finalizers ?? [])})`;
      }
      if (r.verb === 'create' && r.body?.initializers) return `create namespaces/${ns} with initializers set`;
      return `${r.verb} namespaces/${ns}`;
    }
    if (r.namespace < 0) return `list ${r.resource} (all namespaces)`;
    if (r.object < 0) return `list namespaces/${ns}/${r.resource}`;
    return `${r.verb} namespaces/${ns}/${this.system.objectName(r.object)}`;
  }

  private resolvePendingName(s: SystemState, r: ApiRequest): string {
    if (r.body?.removeFirstPending) return this.system.view(s, r.namespace).pending[0] ?? '(none)';
    return r.body?.removePending ?? '';
  }

  private resolveFinalizers(s: SystemState, r: ApiRequest): string[] {
    if (r.body?.finalizeWithoutKubernetes)
      return this.system.view(s, r.namespace).finalizers.filter((f) => f !== kubernetesFinalizer);
    return r.body?.finalizers ?? [];
  }

  /** A configuration registered while the cluster runs: admission needs a fresh copy (AC-2), storage a fail-open one (FP-3). */
  createConfiguration(s: SystemState, c: ConfigurationSpec): HttpOutcome {
    if (!this.system.configurationFresh(s))
      return refusalResponse.refuseConfigurationUnavailable({
        resource: 'namespaceinitializerconfigurations',
        name: c.name,
        namespace: '',
      });
    if (c.initializers.some((i) => i.failurePolicy === 'Fail'))
      return storageResponse.configurationFailClosed({ what: '', name: c.name });
    return ok(201);
  }

  /** Serves one request (the pipeline: authorize, admit, store, respond). */
  handle(s: SystemState, r: ApiRequest): Served {
    const transitions: string[] = [];
    const nsView = r.namespace >= 0 ? this.system.view(s, r.namespace) : null;
    const exists = nsView !== null && nsView.value !== 'absent' && nsView.value !== 'removed';
    const changesInitializers =
      r.target === 'namespace' &&
      r.verb === 'update' &&
      (!!r.body?.removePending || !!r.body?.removeFirstPending || !!r.body?.failure);
    const what = this.describeRequest(s, r);

    const authz = this.system.authorizer.authorize(s, this.authorizationRequest(r));
    transitions.push(...authz.transitions);
    const callerMayInitialize = this.system.authorizer.mayInitialize(s, r.principal, r.namespace);

    const facts: AdmissionFacts = {
      operation: r.verb,
      target: r.target,
      configurationFresh: this.system.configurationFresh(s),
      authorized: authz.allowed,
      namespaceExists: exists,
      namespaceInitializing: nsView?.value === 'initializing',
      namespaceTerminating: nsView?.value === 'terminating',
      namespaceImmortal: nsView !== null && (nsView.system || immortalNamespaces.includes(nsView.name)),
      callerMayInitialize,
      changesInitializers,
      createCarriesInitializers:
        r.target === 'namespace' && r.verb === 'create' && r.body?.initializers !== undefined,
    };
    const admission = this.system.admissionStepper.step(
      this.system.admissionStepper.initial,
      { type: 'ADMIT', facts },
      admissionKey(facts),
    );
    transitions.push(...admission.transitions);
    const verdict = this.system.admissionStepper.snapshot(admission.next).context.verdict as AdmissionVerdict;
    const done = (state: SystemState, response: HttpOutcome, items?: string[]) => ({
      state,
      response,
      transitions,
      callerMayInitialize,
      changesInitializers,
      ...(items ? { items } : {}),
    });
    if (verdict.kind === 'refused') return done(s, refusalResponse[verdict.refusal](this.addressed(r)));

    if (r.target === 'content') return this.storeContent(s, r, done, what);

    // Namespace objects.
    const i = r.namespace;
    const ns = s.namespaces[i];
    const refused = (refusal: StorageRefusal) =>
      done(s, storageResponse[refusal]({ what, name: nsView?.name ?? '' }));
    const stepNamespace = (event: NamespaceEvent, key: string) => {
      const step = this.system.namespaceStepper.step(ns.lifecycle, event, key);
      transitions.push(...step.transitions);
      return step;
    };
    switch (r.verb) {
      case 'create': {
        const name = nsView?.name ?? '';
        if (exists) return refused('namespaceAlreadyExists');
        const finalizers = [...new Set([kubernetesFinalizer, ...(r.body?.extraFinalizers ?? [])])].sort();
        // NS-1, LC-2 (D-1, D-13): storage validates the name and every finalizer.
        const errors =
          this.system.machines.storageChecks?.validNames === false
            ? []
            : [...validateNamespaceName(name), ...validateFinalizerNames(finalizers)];
        if (errors.length > 0) return done(s, storageResponse.namespaceNameInvalid({ what, name, errors }));
        const pending =
          verdict.pending === 'asSent'
            ? [...(r.body?.initializers ?? [])]
            : verdict.pending === 'inject'
              ? this.system.pendingToInject(s)
              : [];
        const step = stepNamespace(
          { type: 'CREATE', pending, finalizers },
          `CREATE|${pending.join(',')}|${finalizers.join(',')}`,
        );
        if (step.transitions.length === 0) return refused('namespaceCreateRefused');
        // FP-4: the apiserver that handled the create arms the timer for the first pending initializer.
        const first = pending.length > 0 ? this.system.initializerSpec(pending[0]) : undefined;
        const timer = first
          ? this.system.stepTimer(ns.timer, {
              type: 'ARM',
              initializer: first.name,
              timeoutSeconds: first.timeoutSeconds,
            })
          : this.system.stepTimer(ns.timer, { type: 'DISARM' });
        transitions.push(...timer.transitions);
        return done(this.system.withNamespace(s, i, { lifecycle: step.next, timer: timer.next }), ok(201));
      }
      case 'get': {
        if (!exists) return refused('namespaceNotFound');
        return done(this.readRepair(s, i, transitions), ok());
      }
      case 'list':
        return done(s, ok());
      case 'delete': {
        if (!exists) return refused('namespaceNotFound');
        if (nsView?.value === 'terminating') {
          // D-10: with no finalizers left a DELETE removes it; otherwise it changes nothing.
          const purge = stepNamespace({ type: 'PURGE' }, 'PURGE');
          if (purge.transitions.length > 0)
            return done(this.withoutTimer(s, i, purge.next, transitions), ok());
          const again = stepNamespace({ type: 'DELETE' }, 'DELETE');
          return done(this.system.withNamespace(s, i, { lifecycle: again.next }), ok());
        }
        const step = stepNamespace({ type: 'DELETE' }, 'DELETE');
        if (step.transitions.length === 0) return refused('namespaceDeleteRefused');
        return done(this.withoutTimer(s, i, step.next, transitions), ok());
      }
      case 'update': {
        if (!exists) return refused('namespaceNotFound');
        if (r.body?.removePending || r.body?.removeFirstPending) {
          const name = this.resolvePendingName(s, r);
          const step = stepNamespace({ type: 'REMOVE_PENDING', name }, `REMOVE_PENDING|${name}`);
          if (step.transitions.length === 0) {
            return refused('pendingNotFirst');
          }
          return done(this.afterPendingChange(s, i, step.next, transitions), ok());
        }
        if (r.body?.failure) {
          const step = stepNamespace(
            { type: 'RECORD_FAILURE', reason: r.body.failure },
            `RECORD_FAILURE|${r.body.failure}`,
          );
          if (step.transitions.length === 0) return refused('failureWhileNotInitializing');
          return done(this.withoutTimer(s, i, step.next, transitions), ok());
        }
        // An ordinary update keeps spec.finalizers as stored: only finalize changes them (LC-6).
        return done(s, ok());
      }
      case 'finalize': {
        if (!exists) return refused('namespaceNotFound');
        const finalizers = [...this.resolveFinalizers(s, r)].sort();
        const errors = validateFinalizerNames(finalizers);
        if (errors.length > 0)
          return done(s, storageResponse.finalizerNamesInvalid({ what, name: nsView?.name ?? '', errors }));
        const step = stepNamespace({ type: 'FINALIZE', finalizers }, `FINALIZE|${finalizers.join(',')}`);
        if (step.transitions.length === 0) {
          return refused('finalizerAddedWhileDeleting');
        }
        return done(this.system.withNamespace(s, i, { lifecycle: step.next }), ok());
      }
    }
  }

  private storeContent<T>(
    s: SystemState,
    r: ApiRequest,
    done: (state: SystemState, response: HttpOutcome, items?: string[]) => T,
    what: string,
  ): T {
    if (r.verb === 'list') {
      const resource = r.resource ?? '';
      const items: string[] = [];
      s.namespaces.forEach((ns, i) => {
        if (r.namespace >= 0 && i !== r.namespace) return;
        // D-19: content of a namespace not yet initialized is left out for callers without initialize.
        if (
          this.system.view(s, i).value === 'initializing' &&
          !this.system.authorizer.mayInitialize(s, r.principal, i)
        )
          return;
        this.system.objects.forEach((o, slot) => {
          if (o.resource === resource && ns.content & (1 << slot))
            items.push(`${this.system.scope.namespaces[i].name}/${o.name}`);
        });
      });
      return done(s, ok(), items);
    }
    const ns = s.namespaces[r.namespace];
    const bit = 1 << r.object;
    const present = (ns.content & bit) !== 0;
    switch (r.verb) {
      case 'create':
        if (present && this.system.machines.storageChecks?.uniqueNames !== false)
          return done(s, storageResponse.contentAlreadyExists({ what, name: '' }));
        return done(this.system.withNamespace(s, r.namespace, { content: ns.content | bit }), ok(201));
      case 'delete':
        if (!present) return done(s, storageResponse.contentNotFound({ what, name: '' }));
        return done(this.system.withNamespace(s, r.namespace, { content: ns.content & ~bit }), ok());
      default:
        return done(s, present ? ok() : storageResponse.contentNotFound({ what, name: '' }));
    }
  }

  private addressed(r: ApiRequest): Addressed {
    const namespace = r.namespace >= 0 ? this.system.scope.namespaces[r.namespace].name : '';
    if (r.target === 'namespace') return { resource: 'namespaces', name: namespace, namespace };
    const o = r.object >= 0 ? this.system.objects[r.object] : null;
    return { resource: o?.resource ?? r.resource ?? '', name: o?.name ?? '', namespace };
  }

  authorizationRequest(r: ApiRequest): AuthorizationRequest {
    const nsName = r.namespace >= 0 ? this.system.scope.namespaces[r.namespace].name : undefined;
    if (r.target === 'namespace') {
      return {
        user: r.principal,
        verb: r.verb === 'finalize' ? 'update' : r.verb,
        resource: 'namespaces',
        ...(r.verb === 'finalize' ? { subresource: 'finalize' } : {}),
        ...(r.verb === 'create' ? {} : { namespace: nsName }),
        name: nsName,
        namespaceSlot: r.namespace,
        // D-17: request-authorization.ts lets `initialize` stand in for `update` when only spec.initializers changes.
        onlyInitializers:
          r.verb === 'update' &&
          (!!r.body?.removePending || !!r.body?.removeFirstPending || !!r.body?.failure) &&
          !r.body?.finalizers,
      };
    }
    const resource = r.object >= 0 ? this.system.objects[r.object].resource : (r.resource ?? '');
    return {
      user: r.principal,
      verb: r.verb,
      resource,
      ...(nsName !== undefined ? { namespace: nsName } : {}),
      ...(r.object >= 0 ? { name: this.system.objects[r.object].name } : {}),
      namespaceSlot: r.namespace,
    };
  }

  /** The namespace leaves Initializing or is removed: its timer, armed or lost, goes (FP-2). */
  private withoutTimer(s: SystemState, i: number, lifecycle: number, transitions: string[]): SystemState {
    const timer = this.system.stepTimer(s.namespaces[i].timer, { type: 'DISARM' });
    transitions.push(...timer.transitions);
    return this.system.withNamespace(s, i, { lifecycle, timer: timer.next });
  }

  /**
   * Re-arms the apiserver's timer when the first pending initializer changes, disarms it when none is
   * left (FP-2); a lost timer stays lost, since only the server that handled the create had it (FP-4).
   */
  afterPendingChange(s: SystemState, i: number, lifecycle: number, transitions?: string[]): SystemState {
    const ns = s.namespaces[i];
    const first = this.system.namespaceStepper.snapshot(lifecycle).context.pending[0];
    const spec = first === undefined ? undefined : this.system.initializerSpec(first);
    const timer = spec
      ? this.system.stepTimer(ns.timer, {
          type: 'REARM',
          initializer: spec.name,
          timeoutSeconds: spec.timeoutSeconds,
        })
      : this.system.stepTimer(ns.timer, { type: 'DISARM' });
    transitions?.push(...timer.transitions);
    return this.system.withNamespace(s, i, { lifecycle, timer: timer.next });
  }

  /** FP-4: a GET after the global timeout since creation removes the first pending initializer. */
  private readRepair(s: SystemState, i: number, transitions: string[]): SystemState {
    const v = this.system.view(s, i);
    if (v.value !== 'initializing' || v.pending.length === 0) return s;
    const first = this.system.initializerSpec(v.pending[0]);
    // The creation age is capped at this very timeout, so `>=` is exact (docs/time.md).
    const readRepairDue =
      v.createdSecondsAgo !== null && v.createdSecondsAgo >= this.system.scope.clock.readRepairTimeoutSeconds;
    const check = this.system.timeoutStepper.step(
      this.system.timeoutStepper.initial,
      {
        type: 'READ_REPAIR_CHECK',
        observed: { failurePolicy: first?.failurePolicy ?? 'Ignore', timerExpired: false, readRepairDue },
      },
      `RR|${readRepairDue}|${first?.failurePolicy}`,
    );
    transitions.push(...check.transitions);
    const effect = check.emitted[0];
    if (effect?.type === 'failNamespaceWithTimeout') {
      const failed = this.system.namespaceStepper.step(
        s.namespaces[i].lifecycle,
        { type: 'RECORD_FAILURE', reason: 'Timeout' },
        'RECORD_FAILURE|Timeout',
      );
      transitions.push(...failed.transitions);
      return this.withoutTimer(s, i, failed.next, transitions);
    }
    if (effect?.type !== 'readRepairRemoveFirstPending') return s;
    const step = this.system.namespaceStepper.step(
      s.namespaces[i].lifecycle,
      { type: 'REMOVE_PENDING', name: v.pending[0] },
      `REMOVE_PENDING|${v.pending[0]}`,
    );
    transitions.push(...step.transitions);
    return this.afterPendingChange(s, i, step.next, transitions);
  }
}

function admissionKey(f: AdmissionFacts): string {
  return `${f.operation}|${f.target}|${+f.configurationFresh}${+f.authorized}${+f.namespaceExists}${+f.namespaceInitializing}${+f.namespaceTerminating}${+f.namespaceImmortal}${+f.callerMayInitialize}${+f.changesInitializers}${+f.createCarriesInitializers}`;
}
