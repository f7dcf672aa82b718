import { type CheckedSystemModel, systemModel } from '../checker/model/system-model.ts';
import type { Scope } from '../machines/scope.ts';
import { machinesFor } from '../variants/variants.ts';

/** The system model of a seeded fault (or `model`) on a scope, as `verify --variant` builds it. */
export function variantModel(variant: string, scope: Scope): CheckedSystemModel {
  const machines = machinesFor(variant, scope);
  if (!machines) throw new Error(`no variant ${variant}`);
  return systemModel(scope, machines);
}
