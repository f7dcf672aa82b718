import type { AnyStateMachine } from 'xstate';
import { admissionMachine } from './admission.ts';
import { authorizationMachine } from './authorization.ts';
import { configSyncMachine } from './config-sync.ts';
import { failureInjectorMachine } from './failure-injector.ts';
import { finalizerOwnerMachine } from './finalizer-owner.ts';
import { genericInitializationMachine } from './generic-initialization.ts';
import { initializerControllerMachine } from './initializer-controller.ts';
import { initializerTimeoutMachine } from './initializer-timeout.ts';
import { namespaceMachine } from './namespace.ts';
import { namespaceControllerMachine } from './namespace-controller.ts';
import { pipelineMachine } from './pipeline.ts';
import { timerMachine } from './timer.ts';

/** One entry per actor machine: the diagram generator, docs and traceability read this list. */
export interface MachineEntry {
  /** File stem for generated/diagrams/<id>.mmd and .svg. */
  id: string;
  title: string;
  /** One or two sentences for reviewers: what the machine stands for and how to read it. */
  legend: string;
  machine: AnyStateMachine;
  /**
   * How the diagram draws it: `decision` as a flowchart of its guard chains, `states` as a state
   * diagram. Left out, the generator chooses: decision for a flat machine whose behaviour is guard chains.
   */
  layout?: 'states' | 'decision';
  /**
   * Who places the boxes: ELK by default; `dagre` for a chain of states whose notes ELK stacks past two
   * screens (Mermaid's own layered layout keeps each note beside its state).
   */
  placement?: 'elk' | 'dagre';
  /** Checked alone (its own search), not yet a part of the composed system: the overview leaves it out. */
  checkedAlone?: boolean;
  /**
   * Compound states drawn in diagrams of their own (each `<id>.mmd`), so no diagram grows past a
   * screen or two; the machine's own diagram draws each as one box.
   */
  parts?: readonly MachinePart[];
}

/** A compound state of a machine drawn whole in its own diagram. */
export interface MachinePart {
  id: string;
  title: string;
  legend: string;
  /** The compound state's path in the machine. */
  state: string;
  layout?: 'states' | 'decision';
}

export const machineCatalog: MachineEntry[] = [
  {
    id: 'namespace',
    title: 'Namespace lifecycle',
    legend:
      'One namespace as storage holds it: created Initializing when initializers are pending (else Active), Terminating once deleted, removed only with no finalizers left. Events arrive only after admission admitted the request.',
    machine: namespaceMachine,
    placement: 'dagre',
  },
  {
    id: 'pipeline',
    title: 'Request pipeline',
    legend:
      "Why a request got its answer: RBAC and the IN-6 gate, the body's namespace, the admission chain's verdict, storage validation, then storage by target. Each refusal action names the refusal whose status, reason and message the client gets; each served action names what storage does. Each store is drawn in a diagram of its own below.",
    machine: pipelineMachine,
    layout: 'states',
    parts: [
      {
        id: 'pipeline-namespaces',
        title: 'Request pipeline: storing namespaces',
        legend:
          'A request for a namespace object that passed every stage: the verb picks a short chain, and what the namespace machine says to the event decides (D-10, D-17, D-18).',
        state: 'namespaces',
        layout: 'decision',
      },
      {
        id: 'pipeline-namespace-creates',
        title: 'Request pipeline: creates of a namespace',
        legend:
          'A create of a namespace object: a generated name already taken is 500 ServerTimeout, asking the client to try again (D-45); a name already taken is 409 (NS-3); else the namespace is stored (LC-1, IN-1).',
        state: 'namespaces.creating',
        layout: 'decision',
      },
      {
        id: 'pipeline-namespace-updates',
        title: 'Request pipeline: updates of a namespace',
        legend:
          'An update of a namespace object: a change of the pending list or a failure result the namespace machine takes or ignores (D-17, D-18), else an ordinary update that keeps the spec (LC-6).',
        state: 'namespaces.updating',
        layout: 'decision',
      },
      {
        id: 'pipeline-content',
        title: 'Request pipeline: storing content',
        legend: 'A request for content or a list of content: one presence bit per object (NS-3).',
        state: 'content',
        layout: 'decision',
      },
      {
        id: 'pipeline-content-updates',
        title: 'Request pipeline: updates of content',
        legend:
          'An update of content or of a ClusterRole or ClusterRoleBinding: a PUT of an object not stored creates it where its storage allows (NS-3, D-23), else 404; a cluster RBAC object takes the version sent (D-23).',
        state: 'updates',
        layout: 'decision',
      },
      {
        id: 'pipeline-configurations',
        title: 'Request pipeline: storing configurations',
        legend:
          'A request for an initializer or webhook configuration: cluster-scoped, stored by name; the verb picks the effect (D-32).',
        state: 'configurations',
        layout: 'decision',
      },
    ],
  },
  {
    id: 'admission',
    title: 'Admission chain',
    legend:
      'The admission plugins an authorized request passes, in chain order: NamespaceLifecycle, then NamespaceInitializers (configuration freshness for writes, the initialize verb, the pending list). Each refusal action names the status the client gets.',
    machine: admissionMachine,
    parts: [
      {
        id: 'admission-initializers',
        title: 'Admission chain: NamespaceInitializers',
        legend:
          'The last plugin: who may set or change a pending list (the initialize verb, IN-3), and which pending list a new namespace gets: as sent, injected from the configuration, or none.',
        state: 'namespaceInitializers',
        layout: 'decision',
      },
    ],
  },
  {
    id: 'authorization',
    title: 'RBAC authorization',
    legend:
      'The RBAC decision for one request: system:masters, then ClusterRoleBindings (everywhere), then RoleBindings of the request namespace only.',
    machine: authorizationMachine,
  },
  {
    id: 'config-sync',
    title: 'Admission configuration sync',
    legend:
      'A consistent read every second; five seconds without a successful read make the copy stale and every write is refused.',
    machine: configSyncMachine,
  },
  {
    id: 'initializer-controller',
    title: 'Initializer controller',
    legend:
      'One per configured initializer: acts only where it is first pending, populates the namespace, then removes itself, or records a failure result; may crash and restart.',
    machine: initializerControllerMachine,
  },
  {
    id: 'initializer-timeout',
    title: 'Failure policy and read-repair',
    legend:
      "The apiserver's timer on the first pending initializer (Ignore removes it, Fail fails the namespace) and the read-repair a GET performs after the global timeout.",
    machine: initializerTimeoutMachine,
  },
  {
    id: 'timer',
    title: 'Initializer timer',
    legend:
      "The apiserver's timer on one namespace's first pending initializer, in relative time: armed at create, re-armed when the first pending initializer changes, expired at its timeout (time waits until it fires), lost when the apiserver restarts.",
    machine: timerMachine,
  },
  {
    id: 'failure-injector',
    title: 'Failure injector',
    legend:
      'The faults a scope allows, as steps of their own: configuration reads fail until the outage ends (AC-2), and an apiserver restart loses the initializer timers (FP-4). Initializer crashes are steps of the initializer controllers.',
    machine: failureInjectorMachine,
  },
  {
    id: 'namespace-controller',
    title: 'Namespace controller',
    legend:
      'For a terminating namespace, rules tried in order: delete content one object at a time, then finalize away `kubernetes`, then send the final DELETE.',
    machine: namespaceControllerMachine,
  },
  {
    id: 'finalizer-owner',
    title: 'External finalizer owner',
    legend:
      'An owner such as openshift.com/origin: provisions external content for namespaces carrying its finalizer, purges it on termination, then removes only its own finalizer.',
    machine: finalizerOwnerMachine,
  },
  {
    id: 'generic-initialization',
    title: 'Generic initializers: one content object (seed 002)',
    legend:
      "One content object under seed 002's generic initializers: created with the initializers whose rules match its kind, hidden from reads that do not ask for uninitialized objects, visited through initialize/{name}, completed only if it passes strict validation (else deleted with an event); the creating POST is held until then or answered 504 at 5 s. Checked alone, exhaustively, against IN-9 and IN-10 (checker/judging/generic-initialization.ts); not yet a part of the composed system the scopes explore.",
    machine: genericInitializationMachine,
    checkedAlone: true,
    layout: 'states',
    placement: 'dagre',
    parts: [
      {
        id: 'generic-initialization-initializing',
        title: 'Generic initializers: an object not yet initialized (seed 002)',
        legend:
          'Stored with pending initializers: hidden from reads without includeUninitialized, visited through initialize/{name} in order, completed by the initialization controller once every initializer has visited; a held create answers 504 at its timeout (IN-9, IN-10).',
        state: 'initializing',
        layout: 'states',
      },
    ],
  },
];

/**
 * Who sends what to whom, for the overview diagram at the head of docs/machines.md. An actor is a
 * machine of the catalog (by its id) or one of `actors` below. An arrow into a machine carries event
 * types that machine accepts, and every event a machine accepts has an arrow: a test checks both, so
 * the overview follows the machines. Arrows between other actors name what they send in words.
 */
export interface OverviewActor {
  id: string;
  title: string;
}

export interface OverviewLink {
  from: string;
  to: string;
  events: readonly string[];
}

export interface ActorOverview {
  /** A sentence or two for reviewers, shown under the overview's heading. */
  legend?: string;
  actors: readonly OverviewActor[];
  links: readonly OverviewLink[];
}

export const actorOverview: ActorOverview = {
  legend:
    'Users and the controllers are all clients of the API server. For each request the request pipeline decides, its stages consulting RBAC and the admission chain, then the API server steps the namespace in storage; the controllers see the result through their watches (RECONCILE, SYNC). Time is relative: each clock tick ages the configuration copy, the timers and the namespace timestamps, and waits while a timer has expired; the failure injector crashes controllers, restarts the API server and breaks configuration reads.',
  actors: [
    { id: 'users', title: 'Users and robots' },
    { id: 'apiserver', title: 'API server' },
    { id: 'clock', title: 'Clock' },
    { id: 'faults', title: 'Faults the scope allows' },
  ],
  links: [
    {
      from: 'users',
      to: 'apiserver',
      events: ['namespace create, get, delete', 'content create, get, list, delete', 'finalize'],
    },
    {
      from: 'initializer-controller',
      to: 'apiserver',
      events: ['content create', 'remove own pending entry'],
    },
    {
      from: 'namespace-controller',
      to: 'apiserver',
      events: ['content delete', 'finalize', 'namespace delete'],
    },
    { from: 'finalizer-owner', to: 'apiserver', events: ['finalize'] },
    { from: 'apiserver', to: 'pipeline', events: ['SERVE'] },
    // The pipeline's authorizing and admitting stages consult these two machines' verdicts.
    { from: 'pipeline', to: 'authorization', events: ['AUTHORIZE'] },
    { from: 'pipeline', to: 'admission', events: ['ADMIT'] },
    {
      from: 'apiserver',
      to: 'namespace',
      events: [
        'CREATE',
        'DELETE',
        'FINALIZE',
        'REMOVE_PENDING',
        'RECORD_FAILURE',
        'SET_METADATA_FINALIZERS',
        'PURGE',
      ],
    },
    { from: 'apiserver', to: 'timer', events: ['ARM', 'REARM', 'DISARM'] },
    { from: 'apiserver', to: 'initializer-timeout', events: ['READ_REPAIR_CHECK'] },
    { from: 'apiserver', to: 'initializer-controller', events: ['RECONCILE'] },
    { from: 'apiserver', to: 'namespace-controller', events: ['SYNC'] },
    { from: 'apiserver', to: 'finalizer-owner', events: ['SYNC'] },
    { from: 'timer', to: 'initializer-timeout', events: ['TIMER_CHECK'] },
    { from: 'clock', to: 'timer', events: ['TICK'] },
    { from: 'clock', to: 'namespace', events: ['TICK'] },
    { from: 'faults', to: 'failure-injector', events: ['START_OUTAGE', 'END_OUTAGE', 'RESTART_APISERVER'] },
    { from: 'failure-injector', to: 'timer', events: ['LOSE'] },
    { from: 'clock', to: 'config-sync', events: ['READ_SUCCEEDED', 'READ_FAILED'] },
    { from: 'faults', to: 'initializer-controller', events: ['CRASH', 'RESTART', 'PROVISIONING_FAILED'] },
    { from: 'failure-injector', to: 'apiserver', events: ['config reads fail'] },
  ],
};
