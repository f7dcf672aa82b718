/**
 * What a scope declares it does not exercise, with the reason: properties expected to stay vacuous (no
 * witness) and machine transitions expected never to be taken. Anything vacuous or untaken that is not
 * declared here fails `verify` (exit 18), so a thinning scope or a dead rule is never a silent pass.
 * Plain data keyed by scope name, so it can move into the scope files unchanged.
 */
export interface ScopeExpectations {
  /** Property id → why the scope never reaches its premise. */
  vacuous: Readonly<Record<string, string>>;
  /** Transition id (`machine:state:EVENT#n`) → why the scope never takes it, and where it is taken. */
  untaken: Readonly<Record<string, string>>;
}

export const noExpectations: ScopeExpectations = { vacuous: {}, untaken: {} };

/** Where the declarations live, as the report names it. */
export const expectationsFile = 'checker/expectations.ts';

const adminFinalizeOnly =
  'The `admin-finalize` scope is cut to its LC-9 finding (alice creates, carol deletes or finalizes; no faults, no other principal) so the test suite can pin it; the `default` scope exercises this.';

/** What the `admin-finalize` scope leaves out on purpose, each for the reason above. */
const adminFinalizeUntaken = [
  'namespace:absent:CREATE#0',
  'namespace:removed:CREATE#0',
  'admission:configurationCheck:always#0',
  'admission:namespaceLifecycle:always#2',
  'admission:namespaceInitializers:always#0',
  'admission:namespaceInitializers:always#1',
  'admission:namespaceInitializers:always#2',
  'pipeline:validating:always#0',
  'pipeline:validating:always#1',
  'pipeline:validating:always#2',
  'pipeline:storing:always#6',
  'pipeline:storing:always#15',
  'pipeline:storing:always#18',
  'configSync:fresh:READ_FAILED#0',
  'configSync:fresh:READ_FAILED#1',
  'configSync:stale:READ_SUCCEEDED#0',
  'configSync:stale:READ_FAILED#0',
  'initializerController:running:CRASH#0',
  'initializerController:crashed:RESTART#0',
  'initializerTimeout:watching:READ_REPAIR_CHECK#0',
  'initializerTimeout:watching:READ_REPAIR_CHECK#1',
  'timer:armed:LOSE#0',
  'timer:expired:LOSE#0',
  'timer:lost:DISARM#0',
  'failureInjector:readsWorking:START_OUTAGE#0',
  'failureInjector:readsWorking:RESTART_APISERVER#0',
  'failureInjector:readsFailing:END_OUTAGE#0',
  'failureInjector:readsFailing:RESTART_APISERVER#0',
];

const noConfigurationRequests =
  'the scope declares no configuration a cluster admin creates, updates or deletes during the run (`registeredLater`, `configurationUpdates`, `deletableConfigurations`); explored with every property in `machines/system.test.ts` (configuration objects) and replayed in `scenarios/fp-update-makes-fail-closed.yaml`.';

/** Configuration requests (D-32): a scope that manages no configuration during the run sends none. */
const configurationUntaken: Readonly<Record<string, string>> = {
  'pipeline:storing:always#23': `NS-3 create of a configuration that exists (409): ${noConfigurationRequests}`,
  'pipeline:storing:always#24': `AC-3 GET, update or delete of a missing configuration (404): ${noConfigurationRequests}`,
  'pipeline:storing:always#25': `AC-1, AC-3, FP-3 create, GET, update or delete of a configuration: ${noConfigurationRequests}`,
};

/** Request pipeline rules no principal or controller of the built-in scopes exercises; scenarios do. */
const pipelineUntaken: Readonly<Record<string, string>> = {
  'pipeline:decoding:always#0':
    'NS-4 (D-38) body name differing from the path: no principal of the scope sends one; the default scope (carol) and `scenarios/ns-body-name-must-match-path.yaml` do.',
  'pipeline:decoding:always#1':
    'NS-4 body namespace differing from the path: no principal of the scope sends one; the default scope (ci-robot) and `scenarios/ns-body-namespace-must-match-path.yaml` do.',
  'pipeline:storing:always#2':
    'NS-7 list of namespace objects: principals of the scope list content, not namespaces; replayed in `scenarios/in-initializer-transitions-refused.yaml`.',
  'pipeline:storing:always#4':
    'NS-5 GET of namespaces/NAME/status: no principal of the scope reads the status sub-resource; replayed in `scenarios/ns-status-and-conditions.yaml`.',
  'pipeline:storing:always#5':
    'NS-5 update of namespaces/NAME/status: no principal of the scope writes it; replayed in `scenarios/ns-status-and-conditions.yaml`.',
  'pipeline:storing:always#10':
    'IN-2 out-of-order completion: initializers act only when first pending (initializer-controller machine); replayed in `scenarios/in-in-order-completion.yaml`.',
  'pipeline:storing:always#11':
    'IN-4 pending list changed after initialization ended: initializers act only on initializing namespaces; replayed in `scenarios/wire-refusal-messages.yaml`.',
  'pipeline:storing:always#13':
    'IN-7 failure result once initialization ended: initializers fail only initializing namespaces; replayed in `scenarios/in-initializer-transitions-refused.yaml`.',
  'pipeline:storing:always#17':
    'LC-6 finalize adding a finalizer while terminating: finalizer owners and the namespace controller only remove; replayed in `scenarios/lc-finalize-is-the-only-way.yaml`.',
  'pipeline:storing:always#21':
    'NS-2 GET of content that is not stored: principals of the scope create, list and delete content; replayed in `scenarios/wire-refusal-messages.yaml`.',
  'pipeline:storing:always#26':
    'NS-2 GET of stored content: principals of the scope create, list and delete content; replayed in `scenarios/in-initializer-transitions-refused.yaml`.',
  ...configurationUntaken,
};

const widerOnly =
  "The `large` and `xl` scopes widen the default with interchangeable tenants and a third initializer, and leave out the cluster admin's hand-written requests (finalize, status, body mistakes) the default scope already takes; the default scope exercises this.";

/** What the symmetric `large` and `xl` scopes leave to the default scope, each for the reason above. */
const widerScopesUntaken: ScopeExpectations = {
  vacuous: {},
  untaken: Object.fromEntries(
    [
      'namespace:initializing:FINALIZE#0',
      'namespace:active:FINALIZE#0',
      'pipeline:decoding:always#0',
      'pipeline:decoding:always#1',
      'pipeline:storing:always#2',
      'pipeline:storing:always#4',
      'pipeline:storing:always#5',
      'pipeline:storing:always#10',
      'pipeline:storing:always#11',
      'pipeline:storing:always#13',
      'pipeline:storing:always#17',
    ].map((id) => [id, widerOnly]),
  ),
};

/** D-23: every RoleBinding of the built-in scopes names a ClusterRole, which exists for the whole run. */
const roleRefAlwaysExists: ScopeExpectations = {
  vacuous: {},
  untaken: {
    'pipeline:validating:always#1':
      'RB-4 (D-23) RoleBinding naming a role that does not exist (404): the scope binds only ClusterRoles, which exist for the whole run; replayed in `scenarios/rb-escalation-bind-verb.yaml`.',
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
