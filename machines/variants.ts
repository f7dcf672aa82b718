import { authorizationMachineHonouringForeignRoleBindings } from './authorization.ts';
import { defaultMachines, type MachineSet } from './system.ts';

/**
 * Named variants of the machines: seeded faults (mutants) that some property must catch, and design
 * alternatives of the documents. Each replaces a machine, usually one guard or action through
 * `.provide()`, so the diagrams of the base machines stay the single picture.
 */
export interface Variant {
  name: string;
  kind: 'mutant' | 'design';
  description: string;
  /** Requirement IDs the variant breaks (mutants) or explores (design alternatives). */
  requirements: string[];
  machines: (base: MachineSet) => MachineSet;
}

export const variants: Variant[] = [
  {
    name: 'create-in-terminating',
    kind: 'mutant',
    description: 'Admission lets content be created in a terminating namespace.',
    requirements: ['LC-4'],
    machines: (base) => ({
      ...base,
      admission: base.admission.provide({ guards: { createInTerminatingNamespace: () => false } }),
    }),
  },
  {
    name: 'rolebinding-grants-cluster-wide',
    kind: 'mutant',
    description: 'A RoleBinding grants in every namespace, not only its own.',
    requirements: ['RB-4', 'RB-5'],
    machines: (base) => ({ ...base, authorization: authorizationMachineHonouringForeignRoleBindings }),
  },
];

export const baseVariantName = 'model';

export function variantByName(name: string): Variant | undefined {
  return variants.find((v) => v.name === name);
}

/** The machines of a variant, or of the model itself for `model`. */
export function machinesFor(name: string): MachineSet | undefined {
  if (name === baseVariantName) return defaultMachines;
  const variant = variantByName(name);
  return variant ? variant.machines(defaultMachines) : undefined;
}
