import { GraphQLError } from 'graphql';
import { AppError } from './app-error.js';
import { httpStatusOf } from './codes.js';

/** The GraphQL form of an AppError: the same code in `extensions.code`, details in `extensions.details`. */
export function toGraphQLError(error: AppError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { code: error.code, ...(error.details === undefined ? {} : { details: error.details }) },
  });
}

/**
 * Apollo Server `formatError`: AppErrors (also wrapped by GraphQL as originalError) keep their code and message;
 * GraphQL's own validation errors become VALIDATION_FAILED; everything else is a generic INTERNAL error with
 * no stack and no text from inside (logged by the caller).
 */
export function formatGraphQLError(
  formatted: { message: string; extensions?: Record<string, unknown>; path?: readonly (string | number)[] },
  error: unknown,
  onInternal: (error: unknown) => void = () => {},
) {
  const original = findAppError(error);
  if (original) {
    return {
      message: original.message,
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: {
        code: original.code,
        ...(original.details === undefined ? {} : { details: original.details }),
      },
    };
  }
  // graphql-js's own variable-coercion errors (from `execute`, no code): the caller sent a wrong value.
  const code =
    formatted.extensions?.code ??
    (formatted.message.startsWith('Variable "$') ? 'BAD_USER_INPUT' : undefined);
  if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR' && code !== 'INTERNAL') {
    const mapped = mapApolloCode(code);
    const keep = mapped !== 'INTERNAL';
    if (keep) {
      const issue = mapped === 'VALIDATION_FAILED' ? variableIssue(formatted.message) : undefined;
      return {
        message: formatted.message,
        ...(formatted.path ? { path: formatted.path } : {}),
        extensions: {
          ...pickDetails(formatted.extensions),
          ...(issue ? { details: { fields: [issue] } } : {}),
          code: mapped,
        },
      };
    }
  }
  onInternal(error);
  return {
    message: 'Internal server error',
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: 'INTERNAL' },
  };
}

/**
 * Names the field of a GraphQL variable-coercion error, e.g.
 * `Variable "$input" got invalid value "x" at "input.seats"; Int cannot represent ...` → `seats`;
 * `... Field "status" of required type "TableStatus!" was not provided.` → `status`.
 */
export function variableIssue(message: string): { field: string; message: string } | undefined {
  if (!message.startsWith('Variable "$')) return undefined;
  const at = /at "([^"]+)"/.exec(message)?.[1];
  const missing = /Field "([^"]+)" of required type/.exec(message)?.[1];
  const path = at?.split('.').slice(1) ?? [];
  if (missing) path.push(missing);
  const field = path.length > 0 ? path.join('.') : /Variable "\$([^"]+)"/.exec(message)?.[1];
  if (!field) return undefined;
  const reason = message.includes('; ') ? message.slice(message.lastIndexOf('; ') + 2) : message;
  return { field, message: reason };
}

function pickDetails(extensions: Record<string, unknown> | undefined) {
  return extensions && 'details' in extensions ? { details: extensions.details } : {};
}

/** Apollo Server and gateway codes → ours. Codes that are already ours pass through. */
function mapApolloCode(code: string): string {
  switch (code) {
    case 'GRAPHQL_PARSE_FAILED':
    case 'GRAPHQL_VALIDATION_FAILED':
    case 'BAD_USER_INPUT':
    case 'BAD_REQUEST':
    case 'OPERATION_RESOLUTION_FAILURE':
    case 'INVALID_GRAPHQL': // the gateway's "Unknown operation named …"
    case 'PERSISTED_QUERY_NOT_SUPPORTED':
      return 'VALIDATION_FAILED';
    // Apollo clients answer this code by sending the full query: it must reach them unchanged.
    case 'PERSISTED_QUERY_NOT_FOUND':
      return 'PERSISTED_QUERY_NOT_FOUND';
    case 'UNAUTHENTICATED':
      return 'UNAUTHENTICATED';
    case 'FORBIDDEN':
      return 'FORBIDDEN';
    default:
      return httpStatusOf(code) === 500 ? 'INTERNAL' : code;
  }
}

export function findAppError(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof AppError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}
