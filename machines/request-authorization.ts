import { type AuthorizationMachine, authorizationMachine } from './authorization.ts';
import type { ClusterRoleBinding, RoleBinding, Subject } from './k8s-types.ts';
import {
  type AuthorizationAttributes,
  builtInClusterRoles,
  type CompiledAuthorizer,
  clusterRoleBinding,
  compileAuthorizer,
  namespaceCreatorClusterRole,
  namespaceInitializerClusterRole,
  type RbacPolicy,
  roleBinding,
  type User,
} from './rbac.ts';
import type { ObjectSlot, Scope } from './scope.ts';
import { MachineStepper } from './stepper.ts';

/** One request as RBAC sees it, plus the namespace slot it addresses (-1: cluster-wide). */
export interface AuthorizationRequest extends AuthorizationAttributes {
  user: User;
  namespaceSlot: number;
}

/** The part of a system state authorization reads: the RoleBindings each namespace holds. */
interface WithContent {
  namespaces: readonly { content: number }[];
}

const rbacGroup = 'rbac.authorization.k8s.io';

function toSubject(s: Scope['clusterRoleBindings'][number]['subjects'][number]): Subject {
  if (s.kind === 'ServiceAccount')
    return { kind: 'ServiceAccount', name: s.name, namespace: s.namespace ?? 'default' };
  return { kind: s.kind, apiGroup: rbacGroup, name: s.name };
}

/**
 * RB-1..RB-6 inside the system: the scope's ClusterRoleBindings are fixed, RoleBindings are content
 * (RB-2's namespace-admin is created by an initializer), so the policy depends on the store. Facts
 * come from rbac.ts, the decision from the authorization machine (stepped, so it is covered and can
 * be replaced by a variant), and both are memoized per set of RoleBindings present.
 */
export class RequestAuthorizer {
  readonly stepper: MachineStepper<AuthorizationMachine>;
  private readonly staticBindings: ClusterRoleBinding[];
  /** Bit positions (namespace * slots + slot) of the object slots that are RoleBindings. */
  private readonly roleBindingSlots: { slot: number; object: ObjectSlot }[];
  private readonly compiled = new Map<number, CompiledAuthorizer>();
  private readonly decisions = new Map<string, { allowed: boolean; transitions: string[] }>();

  constructor(
    readonly scope: Scope,
    readonly objects: readonly ObjectSlot[],
    readonly machine: AuthorizationMachine = authorizationMachine,
  ) {
    this.stepper = new MachineStepper(machine);
    this.staticBindings = scope.clusterRoleBindings.map((b) =>
      clusterRoleBinding(b.name, b.clusterRole, b.subjects.map(toSubject)),
    );
    this.roleBindingSlots = objects
      .map((object, slot) => ({ slot, object }))
      .filter(({ object }) => object.roleBinding);
  }

  /** Which RoleBindings exist, as one number: bit (namespace * count + index). */
  roleBindingMask(s: WithContent): number {
    let mask = 0;
    const count = this.roleBindingSlots.length;
    s.namespaces.forEach((ns, i) => {
      this.roleBindingSlots.forEach(({ slot }, k) => {
        if (ns.content & (1 << slot)) mask |= 1 << (i * count + k);
      });
    });
    return mask;
  }

  private policyFor(mask: number): CompiledAuthorizer {
    let compiled = this.compiled.get(mask);
    if (compiled) return compiled;
    const roleBindings: RoleBinding[] = [];
    const count = this.roleBindingSlots.length;
    this.scope.namespaces.forEach((ns, i) => {
      this.roleBindingSlots.forEach(({ object }, k) => {
        if (!(mask & (1 << (i * count + k))) || !object.roleBinding) return;
        const rb = object.roleBinding;
        const subject = rb.subject === '$creator' ? ns.creator : rb.subject;
        if (!subject) return;
        const kind = rb.subjectKind ?? 'User';
        roleBindings.push(
          roleBinding(
            ns.name,
            object.name,
            { apiGroup: rbacGroup, kind: 'ClusterRole', name: rb.clusterRole },
            [
              kind === 'ServiceAccount'
                ? { kind, name: subject, namespace: rb.subjectNamespace ?? ns.name }
                : { kind, apiGroup: rbacGroup, name: subject },
            ],
          ),
        );
      });
    });
    const policy: RbacPolicy = {
      clusterRoles: [...builtInClusterRoles, namespaceCreatorClusterRole, namespaceInitializerClusterRole],
      roles: [],
      clusterRoleBindings: this.staticBindings,
      roleBindings,
    };
    compiled = compileAuthorizer(policy);
    this.compiled.set(mask, compiled);
    return compiled;
  }

  authorize(s: WithContent, request: AuthorizationRequest): { allowed: boolean; transitions: string[] } {
    const mask = this.roleBindingMask(s);
    const { user, namespaceSlot: _slot, ...attrs } = request;
    const key = `${mask}|${user.name}|${user.groups.join(',')}|${attrs.verb}|${attrs.resource}|${attrs.subresource ?? ''}|${attrs.namespace ?? ''}|${attrs.name ?? ''}`;
    let decision = this.decisions.get(key);
    if (decision) return decision;
    const sources = this.policyFor(mask).grantSources(user, attrs);
    const facts = {
      callerIsSystemMaster: sources.systemMaster,
      grantedByClusterRoleBinding: sources.clusterRoleBinding !== undefined,
      grantedByRoleBindingInRequestNamespace: sources.roleBindingInRequestNamespace !== undefined,
      grantedByRoleBindingInOtherNamespace: sources.roleBindingInOtherNamespace !== undefined,
    };
    const step = this.stepper.step(this.stepper.initial, { type: 'AUTHORIZE', facts });
    decision = { allowed: this.stepper.value(step.next) === 'allowed', transitions: step.transitions };
    this.decisions.set(key, decision);
    return decision;
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
