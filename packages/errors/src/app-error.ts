import type { ErrorCode } from './codes.js';
import { httpStatusByCode } from './codes.js';

/** A field-level problem in a request, named by its path in the input (e.g. `items.3.covers`). */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * Base of every expected error: a stable `code`, its HTTP `status`, a message safe to show to the caller
 * and optional `details`. Anything that is not an AppError is a bug and reaches clients as a generic 500.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return httpStatusByCode[this.code];
  }
}

export class ValidationError extends AppError {
  constructor(issues: FieldIssue[], message = describeIssues(issues)) {
    super('VALIDATION_FAILED', message, { fields: issues });
  }

  get issues(): FieldIssue[] {
    return (this.details as { fields: FieldIssue[] }).fields;
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'A valid bearer token is required', options?: ErrorOptions) {
    super('UNAUTHENTICATED', message, undefined, options);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Not allowed') {
    super('FORBIDDEN', message);
  }
}

export class NotFoundError extends AppError {
  constructor(entity: string, id: string) {
    super('NOT_FOUND', `${entity} ${id} not found`, { entity, id });
  }
}

export class LockConflictError extends AppError {
  constructor(holder: { deviceId: string; operatorName?: string | null; expiresAt: string }) {
    super('LOCK_CONFLICT', `Locked by device ${holder.deviceId}`, holder);
  }
}

export class LockNotOwnedError extends AppError {
  constructor(message = 'The lock is held by another device') {
    super('LOCK_NOT_OWNED', message);
  }
}

export class InvalidTransitionError extends AppError {
  constructor(from: string, to: string) {
    super('INVALID_TRANSITION', `Cannot move from ${from} to ${to}`, { from, to });
  }
}

export class TableUnavailableError extends AppError {
  constructor(tableIds: string[]) {
    super('TABLE_UNAVAILABLE', `Table already booked in that time window: ${tableIds.join(', ')}`, {
      tableIds,
    });
  }
}

/** Auto-assignment found no free table or combination that fits the party for the window. */
export class NoTableAvailableError extends AppError {
  constructor(covers: number, startsAt: string, message?: string) {
    super(
      'NO_TABLE_AVAILABLE',
      message ?? `No free table or combination fits ${covers} covers at ${startsAt}`,
      {
        covers,
        startsAt,
      },
    );
  }
}

/** An option (a hold during checkout) that expired, was released or used, or never existed. */
export class OptionExpiredError extends AppError {
  constructor(id: string) {
    super('OPTION_EXPIRED', `Option ${id} expired, was used or released, or does not exist`, { id });
  }
}

export class DuplicateError extends AppError {
  constructor(field: string, value: string) {
    super('DUPLICATE', `${field} ${value} already exists`, { field, value });
  }
}

export class InUseError extends AppError {
  constructor(message: string, details?: unknown) {
    super('IN_USE', message, details);
  }
}

/**
 * A write that lost the compare-and-set to other writers of the same record every time it tried (a hot table or
 * booking written by many devices at once): nothing was changed, and the request may be sent again as it is.
 */
export class WriteConflictError extends AppError {
  constructor(type: string, id: string) {
    super('WRITE_CONFLICT', `${type} ${id} kept changing while this write was made; nothing changed, retry`, {
      type,
      id,
    });
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limit: string) {
    super('PAYLOAD_TOO_LARGE', `Payload over the limit of ${limit}`, { limit });
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Body must be JSON (Content-Type: application/json)') {
    super('UNSUPPORTED_MEDIA_TYPE', message);
  }
}

/** Which operation limit a GraphQL document went over (packages/graphql-limits). */
export type OperationLimitName = 'tokens' | 'depth' | 'aliases' | 'directives' | 'cost';

/**
 * A GraphQL document over one of the operation limits: refused before any planning or execution. `actual` is
 * absent for `tokens` (counting stops at the limit) and when the cost could not be counted to the end.
 */
export class QueryTooComplexError extends AppError {
  constructor(limit: OperationLimitName, max: number, actual?: number) {
    const found = actual === undefined ? '' : ` (found ${actual})`;
    super('QUERY_TOO_COMPLEX', `Operation over the ${limit} limit of ${max}${found}`, {
      limit,
      max,
      ...(actual === undefined ? {} : { actual }),
    });
  }
}

/** GRAPHQL_TRUSTED_DOCUMENTS is set and the document (or persisted-query hash) is not in the manifest. */
export class QueryNotTrustedError extends AppError {
  constructor(hash?: string) {
    super(
      'QUERY_NOT_TRUSTED',
      'Only the trusted documents of this deployment are accepted',
      hash === undefined ? undefined : { sha256: hash },
    );
  }
}

/**
 * The caller used up a request budget (its tenant's, or its booking channel's); nothing was done. Answered with a
 * `Retry-After` header.
 */
export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;

  /** `subject`: whose budget is used up, as the message names it. */
  constructor(retryAfterSeconds: number, subject = 'this tenant') {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super('RATE_LIMITED', `Too many requests for ${subject}: retry in ${seconds} s`, {
      retryAfterSeconds: seconds,
    });
    this.retryAfterSeconds = seconds;
  }
}

/** A dependency (database, bus) is down; nothing was written. */
export class UnavailableError extends AppError {
  constructor(message = 'Service temporarily unavailable', options?: ErrorOptions) {
    super('UNAVAILABLE', message, undefined, options);
  }
}

function describeIssues(issues: FieldIssue[]): string {
  if (issues.length === 0) return 'Invalid request';
  return `Invalid request: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`;
}
