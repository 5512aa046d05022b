import { AppError } from './app-error.js';
import { httpStatusOf } from './codes.js';

/** The REST error body: `{"error": {"code", "message", "details"}}`. */
export interface RestErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export function restErrorBody(code: string, message: string, details?: unknown): RestErrorBody {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

export function restErrorFromAppError(error: AppError): { status: number; body: RestErrorBody } {
  return { status: error.status, body: restErrorBody(error.code, error.message, error.details) };
}

/** Maps the first GraphQL error of a result to an HTTP status and REST body. 5xx bodies stay generic. */
export function restErrorFromGraphQL(
  errors: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }>,
): { status: number; body: RestErrorBody } {
  const first = errors[0];
  const code = String(first?.extensions?.code ?? 'INTERNAL');
  const status = httpStatusOf(code);
  if (status >= 500) {
    return {
      status,
      body: restErrorBody(
        status === 503 ? 'UNAVAILABLE' : 'INTERNAL',
        status === 503 ? 'Service temporarily unavailable' : 'Internal server error',
      ),
    };
  }
  return { status, body: restErrorBody(code, first?.message ?? 'Error', first?.extensions?.details) };
}
