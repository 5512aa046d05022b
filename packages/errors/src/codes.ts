/**
 * The stable error codes of the business API (docs/api.md "Errors") and their HTTP statuses.
 * One table: the REST facade, the subgraphs and the health server all read it.
 */
export const httpStatusByCode = {
  VALIDATION_FAILED: 400,
  QUERY_TOO_COMPLEX: 400,
  QUERY_NOT_TRUSTED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  LOCK_NOT_OWNED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  LOCK_CONFLICT: 409,
  INVALID_TRANSITION: 409,
  TABLE_UNAVAILABLE: 409,
  NO_TABLE_AVAILABLE: 409,
  OPTION_EXPIRED: 409,
  DUPLICATE: 409,
  IN_USE: 409,
  STRIPE_NOT_CONFIGURED: 409,
  WRITE_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof httpStatusByCode;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(httpStatusByCode, value);
}

/** HTTP status for a code; anything unknown (a bug) is a 500. */
export function httpStatusOf(code: unknown): number {
  return isErrorCode(code) ? httpStatusByCode[code] : 500;
}
