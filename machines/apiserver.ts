import { KeyedCache, memoByValue, ObjectCache } from '../checker/engine/caches.ts';
import { ReadKeyedMemo } from '../checker/engine/read-memo.ts';
import { afterPendingChange, readRepair, withArmedTimer, withoutTimer } from './actions/apiserver-timer.ts';
import type { AdmissionFacts, AdmissionVerdict } from './admission.ts';
import type { Composition } from './composition.ts';
import { type Addressed, type HttpOutcome, ok, type RequestSubject } from './http.ts';
import { configurationRequestErrors } from './initializer-config.ts';
import {
  validateFinalizerName,
  validateFinalizerNames,
  validateGenerateName,
  validateInitializerName,
  validateMetadataFinalizers,
  validateMetadataMaps,
  validateNamespaceName,
  validateNamespaceStatusPhase,
} from './names.ts';
import { type NamespaceEvent, type PendingListChange, pendingListChange } from './namespace.ts';
import { kubernetesFinalizer } from './namespace-controller.ts';
import { type PipelineFacts, type PipelineOutcome, type RequestRefusal, responseFor } from './pipeline.ts';
import { apiGroupOfResource, qualifiedKindOfResource, splitResourceId } from './rbac.ts';
import { type EscalationVerdict, escalationMessage } from './rbac-escalation.ts';
import {
  rbacGroupName,
  validateRoleBindingSlot,
  validateRoleRefUnchanged,
  validateRoleRules,
  validateSentRbac,
  validateSubject,
} from './rbac-validation.ts';
import type { AuthorizationRequest } from './request-authorization.ts';
import {
  type ClusterObjectSpec,
  type ConfigurationSpec,
  configurationEntries,
  configurationResource,
  immortalNamespaces,
} from './scope.ts';
import type { StepResult } from './stepper.ts';
import type { ApiRequest, DeletePreconditions, NamespaceView, SystemState } from './system-types.ts';

/** The resource of each requestable cluster RBAC object's kind (D-23). */
const clusterObjectResource = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
} as const satisfies Record<ClusterObjectSpec['kind'], string>;

/**
 * Namespaced kinds whose shipped storage strategy creates the object a PUT names when none is stored
 * (`AllowCreateOnUpdate` true), by `GROUP/RESOURCE`: LimitRange, Service, Endpoints and Event in core,
 * and RBAC's Role and RoleBinding. Every other kind, built in or declared, answers such a PUT 404 (NS-2).
 */
const createsOnUpdate: ReadonlySet<string> = new Set([
  '/limitranges',
  '/services',
  '/endpoints',
  '/events',
  'rbac.authorization.k8s.io/roles',
  'rbac.authorization.k8s.io/rolebindings',
]);

/** The name a removal of the first pending initializer resolves to when none is pending. */
export const nonePending = '(none)';

/**
 * The initializer name an update's body removes from the pending list, as the namespace stands when it
 * is served (IN-3); the API server and `replay --to-scenario` both read a request's body through it.
 */
export function pendingNameSent(stored: Pick<NamespaceView, 'pending'>, body: ApiRequest['body']): string {
  if (body?.removeFirstPending) return stored.pending[0] ?? nonePending;
  return body?.removePending ?? '';
}

/** The spec.finalizers a finalize's body carries, as the namespace stands when it is served (LC-6). */
export function finalizersSent(
  stored: Pick<NamespaceView, 'finalizers'>,
  body: ApiRequest['body'],
): string[] {
  if (body?.finalizeWithoutKubernetes) return stored.finalizers.filter((f) => f !== kubernetesFinalizer);
  return body?.finalizers ?? [];
}

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
 * The API server: a thin runner of the request pipeline machine (pipeline.ts). It gathers the facts a
 * request's answer depends on, the pipeline decides, and the decided effect is applied to the
 * namespace machine and the content store. Nothing changes when the request is refused.
 */
export class ApiServer {
  /** A refusal's answer per request object and the few state facts it names (the engine's caches). */
  private readonly responses = new ObjectCache<ApiRequest, KeyedCache<string, HttpOutcome>>();
  /**
   * Storage validation: pure functions of what a request sends, each remembered by the value of its
   * arguments (checker/engine/caches.ts), so no field of a body can be left out of the key.
   */
  private readonly validate = {
    configuration: memoByValue(configurationRequestErrors),
    create: memoByValue(createErrors),
    statusPhase: memoByValue(validateNamespaceStatusPhase),
    metadata: memoByValue(
      (
        labels: Readonly<Record<string, string>> | undefined,
        annotations: Readonly<Record<string, string>> | undefined,
      ) => validateMetadataMaps({ labels, annotations }),
    ),
    metadataFinalizers: memoByValue(validateMetadataFinalizers),
    finalizers: memoByValue(validateFinalizerNames),
    rbac: memoByValue(rbacSlotErrors),
  };

  /**
   * The admission chain's and the pipeline's decisions, each remembered under the facts it read
   * (checker/engine/read-memo.ts): a guard that reads another fact keys its answers on that fact too.
   */
  private readonly admissionDecisions: ReadKeyedMemo<AdmissionFacts, StepResult>;
  private readonly pipelineDecisions: ReadKeyedMemo<PipelineFacts, StepResult>;

  constructor(private readonly system: Composition) {
    const admission = system.admissionStepper;
    const pipeline = system.pipelineStepper;
    this.admissionDecisions = new ReadKeyedMemo(
      (facts) => admission.compute(admission.initial, { type: 'ADMIT', facts }),
      'the admission chain',
    );
    this.pipelineDecisions = new ReadKeyedMemo(
      (facts) => pipeline.compute(pipeline.initial, { type: 'SERVE', facts }),
      'the request pipeline',
    );
  }

  describeRequest(s: SystemState, r: ApiRequest): string {
    const cluster = this.clusterObjectOf(r);
    if (cluster) {
      const path = `${r.verb} ${clusterObjectResource[cluster.kind]}/${cluster.name}`;
      // D-23: where a name has several versions, a write says which one it sends.
      const versions = this.clusterVersions(r.object);
      const written = r.verb === 'create' || r.verb === 'update';
      return written && (versions & (versions - 1)) !== 0 ? `${path} [${clusterVersionText(cluster)}]` : path;
    }
    const configuration = this.configurationOf(r);
    if (configuration) {
      const { spec, version } = configuration;
      const path = `${configurationResource[spec.kind ?? 'NamespaceInitializerConfiguration']}/${spec.name}`;
      if (r.verb !== 'create' && r.verb !== 'update') return `${r.verb} ${path}`;
      const entries = configurationEntries(spec, version)
        .map((e) => `${e.name} ${e.failurePolicy} ${e.timeoutSeconds}s`)
        .join(', ');
      return `${r.verb} ${path} [${entries}]`;
    }
    const ns = r.namespace >= 0 ? this.system.scope.namespaces[r.namespace].name : '';
    const named = r.body?.name !== undefined ? ` (body name ${r.body.name})` : '';
    return `${this.describeOnPath(s, r, ns)}${named}`;
  }

  private describeOnPath(s: SystemState, r: ApiRequest, ns: string): string {
    if (r.target === 'namespace') {
      if (r.subresource) return `${r.verb} namespaces/${ns}/${r.subresource}`;
      if (r.namespace < 0) return `${r.watch ? 'watch' : r.verb} namespaces`;
      if (r.verb === 'finalize')
        return `finalize namespaces/${ns} ${JSON.stringify(this.resolveFinalizers(s, r))}`;
      if (r.verb === 'update') {
        if (r.body?.removePending || r.body?.removeFirstPending)
          return `update namespaces/${ns} (remove pending ${this.resolvePendingName(s, r)})`;
        if (r.body?.pending) return `update namespaces/${ns} (pending ${JSON.stringify(r.body.pending)})`;
        if (r.body?.failure) return `update namespaces/${ns} (result Failure: ${r.body.failure})`;
        return `update namespaces/${ns} (finalizers ${JSON.stringify(r.body?.finalizers ?? [])})`;
      }
      if (r.verb === 'create' && r.body?.initializers) return `create namespaces/${ns} with initializers set`;
      if (r.verb === 'create' && r.body?.generateName !== undefined)
        return `create namespaces/${ns} (generateName ${r.body.generateName})`;
      return `${r.verb} namespaces/${ns}`;
    }
    // D-16: a watch reads as one, though it is served as the list it starts with.
    const list = r.watch ? 'watch' : 'list';
    if (r.namespace < 0) return `${list} ${r.resource} (all namespaces)`;
    if (r.collection) return `deletecollection namespaces/${ns}/${r.resource}`;
    if (r.object < 0) return `${list} namespaces/${ns}/${r.resource}`;
    const moved = r.body?.namespace && r.body.namespace !== ns ? ` (body namespace ${r.body.namespace})` : '';
    return `${r.verb} namespaces/${ns}/${this.system.objectName(r.object)}${moved}`;
  }

  /** The configuration a request addresses, and the version its body carries (FP-3). */
  private configurationOf(r: ApiRequest): { spec: ConfigurationSpec; k: number; version: number } | null {
    if (r.target !== 'configuration' || !r.configuration) return null;
    const k = r.configuration.slot;
    return { spec: this.system.scope.configurations[k], k, version: r.configuration.version };
  }

  /** An update of content not stored, of a kind whose storage creates on update (NS-3, D-23). */
  private createsOnUpdate(s: SystemState, r: ApiRequest): boolean {
    if (r.target !== 'content' || r.verb !== 'update' || r.object < 0 || r.namespace < 0) return false;
    if ((s.namespaces[r.namespace].content & (1 << r.object)) !== 0) return false;
    const resource = this.system.objects[r.object].resource;
    return createsOnUpdate.has(`${apiGroupOfResource(resource)}/${splitResourceId(resource).resource}`);
  }

  /**
   * D-23: the slots of every version of the cluster object in `slot`, as a mask: the scope's cluster
   * objects of one kind and name are versions of one object, of which storage holds at most one.
   */
  private clusterVersions(slot: number): number {
    const objects = this.system.scope.clusterObjects ?? [];
    const o = objects[slot];
    if (!o) return 0;
    return objects.reduce(
      (mask, v, k) => (v.kind === o.kind && v.name === o.name ? mask | (1 << k) : mask),
      0,
    );
  }

  /** The requestable ClusterRole or ClusterRoleBinding a request addresses (D-23). */
  private clusterObjectOf(r: ApiRequest): ClusterObjectSpec | null {
    if (r.target !== 'cluster-object') return null;
    return this.system.scope.clusterObjects?.[r.object] ?? null;
  }

  private resolvePendingName(s: SystemState, r: ApiRequest): string {
    return pendingNameSent(this.system.view(s, r.namespace), r.body);
  }

  private resolveFinalizers(s: SystemState, r: ApiRequest): string[] {
    return finalizersSent(this.system.view(s, r.namespace), r.body);
  }

  /**
   * Serves one request: computes its facts (RBAC, the admission chain's verdict, storage validation,
   * what the namespace machine says), lets the pipeline machine decide, and applies the decided effect.
   */
  handle(s: SystemState, r: ApiRequest): Served {
    const nsView = r.namespace >= 0 ? this.system.view(s, r.namespace) : null;
    const exists = nsView !== null && nsView.value !== 'absent' && nsView.value !== 'removed';
    const status = r.subresource === 'status';
    const recordsFailure = r.target === 'namespace' && r.verb === 'update' && !status && !!r.body?.failure;
    const pendingChange = this.pendingChangeOf(r, nsView);
    const changesInitializers =
      recordsFailure ||
      (r.target === 'namespace' &&
        r.verb === 'update' &&
        !status &&
        (!!r.body?.removePending ||
          !!r.body?.removeFirstPending ||
          (pendingChange !== null && pendingChange.kind !== 'unchanged')));

    const authz = this.system.authorizer.authorize(s, this.authorizationRequest(r));
    const callerMayInitialize = this.system.authorizer.mayInitialize(s, r.principal, r.namespace);
    // A PUT of content that is not stored, of a kind that creates on update: admission sees a create
    // (shipped update handler, 1.11 on), and RBAC must also allow `create` on it (withAuthorization).
    const createOnUpdate = this.createsOnUpdate(s, r);
    const createOnUpdateAuthorized =
      createOnUpdate &&
      this.system.authorizer.authorize(s, { ...this.authorizationRequest(r), verb: 'create' }).allowed;
    const admissionFacts: AdmissionFacts = {
      operation: createOnUpdate ? 'create' : r.verb,
      target: r.target,
      configurationFresh: this.system.configurationFresh(s),
      namespaceExists: exists,
      namespaceTerminating: nsView?.value === 'terminating',
      namespaceImmortal: nsView !== null && (nsView.system || immortalNamespaces.includes(nsView.name)),
      callerMayInitialize,
      changesInitializers,
      createCarriesInitializers:
        r.target === 'namespace' && r.verb === 'create' && r.body?.initializers !== undefined,
    };
    const admission = this.admissionDecisions.get(admissionFacts);
    const verdict = this.system.admissionStepper.snapshot(admission.next).context.verdict as AdmissionVerdict;

    // Computed for every request, so a variant that changes an earlier stage still finds them.
    const storage = this.storageFacts(s, r, verdict, nsView, exists, pendingChange);
    const writes = (r.verb === 'create' || r.verb === 'update') && r.object >= 0;
    const escalation =
      writes && r.target === 'content'
        ? this.system.authorizer.escalation(s, r.principal, r.namespace, r.object)
        : writes &&
            r.target === 'cluster-object' &&
            // D-23: an update reads the stored object first (GuaranteedUpdate), so one not stored is 404
            // before the policybased updated-object function checks escalation.
            (r.verb === 'create' || ((s.clusterObjects ?? 0) & this.clusterVersions(r.object)) !== 0)
          ? this.system.authorizer.clusterEscalation(s, r.principal, r.object)
          : allowedEscalation;
    const facts: PipelineFacts = {
      operation: r.verb,
      target: r.target,
      status,
      authorized: authz.allowed,
      changesInitializers,
      recordsFailure,
      namespaceExists: exists,
      namespaceInitialized: nsView?.initialized ?? false,
      namespaceTerminating: nsView?.value === 'terminating',
      callerMayInitialize,
      bodyNameMatchesPath: r.body?.name === undefined || r.body.name === this.addressed(r).name,
      bodyDecodable: r.body?.data?.undecodable === undefined,
      dataValid: (r.body?.data?.errors.length ?? 0) === 0,
      bodyNamespaceMatchesPath:
        !r.body?.namespace || r.target === 'namespace' || r.body.namespace === nsView?.name,
      admission: verdict,
      objectValid: storage.errors.length === 0,
      escalation: escalation.kind,
      namespaceMachine: storage.step ? (storage.step.transitions.length > 0 ? 'accepts' : 'ignores') : 'none',
      initializerChange: storage.initializerChange,
      contentPresent: storage.contentPresent,
      createOnUpdate,
      createOnUpdateAuthorized,
      configurationExists: storage.configurationExists,
      collection: r.collection === true,
      generatedName: r.target === 'namespace' && r.verb === 'create' && r.body?.generateName !== undefined,
      preconditionUnmet:
        r.verb === 'delete' && (r.target === 'namespace' || r.target === 'content')
          ? unmetPrecondition(r.body?.preconditions)
          : 'none',
      metadataFinalizersSent:
        r.target === 'namespace' &&
        r.verb === 'update' &&
        !status &&
        r.body?.metadataFinalizers !== undefined,
      watch: r.watch === true,
    };
    const pipeline = this.pipelineDecisions.get(facts);
    const outcome = this.system.pipelineStepper.snapshot(pipeline.next).context.outcome as PipelineOutcome;
    // Coverage: a stage's machine counts only when the pipeline reached it.
    const reachedAdmission = pipeline.transitions.some((t) => t.startsWith('pipeline:admitting:'));
    const transitions = [
      ...authz.transitions,
      ...pipeline.transitions,
      ...(reachedAdmission ? admission.transitions : []),
    ];
    const done = (state: SystemState, response: HttpOutcome, items?: string[]): Served => ({
      state,
      response,
      transitions,
      callerMayInitialize,
      changesInitializers,
      ...(items ? { items } : {}),
    });
    if (outcome.kind === 'refused')
      return done(
        s,
        this.refusalResponse(s, r, outcome.refusal, storage, escalationDetail(r.principal, escalation)),
      );
    const stored = () => {
      if (storage.step) transitions.push(...storage.step.transitions);
      return storage.step?.next ?? 0;
    };
    const i = r.namespace;
    switch (outcome.effect) {
      case 'createNamespace':
        return done(withArmedTimer(this.system, s, i, stored(), storage.pending, transitions), ok(201));
      case 'readNamespace':
        return done(readRepair(this.system, s, i, transitions), ok());
      case 'listNamespaces':
        // NS-7: a list of namespaces answers every namespace that exists, Initializing ones too (D-5).
        return done(s, ok(), this.namespaceNames(s));
      case 'readStatus':
      case 'writeStatus':
      case 'keepSpec':
      case 'readContent':
        return done(s, ok());
      case 'purgeNamespace':
        return done(withoutTimer(this.system, s, i, stored(), transitions), ok());
      case 'keepTerminating': {
        // D-10: a repeated DELETE changes nothing; the namespace machine says so (LC-3).
        const again = this.system.namespaceStepper.step(
          s.namespaces[i].lifecycle,
          { type: 'DELETE' },
          'DELETE',
        );
        transitions.push(...again.transitions);
        return done(this.system.withNamespace(s, i, { lifecycle: again.next }), ok());
      }
      case 'deleteNamespace':
      case 'recordFailure':
        return done(withoutTimer(this.system, s, i, stored(), transitions), ok());
      case 'removePending':
        return done(afterPendingChange(this.system, s, i, stored(), transitions), ok());
      case 'finalize':
        return done(this.system.withNamespace(s, i, { lifecycle: stored() }), ok());
      case 'updateMetadataFinalizers':
        // D-46: an update that leaves no finalizer on a terminating namespace removes it.
        return done(withoutTimer(this.system, s, i, stored(), transitions), ok());
      case 'createContent': {
        if (r.target === 'cluster-object')
          return done({ ...s, clusterObjects: (s.clusterObjects ?? 0) | (1 << r.object) }, ok(201));
        const ns = s.namespaces[i];
        return done(this.system.withNamespace(s, i, { content: ns.content | (1 << r.object) }), ok(201));
      }
      case 'replaceClusterObject':
        // D-23: the version the update sends replaces whichever version of the object is stored.
        return done(
          {
            ...s,
            clusterObjects: ((s.clusterObjects ?? 0) & ~this.clusterVersions(r.object)) | (1 << r.object),
          },
          ok(),
        );
      case 'deleteContent': {
        if (r.target === 'cluster-object')
          return done(
            { ...s, clusterObjects: (s.clusterObjects ?? 0) & ~this.clusterVersions(r.object) },
            ok(),
          );
        const ns = s.namespaces[i];
        return done(this.system.withNamespace(s, i, { content: ns.content & ~(1 << r.object) }), ok());
      }
      case 'listContent':
        return done(s, ok(), this.listItems(s, r, facts));
      case 'deleteCollection': {
        // Shipped Store.DeleteCollection lists the collection and deletes each item; it answers the deleted list.
        const ns = s.namespaces[i];
        let content = ns.content;
        const items: string[] = [];
        this.system.objects.forEach((o, slot) => {
          if (o.resource !== r.resource || (ns.content & (1 << slot)) === 0) return;
          content &= ~(1 << slot);
          items.push(`${this.system.scope.namespaces[i].name}/${o.name}`);
        });
        const next = content === ns.content ? s : this.system.withNamespace(s, i, { content });
        return done(next, ok(), items);
      }
      case 'readConfiguration':
        return done(s, ok());
      case 'createConfiguration':
      case 'updateConfiguration':
      case 'deleteConfiguration': {
        const c = this.configurationOf(r);
        if (!c) return done(s, ok());
        const version = outcome.effect === 'deleteConfiguration' ? null : c.version;
        const registeredConfigs = this.system.withStoredVersion(s.registeredConfigs, c.k, version);
        return done(this.system.registered(s, { ...s, registeredConfigs }), ok(outcome.code));
      }
    }
  }

  /** What storage would do with the request: validation errors and the namespace machine's step, not yet applied. */
  private storageFacts(
    s: SystemState,
    r: ApiRequest,
    verdict: AdmissionVerdict,
    nsView: NamespaceView | null,
    exists: boolean,
    pendingChange: PendingListChange | null,
  ): StorageFacts {
    const none = noStorageFacts;
    const cluster = this.clusterObjectOf(r);
    if (cluster) {
      // Cluster-scoped RBAC objects: stored by name, one bit per version (at most one of a name set),
      // validated as ValidateClusterRole(Binding) and, on update, ValidateClusterRoleBindingUpdate do.
      const stored = (s.clusterObjects ?? 0) & this.clusterVersions(r.object);
      const present = stored !== 0;
      const writes = r.verb === 'create' || r.verb === 'update';
      const storedVersion = present ? this.system.scope.clusterObjects?.[31 - Math.clz32(stored)] : undefined;
      const errors = writes
        ? [
            ...this.metadataErrors(r),
            ...(cluster.kind === 'ClusterRole'
              ? validateRoleRules(cluster.rules ?? [], false)
              : [
                  // ValidateClusterRoleBinding: the roleRef as sent (a Role's is NotSupported), then each subject.
                  ...validateSentRbac(
                    {
                      ...r.body?.sentRbac,
                      roleRef: r.body?.sentRbac?.roleRef ?? {
                        kind: cluster.roleKind ?? 'ClusterRole',
                        name: cluster.clusterRole ?? '',
                      },
                    },
                    true,
                  ),
                  ...(cluster.subjects ?? []).flatMap((subject, k) => validateSubject(subject, k, false)),
                ]),
            // RB-4 (D-23): a ClusterRoleBinding's roleRef is immutable, as a RoleBinding's is.
            ...(r.verb === 'update' && cluster.kind === 'ClusterRoleBinding' && storedVersion
              ? validateRoleRefUnchanged(
                  { clusterRole: storedVersion.clusterRole ?? '' },
                  { kind: 'ClusterRole', name: cluster.clusterRole ?? '' },
                )
              : []),
          ]
        : [];
      return { ...none, errors, contentPresent: present };
    }
    const configuration = this.configurationOf(r);
    if (configuration) {
      const { spec, k, version } = configuration;
      const kind = spec.kind ?? 'NamespaceInitializerConfiguration';
      const writes = r.verb === 'create' || r.verb === 'update';
      const errors = writes
        ? this.validate.configuration(
            kind,
            spec.name,
            configurationEntries(spec, version),
            r.verb === 'create' ? 'create' : 'update',
          )
        : [];
      return { ...none, errors, configurationExists: this.system.storedVersion(s, k) !== null };
    }
    if (r.target === 'content') {
      const present = r.object >= 0 && (s.namespaces[r.namespace].content & (1 << r.object)) !== 0;
      // A seeded fault may switch off storage's uniqueness check (NS-3): a second create then succeeds.
      const unchecked = r.verb === 'create' && this.system.machines.storageChecks?.uniqueNames === false;
      return { ...none, errors: this.contentErrors(r), contentPresent: present && !unchecked };
    }
    if (r.namespace < 0 || !nsView) return none;
    if (r.subresource === 'status') {
      if (r.verb !== 'update' || !exists) return none;
      // The strategy keeps the body's status and validates its phase against deletionTimestamp (D-30).
      const phase = r.body?.phase ?? 'Active';
      const deleting = nsView.deletedSecondsAgo !== null;
      const initializing = nsView.value === 'initializing';
      return {
        ...none,
        errors: [...this.metadataErrors(r), ...this.validate.statusPhase(phase, deleting, initializing)],
      };
    }
    const lifecycle = s.namespaces[r.namespace].lifecycle;
    const step = (event: NamespaceEvent, key: string) =>
      this.system.namespaceStepper.step(lifecycle, event, key);
    switch (r.verb) {
      case 'create': {
        if (exists) return none;
        const finalizers = [...new Set([kubernetesFinalizer, ...(r.body?.extraFinalizers ?? [])])].sort();
        const metadataFinalizers = [...new Set(r.body?.metadataFinalizers ?? [])].sort();
        // NS-1, LC-2 (D-1, D-13): storage validates the name and every finalizer (unindexed on create).
        // A seeded fault may switch off storage's name validation (NS-1, LC-2).
        const errors =
          this.system.machines.storageChecks?.validNames === false
            ? []
            : this.validate.create(nsView.name, r.body?.generateName, r.body ?? {});
        const pending =
          verdict.kind === 'admitted' && verdict.pending === 'asSent'
            ? [...(r.body?.initializers ?? [])]
            : verdict.kind === 'admitted' && verdict.pending === 'inject'
              ? this.system.pendingToInject(s)
              : [];
        return {
          ...none,
          errors,
          pending,
          // The sender is recorded as the namespace's creator: `$creator` bindings name it (D-34).
          step: step(
            {
              type: 'CREATE',
              pending,
              finalizers,
              creator: r.principal.name,
              ...(metadataFinalizers.length > 0 ? { metadataFinalizers } : {}),
            },
            `CREATE|${pending.join(',')}|${finalizers.join(',')}|${r.principal.name}|${metadataFinalizers.join(',')}`,
          ),
        };
      }
      case 'delete': {
        if (!exists) return none;
        // D-46: the DeleteOptions' propagationPolicy sets the garbage collector's metadata finalizers.
        const propagation = r.body?.propagationPolicy;
        const options = propagation ? { propagation } : {};
        if (nsView.value === 'terminating')
          return { ...none, step: step({ type: 'PURGE', ...options }, `PURGE|${propagation ?? ''}`) };
        return { ...none, step: step({ type: 'DELETE', ...options }, `DELETE|${propagation ?? ''}`) };
      }
      case 'update': {
        if (!exists) return none;
        // ValidateObjectMetaUpdate checks the labels and annotations an update sends (NS-1).
        const metadata = this.metadataErrors(r);
        if (metadata.length > 0) return { ...none, errors: metadata };
        if (r.body?.failure)
          return {
            ...none,
            step: step(
              { type: 'RECORD_FAILURE', reason: r.body.failure },
              `RECORD_FAILURE|${r.body.failure}`,
            ),
          };
        if (pendingChange) return this.pendingListStep(lifecycle, nsView, pendingChange);
        const sentMetadataFinalizers = r.body?.metadataFinalizers;
        if (sentMetadataFinalizers) {
          const sorted = [...new Set(sentMetadataFinalizers)].sort();
          return {
            ...none,
            errors: this.validate.metadataFinalizers(sentMetadataFinalizers),
            changed: sorted.filter((f) => !nsView.metadataFinalizers.includes(f)),
            step: step(
              { type: 'SET_METADATA_FINALIZERS', finalizers: sorted },
              `SET_METADATA_FINALIZERS|${sorted.join(',')}`,
            ),
          };
        }
        if (!r.body?.removePending && !r.body?.removeFirstPending) return none;
        const name = this.resolvePendingName(s, r);
        const removal = step({ type: 'REMOVE_PENDING', name }, `REMOVE_PENDING|${name}`);
        // D-18: which 422 an ignored change gets.
        const initializerChange =
          removal.transitions.length > 0
            ? 'none'
            : nsView.value !== 'initializing'
              ? 'completed'
              : 'notFirst';
        return { ...none, step: removal, initializerChange, changed: [name] };
      }
      case 'finalize': {
        if (!exists) return none;
        const finalizers = [...this.resolveFinalizers(s, r)].sort();
        // LC-2: storage validates every finalizer name a finalize sends; a seeded fault may switch it off.
        const validated = this.system.machines.storageChecks?.finalizeNames !== false;
        return {
          ...none,
          errors: validated ? this.validate.finalizers(finalizers) : [],
          changed: finalizers.filter((f) => !nsView.finalizers.includes(f)),
          step: step({ type: 'FINALIZE', finalizers }, `FINALIZE|${finalizers.join(',')}`),
        };
      }
      default:
        return none;
    }
  }

  /**
   * Field errors of a content create or update: its labels and annotations, and for a RoleBinding its
   * subjects, for a Role its rules, as the namespace's definition of the slot gives them (RB-4).
   */
  private contentErrors(r: ApiRequest): string[] {
    const metadata = this.metadataErrors(r);
    if ((r.verb !== 'create' && r.verb !== 'update') || r.object < 0) return metadata;
    const slot = this.system.objects[r.object];
    const ns = this.system.scope.namespaces[r.namespace]?.name ?? '';
    const definition = slot.byNamespace?.[ns] ?? slot;
    const sent = r.verb === 'update' ? r.body?.roleRef : undefined;
    const own = this.validate.rbac(definition.roleBinding, definition.role?.rules, sent);
    // A roleRef or subject kind the model does not keep comes first, as ValidateRoleBinding checks the roleRef first.
    const sentRbac = r.body?.sentRbac ? validateSentRbac(r.body.sentRbac, false) : [];
    return [...metadata, ...sentRbac, ...own];
  }

  /** Field errors of the labels and annotations a create or update sends (ValidateObjectMeta). */
  private metadataErrors(r: ApiRequest): string[] {
    if ((r.verb !== 'create' && r.verb !== 'update') || (!r.body?.labels && !r.body?.annotations)) return [];
    return this.validate.metadata(r.body?.labels, r.body?.annotations);
  }

  /** The change a whole pending list sent by an update asks for; null when the update sends none. */
  private pendingChangeOf(r: ApiRequest, nsView: NamespaceView | null): PendingListChange | null {
    if (r.target !== 'namespace' || r.verb !== 'update' || r.subresource || !r.body?.pending || !nsView)
      return null;
    return pendingListChange(nsView.pending, nsView.value === 'initializing', r.body.pending);
  }

  /**
   * Storage of a whole pending list (IN-2, IN-4, D-18): the namespace machine takes one REMOVE_PENDING per
   * removed name, in stored order; the first it ignores is why the update is refused.
   */
  private pendingListStep(lifecycle: number, nsView: NamespaceView, change: PendingListChange): StorageFacts {
    const none = noStorageFacts;
    if (change.kind === 'unchanged') return none;
    const refused = nsView.value !== 'initializing' ? 'completed' : 'notFirst';
    const names = change.kind === 'remove' ? change.names : [change.name];
    let next = lifecycle;
    const transitions: string[] = [];
    for (const name of names) {
      const removal = this.system.namespaceStepper.step(
        next,
        { type: 'REMOVE_PENDING', name },
        `REMOVE_PENDING|${name}`,
      );
      if (removal.transitions.length === 0 || change.kind === 'invalid')
        return {
          ...none,
          step: { ...removal, transitions: [] },
          initializerChange: refused,
          changed: [name],
        };
      transitions.push(...removal.transitions);
      next = removal.next;
    }
    return { ...none, step: { next, actions: [], emitted: [], transitions }, changed: names };
  }

  /** The names of the namespaces that exist: created and not yet removed (LC-7). */
  private namespaceNames(s: SystemState): string[] {
    const names: string[] = [];
    s.namespaces.forEach((ns, i) => {
      if (this.system.listing(ns).exists) names.push(this.system.scope.namespaces[i].name);
    });
    return names;
  }

  /**
   * D-19: a list shows a namespace's items only where the pipeline's IN-6 gate would let the caller
   * read that namespace's content; the gate decides, here as for every other request.
   */
  private listItems(s: SystemState, r: ApiRequest, facts: PipelineFacts): string[] {
    const resource = r.resource ?? '';
    const items: string[] = [];
    s.namespaces.forEach((ns, i) => {
      // Only the namespace's listing: what a list may read of each namespace (NamespaceListing).
      const listed = this.system.listing(ns);
      if (listed.content === 0 || (r.namespace >= 0 && i !== r.namespace)) return;
      const inNamespace: PipelineFacts = {
        ...facts,
        // D-16: a watch starts with the items a list shows, so the gate is asked as for a list.
        watch: false,
        namespaceExists: listed.exists,
        namespaceInitialized: listed.initialized,
        callerMayInitialize: this.system.authorizer.mayInitialize(s, r.principal, i),
      };
      const gate = this.pipelineDecisions.get(inNamespace);
      if (
        (this.system.pipelineStepper.snapshot(gate.next).context.outcome as PipelineOutcome).kind !== 'served'
      )
        return;
      this.system.objects.forEach((o, slot) => {
        if (o.resource === resource && listed.content & (1 << slot))
          items.push(`${this.system.scope.namespaces[i].name}/${o.name}`);
      });
    });
    return items;
  }

  /**
   * The answer to a refused request, cached per request object: its text depends only on the request,
   * the refusal and the few state facts in the cache key.
   */
  private refusalResponse(
    s: SystemState,
    r: ApiRequest,
    refusal: RequestRefusal,
    storage: StorageFacts,
    detail = '',
  ): HttpOutcome {
    const nsView = r.namespace >= 0 ? this.system.view(s, r.namespace) : null;
    const key = `${refusal}|${nsView?.pending[0] ?? ''}|${nsView?.deletedSecondsAgo ?? ''}|${storage.changed.join(',')}|${storage.errors.length}|${detail}`;
    return this.responses
      .get(r, () => new KeyedCache())
      .get(key, () =>
        responseFor(refusal, { ...this.subject(s, r, storage), ...(detail ? { detail } : {}) }),
      );
  }

  /** Everything a response's text names for this request (http.ts RequestSubject). */
  private subject(s: SystemState, r: ApiRequest, storage: StorageFacts): RequestSubject {
    const a = this.addressed(r);
    const nsView = r.namespace >= 0 ? this.system.view(s, r.namespace) : null;
    const attrs = this.authorizationRequest(r);
    const group = attrs.apiGroup ?? apiGroupOfResource(a.resource);
    const declared = r.target === 'content' && r.object >= 0 ? this.system.objects[r.object].kind : undefined;
    return {
      ...a,
      resource: splitResourceId(a.resource).resource,
      ...(group ? { group } : {}),
      ...(attrs.subresource ? { subresource: attrs.subresource } : {}),
      verb: attrs.verb,
      user: r.principal.name,
      errors: [...storage.errors, ...(r.body?.data?.errors ?? [])],
      ...(r.body?.data?.undecodable !== undefined ? { decodeError: r.body.data.undecodable } : {}),
      ...(nsView?.pending[0] ? { firstPending: nsView.pending[0] } : {}),
      changed: storage.changed,
      ...(r.target === 'cluster-object'
        ? { kind: `${this.clusterObjectOf(r)?.kind ?? 'ClusterRole'}.${rbacGroupName}` }
        : r.target === 'configuration'
          ? { kind: this.configurationOf(r)?.spec.kind ?? 'NamespaceInitializerConfiguration' }
          : r.target === 'content'
            ? {
                kind: declared
                  ? `${declared}${group ? `.${group}` : ''}`
                  : qualifiedKindOfResource(a.resource),
              }
            : {}),
      beingDeleted: nsView?.deletedSecondsAgo !== null && nsView?.deletedSecondsAgo !== undefined,
      ...(r.body?.name !== undefined ? { bodyName: r.body.name } : {}),
      ...preconditionSubject(r.body?.preconditions),
    };
  }

  private addressed(r: ApiRequest): Addressed {
    const cluster = this.clusterObjectOf(r);
    if (cluster) return { resource: clusterObjectResource[cluster.kind], name: cluster.name, namespace: '' };
    const configuration = this.configurationOf(r);
    if (configuration) {
      const kind = configuration.spec.kind ?? 'NamespaceInitializerConfiguration';
      return { resource: configurationResource[kind], name: configuration.spec.name, namespace: '' };
    }
    const namespace = r.namespace >= 0 ? this.system.scope.namespaces[r.namespace].name : '';
    if (r.target === 'namespace') return { resource: 'namespaces', name: namespace, namespace };
    const o = r.object >= 0 ? this.system.objects[r.object] : null;
    return { resource: o?.resource ?? r.resource ?? '', name: o?.name ?? '', namespace };
  }

  authorizationRequest(r: ApiRequest): AuthorizationRequest {
    const cluster = this.clusterObjectOf(r);
    if (cluster)
      // Cluster-scoped (D-23): only a cluster-wide grant allows it (RB-6); a create names no object.
      return {
        user: r.principal,
        verb: r.verb,
        resource: clusterObjectResource[cluster.kind],
        apiGroup: rbacGroupName,
        ...(r.verb === 'create' ? {} : { name: cluster.name }),
        namespaceSlot: -1,
      };
    const configuration = this.configurationOf(r);
    if (configuration) {
      // Cluster-scoped: only a cluster-wide grant allows it (RB-6); the create names no object.
      const kind = configuration.spec.kind ?? 'NamespaceInitializerConfiguration';
      return {
        user: r.principal,
        verb: r.verb,
        resource: configurationResource[kind],
        apiGroup: 'admissionregistration.k8s.io',
        ...(r.verb === 'create' ? {} : { name: configuration.spec.name }),
        namespaceSlot: -1,
      };
    }
    const nsName = r.namespace >= 0 ? this.system.scope.namespaces[r.namespace].name : undefined;
    if (r.target === 'namespace') {
      const subresource = r.verb === 'finalize' ? 'finalize' : r.subresource;
      return {
        user: r.principal,
        verb: r.watch ? 'watch' : r.verb === 'finalize' ? 'update' : r.verb,
        resource: 'namespaces',
        ...(subresource ? { subresource } : {}),
        ...(r.verb === 'create' ? {} : { namespace: nsName }),
        name: nsName,
        namespaceSlot: r.namespace,
        // D-17: request-authorization.ts lets `initialize` stand in for `update` when only spec.initializers changes.
        onlyInitializers:
          r.verb === 'update' &&
          !r.subresource &&
          (!!r.body?.removePending ||
            !!r.body?.removeFirstPending ||
            !!r.body?.pending ||
            !!r.body?.failure) &&
          !r.body?.finalizers,
      };
    }
    // A declared kind (RESOURCE.GROUP) is asked of RBAC by its own group and resource (ResourceMatches, APIGroupMatches).
    const { resource, group } = splitResourceId(
      r.object >= 0 ? this.system.objects[r.object].resource : (r.resource ?? ''),
    );
    return {
      user: r.principal,
      verb: r.watch ? 'watch' : r.collection ? 'deletecollection' : r.verb,
      resource,
      ...(group !== undefined ? { apiGroup: group } : {}),
      ...(nsName !== undefined ? { namespace: nsName } : {}),
      ...(r.object >= 0 ? { name: this.system.objects[r.object].name } : {}),
      namespaceSlot: r.namespace,
    };
  }
}

/** Storage's view of a request before it is applied (see ApiServer.storageFacts). */
interface StorageFacts {
  /** Field errors of storage validation (NS-1, LC-2). */
  errors: string[];
  /** The namespace machine's step for the event the request amounts to; null when it sends none. */
  step: StepResult | null;
  /** The pending list a namespace create stores (IN-1, IN-3). */
  pending: string[];
  initializerChange: PipelineFacts['initializerChange'];
  contentPresent: boolean;
  /** The initializer an update removes, or finalizers a finalize adds. */
  changed: string[];
  /** The configuration addressed is stored. */
  configurationExists: boolean;
}

const noStorageFacts: StorageFacts = {
  errors: [],
  step: null,
  pending: [],
  initializerChange: 'none',
  contentPresent: false,
  changed: [],
  configurationExists: false,
};

const allowedEscalation: EscalationVerdict = { kind: 'allowed' };

/** The text after `is forbidden: ` of an escalation refusal, or the whole 404 of a missing role (D-23). */
function escalationDetail(user: ApiRequest['principal'], verdict: EscalationVerdict): string {
  if (verdict.kind === 'forbidden') return escalationMessage(user, verdict.missing);
  if (verdict.kind === 'roleNotFound')
    return `${verdict.resource}.rbac.authorization.k8s.io ${JSON.stringify(verdict.name)} not found`;
  return '';
}

/** Storage's field errors of a namespace create: the prefix, the name, metadata, finalizers and initializers sent. */
function createErrors(
  name: string,
  generateName: string | undefined,
  body: NonNullable<ApiRequest['body']>,
): string[] {
  return [
    // ValidateObjectMeta: the prefix first, then the name generated from it (D-45).
    ...(generateName !== undefined ? validateGenerateName(generateName) : []),
    ...validateNamespaceName(name),
    ...validateMetadataMaps(body),
    ...validateMetadataFinalizers(body.metadataFinalizers ?? []),
    ...(body.extraFinalizers ?? []).flatMap((f) => validateFinalizerName(f)),
    ...(body.initializers ?? []).flatMap((name, k) =>
      validateInitializerName(name, `spec.initializers.pending[${k}].name`),
    ),
  ];
}

/** Field errors of a RoleBinding's or Role's slot as the scope defines it, and of the roleRef an update sends (RB-4). */
function rbacSlotErrors(
  roleBinding: Parameters<typeof validateRoleBindingSlot>[0] | undefined,
  rules: Parameters<typeof validateRoleRules>[0] | undefined,
  sent: Parameters<typeof validateRoleRefUnchanged>[1] | undefined,
): string[] {
  return [
    ...(roleBinding && sent ? validateRoleRefUnchanged(roleBinding, sent) : []),
    ...(roleBinding ? validateRoleBindingSlot(roleBinding) : []),
    ...(rules ? validateRoleRules(rules, true) : []),
  ];
}

/**
 * D-46: the precondition of a DELETE the stored object does not meet, the uid's before the
 * resourceVersion's as storage compares them. The model keeps neither value and no answer of it carries
 * one, so a value a client sends was never read from the stored object: it names another incarnation, an
 * older write or nothing at all, and is unmet. A precondition that would be met is the request without it
 * (namespace storage fills in the object's own uid), and a scenario writes it so.
 */
function unmetPrecondition(sent: DeletePreconditions | undefined): PipelineFacts['preconditionUnmet'] {
  if (sent?.uid !== undefined) return 'uid';
  if (sent?.resourceVersion !== undefined) return 'resourceVersion';
  return 'none';
}

/** What a 409 for an unmet precondition names: the field and the value sent (D-46). */
function preconditionSubject(sent: DeletePreconditions | undefined): Pick<RequestSubject, 'precondition'> {
  const unmet = unmetPrecondition(sent);
  if (unmet === 'uid') return { precondition: { field: 'UID', sent: sent?.uid ?? '' } };
  if (unmet === 'resourceVersion')
    return { precondition: { field: 'ResourceVersion', sent: sent?.resourceVersion ?? '' } };
  return {};
}

/** What a version of a ClusterRole or ClusterRoleBinding holds, in a request's label (D-23). */
function clusterVersionText(o: ClusterObjectSpec): string {
  if (o.kind === 'ClusterRoleBinding')
    return `roleRef ${o.roleKind ?? 'ClusterRole'}/${o.clusterRole ?? ''}; subjects ${(o.subjects ?? []).map((x) => x.name).join(', ')}`;
  return (o.rules ?? [])
    .map((rule) => {
      const on = rule.nonResourceURLs?.length ? rule.nonResourceURLs : rule.resources;
      const names = rule.resourceNames?.length ? ` (${rule.resourceNames.join(', ')})` : '';
      return `${on.join(', ')}${names}: ${rule.verbs.join(', ')}`;
    })
    .join('; ');
}
