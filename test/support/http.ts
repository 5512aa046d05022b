import { checkAgainstOpenApi } from './openapi-check.js';

/**
 * A small HTTP client for e2e tests: JSON in, JSON out, status and headers kept. Every `/api` answer is checked
 * against the OpenAPI document (support/openapi-check.ts); `openapi: false` skips that for a deliberately odd request.
 */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface ApiRequest {
  token?: string | undefined;
  body?: unknown;
  /** Raw body text (sent as is, e.g. malformed JSON). */
  raw?: string;
  headers?: Record<string, string>;
  /** Check the answer against the OpenAPI document (default true). */
  openapi?: boolean;
}

export function createApi(baseUrl: string) {
  return async function api<T = any>(
    method: string,
    path: string,
    request: ApiRequest = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.token) headers.authorization = `Bearer ${request.token}`;
    let body: string | undefined;
    if (request.raw !== undefined) body = request.raw;
    else if (request.body !== undefined) body = JSON.stringify(request.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const url = new URL(path, baseUrl);
    const response = await fetch(url, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    if (request.openapi !== false) checkAgainstOpenApi(method, url, response.status, parsed);
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
}

/** POST /graphql as the back-office does. */
export function createGraphQL(baseUrl: string) {
  const api = createApi(baseUrl);
  return (token: string | undefined, query: string, variables: Record<string, unknown> = {}) =>
    api<any>('POST', '/graphql', {
      token,
      body: { query, variables },
    });
}
