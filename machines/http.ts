/** The HTTP answer to a request, as the apiserver sends it (status code, reason, cause, message). */
export interface HttpOutcome {
  code: number;
  reason: string;
  cause?: string;
  message?: string;
}

/** What a refusal message names: `configmaps "app"` or `namespaces "team-a"`, and the namespace. */
export interface Addressed {
  resource: string;
  name: string;
  namespace: string;
}

/** Everything a response's text may name: the object addressed, who asked for what, validation errors. */
export interface RequestSubject extends Addressed {
  /** API group of the resource; empty for the core group. */
  group?: string;
  subresource?: string;
  /** The RBAC verb of the request (`update` for finalize). */
  verb?: string;
  user?: string;
  /** Field errors, rendered as NewInvalid renders them (`<path>: Invalid value: ...`). */
  errors?: readonly string[];
  /** The first pending initializer, for D-18's out-of-order message. */
  firstPending?: string;
  /** The initializer an update removes, or finalizers a finalize adds (D-18, D-12). */
  changed?: readonly string[];
  /** The stored namespace has a deletion timestamp (D-15's `object is being deleted: `). */
  beingDeleted?: boolean;
  /** The object's kind, for a 422 that names it (`InitializerConfiguration`). */
  kind?: string;
  /** metadata.name as the body sent it, for D-38's 400 when it is not the path's. */
  bodyName?: string;
  /** Why the body does not decode (a 400's message), e.g. a Secret's data that is not base64. */
  decodeError?: string;
  /** The DeleteOptions precondition storage found unmet (D-46): which field, and the value the client sent. */
  precondition?: { field: 'UID' | 'ResourceVersion'; sent: string };
  /** The rest of a message the model composes elsewhere (D-23's missing rules, the missing role). */
  detail?: string;
}

export const ok = (code: 200 | 201 = 200): HttpOutcome => ({ code, reason: code === 201 ? 'Created' : 'OK' });
export const forbidden = (message: string, cause?: string): HttpOutcome => ({
  code: 403,
  reason: 'Forbidden',
  ...(cause ? { cause } : {}),
  message,
});
export const notFound = (message: string): HttpOutcome => ({ code: 404, reason: 'NotFound', message });
export const invalid = (message: string, cause?: string): HttpOutcome => ({
  code: 422,
  reason: 'Invalid',
  message,
  ...(cause ? { cause } : {}),
});
/** The cause type NewInvalid gives a field error, read from how the error is rendered. */
export function fieldErrorCause(fieldError: string): string {
  if (fieldError.includes(': Required value')) return 'FieldValueRequired';
  if (fieldError.includes(': Forbidden: ')) return 'FieldValueForbidden';
  if (fieldError.includes(': Not found: ')) return 'FieldValueNotFound';
  if (fieldError.includes(': Unsupported value: ')) return 'FieldValueNotSupported';
  return 'FieldValueInvalid';
}

/** 422 Invalid as NewInvalid builds it: `<Kind> "<name>" is invalid: <errors>`, cause of the first error. */
export const invalidObject = (kind: string, name: string, errors: readonly string[]): HttpOutcome => ({
  code: 422,
  reason: 'Invalid',
  message: `${kind} ${JSON.stringify(name)} is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`,
  ...(errors.length > 0 ? { cause: fieldErrorCause(errors[0]) } : {}),
});
export const badRequest = (message: string): HttpOutcome => ({ code: 400, reason: 'BadRequest', message });
/** 500 ServerTimeout as NewServerTimeoutForKind builds it: the client is to try again. */
export const serverTimeout = (message: string): HttpOutcome => ({
  code: 500,
  reason: 'ServerTimeout',
  message,
});
export const conflict = (message: string): HttpOutcome => ({ code: 409, reason: 'Conflict', message });
export const alreadyExists = (message: string): HttpOutcome => ({
  code: 409,
  reason: 'AlreadyExists',
  message,
});
