import { alreadyExists, conflict, type HttpOutcome, invalid, notFound } from './http.ts';
import { invalidObjectMessage } from './names.ts';

/**
 * Why storage refuses a request admission let through: validation (NS-1, LC-2, LC-6), existence, and
 * the namespace machine ignoring the event. One literal per answer, so the wire text lives here only.
 */
export type StorageRefusal =
  | 'namespaceAlreadyExists'
  | 'namespaceNameInvalid'
  | 'namespaceCreateRefused'
  | 'namespaceNotFound'
  | 'namespaceDeleteRefused'
  | 'pendingNotFirst'
  | 'failureWhileNotInitializing'
  | 'finalizerNamesInvalid'
  | 'finalizerAddedWhileDeleting'
  | 'contentAlreadyExists'
  | 'contentNotFound'
  | 'configurationFailClosed';

/** What a storage answer names: the request as described, the object's name, validation errors. */
export interface StorageSubject {
  what: string;
  name: string;
  errors?: readonly string[];
}

/** How each storage refusal reads on the wire; a Record, so a refusal without its text fails the typecheck. */
export const storageResponse: Record<StorageRefusal, (s: StorageSubject) => HttpOutcome> = {
  namespaceAlreadyExists: (s) => alreadyExists(`namespaces "${s.name}" already exists`),
  // NS-1, LC-2 (D-1, D-13)
  namespaceNameInvalid: (s) =>
    invalid(invalidObjectMessage('Namespace', s.name, s.errors ?? []), 'FieldValueInvalid'),
  namespaceCreateRefused: (s) => invalid(`${s.what}: refused by storage`),
  namespaceNotFound: (s) => notFound(`namespaces "${s.name}" not found`),
  namespaceDeleteRefused: (s) => conflict(`${s.what}: refused by storage`),
  // IN-3
  pendingNotFirst: (s) =>
    invalid(`${s.what}: only the first pending initializer may be removed, and only while initializing`),
  // IN-7
  failureWhileNotInitializing: (s) => invalid(`${s.what}: the namespace is not initializing`),
  // LC-2
  finalizerNamesInvalid: (s) => invalid(invalidObjectMessage('Namespace', s.name, s.errors ?? [])),
  // LC-6
  finalizerAddedWhileDeleting: (s) =>
    invalid(
      `Namespace "${s.name}" is invalid: spec.finalizers: Forbidden: no new finalizers can be added if the object is being deleted`,
    ),
  contentAlreadyExists: (s) => alreadyExists(`${s.what}: already exists`),
  contentNotFound: (s) => notFound(`${s.what}: not found`),
  // FP-3
  configurationFailClosed: (s) =>
    invalid(
      `namespaceinitializerconfigurations/${s.name}: new configurations must be fail-open (failurePolicy Ignore)`,
    ),
};
