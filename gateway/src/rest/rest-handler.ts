import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import {
  AppError,
  NotFoundError,
  restErrorBody,
  restErrorFromAppError,
  restErrorFromGraphQL,
  UnauthenticatedError,
} from '@coperto/errors';
import { readJsonBody, sendJson, type Logger } from '@coperto/server-kit';
import type { GatewayContext } from '../context.js';
import { createRouteMatcher } from './route-matcher.js';
import { operationDocument, type RestRoute } from './routes.js';

export interface RestHandlerOptions {
  server: ApolloServer<GatewayContext>;
  routes: readonly RestRoute[];
  /** Builds the per-request context from the Authorization header (throws UnauthenticatedError). */
  createContext: (req: IncomingMessage) => Promise<GatewayContext>;
  bodyLimitBytes: number;
  logger: Logger;
}

/**
 * The thin REST facade: matches the route table, authenticates, reads the JSON body, runs the route's named
 * operation in-process through the gateway's own Apollo Server (same auth, plugins and errors as /graphql)
 * and maps GraphQL error codes to HTTP statuses with the REST error body.
 */
export function createRestHandler(options: RestHandlerOptions) {
  const match = createRouteMatcher(options.routes);

  return async function handleRest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://gateway');
      const found = match(req.method ?? 'GET', url.pathname);
      if (found.kind === 'not-found') throw new NotFoundError('Route', `${req.method} ${url.pathname}`);
      if (found.kind === 'method-not-allowed') {
        return sendJson(res, 405, restErrorBody('METHOD_NOT_ALLOWED', `Use ${found.allow.join(', ')}`), {
          allow: found.allow.join(', '),
        });
      }
      const contextValue = await options.createContext(req);
      const body = await readJsonBody(req, options.bodyLimitBytes);
      const { route, params } = found;
      const variables = route.variables({ params, query: url.searchParams, body });
      const response = await options.server.executeOperation(
        { query: operationDocument(route), variables, operationName: route.operation },
        { contextValue },
      );
      if (response.body.kind !== 'single') throw new Error('Unexpected incremental response');
      const { data, errors } = response.body.singleResult;
      if (errors && errors.length > 0) {
        const { status, body: errorBody } = restErrorFromGraphQL(errors);
        if (status >= 500)
          options.logger.error('REST operation failed', { operation: route.operation, errors });
        return sendJson(res, status, errorBody, authenticateHeader(status));
      }
      const result = (data as Record<string, unknown> | null | undefined)?.[route.field];
      if (result === null && route.notFound) throw new NotFoundError(route.notFound, params.id ?? '');
      sendJson(res, route.status ?? 200, result);
    } catch (error) {
      if (error instanceof AppError) {
        const { status, body } = restErrorFromAppError(error);
        return sendJson(res, status, body, authenticateHeader(status, error));
      }
      options.logger.error('REST request failed', { error });
      sendJson(res, 500, restErrorBody('INTERNAL', 'Internal server error'));
    }
  };
}

function authenticateHeader(status: number, error?: AppError): Record<string, string> {
  if (status !== 401) return {};
  const description =
    error instanceof UnauthenticatedError ? error.message.replace(/"/g, "'") : 'invalid token';
  return { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"` };
}
