import type { AdmissionFacts } from '../machines/admission.ts';

/** A content read by an authorized caller in an Active namespace, configuration fresh: admitted. */
export const admissionFacts = (overrides: Partial<AdmissionFacts> = {}): AdmissionFacts => ({
  operation: 'get',
  target: 'content',
  configurationFresh: true,
  namespaceExists: true,
  namespaceTerminating: false,
  namespaceImmortal: false,
  callerMayInitialize: false,
  changesInitializers: false,
  createCarriesInitializers: false,
  ...overrides,
});
