import type { IncomingHttpHeaders } from 'node:http';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { GraphQLError } from 'graphql';
import { createHandler, type Response as GraphQLHttpResponse } from 'graphql-http';
import { formatGraphQLError, restErrorBody, restErrorFromAppError } from '@coperto/errors';
import { bodyErrorOf, useJsonBodies } from './json-body-parser.js';
import { DEFAULT_BODY_LIMIT_BYTES, INTERNAL_MAX_JSON_DEPTH } from './json-depth.js';
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

/** The answers every port sends: JSON that no cache keeps. */
const NO_STORE = { 'cache-control': 'no-store' };

/** Node's own defaults for a plain http.Server (fastify's differ): slow clients are cut as before. */
const SERVER_TIMEOUTS = { requestTimeout: 300_000, keepAliveTimeout: 5_000 };

/**
 * The subgraph's own HTTP endpoint in distributed mode, on fastify: `/graphql` by the GraphQL-over-HTTP
 * specification (graphql-http's handler: POST with a JSON body or GET queries, content negotiation between
 * `application/json` and `application/graphql-response+json`, 405 for other methods), after two checks of its
 * own: the caller's Authorization header (forwarded by the gateway, verified again here; without a valid token
 * 401 and `WWW-Authenticate`, before the body is read) and the body rules of `useJsonBodies` (413 past the
 * limit, 400 past INTERNAL_MAX_JSON_DEPTH or for bad JSON, 415 for another media type). Only the gateway and
 * sibling subgraphs call it; it is never published outside the private network. Built and ready, not
 * listening: the host listens on `server`.
 */
export async function createSubgraphHttpServer(options: SubgraphHttpOptions): Promise<FastifyInstance> {
  const limit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const handleGraphQL = graphQLHandler(options.executor);
  const observe = (reply: FastifyReply) =>
    options.onRequest?.({ status: reply.statusCode, durationMs: reply.elapsedTime });
  const notFound = (reply: FastifyReply) =>
    reply.code(404).headers(NO_STORE).send(restErrorBody('NOT_FOUND', 'Not found'));

  const app = Fastify({
    bodyLimit: limit,
    logger: false,
    ...SERVER_TIMEOUTS,
    // A target fastify cannot route (a path segment that is not valid percent-encoding): 404 like any other.
    frameworkErrors: (_error, _request, reply) => {
      reply.raw.once('finish', () => observe(reply as FastifyReply));
      void notFound(reply as FastifyReply);
    },
  });
  useJsonBodies(app, INTERNAL_MAX_JSON_DEPTH);
  app.addHook('onResponse', async (_request, reply) => observe(reply));
  app.setErrorHandler<FastifyError>((error, _request, reply) => {
    const appError = bodyErrorOf(error, limit);
    if (appError) {
      const { status, body } = restErrorFromAppError(appError);
      return reply.code(status).headers(NO_STORE).send(body);
    }
    options.logger.error('subgraph request failed', { error });
    return reply
      .code(500)
      .headers(NO_STORE)
      .send({ errors: [formatGraphQLError({ message: 'x' }, error)] });
  });
  app.setNotFoundHandler((_request, reply) => notFound(reply));

  const ports = new WeakMap<FastifyRequest, PortContext>();
  app.all('/graphql', {
    // The token first: a caller without a valid one gets nothing read, parsed or cached.
    onRequest: async (request, reply) => {
      const started = performance.now();
      const subgraphRequest: SubgraphRequest = {
        authorization: request.headers.authorization,
        requestId: headerValue(request.headers['x-request-id']),
      };
      const auth = await options.executor.authenticate(subgraphRequest);
      if (!auth.ok) {
        return reply
          .code(401)
          .headers({ ...NO_STORE, 'www-authenticate': 'Bearer error="invalid_token"' })
          .send({ errors: auth.errors });
      }
      ports.set(request, { contextValue: auth.contextValue, request: subgraphRequest, started });
      return undefined;
    },
    handler: async (request, reply) => {
      const [text, init] = await handleGraphQL({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: (request.body ?? null) as Record<string, unknown> | null,
        raw: request,
        context: ports.get(request)!,
      });
      return reply
        .code(init.status)
        .headers({ ...NO_STORE, ...init.headers })
        .send(text ?? undefined);
    },
  });
  await app.ready();
  return app;
}

/** graphql-http's handler over the executor: its parse/validate cache, its error format, its access line. */
function graphQLHandler(executor: SubgraphExecutor) {
  const bodyOf = (params: { query: string; operationName?: string | null | undefined }) =>
    ({ query: params.query, operationName: params.operationName ?? undefined }) as GraphQLRequestBody;
  return createHandler<FastifyRequest, PortContext, SubgraphContext>({
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

function headerValue(value: IncomingHttpHeaders[string]): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
