import { Interner, KeyedCache } from '../checker/engine/caches.ts';
import { type AuthorizationMachine, authorizationFacts, authorizationMachine } from './authorization.ts';
import { clusterAdminBinding, resolveClusterRoles } from './bootstrap-rbac.ts';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, RoleRef, Subject } from './k8s-types.ts';
import {
  type AuthorizationAttributes,
  type CompiledAuthorizer,
  clusterRoleBinding,
  compileAuthorizer,
  type RbacPolicy,
  roleBinding,
  type User,
} from './rbac.ts';
import { type EscalationVerdict, escalationVerdict } from './rbac-escalation.ts';
import type { ClusterObjectSpec, NamespaceSpec, ObjectSlot, Scope, SubjectSpec } from './scope.ts';
import { MachineStepper } from './stepper.ts';

/** One request as RBAC sees it, plus the namespace slot it addresses (-1: cluster-wide). */
export interface AuthorizationRequest extends AuthorizationAttributes {
  user: User;
  namespaceSlot: number;
  /** An update of a namespace that changes spec.initializers (pending or result) and nothing else. */
  onlyInitializers?: boolean;
}

/**
 * D-17: what RBAC is asked, in order; the first grant wins, else the first answer stands. A request
 * is asked with its own verb. An update of a namespace that only changes spec.initializers (an
 * initializer removing itself or recording a failure) may also pass with the verb `initialize`, so
 * document 000's `namespace-initializer` ClusterRole alone lets a controller complete, while a caller
 * holding `update` but not `initialize` still reaches admission's refusal, as shipped.
 */
export function rbacAttributes(request: AuthorizationRequest): AuthorizationAttributes[] {
  const { user: _user, namespaceSlot: _slot, onlyInitializers, ...attrs } = request;
  if (onlyInitializers && attrs.resource === 'namespaces' && attrs.verb === 'update' && !attrs.subresource)
    return [attrs, { ...attrs, verb: 'initialize' }];
  return [attrs];
}

const allowedEscalation: EscalationVerdict = { kind: 'allowed' };

/**
 * RB-4: an authorization decision is final and is one of two: allowed, naming the rule that granted
 * it, or denied, naming none (authorization.ts's AuthorizationDecision). A machine that stops anywhere
 * else, or allows without a grant, is refused here rather than read as a denial.
 */
function outcomeOf(snapshot: { status: string; value: unknown; context: { grantedBy?: string } }): boolean {
  const { status, value, context } = snapshot;
  if (status === 'done' && value === 'allowed' && context.grantedBy !== undefined) return true;
  if (status === 'done' && value === 'denied' && context.grantedBy === undefined) return false;
  throw new Error(
    `authorization machine stopped in ${JSON.stringify(value)} (status ${status}, grant ${context.grantedBy ?? 'none'}): a decision ends in allowed with its grant, or in denied without one`,
  );
}

/** The part of a system state authorization reads: which content objects each namespace holds. */
interface WithContent {
  namespaces: readonly NamespaceContent[];
  /** The scope's requestable ClusterRoles and ClusterRoleBindings stored, bit k for slot k (D-23). */
  clusterObjects?: number;
}
/** One namespace as authorization reads it: its content and, in the system model, its lifecycle snapshot. */
interface NamespaceContent {
  content: number;
  lifecycle?: number;
}

/**
 * Who created a namespace, as the state records it (D-34): `$creator` subjects name this user. Without
 * it (tests that build bare states) the scope's declared creator stands in.
 */
export type CreatorOf = (ns: NamespaceContent, index: number) => string | undefined;

/** The RBAC input of a decision besides the scope's fixed part: RBAC objects present, and `$creator`s. */
interface RbacContext {
  mask: number;
  /** The requestable cluster objects stored (bit k: the scope's `clusterObjects[k]`). */
  cluster: number;
  /** Per namespace, who `$creator` names there (only where a `$creator` binding is present). */
  creators: readonly (string | undefined)[];
}

const rbacGroup = 'rbac.authorization.k8s.io';

/** A scope's subject as RBAC's; `$creator` is who created the namespace the binding sits in. */
function toSubject(s: SubjectSpec, ns?: NamespaceSpec, creator?: string): Subject | undefined {
  const name = s.name === '$creator' ? creator : s.name;
  if (!name) return undefined;
  if (s.kind === 'ServiceAccount') {
    // A ClusterRoleBinding's ServiceAccount without a namespace never matches (shipped appliesTo).
    const namespace = s.namespace ?? ns?.name;
    return namespace ? { kind: 'ServiceAccount', name, namespace } : { kind: 'ServiceAccount', name };
  }
  return { kind: s.kind, apiGroup: rbacGroup, name };
}

/** A requestable ClusterRole as RBAC evaluates it. */
function clusterRoleOf(o: ClusterObjectSpec): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: o.name },
    rules: o.rules ?? [],
  };
}

/** A requestable ClusterRoleBinding as RBAC evaluates it (a ServiceAccount subject names its namespace). */
function clusterRoleBindingOf(o: ClusterObjectSpec): ClusterRoleBinding {
  return clusterRoleBinding(
    o.name,
    o.clusterRole ?? '',
    (o.subjects ?? []).flatMap((s) => toSubject(s) ?? []),
  );
}

/** The subjects of a RoleBinding slot, in manifest order. */
function slotSubjects(binding: NonNullable<ObjectSlot['roleBinding']>): SubjectSpec[] {
  return [
    {
      kind: binding.subjectKind ?? 'User',
      name: binding.subject,
      ...(binding.subjectNamespace ? { namespace: binding.subjectNamespace } : {}),
    },
    ...(binding.moreSubjects ?? []),
  ];
}

/**
 * RB-1..RB-6 inside the system. Fixed for a run: the bootstrap ClusterRoles (bootstrap-rbac.ts) with
 * the scope's own, the bootstrap `cluster-admin` binding and the scope's ClusterRoleBindings. Content
 * of the store: Roles and RoleBindings in namespaces, which grant from their creation until their
 * deletion. Facts come from rbac.ts, the decision from the authorization machine (stepped, so it is
 * covered and can be replaced by a variant); both are memoized per set of RBAC objects present.
 */
export class RequestAuthorizer {
  readonly stepper: MachineStepper<AuthorizationMachine>;
  readonly clusterRoles: readonly ClusterRole[];
  private readonly staticBindings: ClusterRoleBinding[];
  /** The object slots that are Roles or RoleBindings: bit (namespace * count + k) of the mask. */
  private readonly rbacSlots: { slot: number; object: ObjectSlot }[];
  // Memoized by the engine's caches (checker/engine/caches.ts), keyed by the RBAC context and the question.
  private readonly compiled = new KeyedCache<number, CompiledAuthorizer>();
  private readonly decisions = new KeyedCache<string, { allowed: boolean; transitions: string[] }>();
  private readonly escalations = new KeyedCache<string, EscalationVerdict>();
  /** Per namespace, the mask bits of RoleBindings with a `$creator` subject there (0: none). */
  private readonly creatorBits: number[];
  /** Interned RBAC contexts, when some binding names `$creator`: the id is what `roleBindingMask` returns. */
  private readonly contexts = new Interner<RbacContext>();
  private readonly creatorOf: CreatorOf;
  /** Some RoleBinding names `$creator`: contexts are then interned ids, else the mask itself. */
  private readonly namesCreator: boolean;
  /** ClusterRoles and ClusterRoleBindings users may request (D-23): contexts are then interned ids too. */
  private readonly clusterObjects: readonly ClusterObjectSpec[];
  private readonly interned: boolean;

  constructor(
    readonly scope: Scope,
    readonly objects: readonly ObjectSlot[],
    readonly machine: AuthorizationMachine = authorizationMachine,
    creatorOf?: CreatorOf,
  ) {
    this.creatorOf = creatorOf ?? ((_, i) => scope.namespaces[i]?.creator);
    this.stepper = new MachineStepper(machine);
    this.clusterRoles = resolveClusterRoles(scope.clusterRoles);
    this.staticBindings = [
      clusterAdminBinding,
      ...scope.clusterRoleBindings.map((b) =>
        clusterRoleBinding(
          b.name,
          b.clusterRole,
          b.subjects.flatMap((s) => toSubject(s) ?? []),
        ),
      ),
    ];
    this.rbacSlots = objects
      .map((object, slot) => ({ slot, object }))
      .filter(({ object }) => object.roleBinding || object.role || object.byNamespace);
    const bits = this.rbacSlots.length * scope.namespaces.length;
    if (bits > 30)
      throw new Error(
        `scope ${scope.name}: ${this.rbacSlots.length} Role/RoleBinding objects × ${scope.namespaces.length} namespaces need ${bits} bits; the RBAC mask holds 30 — use fewer RBAC objects or namespaces`,
      );
    const count = this.rbacSlots.length;
    this.creatorBits = scope.namespaces.map((ns, i) =>
      this.rbacSlots.reduce((bitsOf, { object }, k) => {
        const rb = (object.byNamespace?.[ns.name] ?? object).roleBinding;
        const namesCreator =
          rb !== undefined && slotSubjects(rb).some((subject) => subject.name === '$creator');
        return namesCreator ? bitsOf | (1 << (i * count + k)) : bitsOf;
      }, 0),
    );
    this.namesCreator = this.creatorBits.some((b) => b !== 0);
    this.clusterObjects = scope.clusterObjects ?? [];
    for (const o of this.clusterObjects) {
      const fixed =
        o.kind === 'ClusterRole'
          ? this.clusterRoles.some((r) => r.metadata.name === o.name)
          : this.staticBindings.some((b) => b.metadata.name === o.name);
      if (fixed)
        throw new Error(
          `scope ${scope.name}: cluster object ${o.kind}/${o.name} has the name of a fixed ${o.kind}; give the requestable one its own name`,
        );
    }
    this.interned = this.namesCreator || this.clusterObjects.length > 0;
  }

  /**
   * The whole RBAC input of a decision besides the scope's fixed part, as one number: which Roles and
   * RoleBindings exist (bit namespace * count + k for the k-th RBAC object slot) and, when one of them
   * names `$creator`, who created that namespace (then an interned id, not the bits themselves).
   */
  roleBindingMask(s: WithContent): number {
    const mask = this.presentMask(s);
    if (!this.interned) return mask;
    const creators = this.creatorBits.map((bitsOf, i) =>
      (mask & bitsOf) === 0 ? undefined : this.creatorOf(s.namespaces[i], i),
    );
    const cluster = s.clusterObjects ?? 0;
    return this.contexts.id(`${mask}|${cluster}|${creators.join(',')}`, () => ({ mask, cluster, creators }));
  }

  /** The RBAC context an id of `roleBindingMask` stands for. */
  private contextOf(id: number): RbacContext {
    return this.interned ? this.contexts.values[id] : { mask: id, cluster: 0, creators: [] };
  }

  /** Which Roles and RoleBindings exist: bit (namespace * count + k) for the k-th RBAC object slot. */
  private presentMask(s: WithContent): number {
    let mask = 0;
    const count = this.rbacSlots.length;
    if (count === 0) return 0;
    s.namespaces.forEach((ns, i) => {
      if (ns.content === 0) return;
      this.rbacSlots.forEach(({ slot }, k) => {
        if (ns.content & (1 << slot)) mask |= 1 << (i * count + k);
      });
    });
    return mask;
  }

  /** The RBAC objects in force for a context, as manifests: what RBAC evaluates. */
  policyFor({ mask, cluster, creators }: RbacContext): RbacPolicy {
    const roles: Role[] = [];
    const roleBindings: RoleBinding[] = [];
    const count = this.rbacSlots.length;
    this.scope.namespaces.forEach((ns, i) => {
      this.rbacSlots.forEach(({ object }, k) => {
        if (!(mask & (1 << (i * count + k)))) return;
        const definition = object.byNamespace?.[ns.name] ?? object;
        if (definition.role)
          roles.push({
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'Role',
            metadata: { name: object.name, namespace: ns.name },
            rules: definition.role.rules,
          });
        const rb = definition.roleBinding;
        if (!rb) return;
        const subjects = slotSubjects(rb).flatMap((subject) => toSubject(subject, ns, creators[i]) ?? []);
        if (subjects.length === 0) return;
        roleBindings.push(
          roleBinding(
            ns.name,
            object.name,
            { apiGroup: rbacGroup, kind: rb.roleKind ?? 'ClusterRole', name: rb.clusterRole },
            subjects,
          ),
        );
      });
    });
    // The requestable cluster objects stored (D-23) count like the fixed ones.
    const stored = this.clusterObjects.filter((_, k) => (cluster & (1 << k)) !== 0);
    return {
      clusterRoles: [
        ...this.clusterRoles,
        ...stored.flatMap((o) => (o.kind === 'ClusterRole' ? [clusterRoleOf(o)] : [])),
      ],
      roles,
      clusterRoleBindings: [
        ...this.staticBindings,
        ...stored.flatMap((o) => (o.kind === 'ClusterRoleBinding' ? [clusterRoleBindingOf(o)] : [])),
      ],
      roleBindings,
    };
  }

  private compiledFor(mask: number): CompiledAuthorizer {
    let compiled = this.compiled.find(mask);
    if (compiled) return compiled;
    compiled = compileAuthorizer(this.policyFor(this.contextOf(mask)));
    this.compiled.set(mask, compiled);
    return compiled;
  }

  /** The RBAC objects in force in a state (for explanations and tests). */
  policyAt(s: WithContent): RbacPolicy {
    return this.compiledFor(this.roleBindingMask(s)).policy;
  }

  authorize(s: WithContent, request: AuthorizationRequest): { allowed: boolean; transitions: string[] } {
    const mask = this.roleBindingMask(s);
    const [own, ...alternatives] = rbacAttributes(request);
    const first = this.decide(mask, request.user, own);
    if (first.allowed) return first;
    for (const attrs of alternatives) {
      const decision = this.decide(mask, request.user, attrs);
      if (decision.allowed) return decision;
    }
    return first;
  }

  /** One RBAC question through the authorization machine, memoized per (RBAC objects, question). */
  private decide(
    mask: number,
    user: User,
    attrs: AuthorizationAttributes,
  ): { allowed: boolean; transitions: string[] } {
    const key = `${mask}|${user.name}|${user.groups.join(',')}|${attrs.verb}|${attrs.apiGroup ?? ''}|${attrs.resource}|${attrs.subresource ?? ''}|${attrs.namespace ?? ''}|${attrs.name ?? ''}`;
    let decision = this.decisions.find(key);
    if (decision) return decision;
    const facts = authorizationFacts(this.compiledFor(mask), user, attrs);
    const step = this.stepper.step(this.stepper.initial, { type: 'AUTHORIZE', facts });
    decision = { allowed: outcomeOf(this.stepper.snapshot(step.next)), transitions: step.transitions };
    this.decisions.set(key, decision);
    return decision;
  }

  /**
   * RB-4, RB-5 (D-23): the escalation check of a create or update of the Role or RoleBinding in object
   * slot `objectSlot` of namespace `namespaceSlot`; allowed for any other object.
   */
  escalation(s: WithContent, user: User, namespaceSlot: number, objectSlot: number): EscalationVerdict {
    const object = this.objects[objectSlot];
    const ns = this.scope.namespaces[namespaceSlot];
    if (!object || !ns) return allowedEscalation;
    const definition = object.byNamespace?.[ns.name] ?? object;
    const rb = definition.roleBinding;
    if (!rb && !definition.role) return allowedEscalation;
    const mask = this.roleBindingMask(s);
    const key = `${mask}|${user.name}|${user.groups.join(',')}|${namespaceSlot}|${objectSlot}`;
    let verdict = this.escalations.find(key);
    if (verdict) return verdict;
    const policy = this.compiledFor(mask).policy;
    const roleRef: RoleRef | undefined = rb
      ? { apiGroup: rbacGroup, kind: rb.roleKind ?? 'ClusterRole', name: rb.clusterRole }
      : undefined;
    // BindingAuthorized / RoleEscalationAuthorized: the authorizer decides `bind` and `escalate`.
    const mayBindOrEscalate = this.authorize(s, {
      user,
      verb: roleRef ? 'bind' : 'escalate',
      apiGroup: rbacGroup,
      resource: roleRef ? (roleRef.kind === 'ClusterRole' ? 'clusterroles' : 'roles') : 'roles',
      name: roleRef ? roleRef.name : object.name,
      namespace: ns.name,
      namespaceSlot,
    }).allowed;
    verdict = escalationVerdict(
      policy,
      user,
      ns.name,
      roleRef ? { roleRef } : { rules: definition.role?.rules ?? [] },
      mayBindOrEscalate,
    );
    this.escalations.set(key, verdict);
    return verdict;
  }

  /**
   * RB-4, RB-5 (D-23) at the cluster scope: the escalation check of a create or update of the scope's
   * cluster object `slot`, as shipped clusterrole/clusterrolebinding policybased storage runs it: the
   * author must hold every rule granted (cluster-wide grants only), or may `escalate` clusterroles (a
   * ClusterRole) or `bind` the ClusterRole a binding names.
   */
  clusterEscalation(s: WithContent, user: User, slot: number): EscalationVerdict {
    const object = this.clusterObjects[slot];
    if (!object) return allowedEscalation;
    const roleRef: RoleRef | undefined =
      object.kind === 'ClusterRoleBinding'
        ? { apiGroup: rbacGroup, kind: object.roleKind ?? 'ClusterRole', name: object.clusterRole ?? '' }
        : undefined;
    const mayBindOrEscalate = this.authorize(s, {
      user,
      verb: roleRef ? 'bind' : 'escalate',
      apiGroup: rbacGroup,
      resource: roleRef?.kind === 'Role' ? 'roles' : 'clusterroles',
      name: roleRef ? roleRef.name : object.name,
      namespaceSlot: -1,
    }).allowed;
    // Not remembered here: a cluster object request is performed each time (machines/system.ts).
    return escalationVerdict(
      this.policyAt(s),
      user,
      '',
      roleRef ? { roleRef } : { rules: object.rules ?? [] },
      mayBindOrEscalate,
    );
  }

  /** The caller holds `initialize` on this namespace (IN-3, IN-6; RB-3 grants it cluster-wide). */
  mayInitialize(s: WithContent, user: User, namespaceSlot: number): boolean {
    const name = namespaceSlot >= 0 ? this.scope.namespaces[namespaceSlot].name : undefined;
    return this.authorize(s, {
      user,
      verb: 'initialize',
      resource: 'namespaces',
      ...(name ? { name } : {}),
      namespaceSlot,
    }).allowed;
  }
}
