import type { AnyStateMachine } from 'xstate';
import { admissionMachine } from './admission.ts';
import { authorizationMachine } from './authorization.ts';
import { configSyncMachine } from './config-sync.ts';
import { finalizerOwnerMachine } from './finalizer-owner.ts';
import { initializerControllerMachine } from './initializer-controller.ts';
import { initializerTimeoutMachine } from './initializer-timeout.ts';
import { namespaceMachine } from './namespace.ts';
import { namespaceControllerMachine } from './namespace-controller.ts';

/** One entry per actor machine: the diagram generator, docs and traceability read this list. */
export interface MachineEntry {
  /** File stem for generated/diagrams/<id>.mmd and .svg. */
  id: string;
  title: string;
  /** One or two sentences for reviewers: what the machine stands for and how to read it. */
  legend: string;
  machine: AnyStateMachine;
}

export const machineCatalog: MachineEntry[] = [
  {
    id: 'namespace',
    title: 'Namespace lifecycle',
    legend:
      'One namespace as storage holds it: created Initializing when initializers are pending (else Active), Terminating once deleted, removed only with no finalizers left. Events arrive only after admission admitted the request.',
    machine: namespaceMachine,
  },
  {
    id: 'admission',
    title: 'Admission chain',
    legend:
      'The checks every request passes, in order: configuration freshness (writes), RBAC, the NamespaceLifecycle plugin, the NamespaceInitializers plugin. Each refusal action names the status the client gets.',
    machine: admissionMachine,
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
];
