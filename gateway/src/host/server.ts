import type { Server } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import { GraphQLError, type DocumentNode } from 'graphql';
import type { ServiceTokenIssuer, TokenVerifier } from '@coperto/auth';
import type { EventBus } from '@coperto/bus';
import type { Cache } from '@coperto/cache';
import {
  AppError,
  formatGraphQLError,
  RateLimitedError,
  restErrorBody,
  UnauthenticatedError,
} from '@coperto/errors';
import type { Logger } from '@coperto/server-kit';
import {
  apolloOperationLimits,
  DEFAULT_OPERATION_LIMITS,
  type OperationLimits,
} from '@coperto/graphql-limits';
import { closeHttpServer, MAX_JSON_DEPTH, useJsonBodies } from '@coperto/server-kit';
import type { GatewayContext } from '../graphql/context.js';
import { registerFloorPlan } from '../pages/floor-plan.js';
import { registerBookingPages } from '../pages/prenota/serve.js';
import { registerStripeWebhook } from '../webhooks/stripe-webhook.js';
import { FEED_ROUTE_DOCS } from '../google/feed-route-docs.js';
import { mountGoogle, type GoogleDeps } from '../google/mount.js';
import type { GoogleTokens } from '../google/google-tokens.js';
import type { BoundedStats } from '@coperto/metrics';
import { registerGraphQLRoute } from '../graphql/graphql-http.js';
import { createGraphQLReadCache } from '../graphql/read-cache/read-cache.js';
import { answerClientError, createErrorHandler } from '../http/errors.js';
import { createValidatorCompiler } from '../http/request-validation.js';
import { lazySerializerController } from '../http/response-serialization.js';
import { untrustedErrors, type TrustedDocuments } from '../graphql/trusted-documents.js';
import {
  apiSchemaOf,
  API_VERSION,
  buildOpenApiDocument,
  registerOpenApiRoutes,
} from '../pages/openapi/index.js';
import { asyncApiDocument, registerAsyncApiRoute } from '../pages/asyncapi/index.js';
import { registerExplorer } from '../pages/explorer.js';
import { logAccess, routeLabel } from '../http/access-log.js';
import { registerCors } from '../http/cors.js';
import { requestIdPlugin, startTrace, traceOf, withRequestId } from '../http/request-id.js';
import { operationMetricsPlugin, type OperationObserver } from '../graphql/operation-metrics-plugin.js';
import { operationResolutionPlugin } from '../graphql/operation-resolution-plugin.js';
import { serviceRightsPlugin } from '../graphql/service-rights-plugin.js';
import { startEventFeed } from '../subscriptions/event-feed.js';
import { DEFAULT_REPLAY_BOUNDS, replayerOf, type ReplayBounds } from '../subscriptions/replay-bounds.js';
import { registerRestRoutes } from '../rest/register-routes.js';
import { operationDocument, routes } from '../rest/route-table.js';
import type { ConnectionCapLimits } from '../subscriptions/connection-caps.js';
import type { SocketLimits } from '../subscriptions/socket-budget.js';
import { createSubscriptionServer, type SubscriptionServer } from '../subscriptions/ws-server.js';
import type { RateLimitCheck } from '../http/rate-limit.js';

export interface GatewayDeps {
  supergraphSdl: string;
  /** How the gateway reaches each subgraph: in-process (embedded) or over HTTP (distributed). */
  dataSourceFor: (name: string, url: string | undefined) => GraphQLDataSource;
  verifier: TokenVerifier;
  /** The event bus that GraphQL subscriptions (graphql-ws on `/graphql`) follow. */
  bus: EventBus;
  /** Cache of REST reads with a read scope (per tenant; invalidated by the owning subgraph's writes). */
  cache?: Cache;
  /** GRAPHQL_READ_CACHE: `/graphql` queries over rooms and tables answered from `cache` too (needs `cache`). */
  graphqlReadCache?: boolean;
  /** Per-socket limits of the subscriptions (defaults: subscriptions/socket-budget.ts). */
  subscriptionLimits?: Partial<SocketLimits>;
  /** Sockets per tenant and in total (defaults: subscriptions/connection-caps.ts). */
  subscriptionCaps?: Partial<ConnectionCapLimits>;
  /** How far back a subscription with `after` may resume (SUBSCRIPTION_REPLAY_*). Default: replay-bounds.ts. */
  subscriptionReplay?: ReplayBounds;
  /** Told how each subscription with `after` went (the gateway counts them: graphql_ws_resumes_total). */
  onSubscriptionResume?: (outcome: string) => void;
  /** Fairness on /graphql and /api, after the token is verified: per tenant, per channel key and address (rate-limit.ts). */
  rateLimit?: RateLimitCheck;
  /** Reverse proxies whose `X-Forwarded-For` names the client (TRUSTED_PROXIES); none: the socket's peer is. */
  trustedProxies?: readonly string[];
  logger: Logger;
  introspection: boolean;
  /** GraphiQL for browsers on `GET /graphql` (assets under `/explorer/`). */
  explorer?: boolean;
  /** Origins allowed by CORS on /api, /graphql and /openapi.json (`*` = any). */
  corsOrigins?: readonly string[];
  bodyLimitBytes: number;
  /** On shutdown, in-flight requests may run this long before they are cut (SHUTDOWN_GRACE_MS). Default 25 s. */
  shutdownGraceMs?: number;
  /** Token, depth, alias, directive and cost ceilings of `/graphql` and its socket (GRAPHQL_MAX_*). */
  operationLimits?: OperationLimits;
  /** GRAPHQL_TRUSTED_DOCUMENTS loaded: when set, `/graphql` runs only these documents. */
  trustedDocuments?: TrustedDocuments | undefined;
  onRequest?: (info: { method: string; route: string; status: number; durationMs: number }) => void;
  /** `POST /webhooks/stripe`: the signing secret (unset: 503) and the issuer of the payments tokens. */
  stripeWebhook?: { secret: string | undefined; tokens: ServiceTokenIssuer };
  /** Every operation answered (`/graphql` and the REST routes' named operations), for the metrics. */
  onOperation?: OperationObserver;
  /** Reserve with Google's booking server and feed (docs/integrations.md); absent: not served. */
  google?: GoogleDeps;
}

/** The longest a cached `/graphql` answer is kept (a write to what it read replaces it at once), as REST's. */
const GRAPHQL_READ_TTL_SECONDS = 5;

/** Bytes of parsed `/graphql` documents the gateway keeps (Apollo's default is 30 MiB). */
const DOCUMENT_CACHE_BYTES = 8 * 1024 * 1024;

export interface GatewayServer {
  httpServer: Server;
  /** The fastify instance serving every HTTP route (tests call its `inject`). */
  http: FastifyInstance;
  apollo: ApolloServer<GatewayContext>;
  /** graphql-ws on the same server and path as `/graphql`. */
  subscriptions: SubscriptionServer;
  /**
   * The bounded memories of its HTTP side, by structure name (docs/scaling.md): the REST facade's encoded answers,
   * the GraphQL read cache's analyses and encoded answers, Google's minted tokens (those it has).
   */
  bounded(): Record<string, BoundedStats>;
  /** Stops accepting, finishes in-flight requests, stops Apollo. Idempotent. */
  close(): Promise<void>;
}

/** Path parameters longer than this are not ids: the route does not match (404). */
const MAX_PARAM_LENGTH = 4096;

/**
 * Builds (does not listen) the gateway: Apollo Gateway over the static supergraph, `/graphql` for the
 * back-office, the REST facade on `/api`, and graphql-ws, on one fastify server.
 */
export async function createGatewayServer(deps: GatewayDeps): Promise<GatewayServer> {
  // A request fastify cannot route (a path segment that is not valid percent-encoding, a parameter past
  // MAX_PARAM_LENGTH) is a 404 like any path that matches no route, with its request id and access line.
  const traced = (request: FastifyRequest, reply: FastifyReply) => {
    const trace = startTrace(request.raw, reply.raw, 'other');
    logAccess(deps.logger, request.raw, reply.raw, trace, deps.onRequest);
  };
  const app = Fastify({
    bodyLimit: deps.bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // The client address (request.ip) the channel budgets count by: the socket's peer, or the client a trusted
    // proxy names in X-Forwarded-For (proxy-addr).
    trustProxy: deps.trustedProxies?.length ? [...deps.trustedProxies] : false,
    // Requests are logged once each by access-log.ts.
    logger: false,
    frameworkErrors: (_error, request, reply) => {
      const answer = reply as FastifyReply;
      traced(request, answer);
      void answer.code(404).send(withRequestId(restErrorBody('NOT_FOUND', 'Not found'), request.raw));
    },
    clientErrorHandler: answerClientError,
    schemaController: lazySerializerController(),
  });
  const httpServer = app.server;
  const gateway = new ApolloGateway({
    supergraphSdl: deps.supergraphSdl,
    buildService: ({ name, url }) => deps.dataSourceFor(name, url),
  });
  const operationLimits = deps.operationLimits ?? DEFAULT_OPERATION_LIMITS;
  const limits = apolloOperationLimits<GatewayContext>(operationLimits);
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    parseOptions: limits.parseOptions,
    validationRules: limits.validationRules,
    // Parsed documents, bounded by their size (AST as JSON) rather than by their number.
    documentStore: new InMemoryLRUCache<DocumentNode>({ maxSize: DOCUMENT_CACHE_BYTES }),
    introspection: deps.introspection,
    csrfPrevention: true,
    // The host owns SIGTERM (close(): sockets, then Apollo, then the server); Apollo's own handler would
    // stop only Apollo and re-raise the signal, killing the process before the graceful shutdown.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) =>
      formatGraphQLError(formatted, error, (internal) =>
        deps.logger.error('GraphQL error', { error: internal }),
      ),
    plugins: [
      // Apollo's drain closes the server and cuts what still runs after the grace period (SHUTDOWN_GRACE_MS).
      ApolloServerPluginDrainHttpServer({
        httpServer,
        stopGracePeriodMillis: deps.shutdownGraceMs ?? 25_000,
      }),
      ApolloServerPluginLandingPageDisabled(),
      operationResolutionPlugin(),
      serviceRightsPlugin(),
      requestIdPlugin(),
      ...(deps.onOperation ? [operationMetricsPlugin(deps.onOperation)] : []),
    ],
  });
  await apollo.start();

  const createContext = async (request: FastifyRequest): Promise<GatewayContext> => {
    const authorization = request.headers.authorization;
    const trace = traceOf(request.raw);
    const requestId = trace?.id ?? 'none';
    try {
      const viewer = await deps.verifier.verifyAuthorizationHeader(authorization);
      if (trace) trace.tenant = viewer.tenantId;
      await deps.rateLimit?.(viewer, request.ip);
      return { viewer, authorization: authorization!, requestId, ...(trace ? { trace } : {}) };
    } catch (error) {
      if (error instanceof RateLimitedError) {
        throw new GraphQLError(error.message, {
          originalError: error,
          extensions: {
            code: error.code,
            http: {
              status: 429,
              headers: new Map([['retry-after', String(error.retryAfterSeconds)]]),
            },
          },
        });
      }
      if (error instanceof AppError && error.code === 'UNAUTHENTICATED') {
        throw new GraphQLError(error.message, {
          extensions: {
            code: 'UNAUTHENTICATED',
            requestId,
            http: { status: 401, headers: new Map([['www-authenticate', 'Bearer error="invalid_token"']]) },
          },
        });
      }
      throw error;
    }
  };
  const restContext = async (request: FastifyRequest) => {
    try {
      return await createContext(request);
    } catch (error) {
      if (error instanceof GraphQLError) {
        throw error.originalError instanceof AppError
          ? error.originalError
          : new UnauthenticatedError(error.message);
      }
      throw error;
    }
  };

  // The public API schema the REST routes and OpenAPI are typed from: the one Apollo Gateway built from the same
  // supergraph when Apollo started (building it again cost ≈ 0.1 s of CPU at start, docs/architecture.md "Start-up").
  const apiSchema = gateway.schema ?? apiSchemaOf(deps.supergraphSdl);
  app.setValidatorCompiler(createValidatorCompiler());
  app.setErrorHandler(createErrorHandler({ bodyLimitBytes: deps.bodyLimitBytes, logger: deps.logger }));
  useJsonBodies(app, MAX_JSON_DEPTH);
  // First of all: the request id, the access line and the route label (the REST template, never the raw path).
  // A callback hook, not an async one: nothing here waits, so no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    // fastify builds its route options object on each read: read it once.
    const options = request.routeOptions;
    const route = options.config.restRoute ? options.url! : routeLabel(request.url.split('?', 1)[0]!);
    const trace = startTrace(request.raw, reply.raw, route);
    logAccess(deps.logger, request.raw, reply.raw, trace, deps.onRequest);
    done();
  });
  await registerCors(app, deps.corsOrigins ?? []);
  const rest = registerRestRoutes(app, {
    server: apollo,
    routes,
    schema: apiSchema,
    authenticate: restContext,
    ...(deps.cache ? { cache: deps.cache } : {}),
    logger: deps.logger,
  });
  const answerExplorerPage = registerExplorer(app, deps.explorer ?? false);
  const readCache =
    deps.cache && deps.graphqlReadCache
      ? createGraphQLReadCache({
          schema: apiSchema,
          cache: deps.cache,
          ttlSeconds: GRAPHQL_READ_TTL_SECONDS,
          maxTokens: operationLimits.maxTokens,
        })
      : undefined;
  registerGraphQLRoute(app, {
    server: apollo,
    createContext,
    maxTokens: operationLimits.maxTokens,
    trustedDocuments: deps.trustedDocuments,
    answeredElsewhere: answerExplorerPage,
    readCache,
  });
  registerOpenApiRoutes(app, () =>
    buildOpenApiDocument({
      routes,
      schema: apiSchema,
      documentOf: operationDocument,
      version: API_VERSION,
      extraRoutes: [FEED_ROUTE_DOCS],
    }),
  );
  registerAsyncApiRoute(app, asyncApiDocument);
  registerFloorPlan(app);
  registerBookingPages(app);
  if (deps.stripeWebhook) {
    registerStripeWebhook(app, { ...deps.stripeWebhook, verifier: deps.verifier, server: apollo });
  }
  let googleTokens: GoogleTokens | undefined;
  if (deps.google) {
    googleTokens = mountGoogle(app, {
      ...deps.google,
      apollo,
      verifier: deps.verifier,
      authenticate: restContext,
    });
  }
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(withRequestId(restErrorBody('NOT_FOUND', 'Not found'), request.raw)),
  );
  await app.ready();

  const trustedDocuments = deps.trustedDocuments;
  const feed = await startEventFeed(deps.bus, deps.logger);
  const subscriptions = createSubscriptionServer({
    httpServer,
    bus: feed.bus,
    verifier: deps.verifier,
    logger: deps.logger,
    introspection: deps.introspection,
    maxPayloadBytes: deps.bodyLimitBytes,
    operationLimits,
    ...(trustedDocuments ? { trusted: (query: unknown) => untrustedErrors(trustedDocuments, query) } : {}),
    ...(deps.subscriptionLimits ? { limits: deps.subscriptionLimits } : {}),
    ...(deps.subscriptionCaps ? { caps: deps.subscriptionCaps } : {}),
    replay: replayerOf(deps.bus, deps.subscriptionReplay ?? DEFAULT_REPLAY_BOUNDS),
    ...(deps.onSubscriptionResume ? { onResume: deps.onSubscriptionResume } : {}),
  });

  let closing: Promise<void> | undefined;
  return {
    httpServer,
    http: app,
    apollo,
    subscriptions,
    bounded: () => ({
      rest_encoded_answers: rest.encodedAnswers(),
      ...readCache?.bounded(),
      ...(googleTokens ? { google_tokens: googleTokens.stats() } : {}),
    }),
    close: () =>
      (closing ??= (async () => {
        await subscriptions.close();
        await feed.close();
        await apollo.stop();
        await closeHttpServer(httpServer);
      })()),
  };
}
