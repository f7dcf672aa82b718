import type { InitializerSpec, PrincipalSpec, Scope } from '../../machines/scope.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { CompiledSystem } from '../model/compiled.ts';
import { exploreCompiled } from '../model/compiled-explore.ts';
import { StateSymmetry, symmetryOf } from '../model/symmetry.ts';
import { systemModel } from '../model/system-model.ts';

/** One axis of growth: how many tenant namespaces, principals and initializers a scope has. */
export interface GrowthShape {
  namespaces: number;
  principals: number;
  initializers: number;
}

/**
 * A small scope of the given shape, built on the default scope's RBAC: tenant namespaces `ns-1..` that
 * alice may create, delete and fill; principals `user-2..` who may create namespaces
 * and read content in them; initializers `init-1..` in one configuration, the first binding the
 * creator as admin (so content can be created), the others each creating a ConfigMap. No faults and no finalizer owners, so each axis is measured on its own.
 */
export function growthScope(shape: GrowthShape): Scope {
  const base = scopeByName('default');
  const namespaces = Array.from({ length: shape.namespaces }, (_, i) => ({
    name: `ns-${i + 1}`,
    creator: 'alice',
  }));
  const names = namespaces.map((ns) => ns.name);
  const tenant = (name: string, requests: PrincipalSpec['requests']): PrincipalSpec => ({
    name,
    groups: ['teams@corp.com', 'system:authenticated'],
    tenant: true,
    namespaces: names,
    requests,
  });
  const principals = [
    tenant('alice', ['create-namespace', 'create-content', 'delete-namespace']),
    ...Array.from({ length: shape.principals - 1 }, (_, i) =>
      tenant(`user-${i + 2}`, ['create-namespace', 'get-content']),
    ),
  ];
  const initializers: InitializerSpec[] = Array.from({ length: shape.initializers }, (_, i) => ({
    name: `init-${i + 1}.example.com`,
    failurePolicy: 'Ignore',
    timeoutSeconds: 3,
    // The first, as document 000's policy initializer, makes the creator admin inside: content follows.
    populates:
      i === 0
        ? {
            resource: 'rolebindings',
            name: 'namespace-admin',
            roleBinding: { clusterRole: 'admin', subject: '$creator' },
          }
        : { resource: 'configmaps', name: `init-${i + 1}` },
    canFail: false,
  }));
  return {
    ...base,
    name: `growth-${shape.namespaces}ns-${shape.principals}p-${shape.initializers}i`,
    description: 'A generated scope for measuring state-space growth (docs/performance.md).',
    namespaces,
    principals,
    configurations: [{ name: '10-growth', initializers, registered: 'initially' }],
    content: [{ resource: 'configmaps', name: 'app' }],
    finalizerOwners: [],
    faults: { initializerCrash: false, configReadFailure: false, apiserverRestart: false },
    intent: undefined,
    // The tenants differ only in name (same creator, same rights): interchangeable, so declared.
    symmetry: shape.namespaces > 1 ? { namespaces: [names] } : undefined,
  };
}

/**
 * The three axes, each from 1 to `upTo` (namespaces to `namespacesUpTo`, where symmetry shows) with the
 * other two held at their base (2 namespaces, 1 principal, 1 initializer).
 */
export function growthShapes(
  upTo = 4,
  namespacesUpTo = upTo,
): { axis: keyof GrowthShape; shape: GrowthShape }[] {
  const base: GrowthShape = { namespaces: 2, principals: 1, initializers: 1 };
  return (['namespaces', 'principals', 'initializers'] as const).flatMap((axis) =>
    Array.from({ length: axis === 'namespaces' ? namespacesUpTo : upTo }, (_, i) => ({
      axis,
      shape: { ...base, [axis]: i + 1 },
    })),
  );
}

export interface GrowthRow {
  axis: keyof GrowthShape;
  shape: GrowthShape;
  states: number;
  transitions: number;
  depth: number;
  complete: boolean;
  /** The cold compiled search of every state, in seconds. */
  seconds: number;
  /** The same scope under its declared symmetry: orbits searched, the states they stand for, seconds. */
  reduced: { orbits: number; represents: number; order: number; complete: boolean; seconds: number };
}

/** Explores one growth scope on the compiled engine within the limits, without and with its symmetry. */
export function measureGrowth(
  axis: keyof GrowthShape,
  shape: GrowthShape,
  limits: { maxSeconds: number; maxStates: number },
): GrowthRow {
  const scope = growthScope(shape);
  const full = exploreCompiled(new CompiledSystem(systemModel(scope)), limits);
  // A fresh model, so the reduced search pays for its own tables (cold) as the full one did.
  const model = systemModel(scope);
  const symmetry = new StateSymmetry(model, symmetryOf(scope));
  const reduced = exploreCompiled(new CompiledSystem(model), {
    ...limits,
    lanesSymmetry: symmetry.onLanes(),
  });
  return {
    axis,
    shape,
    states: full.states,
    transitions: full.transitions,
    depth: full.depth,
    complete: full.complete,
    seconds: full.durationMs / 1000,
    reduced: {
      orbits: reduced.states,
      represents: reduced.represented?.states ?? reduced.states,
      order: symmetry.order,
      complete: reduced.complete,
      seconds: reduced.durationMs / 1000,
    },
  };
}
