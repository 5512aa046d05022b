import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { ApolloServer } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { AppError, toGraphQLError } from '@coperto/errors';
import { assertTokenLimit } from '@coperto/graphql-limits';
import type { GatewayContext } from './context.js';
import type { GraphQLReadCache } from './read-cache/read-cache.js';
import { trustedQuery, type TrustedDocuments } from './trusted-documents.js';

export interface GraphQLRouteOptions {
  server: ApolloServer<GatewayContext>;
  /** The per-request context from the Authorization header; a refusal is a GraphQLError with its HTTP head. */
  createContext: (request: FastifyRequest) => Promise<GatewayContext>;
  /** GRAPHQL_MAX_TOKENS, counted before Apollo Server parses (or caches) the document. */
  maxTokens: number;
  /** GRAPHQL_TRUSTED_DOCUMENTS: when set, only these documents run (trusted-documents.ts). */
  trustedDocuments?: TrustedDocuments | undefined;
  /** A request that another page answers instead (the explorer for browsers): no token needed. */
  answeredElsewhere?: (request: FastifyRequest, reply: FastifyReply) => boolean;
  /** GRAPHQL_READ_CACHE: queries over rooms and tables answered from the cache until a write replaces them. */
  readCache?: GraphQLReadCache | undefined;
}

/**
 * `/graphql` (GET and POST) for the back-office through Apollo Server's fastify integration: the token first (a
 * bad one is a 401 before the body is read), then the gateway's JSON body rules, the trusted documents and the
 * token ceiling, then Apollo Server's own HTTP handling (CSRF prevention, GET queries, operation limits, errors).
 * A POSTed query the read cache covers is answered from it when an answer for the same request is stored under
 * the current versions of its read scopes (`x-cache: hit`), else by Apollo Server, whose complete success is
 * then stored (`x-cache: miss`).
 */
export function registerGraphQLRoute(app: FastifyInstance, options: GraphQLRouteOptions): void {
  const contexts = new WeakMap<FastifyRequest, GatewayContext>();
  // Typed for this route's generic request (the integration types its own Reply as string, the body it returns).
  const apolloHandler = fastifyApolloHandler(options.server, {
    context: async (request) => contexts.get(request)!,
  }) as unknown as (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  app.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    exposeHeadRoute: false,
    onRequest: async (request, reply) => {
      if (options.answeredElsewhere?.(request, reply)) return reply;
      try {
        contexts.set(request, await options.createContext(request));
      } catch (error) {
        if (error instanceof GraphQLError) return sendGraphQLError(reply, error);
        throw error;
      }
      return undefined;
    },
    preHandler: async (request, reply) => {
      const refusal = options.trustedDocuments ? useTrusted(request, options.trustedDocuments) : undefined;
      if (refusal) return sendGraphQLError(reply, refusal);
      const query =
        request.method === 'POST'
          ? (request.body as { query?: unknown } | undefined)?.query
          : (request.query as Record<string, unknown>).query;
      if (typeof query === 'string') {
        try {
          assertTokenLimit(query, options.maxTokens);
        } catch (error) {
          if (error instanceof GraphQLError) return sendGraphQLError(reply, error);
          throw error;
        }
      }
      return undefined;
    },
    handler: async function (request, reply) {
      const readCache = options.readCache;
      if (!readCache || request.method !== 'POST') return apolloHandler.call(this, request, reply);
      const lookup = await readCache.lookup({
        contentType: request.headers['content-type'],
        body: request.body,
        accept: request.headers.accept,
        viewer: contexts.get(request)!.viewer,
      });
      if (!lookup) return apolloHandler.call(this, request, reply);
      if (lookup.kind === 'hit') {
        const { contentType, cacheControl, body } = lookup.answer;
        void reply.code(200).header('content-type', contentType).header('x-cache', 'hit');
        if (cacheControl !== null) void reply.header('cache-control', cacheControl);
        return reply.send(body);
      }
      void reply.header('x-cache', 'miss');
      const answer = await apolloHandler.call(this, request, reply);
      if (typeof answer === 'string') {
        await readCache.fill(lookup.fill, {
          status: reply.statusCode,
          contentType: headerText(reply.getHeader('content-type')),
          cacheControl: headerText(reply.getHeader('cache-control')),
          body: answer,
        });
      }
      return answer;
    },
  });
}

const headerText = (value: ReturnType<FastifyReply['getHeader']>) =>
  typeof value === 'string' ? value : undefined;

/** A refusal made before Apollo Server saw the request, in its format: `{errors}` with the error's HTTP head. */
function sendGraphQLError(reply: FastifyReply, error: GraphQLError): FastifyReply {
  const http = error.extensions.http as { status?: number; headers?: Map<string, string> } | undefined;
  const { http: _omit, ...extensions } = error.extensions;
  return reply
    .code(http?.status ?? 400)
    .headers(Object.fromEntries(http?.headers ?? []))
    .send({ errors: [{ message: error.message, extensions }] });
}

/**
 * With trusted documents, puts the trusted document in the request (a persisted-query hash is replaced by its
 * text, for POST bodies and GET parameters alike), or answers the 400 QUERY_NOT_TRUSTED refusal.
 */
function useTrusted(request: FastifyRequest, trusted: TrustedDocuments): GraphQLError | undefined {
  try {
    if (request.method === 'POST') {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return undefined; // Apollo Server refuses it as a bad request
      }
      const fields = body as { query?: unknown; extensions?: unknown };
      request.body = { ...fields, query: trustedQuery(trusted, fields) };
      return undefined;
    }
    const [path, search = ''] = request.raw.url!.split('?', 2) as [string, string?];
    const params = new URLSearchParams(search);
    const extensions = params.get('extensions');
    const query = trustedQuery(trusted, {
      query: params.get('query') ?? undefined,
      extensions: extensions ? (JSON.parse(extensions) as unknown) : undefined,
    });
    params.set('query', query);
    // The fastify integration reads the GET parameters from the request's URL.
    request.raw.url = `${path}?${params.toString()}`;
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
