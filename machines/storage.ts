import {
  alreadyExists,
  conflict,
  forbidden,
  type HttpOutcome,
  invalidObject,
  notFound,
  type RequestSubject,
  serverTimeout,
} from './http.ts';

/**
 * Why storage refuses a request admission let through: validation (NS-1, LC-2, LC-6), existence, the
 * namespace machine ignoring the event (D-18), and the fail-open rule for new configurations (FP-3).
 * One literal per answer, so the wire text lives here only.
 */
export type StorageRefusal =
  | 'namespaceAlreadyExists'
  | 'generatedNameTaken'
  | 'namespaceNameInvalid'
  | 'namespaceNotFound'
  | 'namespaceDeleteRefused'
  | 'namespacePreconditionFailed'
  | 'contentPreconditionFailed'
  | 'pendingNotFirst'
  | 'initializersImmutable'
  | 'failureWhileNotInitializing'
  | 'finalizerNamesInvalid'
  | 'finalizerAddedWhileDeleting'
  | 'metadataFinalizerAddedWhileDeleting'
  | 'contentInvalid'
  | 'escalationForbidden'
  | 'roleRefNotFound'
  | 'contentAlreadyExists'
  | 'contentNotFound'
  | 'createOnUpdateForbidden'
  | 'configurationInvalid'
  | 'configurationAlreadyExists'
  | 'configurationNotFound';

/** What a storage answer names; `what` kept for answers the model defines itself. */
export type StorageSubject = RequestSubject;

/** `configmaps`, or `rolebindings.rbac.authorization.k8s.io` outside the core group. */
const qualified = (s: StorageSubject) => (s.group ? `${s.resource}.${s.group}` : s.resource);

/** Go's %#v of a []string, as ValidateNoNewFinalizers prints it. */
const goStrings = (values: readonly string[]) =>
  `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;

/**
 * D-46: the model keeps no uid or resourceVersion, so a 409 for an unmet precondition names the stored
 * value by what it is: one no answer of the model has told a client.
 */
const storedValue = (field: 'UID' | 'ResourceVersion') => `<the stored object's ${field}>`;

/** How each storage refusal reads on the wire; a Record, so a refusal without its text fails the typecheck. */
export const storageResponse: Record<StorageRefusal, (s: StorageSubject) => HttpOutcome> = {
  // NS-3, D-15: Store.Create prefixes `object is being deleted: ` when the stored object is deleted.
  namespaceAlreadyExists: (s) =>
    alreadyExists(
      `${s.beingDeleted ? 'object is being deleted: ' : ''}namespaces "${s.name}" already exists`,
    ),
  // NS-3 (D-45): shipped CheckGeneratedNameError turns the AlreadyExists of a generated name into try-again.
  generatedNameTaken: () =>
    serverTimeout(
      'The POST operation against Namespace could not be completed at this time, please try again.',
    ),
  // NS-1, LC-2 (D-1, D-13)
  namespaceNameInvalid: (s) => invalidObject('Namespace', s.name, s.errors ?? []),
  namespaceNotFound: (s) => notFound(`namespaces "${s.name}" not found`),
  // LC-3 (D-4): only a design where the namespace machine refuses DELETE reaches it (model-defined text).
  namespaceDeleteRefused: (s) =>
    conflict(`namespaces "${s.name}": the namespace refuses deletion in its phase`),
  // LC-3 (D-46): namespace storage's REST.Delete compares the preconditions right after its Get.
  namespacePreconditionFailed: (s) =>
    conflict(
      `Operation cannot be fulfilled on namespaces ${JSON.stringify(s.name)}: Precondition failed: ${s.precondition?.field ?? 'UID'} in precondition: ${s.precondition?.sent ?? ''}, ${s.precondition?.field ?? 'UID'} in object meta: ${storedValue(s.precondition?.field ?? 'UID')}`,
    ),
  // LC-5 (D-46): rest.BeforeDelete checks them first, named by the kind (GroupResource{group, Kind}).
  contentPreconditionFailed: (s) =>
    conflict(
      `Operation cannot be fulfilled on ${s.kind ?? s.resource} ${JSON.stringify(s.name)}: the ${s.precondition?.field ?? 'UID'} in the precondition (${s.precondition?.sent ?? ''}) does not match the ${s.precondition?.field ?? 'UID'} in record (${storedValue(s.precondition?.field ?? 'UID')}). ${s.precondition?.field === 'ResourceVersion' ? 'The object might have been modified' : 'The object might have been deleted and then recreated'}`,
    ),
  // IN-2 (D-18, model-defined)
  pendingNotFirst: (s) =>
    invalidObject('Namespace', s.name, [
      `spec.initializers.pending: Forbidden: only the first pending initializer may complete; ${JSON.stringify(s.firstPending ?? '')} is pending before ${JSON.stringify(s.changed?.[0] ?? '')}`,
    ]),
  // IN-4 (D-18, shipped ValidateInitializersUpdate)
  initializersImmutable: (s) =>
    invalidObject('Namespace', s.name, [
      'spec.initializers: Invalid value: "null": field is immutable once initialization has completed',
    ]),
  // IN-7 (D-18): a result once initialization ended is a change of an immutable field.
  failureWhileNotInitializing: (s) =>
    invalidObject('Namespace', s.name, [
      'spec.initializers: Invalid value: "null": field is immutable once initialization has completed',
    ]),
  // LC-2 (D-13)
  finalizerNamesInvalid: (s) => invalidObject('Namespace', s.name, s.errors ?? []),
  // LC-6 (D-12)
  finalizerAddedWhileDeleting: (s) =>
    invalidObject('Namespace', s.name, [
      `spec.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${goStrings(s.changed ?? [])}`,
    ]),
  // LC-7 (D-46): shipped ValidateObjectMetaUpdate on metadata.finalizers.
  metadataFinalizerAddedWhileDeleting: (s) =>
    invalidObject('Namespace', s.name, [
      `metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${goStrings(s.changed ?? [])}`,
    ]),
  // RB-4, RB-5 (D-23): ConfirmNoEscalation's error, wrapped by NewForbidden.
  escalationForbidden: (s) =>
    forbidden(`${qualified(s)} ${JSON.stringify(s.name)} is forbidden: ${s.detail ?? ''}`),
  // RB-4 (D-23): GetRoleReferenceRules answers NotFound for the role a binding names.
  roleRefNotFound: (s) => notFound(s.detail ?? `${qualified(s)} ${JSON.stringify(s.name)} not found`),
  // NS-3: ValidateObjectMeta and the kind's own validation, named by the kind as NewInvalid names it.
  contentInvalid: (s) => invalidObject(s.kind ?? s.resource, s.name, s.errors ?? []),
  // NS-3
  contentAlreadyExists: (s) => alreadyExists(`${qualified(s)} ${JSON.stringify(s.name)} already exists`),
  // NS-2 (D-15)
  contentNotFound: (s) => notFound(`${qualified(s)} ${JSON.stringify(s.name)} not found`),
  // RB-4 (D-23): withAuthorization's NewForbidden with the RBAC authorizer's reason, empty on a plain deny.
  createOnUpdateForbidden: (s) => forbidden(`${qualified(s)} ${JSON.stringify(s.name)} is forbidden: `),
  // FP-3 (D-7): one error per bad name or fail-closed entry, indexed.
  configurationInvalid: (s) =>
    invalidObject(
      `${s.kind ?? 'NamespaceInitializerConfiguration'}.admissionregistration.k8s.io`,
      s.name,
      s.errors ?? [],
    ),
  // NS-3: one configuration per name and kind.
  configurationAlreadyExists: (s) =>
    alreadyExists(`${qualified(s)} ${JSON.stringify(s.name)} already exists`),
  configurationNotFound: (s) => notFound(`${qualified(s)} ${JSON.stringify(s.name)} not found`),
};
