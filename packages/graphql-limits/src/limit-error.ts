import { GraphQLError } from 'graphql';
import { QueryTooComplexError, type OperationLimitName } from '@coperto/errors';

/**
 * The GraphQL form of a refusal: code QUERY_TOO_COMPLEX with `details {limit, max, actual}` and HTTP 400 for
 * Apollo Server. The AppError is the `originalError`, so formatGraphQLError (and Apollo's own wrapping of
 * validation errors, which keeps `originalError`) answers with our code.
 */
export function queryTooComplex(limit: OperationLimitName, max: number, actual?: number): GraphQLError {
  const error = new QueryTooComplexError(limit, max, actual);
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, details: error.details, http: { status: 400, headers: new Map() } },
  });
}

/** The AppError behind a refusal made by queryTooComplex, if `error` is one. */
export function tooComplexCause(error: unknown): QueryTooComplexError | undefined {
  const original = (error as { originalError?: unknown } | undefined)?.originalError;
  if (error instanceof QueryTooComplexError) return error;
  return original instanceof QueryTooComplexError ? original : undefined;
}
