import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import {
  AppError,
  NotFoundError,
  RateLimitedError,
  restErrorBody,
  restErrorFromAppError,
  restErrorFromGraphQL,
  UnauthenticatedError,
} from '@coperto/errors';
import { createSingleFlight, readScopeKey, type Cache } from '@coperto/cache';
import { readJsonBody, requestTarget, sendJson, sendJsonText, type Logger } from '@coperto/server-kit';
import type { GatewayContext } from '../context.js';
import { withRequestId } from '../request-id.js';
import { createRouteMatcher } from './route-matcher.js';
import { cacheTtlSeconds } from './cached-read.js';
import { createEncodedAnswers } from './encoded-answers.js';
import { operationDocument, type RestRoute } from './routes.js';

export interface RestHandlerOptions {
  server: ApolloServer<GatewayContext>;
  routes: readonly RestRoute[];
  /** Builds the per-request context from the Authorization header (throws UnauthenticatedError). */
  createContext: (req: IncomingMessage) => Promise<GatewayContext>;
  bodyLimitBytes: number;
  logger: Logger;
  /** Cache for routes with a read scope (absent: every read runs). */
  cache?: Cache;
}

/**
 * The thin REST facade: matches the route table, authenticates, reads the JSON body, runs the route's named
 * operation in-process through the gateway's own Apollo Server (same auth, plugins and errors as /graphql)
 * and maps GraphQL error codes to HTTP statuses with the REST error body.
 */
export function createRestHandler(options: RestHandlerOptions) {
  const match = createRouteMatcher(options.routes);
  const fills = createSingleFlight();
  const encoded = createEncodedAnswers();

  return async function handleRest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = requestTarget(req.url);
      if (!url) throw new NotFoundError('Route', `${req.method} ${req.url}`);
      const found = match(req.method ?? 'GET', url.pathname);
      if (found.kind === 'not-found') throw new NotFoundError('Route', `${req.method} ${url.pathname}`);
      if (found.kind === 'method-not-allowed') {
        return sendJson(
          res,
          405,
          withRequestId(restErrorBody('METHOD_NOT_ALLOWED', `Use ${found.allow.join(', ')}`), req),
          {
            allow: found.allow.join(', '),
          },
        );
      }
      const contextValue = await options.createContext(req);
      const body = await readJsonBody(req, options.bodyLimitBytes);
      const { route, params } = found;
      const variables = route.variables({ params, query: url.searchParams, body });
      const execute = () => runRoute(options.server, route, variables, contextValue);
      const fail = (result: { status: number; body: unknown }) => {
        if (result.status >= 500)
          options.logger.error('REST operation failed', { operation: route.operation });
        sendJson(res, result.status, withRequestId(result.body, req), authenticateHeader(result.status));
      };
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
          const bytes = encoded(`${tenantId}\n${key}`, stored);
          return sendJsonText(res, route.status ?? 200, bytes, { 'x-cache': 'hit' });
        }
        // Concurrent misses of one answer (after a write bumped the scope) share one execution. The key names the
        // scope version each caller read, so every caller sharing a load asked after the same last write.
        const ttlSeconds = route.cache.ttlSeconds;
        const filled = await fills.run(`${tenantId}\n${key}`, async (): Promise<FillResult> => {
          const result = await execute();
          if (!result.ok) return result;
          const json = JSON.stringify(result.value);
          const ttl = cacheTtlSeconds(result.value, ttlSeconds, Date.now());
          if (ttl > 0) await tenantCache.setJsonText(key, json, ttl);
          return { ok: true, json };
        });
        if (!filled.ok) return fail(filled);
        return sendJsonText(res, route.status ?? 200, filled.json, { 'x-cache': 'miss' });
      }
      const result = await execute();
      if (!result.ok) return fail(result);
      sendJson(res, route.status ?? 200, result.value);
    } catch (error) {
      if (error instanceof AppError) {
        const { status, body } = restErrorFromAppError(error);
        return sendJson(res, status, withRequestId(body, req), authenticateHeader(status, error));
      }
      options.logger.error('REST request failed', { error });
      sendJson(res, 500, withRequestId(restErrorBody('INTERNAL', 'Internal server error'), req));
    }
  };
}

function authenticateHeader(status: number, error?: AppError): Record<string, string> {
  if (error instanceof RateLimitedError) return { 'retry-after': String(error.retryAfterSeconds) };
  if (status !== 401) return {};
  const description =
    error instanceof UnauthenticatedError ? error.message.replace(/"/g, "'") : 'invalid token';
  return { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"` };
}

type RouteFailure = { ok: false; status: number; body: unknown };
type RouteResult = { ok: true; value: unknown } | RouteFailure;
type FillResult = { ok: true; json: string } | RouteFailure;

/** Runs the route's operation through Apollo Server; a null result of a read-one route is a 404. */
async function runRoute(
  server: ApolloServer<GatewayContext>,
  route: RestRoute,
  variables: Record<string, unknown>,
  contextValue: GatewayContext,
): Promise<RouteResult> {
  const response = await server.executeOperation(
    { query: operationDocument(route), variables, operationName: route.operation },
    { contextValue },
  );
  if (response.body.kind !== 'single') throw new Error('Unexpected incremental response');
  const { data, errors } = response.body.singleResult;
  if (errors && errors.length > 0) return { ok: false, ...restErrorFromGraphQL(errors) };
  const value = (data as Record<string, unknown> | null | undefined)?.[route.field];
  if (value === null && route.notFound) {
    return {
      ok: false,
      ...restErrorFromAppError(new NotFoundError(route.notFound, String(variables.id ?? ''))),
    };
  }
  return { ok: true, value };
}
