import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import { AppError, restErrorBody, restErrorFromAppError } from '@coperto/errors';
import { readJsonBody, sendJson, type Logger } from '@coperto/server-kit';
import type { GatewayContext } from './context.js';
import { withRequestId } from './request-id.js';

/**
 * `/graphql` over node:http for the back-office: the body limit and JSON checks of the REST facade, then
 * Apollo Server's own HTTP handling (CSRF prevention, GET queries, errors). Bad tokens are a 401.
 */
export function createGraphQLHttpHandler(options: {
  server: ApolloServer<GatewayContext>;
  createContext: (req: IncomingMessage) => Promise<GatewayContext>;
  bodyLimitBytes: number;
  logger: Logger;
}) {
  return async function handleGraphQL(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      const body = method === 'POST' ? await readJsonBody(req, options.bodyLimitBytes) : undefined;
      const headers = new HeaderMap();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
      }
      const response = await options.server.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method,
          headers,
          search: new URL(req.url ?? '/', 'http://gateway').search,
          body,
        },
        context: () => options.createContext(req),
      });
      for (const [key, value] of response.headers) res.setHeader(key, value);
      res.statusCode = response.status ?? 200;
      if (response.body.kind === 'complete') {
        res.end(response.body.string);
        return;
      }
      for await (const chunk of response.body.asyncIterator) res.write(chunk);
      res.end();
    } catch (error) {
      if (error instanceof AppError) {
        const { status, body } = restErrorFromAppError(error);
        return sendJson(res, status, withRequestId(body, req));
      }
      options.logger.error('GraphQL request failed', { error });
      if (!res.headersSent)
        sendJson(res, 500, withRequestId(restErrorBody('INTERNAL', 'Internal server error'), req));
    }
  };
}
