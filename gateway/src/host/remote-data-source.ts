import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { UnauthenticatedError, UnavailableError } from '@coperto/errors';
import { Pool } from 'undici';
import type { GatewayContext } from '../graphql/context.js';

type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

/**
 * Distributed mode: a subgraph reached over HTTP. Forwards the caller's Authorization header (the subgraph
 * verifies it again) and the request id; a subgraph that refuses the token (401) is UNAUTHENTICATED, one that
 * cannot be reached or answers anything but a JSON object with a 2xx status is UNAVAILABLE (503), never a 500.
 * A `cache-control` answer restricts the operation's cache policy, as Apollo's RemoteGraphQLDataSource does.
 *
 * Requests go through undici's `Pool.request` (pooled keep-alive connections to the subgraph's origin) rather than
 * Apollo's RemoteGraphQLDataSource, which builds a node-fetch `Headers` and `Request` for every fetch besides the
 * fetch itself, and rather than WHATWG `fetch`, whose `Request`, `Response`, `AbortSignal` and web-stream body
 * cost several times the call (bench/RESULTS.md, scenario 6's gateway profile). A subgraph answer is never cached,
 * and a retry is the client's decision.
 */
export class AuthForwardingDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly pool: Pool;
  private readonly path: string;

  constructor(readonly url: string) {
    const target = new URL(url);
    this.pool = new Pool(target.origin);
    this.path = `${target.pathname}${target.search}`;
  }

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<SubgraphResponse> {
    const { request } = options;
    const context = (options.context ?? {}) as Partial<GatewayContext>;
    const headers: Record<string, string> = {};
    for (const [name, value] of request.http?.headers ?? []) headers[name.toLowerCase()] = value;
    headers['content-type'] = 'application/json';
    if (context.authorization) headers.authorization = context.authorization;
    if (context.requestId) headers['x-request-id'] = context.requestId;
    const body = JSON.stringify({
      query: request.query,
      variables: request.variables,
      operationName: request.operationName,
      extensions: request.extensions,
    });
    let status: number;
    let text: string;
    let cacheControl: string | undefined;
    try {
      const response = await this.pool.request({ path: this.path, method: 'POST', headers, body });
      status = response.statusCode;
      text = await response.body.text();
      const header = response.headers['cache-control'];
      cacheControl = Array.isArray(header) ? header.join(', ') : header;
    } catch (error) {
      throw new UnavailableError(`Subgraph ${this.url} did not answer`, { cause: error });
    }
    if (status === 401) throw new UnauthenticatedError('The subgraph did not accept the token');
    const answer = status >= 200 && status < 300 ? parseObject(text) : null;
    if (answer === null) {
      throw new UnavailableError(`Subgraph ${this.url} did not answer`, {
        cause: new Error(`HTTP ${status}: ${text.slice(0, 200)}`),
      });
    }
    if (cacheControl !== undefined && options.kind === 'incoming operation') {
      const policy = options.incomingRequestContext.overallCachePolicy as
        { restrict?: (hint: CacheHint) => void } | undefined;
      policy?.restrict?.(cacheHintOf(cacheControl));
    }
    return answer as SubgraphResponse;
  }
}

interface CacheHint {
  maxAge: number;
  scope?: 'PRIVATE' | 'PUBLIC';
}

/** A JSON object, or null for anything else (not JSON, an array, a scalar). */
function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The hint a subgraph's `cache-control` header gives, read as Apollo's RemoteGraphQLDataSource reads it: `max-age`
 * (digits only, else 0), `private`, `public`.
 */
export function cacheHintOf(header: string): CacheHint {
  const directives = new Map<string, string | true>();
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2) as [string, string | undefined];
    if (name !== '')
      directives.set(name.toLowerCase(), value === undefined ? true : value.replace(/^"|"$/g, ''));
  }
  const maxAge = directives.get('max-age');
  const hint: CacheHint = {
    maxAge: typeof maxAge === 'string' && /^[0-9]+$/.test(maxAge) ? Number(maxAge) : 0,
  };
  if (directives.get('private') === true) hint.scope = 'PRIVATE';
  if (directives.get('public') === true) hint.scope = 'PUBLIC';
  return hint;
}
