import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { NotFoundError, restErrorFromAppError, restErrorFromGraphQL } from '@coperto/errors';
import { createSingleFlight } from '@coperto/async';
import { readScopeKey, type Cache } from '@coperto/cache';
import type { Logger } from '@coperto/server-kit';
import type { GatewayContext } from '../graphql/context.js';
import { answerOtherMethods } from '../http/method-not-allowed.js';
import { withRequestId } from '../http/request-id.js';
import { cacheTtlSeconds } from './cached-read.js';
import { createEncodedAnswers, type EncodedAnswers } from './encoded-answers.js';
import { inlineResponseSchema, requestSchemas } from './request-schema.js';
import { routeInputs, type RouteInputs } from './route-inputs.js';
import { assertRouteAllowed } from './route-rights.js';
import { routeVariables } from './route-variables.js';
import { operations, type OperationName } from './operations.js';
import { operationDocument, type HttpMethod, type RestRoute } from './route-table.js';

export interface RestRoutesOptions {
  server: ApolloServer<GatewayContext>;
  routes: readonly RestRoute[];
  /** The public API schema the routes' request schemas are typed from. */
  schema: GraphQLSchema;
  /** The per-request context from the Authorization header (throws UnauthenticatedError, RateLimitedError). */
  authenticate: (request: FastifyRequest) => Promise<GatewayContext>;
  logger: Logger;
  /** Cache for routes with a read scope (absent: every read runs). */
  cache?: Cache;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified viewer's context (set by the route's onRequest hook, before the body is read). */
    gatewayContext: GatewayContext | null;
  }
  interface FastifyContextConfig {
    /** The route is the REST facade's (its template labels the metrics), not a 405 answer. */
    restRoute?: boolean;
  }
}

/**
 * The REST facade: each route of the table is a fastify route whose JSON Schemas (request-schema.ts) validate
 * the request, after the token (a 401 is answered before the body is read). The route's named operation runs
 * in-process through the gateway's own Apollo Server (same auth, plugins and errors as /graphql); its GraphQL
 * error codes become HTTP statuses with the REST error body. Another method on a route's path is a 405.
 */
export function registerRestRoutes(
  app: FastifyInstance,
  options: RestRoutesOptions,
): { encodedAnswers: EncodedAnswers['stats'] } {
  const fills = createSingleFlight();
  const encoded = createEncodedAnswers();
  app.decorateRequest('gatewayContext', null);
  const authenticate = (route: RestRoute) => async (request: FastifyRequest) => {
    request.gatewayContext = await options.authenticate(request);
    assertRouteAllowed(request.gatewayContext.viewer, route);
  };
  // An absent body is `{}` (validated as such: required fields make it a 400); a JSON `null` is refused.
  const emptyBody = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    if (request.body === undefined) request.body = {};
    done();
  };

  for (const route of options.routes) {
    const document = operationDocument(route);
    const inputs = routeInputs(route, options.schema, document);
    const schema = {
      ...requestSchemas(route, options.schema, document),
      // fastify serializes the success body with this schema (fast-json-stringify); errors go as they are.
      response: { [route.status ?? 200]: inlineResponseSchema(route, options.schema, document) },
    };
    app.route({
      method: route.method,
      url: route.path,
      exposeHeadRoute: false,
      config: { restRoute: true },
      schema,
      onRequest: authenticate(route),
      // Only a route with a body schema has a body to default (a GET's hit path runs one hook fewer).
      ...(route.docs.body ? { preValidation: emptyBody } : {}),
      handler: (request, reply) => answer(route, inputs, request, reply),
    });
  }
  const methodsByPath = new Map<string, Set<HttpMethod>>();
  for (const route of options.routes) {
    const methods = methodsByPath.get(route.path) ?? new Set<HttpMethod>();
    methodsByPath.set(route.path, methods.add(route.method));
  }
  for (const [path, methods] of methodsByPath) answerOtherMethods(app, path, methods);

  async function answer(route: RestRoute, inputs: RouteInputs, request: FastifyRequest, reply: FastifyReply) {
    const contextValue = request.gatewayContext!;
    const variables = routeVariables(inputs, {
      params: request.params as Record<string, string>,
      query: request.query as Record<string, unknown>,
      body: request.body,
    });
    const status = route.status ?? 200;
    const execute = () => runRoute(options.server, route, variables, contextValue);
    const fail = (result: RouteFailure) => {
      if (result.status >= 500) options.logger.error('REST operation failed', { operation: route.operation });
      return reply.code(result.status).send(withRequestId(result.body, request.raw));
    };
    if (route.csv && acceptsCsv(request.headers.accept)) {
      const result = await runOperation(options.server, route.csv, variables, contextValue);
      if (!result.ok) return fail(result);
      return reply.code(status).type('text/csv; charset=utf-8').send(String(result.value));
    }
    reply.type('application/json; charset=utf-8').code(status);
    if (route.cache && options.cache) {
      // Reads with a scope are answered from the cache until the owner of the data writes to it.
      const tenantId = contextValue.viewer.tenantId;
      const tenantCache = options.cache.forTenant(tenantId);
      const key = await readScopeKey(
        tenantCache,
        route.cache.scope,
        `${route.operation}:${JSON.stringify(variables)}`,
      );
      const stored = await tenantCache.getJsonText(key);
      if (stored !== null) {
        return reply
          .code(status)
          .header('x-cache', 'hit')
          .send(encoded(`${tenantId}\n${key}`, stored));
      }
      // Concurrent misses of one answer (after a write bumped the scope) share one execution. The key names the
      // scope version each caller read, so every caller sharing a load asked after the same last write.
      const ttlSeconds = route.cache.ttlSeconds;
      const filled = await fills.run(`${tenantId}\n${key}`, async (): Promise<FillResult> => {
        const result = await execute();
        if (!result.ok) return result;
        const json = String(reply.serialize(result.value));
        const ttl = cacheTtlSeconds(json, ttlSeconds, Date.now());
        if (ttl > 0) await tenantCache.setJsonText(key, json, ttl);
        return { ok: true, json };
      });
      if (!filled.ok) return fail(filled);
      return reply.code(status).header('x-cache', 'miss').send(filled.json);
    }
    const result = await execute();
    if (!result.ok) return fail(result);
    return reply.code(status).send(result.value);
  }

  return { encodedAnswers: () => encoded.stats() };
}

type RouteFailure = { ok: false; status: number; body: unknown };
type RouteResult = { ok: true; value: unknown } | RouteFailure;
type FillResult = { ok: true; json: string } | RouteFailure;

/**
 * Whether the caller asked for CSV: `text/csv` in its Accept header ahead of any JSON type (a header naming both
 * in that order, or CSV alone; without a header, JSON).
 */
export function acceptsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  const csv = types.indexOf('text/csv');
  const json = types.findIndex((type) => type === 'application/json' || type.endsWith('+json'));
  return csv !== -1 && (json === -1 || csv < json);
}

/** Runs one named operation of the gateway and takes its root field. */
async function runOperation(
  server: ApolloServer<GatewayContext>,
  target: { operation: OperationName; field: string },
  variables: Record<string, unknown>,
  contextValue: GatewayContext,
): Promise<RouteResult> {
  const response = await server.executeOperation(
    { query: operations[target.operation], variables, operationName: target.operation },
    { contextValue },
  );
  if (response.body.kind !== 'single') throw new Error('Unexpected incremental response');
  const { data, errors } = response.body.singleResult;
  if (errors && errors.length > 0) return { ok: false, ...restErrorFromGraphQL(errors) };
  return { ok: true, value: (data as Record<string, unknown> | null | undefined)?.[target.field] };
}

/** Runs the route's operation through Apollo Server; a null result of a read-one route is a 404. */
async function runRoute(
  server: ApolloServer<GatewayContext>,
  route: RestRoute,
  variables: Record<string, unknown>,
  contextValue: GatewayContext,
): Promise<RouteResult> {
  const result = await runOperation(server, route, variables, contextValue);
  if (!result.ok) return result;
  const value = result.value;
  if (value === null && route.notFound) {
    return {
      ok: false,
      ...restErrorFromAppError(new NotFoundError(route.notFound, String(variables.id ?? ''))),
    };
  }
  return { ok: true, value };
}
