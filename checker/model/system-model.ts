import type { RequestCommand } from '../../machines/commands.ts';
import type { Scope } from '../../machines/scope.ts';
import {
  defaultMachines,
  type Enabled,
  type MachineSet,
  type NamespaceState,
  type SystemEvent,
  SystemModel,
  type SystemState,
} from '../../machines/system.ts';
import type { ExplorableModel } from '../engine/model.ts';
import { packedKey } from '../engine/outcome-memo.ts';
import { RequestOutcomes } from '../engine/request-outcomes.ts';
import { grown } from '../engine/state-store.ts';
import { StepTables } from '../engine/step-tables.ts';

/**
 * What a request into one namespace reads of admission's configuration copy (machines/apiserver.ts):
 * whether the copy is fresh (`configurationFresh`: admission refuses writes on a stale copy), and the
 * configurations and versions it read (`pendingToInject` and `initializerInForce`: the pending list and
 * the policies a created namespace gets). It never reads the seconds since the last read, which only
 * the clock and the properties read: copies that differ only in their age are one id here, so a
 * request's outcome is computed once for them. `checker/model/request-reads.test.ts` compares outcomes
 * keyed so with the request run on each copy, on every state of `quick` and a prefix of `default`.
 */
export class CopyReads {
  /** Per interned copy (the state's `configSync`): the id of what requests read of it, -1 when not yet known. */
  private ids: Int32Array = new Int32Array(0);
  private readonly views = new Map<string, number>();

  constructor(private readonly model: SystemModel) {}

  /** The id for interned copy `copy` when already known, else -1 (then ask `id` with a state). */
  known(copy: number): number {
    return copy < this.ids.length ? this.ids[copy] : -1;
  }

  /** The id of what a request reads of the copy in state `s` (a function of `s.configSync` alone). */
  id(s: SystemState): number {
    const copy = s.configSync;
    if (copy < this.ids.length && this.ids[copy] >= 0) return this.ids[copy];
    const m = this.model;
    const versions = m.configurationVersionsRead(s);
    const view = [
      m.configurationFresh(s) ? 'fresh' : 'stale',
      m.configurationsRead(s).join(','),
      Object.keys(versions)
        .sort()
        .map((name) => `${name}=${versions[name]}`)
        .join(','),
    ].join('|');
    let id = this.views.get(view);
    if (id === undefined) {
      id = this.views.size;
      this.views.set(view, id);
    }
    this.ids = grown(this.ids, copy, -1);
    this.ids[copy] = id;
    return id;
  }
}

/**
 * Whether a request into one namespace reads of the RBAC objects only those of its own namespace (its
 * interned state holds them, and who created it) and the cluster's stored objects: so for the shipped
 * authorization machine, whose RoleBindings grant only inside their own namespace
 * (machines/authorization.ts, `roleBindings`). A variant's machine may count other namespaces'
 * bindings (the seeded faults read `grantedByRoleBindingInOtherNamespace`), so its requests are keyed
 * by the whole RBAC context. `checker/model/request-reads.test.ts` compares outcomes keyed so with the
 * request run in each context, and shows that a seeded fault's machine would break the claim.
 */
export function requestsReadOwnRoleBindings(model: SystemModel): boolean {
  return model.machines.authorization === defaultMachines.authorization;
}

/** The global fields a configuration request writes. */
type ConfigurationGlobals = Pick<SystemState, 'configSync' | 'faults' | 'registeredConfigs'>;

/**
 * The composed system (machines/system.ts) fitted to the engine: the same rules and the same successors
 * in the same order, with a state key for the stores, the local actions' outcomes in step tables and the
 * requests' outcomes in memos (checker/engine/), each keyed by what the step reads. The specification
 * computes every step as written; only this class remembers.
 */
export class CheckedSystemModel extends SystemModel implements ExplorableModel<SystemState, SystemEvent> {
  /**
   * What a request reads and writes: a request into one namespace reads that namespace, what requests
   * read of the configuration copy (`CopyReads`) and the RoleBindings (those of its own namespace and
   * the cluster's objects only, `requestsReadOwnRoleBindings`), and writes that namespace; a configuration request reads
   * the copy, faults, store and RoleBindings, and writes those global fields. Its outcome is
   * remembered under these reads (checker/engine/request-outcomes.ts). Keyed instead by the whole
   * global context the action footprints declare (the step tables' `context`), the same counts came
   * with a quick search about half as slow again: a request reads less than its action's footprint.
   */
  private readonly outcomes = new RequestOutcomes<
    SystemState,
    SystemEvent,
    NamespaceState,
    ConfigurationGlobals
  >({
    // Namespace states are interned below 2^20; the copy's reads and the RoleBinding mask below 2^16.
    namespacedBits: [20, 16, 16],
    namespacedReads: (s, ns) => [
      s.namespaces[ns].id,
      this.copyReads.id(s),
      this.ownRoleBindings ? (s.clusterObjects ?? 0) : this.authorizer.roleBindingMask(s),
    ],
    namespaceOf: (s, ns) => s.namespaces[ns],
    withNamespace: (s, ns, state) => this.withNamespaceState(s, ns, state),
    globalReads: (s) => [s.configSync, s.faults, s.registeredConfigs, this.authorizer.roleBindingMask(s)],
    globalsOf: ({ configSync, faults, registeredConfigs }) => ({ configSync, faults, registeredConfigs }),
    withGlobals: (s, globals) => ({ ...s, ...globals }),
    wroteOnlyGlobals: (before, after) =>
      after.namespaces === before.namespaces && after.initializers === before.initializers,
  });
  /** Requests into one namespace read its RBAC objects only (`requestsReadOwnRoleBindings`). */
  readonly ownRoleBindings: boolean = requestsReadOwnRoleBindings(this);
  /** What a request into one namespace reads of the configuration copy, as an id. */
  readonly copyReads: CopyReads = new CopyReads(this);
  /** Each command's memo id: equal requests from the same actor share one (checker/engine/outcome-memo.ts). */
  private readonly requestIds = new WeakMap<RequestCommand, number>();

  /** Each local action's outcomes, memoized by (its namespace's state, the global context) (checker/engine/step-tables.ts). */
  readonly stepTables: StepTables<CheckedSystemModel, SystemState, NamespaceState, SystemEvent>;

  constructor(scope: Scope, machines: MachineSet = defaultMachines) {
    super(scope, machines);
    // A table per local action the list declares: per kind, as many actors as its highest index says.
    const actors: number[] = [];
    for (const a of this.actions)
      if (a.type === 'local') actors[a.kind] = Math.max(actors[a.kind] ?? 0, a.k + 1);
    this.stepTables = new StepTables<CheckedSystemModel, SystemState, NamespaceState, SystemEvent>(
      this,
      Array.from(actors, (count) => count ?? 0),
      scope.namespaces.length,
      (s) => this.authorizer.roleBindingMask(s),
      // The initializer controllers' snapshots: each read by its own controller's actions only.
      ['initializers'],
      // A list across namespaces reads each one's listing (NamespaceListing), not its timer or pending list.
      (ns) => {
        const { exists, initialized, content } = this.listing(ns);
        return `${+exists}${+initialized}.${content}`;
      },
    );
  }

  /** A state is its global lanes, its namespaces' interned states and its controllers' snapshots. */
  key(s: SystemState): string {
    return packedKey([
      s.configSync,
      s.faults,
      s.registeredConfigs,
      ...s.namespaces.map((ns) => ns.id),
      ...s.initializers,
      // Only in a scope with requestable cluster objects (D-23): other scopes' keys stay as they were.
      ...(s.clusterObjects === undefined ? [] : [s.clusterObjects]),
    ]);
  }

  /** The same successors as the specification's, in its order, local and list actions from the step tables. */
  override enabled(s: SystemState): Enabled[] {
    const out: Enabled[] = [];
    this.stepTables.enabledSteps(this.actions, s, s.initializers, out);
    return out;
  }

  /** Performs a request as the specification does; its outcome is remembered under what it reads. */
  override perform(s: SystemState, command: RequestCommand): Enabled {
    const { request } = command;
    const uncached = () => super.perform(s, command);
    // A cluster object request reads the RBAC context and writes only `clusterObjects`: not remembered.
    if (request.target === 'cluster-object') return uncached();
    if (request.target !== 'configuration' && request.namespace < 0) return uncached();
    let id = this.requestIds.get(command);
    if (id === undefined) {
      id = this.outcomes.id({ actor: command.actor, actorKind: command.actorKind, request });
      this.requestIds.set(command, id);
    }
    if (request.target === 'configuration') return this.outcomes.onGlobals(s, id, uncached);
    return this.outcomes.inNamespace(s, request.namespace, id, uncached);
  }
}

/** The composed system as the checker explores it, for a scope and (by default) the machines as written. */
export function systemModel(scope: Scope, machines: MachineSet = defaultMachines): CheckedSystemModel {
  return new CheckedSystemModel(scope, machines);
}
