/**
 * What a scope declares it does not exercise, with the reason: properties expected to stay vacuous (no
 * witness) and machine transitions expected never to be taken. Anything vacuous or untaken that is not
 * declared here fails `verify` (exit 18), so a thinning scope or a dead rule is never a silent pass.
 * Plain data keyed by scope name, so it can move into the scope files unchanged.
 */
export interface ScopeExpectations {
  /** Property id → why the scope never reaches its premise. */
  vacuous: Readonly<Record<string, string>>;
  /** Transition id (`machine:state:EVENT[guard]->target`) → why the scope never takes it, and where it is taken. */
  untaken: Readonly<Record<string, string>>;
}

export const noExpectations: ScopeExpectations = { vacuous: {}, untaken: {} };

/** Where the declarations live, as the report names it. */
export const expectationsFile = 'checker/expectations.ts';

const adminFinalizeOnly =
  'The `admin-finalize` scope is cut to its LC-9 finding (alice creates, carol deletes or finalizes; no faults, no other principal) so the test suite can pin it; the `default` scope exercises this.';

/** What the `admin-finalize` scope leaves out on purpose, each for the reason above. */
const adminFinalizeUntaken = [
  'namespace:absent:CREATE[createdWithoutPendingInitializers]->active',
  'namespace:removed:CREATE[createdWithoutPendingInitializers]->active',
  'admission:configurationCheck:always[writeWithStaleConfiguration]->refused',
  'admission:namespaceLifecycle:always[deleteOfImmortalNamespace]->refused',
  'admission:namespaceInitializers:always[createCarriesInitializersWithoutInitializeVerb]->refused',
  'admission:namespaceInitializers:always[changesInitializersWithoutInitializeVerb]->refused',
  'admission:namespaceInitializers:always[createCarriesInitializers]->admitted',
  'pipeline:validating:always[grantsBeyondCallersPermissions]->refused',
  'pipeline:validating:always[bindsRoleThatDoesNotExist]->refused',
  'pipeline:validating:always[objectInvalid]->refused',
  'pipeline:namespaces.byVerb:always->responded',
  'pipeline:namespaces.updating:always->responded',
  'pipeline:content:always[listOfContent]->responded',
  'configSync:fresh:READ_FAILED[noSuccessfulReadWithinStaleWindow]->stale',
  'configSync:fresh:READ_FAILED',
  'configSync:stale:READ_SUCCEEDED->fresh',
  'configSync:stale:READ_FAILED',
  'initializerController:running:CRASH->crashed',
  'initializerController:crashed:RESTART->running',
  'initializerTimeout:watching:READ_REPAIR_CHECK[readRepairDueFailOpen]',
  'initializerTimeout:watching:READ_REPAIR_CHECK[readRepairDueFailClosed]',
  'timer:armed:LOSE->lost',
  'timer:expired:LOSE->lost',
  'timer:lost:DISARM->disarmed',
  'failureInjector:readsWorking:START_OUTAGE->readsFailing',
  'failureInjector:readsWorking:RESTART_APISERVER',
  'failureInjector:readsFailing:END_OUTAGE->readsWorking',
  'failureInjector:readsFailing:RESTART_APISERVER',
];

const noConfigurationRequests =
  'the scope declares no configuration a cluster admin creates, updates or deletes during the run (`registeredLater`, `configurationUpdates`, `deletableConfigurations`); explored with every property in `machines/system.test.ts` (configuration objects) and replayed in `scenarios/fp-update-makes-fail-closed.yaml`.';

/** Configuration requests (D-32): a scope that manages no configuration during the run sends none. */
const configurationUntaken: Readonly<Record<string, string>> = {
  'pipeline:storing:always[configurationRequest]->configurations': `AC-3 a request for a configuration reaches the configuration store: ${noConfigurationRequests}`,
  'pipeline:configurations:always[createOfExistingConfiguration]->refused': `NS-3 create of a configuration that exists (409): ${noConfigurationRequests}`,
  'pipeline:configurations:always[configurationMissing]->refused': `AC-3 GET, update or delete of a missing configuration (404): ${noConfigurationRequests}`,
  'pipeline:configurations:always->responded': `AC-1, AC-3, FP-3 create, GET, update or delete of a configuration: ${noConfigurationRequests}`,
};

/** Request pipeline rules no principal or controller of the built-in scopes exercises; scenarios do. */
const pipelineUntaken: Readonly<Record<string, string>> = {
  'pipeline:decoding:always[bodyNameDiffersFromPath]->refused':
    'NS-4 (D-38) body name differing from the path: no principal of the scope sends one; the default scope (carol) and `scenarios/ns-body-name-must-match-path.yaml` do.',
  'pipeline:decoding:always[bodyNamespaceDiffersFromPath]->refused':
    'NS-4 body namespace differing from the path: no principal of the scope sends one; the default scope (ci-robot) and `scenarios/ns-body-namespace-must-match-path.yaml` do.',
  'pipeline:namespaces.byVerb:always[listOfNamespaces]->responded':
    'NS-7 list of namespace objects: principals of the scope list content, not namespaces; replayed in `scenarios/in-initializer-transitions-refused.yaml`.',
  'pipeline:namespaces.byVerb:always[statusOfNamespace]->namespaces.status':
    'NS-5 a request for namespaces/NAME/status: no principal of the scope reads or writes the status sub-resource; replayed in `scenarios/ns-status-and-conditions.yaml`.',
  'pipeline:namespaces.status:always[readOfStatus]->responded':
    'NS-5 GET of namespaces/NAME/status: no principal of the scope reads the status sub-resource; replayed in `scenarios/ns-status-and-conditions.yaml`.',
  'pipeline:namespaces.status:always->responded':
    'NS-5 update of namespaces/NAME/status: no principal of the scope writes it; replayed in `scenarios/ns-status-and-conditions.yaml`.',
  'pipeline:namespaces.updating:always[pendingChangeOutOfOrder]->refused':
    'IN-2 out-of-order completion: initializers act only when first pending (initializer-controller machine); replayed in `scenarios/in-in-order-completion.yaml`.',
  'pipeline:namespaces.updating:always[initializersChangedAfterCompletion]->refused':
    'IN-4 pending list changed after initialization ended: initializers act only on initializing namespaces; replayed in `scenarios/wire-refusal-messages.yaml`.',
  'pipeline:namespaces.updating:always[failureIgnoredByStorage]->refused':
    'IN-7 failure result once initialization ended: initializers fail only initializing namespaces; replayed in `scenarios/in-initializer-transitions-refused.yaml`.',
  'pipeline:namespaces.finalizing:always->refused':
    'LC-6 finalize adding a finalizer while terminating: finalizer owners and the namespace controller only remove; replayed in `scenarios/lc-finalize-is-the-only-way.yaml`.',
  'pipeline:content:always[absentContent]->refused':
    'NS-2 GET of content that is not stored: principals of the scope create, list and delete content; replayed in `scenarios/wire-refusal-messages.yaml`.',
  'pipeline:content:always->responded':
    'NS-2 GET of stored content: principals of the scope create, list and delete content; replayed in `scenarios/in-initializer-transitions-refused.yaml`.',
  ...configurationUntaken,
};

const widerOnly =
  "The `large` and `xl` scopes widen the default with interchangeable tenants and a third initializer, and leave out the cluster admin's hand-written requests (finalize, status, body mistakes) the default scope already takes; the default scope exercises this.";

/** D-23: every RoleBinding of the built-in scopes names a ClusterRole, which exists for the whole run. */
const roleRefAlwaysExists: ScopeExpectations = {
  vacuous: {},
  untaken: {
    'pipeline:validating:always[bindsRoleThatDoesNotExist]->refused':
      'RB-4 (D-23) RoleBinding naming a role that does not exist (404): the scope binds only ClusterRoles, which exist for the whole run; replayed in `scenarios/rb-escalation-bind-verb.yaml`.',
  },
};

/** What the symmetric `large` and `xl` scopes leave to the default scope, each for the reason above. */
const widerScopesUntaken: ScopeExpectations = {
  vacuous: {},
  untaken: {
    ...Object.fromEntries(
      [
        'namespace:initializing:FINALIZE',
        'namespace:active:FINALIZE',
        'pipeline:decoding:always[bodyNameDiffersFromPath]->refused',
        'pipeline:decoding:always[bodyNamespaceDiffersFromPath]->refused',
        'pipeline:namespaces.byVerb:always[listOfNamespaces]->responded',
        'pipeline:namespaces.byVerb:always[statusOfNamespace]->namespaces.status',
        'pipeline:namespaces.status:always[readOfStatus]->responded',
        'pipeline:namespaces.status:always->responded',
        'pipeline:namespaces.updating:always[pendingChangeOutOfOrder]->refused',
        'pipeline:namespaces.updating:always[initializersChangedAfterCompletion]->refused',
        'pipeline:namespaces.updating:always[failureIgnoredByStorage]->refused',
        'pipeline:namespaces.finalizing:always->refused',
      ].map((id) => [id, widerOnly]),
    ),
    ...roleRefAlwaysExists.untaken,
  },
};

export const scopeExpectations: Readonly<Record<string, ScopeExpectations>> = {
  large: widerScopesUntaken,
  xl: widerScopesUntaken,
  default: roleRefAlwaysExists,
  quick: roleRefAlwaysExists,
  'admin-finalize': {
    vacuous: Object.fromEntries(
      [
        'tenant-isolation',
        'cluster-wide-as-declared',
        'config-freshness',
        'valid-names',
        'system-namespaces-immortal',
        'read-repair-after-global-timeout',
        'configuration-copy-refreshed',
      ].map((id) => [id, adminFinalizeOnly]),
    ),
    untaken: {
      ...Object.fromEntries(adminFinalizeUntaken.map((id) => [id, adminFinalizeOnly])),
      ...pipelineUntaken,
    },
  },
};

/** The declarations of a scope; a scope that declares nothing must exercise everything. */
export function expectationsFor(scopeName: string): ScopeExpectations {
  return Object.hasOwn(scopeExpectations, scopeName) ? scopeExpectations[scopeName] : noExpectations;
}
