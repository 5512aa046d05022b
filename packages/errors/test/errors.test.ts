import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  formatGraphQLError,
  httpStatusByCode,
  httpStatusOf,
  LockConflictError,
  restErrorFromAppError,
  restErrorFromGraphQL,
  ValidationError,
  variableIssue,
} from '../src/index.js';

describe('error codes', () => {
  it('maps every documented code to its HTTP status, and anything unknown to 500', () => {
    expect(httpStatusByCode).toMatchObject({
      VALIDATION_FAILED: 400,
      QUERY_TOO_COMPLEX: 400,
      QUERY_NOT_TRUSTED: 400,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      LOCK_NOT_OWNED: 403,
      NOT_FOUND: 404,
      LOCK_CONFLICT: 409,
      INVALID_TRANSITION: 409,
      TABLE_UNAVAILABLE: 409,
      NO_TABLE_AVAILABLE: 409,
      DUPLICATE: 409,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      RATE_LIMITED: 429,
      UNAVAILABLE: 503,
    });
    expect(httpStatusOf('SOMETHING_ELSE')).toBe(500);
    expect(httpStatusOf(undefined)).toBe(500);
  });

  it('builds the REST body with code, message and details', () => {
    const error = new LockConflictError({
      deviceId: 'd1',
      operatorName: 'Anna',
      expiresAt: '2027-01-01T00:00:00.000Z',
    });
    expect(restErrorFromAppError(error)).toEqual({
      status: 409,
      body: { error: { code: 'LOCK_CONFLICT', message: 'Locked by device d1', details: error.details } },
    });
  });

  it('keeps 4xx messages from GraphQL errors and makes 5xx bodies generic', () => {
    expect(
      restErrorFromGraphQL([{ message: 'Tavolo x not found', extensions: { code: 'NOT_FOUND' } }]),
    ).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'Tavolo x not found' } },
    });
    expect(
      restErrorFromGraphQL([{ message: 'db password is hunter2', extensions: { code: 'INTERNAL' } }]),
    ).toEqual({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'Internal server error' } },
    });
    expect(
      restErrorFromGraphQL([{ message: 'mongo down', extensions: { code: 'UNAVAILABLE' } }]).body.error
        .message,
    ).toBe('Service temporarily unavailable');
  });
});

describe('GraphQL error formatting', () => {
  it('keeps an AppError thrown in a resolver (also when wrapped by GraphQL)', () => {
    const original = new ValidationError([{ field: 'seats', message: 'must be positive' }]);
    const wrapped = new GraphQLError(original.message, { originalError: original, path: ['createTavolo'] });
    expect(formatGraphQLError({ message: wrapped.message, path: ['createTavolo'] }, wrapped)).toEqual({
      message: original.message,
      path: ['createTavolo'],
      extensions: {
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'seats', message: 'must be positive' }] },
      },
    });
  });

  it('turns an unknown error into a generic INTERNAL error and reports it', () => {
    const seen: unknown[] = [];
    const error = new Error('stack and secrets');
    expect(formatGraphQLError({ message: 'stack and secrets' }, error, (e) => seen.push(e))).toEqual({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL' },
    });
    expect(seen).toEqual([error]);
  });

  it('names the field of a variable-coercion error', () => {
    expect(
      variableIssue(
        'Variable "$input" got invalid value "x" at "input.seats"; Int cannot represent non-integer value: "x"',
      ),
    ).toEqual({
      field: 'seats',
      message: 'Int cannot represent non-integer value: "x"',
    });
    expect(
      variableIssue(
        'Variable "$input" got invalid value {}; Field "status" of required type "TableStatus!" was not provided.',
      ),
    ).toMatchObject({ field: 'status' });
    expect(variableIssue('Cannot query field "x" on type "Query".')).toBeUndefined();
  });
});
