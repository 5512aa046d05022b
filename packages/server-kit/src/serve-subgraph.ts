import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import { createHandler, type Response as GraphQLHttpResponse } from 'graphql-http';
import { AppError, formatGraphQLError, restErrorFromAppError } from '@coperto/errors';
import { DEFAULT_BODY_LIMIT_BYTES, INTERNAL_MAX_JSON_DEPTH, readJsonBody } from './json-body.js';
import { requestTarget } from './request-target.js';
import { sendJson } from './send-json.js';
import type { GraphQLRequestBody, SubgraphExecutor, SubgraphResult } from './execute-subgraph.js';
import type { Logger } from './logger.js';
import type { SubgraphRequest } from './subgraph.js';

export interface SubgraphHttpOptions {
  executor: SubgraphExecutor;
  logger: Logger;
  /** Body limit for subgraph requests: the gateway's (BODY_LIMIT_BYTES). Default 1 MiB. */
  bodyLimitBytes?: number;
  onRequest?: (info: { status: number; durationMs: number }) => void;
}

/** The subgraph's own context (viewer, tenant store, loaders), opaque here. */
type SubgraphContext = Record<PropertyKey, unknown>;

/** What the port knows of a request once its token is verified. */
interface PortContext {
  contextValue: unknown;
  request: SubgraphRequest;
  started: number;
}

/** The media type the spec's content negotiation picks for an `Accept` header (graphql-http's order). */
function prefersGraphQLResponse(accept: string | undefined): boolean {
  for (const part of (accept ?? '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const type = part.split(';')[0];
    if (type === 'application/graphql-response+json') return true;
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return false;
  }
  return false;
}

/** A document over the operation limits is refused as a whole: 400, as on the gateway. */
function overLimits(errors: readonly { extensions?: unknown }[]): boolean {
  return (
    errors.length > 0 &&
    errors.every((e) => (e.extensions as { code?: unknown } | undefined)?.code === 'QUERY_TOO_COMPLEX')
  );
}

/**
 * The subgraph's own HTTP endpoint in distributed mode: `/graphql` by the GraphQL-over-HTTP specification
 * (graphql-http's handler: POST with a JSON body or GET queries, content negotiation between
 * `application/json` and `application/graphql-response+json`), after two checks of its own: the caller's
 * Authorization header (forwarded by the gateway, verified again here; without a valid token 401 and
 * `WWW-Authenticate`, before the body is read) and the body limit. Only the gateway and sibling subgraphs call
 * it; it is never published outside the private network.
 */
export function createSubgraphHttpServer(options: SubgraphHttpOptions): Server {
  const limit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const { executor } = options;
  const bodyOf = (params: { query: string; operationName?: string | null | undefined }) =>
    ({ query: params.query, operationName: params.operationName ?? undefined }) as GraphQLRequestBody;

  const handleGraphQL = createHandler<IncomingMessage, PortContext, SubgraphContext>({
    schema: executor.schema,
    onSubscribe: (req, params) => {
      const prepared = executor.prepare(params.query);
      if (!Array.isArray(prepared)) {
        return {
          schema: executor.schema,
          document: prepared as Exclude<typeof prepared, readonly GraphQLError[]>,
          variableValues: params.variables ?? undefined,
          operationName: params.operationName ?? undefined,
          contextValue: req.context.contextValue as SubgraphContext,
        };
      }
      const errors = prepared as readonly GraphQLError[];
      const result = { errors: errors.map(executor.format) };
      executor.logRequest(bodyOf(params), req.context.request, result, req.context.started);
      return overLimits(result.errors) ? jsonResponse(400, result) : errors;
    },
    onOperation: (req, args, result) => {
      const formatted: SubgraphResult = {
        ...(result.data === undefined ? {} : { data: result.data as Record<string, unknown> | null }),
        ...(result.errors ? { errors: result.errors.map(executor.format) } : {}),
      };
      executor.logRequest(
        { query: '', operationName: args.operationName ?? undefined },
        req.context.request,
        formatted,
        req.context.started,
      );
      // No data (variables that do not coerce): a request error, 400 for application/graphql-response+json.
      if (result.data === undefined && prefersGraphQLResponse(req.raw.headers.accept)) {
        return jsonResponse(400, formatted, 'application/graphql-response+json; charset=utf-8');
      }
      return undefined;
    },
    formatError: (error) => executor.format(error) as unknown as GraphQLError,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (requestTarget(req.url)?.pathname !== '/graphql')
      return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    // The token first: a caller without a valid one gets nothing read, parsed or cached.
    const started = performance.now();
    const request: SubgraphRequest = {
      authorization: req.headers.authorization,
      requestId: headerValue(req.headers['x-request-id']),
    };
    const auth = await executor.authenticate(request);
    if (!auth.ok) {
      req.resume();
      return sendJson(
        res,
        401,
        { errors: auth.errors },
        { 'www-authenticate': 'Bearer error="invalid_token"' },
      );
    }
    const body = req.method === 'POST' ? await readJsonBody(req, limit, INTERNAL_MAX_JSON_DEPTH) : null;
    const [text, init] = await handleGraphQL({
      method: req.method ?? 'GET',
      url: req.url ?? '/graphql',
      headers: req.headers,
      body: (body ?? null) as Record<string, unknown> | null,
      raw: req,
      context: { contextValue: auth.contextValue, request, started },
    });
    res.writeHead(init.status, init.statusText, { 'cache-control': 'no-store', ...init.headers });
    res.end(text);
  };
  return createServer((req, res) => {
    const started = performance.now();
    res.once('finish', () =>
      options.onRequest?.({ status: res.statusCode, durationMs: performance.now() - started }),
    );
    handle(req, res).catch((error: unknown) => {
      if (error instanceof AppError) {
        const { status, body } = restErrorFromAppError(error);
        return sendJson(res, status, body);
      }
      options.logger.error('subgraph request failed', { error });
      if (!res.headersSent) sendJson(res, 500, { errors: [formatGraphQLError({ message: 'x' }, error)] });
    });
  });
}

function jsonResponse(
  status: number,
  body: unknown,
  contentType = 'application/json; charset=utf-8',
): GraphQLHttpResponse {
  return [
    JSON.stringify(body),
    { status, statusText: status === 400 ? 'Bad Request' : '', headers: { 'content-type': contentType } },
  ];
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
