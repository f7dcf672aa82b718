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
export const conflict = (message: string): HttpOutcome => ({ code: 409, reason: 'Conflict', message });
export const alreadyExists = (message: string): HttpOutcome => ({
  code: 409,
  reason: 'AlreadyExists',
  message,
});
