import { isErrorCode } from '@coperto/errors';
import type { FuzzRequest } from './requests.js';

/** What came back for one request. */
export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Sends one generated request; a request the client itself refuses to send is `undefined` (skipped). A reused
 * keep-alive connection the server had already closed (it may close one whose body it did not read, after a
 * 401 or 413) is retried once on a new connection: a server that is really gone fails the retry too.
 */
export async function send(
  baseUrl: string,
  request: FuzzRequest,
  timeoutMs: number,
): Promise<FuzzResponse | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(new URL(baseUrl + request.target), {
        method: request.method,
        headers: request.headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        text: await response.text(),
      };
    } catch (error) {
      const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
      // fetch refuses some methods and header values before sending anything: not the server's doing.
      if (error instanceof TypeError && cause?.code === undefined && !(cause instanceof Error))
        return undefined;
      if (attempt === 1 && typeof cause?.code === 'string' && SOCKET_CLOSED.has(cause.code)) continue;
      throw new Error(`no answer to ${request.method} ${request.target.slice(0, 200)}: ${String(error)}`, {
        cause: error,
      });
    }
  }
}

const SOCKET_CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * Why the response breaks the rules (docs/api.md "Errors"), or `undefined` when it keeps them: never a 5xx,
 * and every error with a body is JSON in the documented shape with a known code — `{"error":{"code","message"}}`
 * on REST, GraphQL's `errors[].extensions.code` on /graphql. Pure.
 */
export function violation(request: FuzzRequest, response: FuzzResponse): string | undefined {
  if (response.status >= 500) return `status ${response.status}: ${response.text.slice(0, 500)}`;
  if (response.status < 400 && /"code":"(INTERNAL|UNAVAILABLE)"/.test(response.text)) {
    return `status ${response.status} carrying a server error: ${response.text.slice(0, 500)}`;
  }
  if (response.status < 400 || response.text === '' || request.method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return `status ${response.status} with a body that is not JSON: ${response.text.slice(0, 200)}`;
  }
  if (isRestError(body)) return undefined;
  if (request.target.startsWith('/graphql') && isGraphQLErrors(body)) return undefined;
  return `status ${response.status} with an undocumented error body: ${response.text.slice(0, 500)}`;
}

function isRestError(body: unknown): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    isErrorCode(error.code) &&
    typeof error.message === 'string'
  );
}

function isGraphQLErrors(body: unknown): boolean {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every(
      (e: { message?: unknown; extensions?: { code?: unknown } }) =>
        typeof e?.message === 'string' && isErrorCode(e.extensions?.code),
    )
  );
}
