import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { AppError, restErrorBody, restErrorFromAppError, toGraphQLError } from '@coperto/errors';
import { assertTokenLimit } from '@coperto/graphql-limits';
import { readJsonBody, requestTarget, sendJson, type Logger } from '@coperto/server-kit';
import type { GatewayContext } from './context.js';
import { withRequestId } from './request-id.js';
import { trustedQuery, type TrustedDocuments } from './trusted-documents.js';

/**
 * `/graphql` over node:http for the back-office: the token first (a bad one is a 401 before the body is read
 * or parsed), then the body limit and JSON checks of the REST facade, then Apollo Server's own HTTP handling
 * (CSRF prevention, GET queries, operation limits, errors).
 */
export function createGraphQLHttpHandler(options: {
  server: ApolloServer<GatewayContext>;
  createContext: (req: IncomingMessage) => Promise<GatewayContext>;
  bodyLimitBytes: number;
  /** GRAPHQL_MAX_TOKENS, counted before Apollo Server parses (or caches) the document. */
  maxTokens: number;
  /** GRAPHQL_TRUSTED_DOCUMENTS: when set, only these documents run (trusted-documents.ts). */
  trustedDocuments?: TrustedDocuments | undefined;
  logger: Logger;
}) {
  return async function handleGraphQL(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      let context: GatewayContext;
      try {
        context = await options.createContext(req);
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        req.resume();
        return sendGraphQLError(res, error);
      }
      const method = (req.method ?? 'GET').toUpperCase();
      const request = {
        method,
        body: method === 'POST' ? await readJsonBody(req, options.bodyLimitBytes) : undefined,
        search: requestTarget(req.url)?.search ?? '',
      };
      const refusal = options.trustedDocuments ? useTrusted(request, options.trustedDocuments) : undefined;
      if (refusal) return sendGraphQLError(res, refusal);
      const { body, search } = request;
      const query = method === 'POST' ? (body as { query?: unknown } | undefined)?.query : queryParam(search);
      if (typeof query === 'string') {
        try {
          assertTokenLimit(query, options.maxTokens);
        } catch (error) {
          if (error instanceof GraphQLError) return sendGraphQLError(res, error);
          throw error;
        }
      }
      const headers = new HeaderMap();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
      }
      const response = await options.server.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method,
          headers,
          search,
          body,
        },
        context: async () => context,
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

/** A refusal made before Apollo Server saw the request, in its format: `{errors}` with the error's HTTP head. */
function sendGraphQLError(res: ServerResponse, error: GraphQLError): void {
  const http = error.extensions.http as { status?: number; headers?: Map<string, string> } | undefined;
  const { http: _omit, ...extensions } = error.extensions;
  sendJson(
    res,
    http?.status ?? 400,
    { errors: [{ message: error.message, extensions }] },
    Object.fromEntries(http?.headers ?? []),
  );
}

function queryParam(search: string): string | undefined {
  return new URLSearchParams(search).get('query') ?? undefined;
}

/**
 * With trusted documents, puts the trusted document in the request (a persisted-query hash is replaced by its
 * text, for POST bodies and GET parameters alike), or answers the 400 QUERY_NOT_TRUSTED refusal.
 */
function useTrusted(
  request: { method: string; body: unknown; search: string },
  trusted: TrustedDocuments,
): GraphQLError | undefined {
  try {
    if (request.method === 'POST') {
      if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
        return undefined; // Apollo Server refuses it as a bad request
      }
      const body = request.body as { query?: unknown; extensions?: unknown };
      request.body = { ...body, query: trustedQuery(trusted, body) };
      return undefined;
    }
    const params = new URLSearchParams(request.search);
    const extensions = params.get('extensions');
    const query = trustedQuery(trusted, {
      query: params.get('query') ?? undefined,
      extensions: extensions ? (JSON.parse(extensions) as unknown) : undefined,
    });
    params.set('query', query);
    request.search = `?${params.toString()}`;
    return undefined;
  } catch (error) {
    if (error instanceof AppError) {
      const refusal = toGraphQLError(error);
      refusal.extensions.http = { status: error.status, headers: new Map() };
      return refusal;
    }
    if (error instanceof SyntaxError) return undefined; // bad `extensions` JSON: Apollo Server answers it
    throw error;
  }
}
