import type { NamespaceState, SystemModel, SystemState } from '../../machines/system.ts';
import type { StateCodec } from '../engine/codec.ts';

/** The lane of namespace slot 0; slot i's interned id is lane `firstNamespaceLane + i`. */
export const firstNamespaceLane = 3;

/**
 * The system state's lanes, in the order of `CheckedSystemModel.key` (system-model.ts): configuration copy, faults, registered
 * configurations, one interned id per namespace, one interned snapshot per initializer controller,
 * and, only in a scope with requestable cluster RBAC objects, the mask of those stored.
 * Namespace ids name the model's own interned `NamespaceState` objects, so decoding allocates only the
 * state object and its two arrays.
 */
export function systemCodec(model: SystemModel): StateCodec<SystemState> {
  const namespaces = model.scope.namespaces.length;
  const initializers = model.initializers.length;
  // A scope with requestable ClusterRoles or ClusterRoleBindings (D-23) has one more lane, last.
  const cluster = (model.scope.clusterObjects?.length ?? 0) > 0;
  const width = 3 + namespaces + initializers + (cluster ? 1 : 0);
  return {
    width,
    encode(s, out, offset) {
      out[offset] = s.configSync;
      out[offset + 1] = s.faults;
      out[offset + 2] = s.registeredConfigs;
      for (let i = 0; i < namespaces; i++) out[offset + 3 + i] = s.namespaces[i].id;
      for (let k = 0; k < initializers; k++) out[offset + 3 + namespaces + k] = s.initializers[k];
      if (cluster) out[offset + width - 1] = s.clusterObjects ?? 0;
    },
    decode(lanes, offset) {
      const ns: NamespaceState[] = new Array(namespaces);
      for (let i = 0; i < namespaces; i++) ns[i] = model.namespaceStateById(lanes[offset + 3 + i]);
      const inits: number[] = new Array(initializers);
      for (let k = 0; k < initializers; k++) inits[k] = lanes[offset + 3 + namespaces + k];
      // Two literals rather than a spread: a spread allocates a second object per decoded state.
      if (!cluster)
        return {
          configSync: lanes[offset],
          faults: lanes[offset + 1],
          registeredConfigs: lanes[offset + 2],
          namespaces: ns,
          initializers: inits,
        };
      return {
        configSync: lanes[offset],
        faults: lanes[offset + 1],
        registeredConfigs: lanes[offset + 2],
        namespaces: ns,
        initializers: inits,
        clusterObjects: lanes[offset + width - 1],
      };
    },
    // CheckedSystemModel.key writes the same lanes as UTF-16 code units.
    lanesOfKey(key) {
      if (key.length !== width) return undefined;
      const lanes = new Uint32Array(width);
      for (let i = 0; i < width; i++) lanes[i] = key.charCodeAt(i);
      return lanes;
    },
  };
}
