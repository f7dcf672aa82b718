import type { InitializerSpec, PrincipalSpec, Scope } from '../../machines/scope.ts';
import { scopeByName } from '../cli/scope-file.ts';
import { explore } from '../engine/explore.ts';
import { systemCodec } from '../model/encoding.ts';
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
    symmetry: undefined,
  };
}

/** The three axes, each from 1 to `upTo` with the other two held at their base (2 namespaces, 1 principal, 1 initializer). */
export function growthShapes(upTo = 4): { axis: keyof GrowthShape; shape: GrowthShape }[] {
  const base: GrowthShape = { namespaces: 2, principals: 1, initializers: 1 };
  return (['namespaces', 'principals', 'initializers'] as const).flatMap((axis) =>
    Array.from({ length: upTo }, (_, i) => ({ axis, shape: { ...base, [axis]: i + 1 } })),
  );
}

export interface GrowthRow {
  axis: keyof GrowthShape;
  shape: GrowthShape;
  states: number;
  transitions: number;
  depth: number;
  complete: boolean;
  seconds: number;
}

/** Explores one growth scope with packed states within the limits. */
export function measureGrowth(
  axis: keyof GrowthShape,
  shape: GrowthShape,
  limits: { maxSeconds: number; maxStates: number },
): GrowthRow {
  const model = systemModel(growthScope(shape));
  const result = explore(model, { ...limits, codec: systemCodec(model) });
  return {
    axis,
    shape,
    states: result.states,
    transitions: result.transitions,
    depth: result.depth,
    complete: result.complete,
    seconds: result.durationMs / 1000,
  };
}
