import type { PipelineFacts } from '../machines/pipeline.ts';

/** A content read by an authorized caller in an initialized namespace, admitted: served. */
export const pipelineFacts = (overrides: Partial<PipelineFacts> = {}): PipelineFacts => ({
  operation: 'get',
  target: 'content',
  status: false,
  authorized: true,
  changesInitializers: false,
  recordsFailure: false,
  namespaceExists: true,
  namespaceInitialized: true,
  namespaceTerminating: false,
  callerMayInitialize: false,
  bodyNameMatchesPath: true,
  bodyDecodable: true,
  dataValid: true,
  bodyNamespaceMatchesPath: true,
  admission: { kind: 'admitted', pending: 'none' },
  objectValid: true,
  escalation: 'allowed',
  namespaceMachine: 'none',
  initializerChange: 'none',
  contentPresent: true,
  configurationExists: false,
  collection: false,
  generatedName: false,
  ...overrides,
});
