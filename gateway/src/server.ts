import { createServer, type IncomingMessage, type Server } from 'node:http';
import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import { GraphQLError, type DocumentNode } from 'graphql';
import type { TokenVerifier } from '@coperto/auth';
import type { EventBus } from '@coperto/bus';
import type { Cache } from '@coperto/cache';
import {
  AppError,
  formatGraphQLError,
  RateLimitedError,
  restErrorBody,
  UnauthenticatedError,
} from '@coperto/errors';
import {
  apolloOperationLimits,
  DEFAULT_OPERATION_LIMITS,
  type OperationLimits,
} from '@coperto/graphql-limits';
import { closeHttpServer, requestTarget, sendJson, type Logger } from '@coperto/server-kit';
import type { GatewayContext } from './context.js';
import { createFloorPlanHandler } from './floor-plan.js';
import { createGraphQLHttpHandler } from './graphql-http.js';
import { untrustedErrors, type TrustedDocuments } from './trusted-documents.js';
import { createOpenApiHandler, openApiDocument } from './openapi/index.js';
import { asyncApiDocument, createAsyncApiHandler } from './asyncapi/index.js';
import { createExplorerHandler } from './explorer/explorer.js';
import { logAccess, routeLabel } from './access-log.js';
import { createCors } from './cors.js';
import { requestIdPlugin, startTrace, traceOf, withRequestId } from './request-id.js';
import { createRouteMatcher } from './rest/route-matcher.js';
import { operationMetricsPlugin, type OperationObserver } from './operation-metrics-plugin.js';
import { operationResolutionPlugin } from './operation-resolution-plugin.js';
import { startEventFeed } from './subscriptions/event-feed.js';
import { createRestHandler } from './rest/rest-handler.js';
import { routes } from './rest/routes.js';
import type { ConnectionCapLimits } from './subscriptions/connection-caps.js';
import type { SocketLimits } from './subscriptions/socket-budget.js';
import { createSubscriptionServer, type SubscriptionServer } from './subscriptions/ws-server.js';
import type { RateLimitCheck } from './tenant-rate-limit.js';

export interface GatewayDeps {
  supergraphSdl: string;
  /** How the gateway reaches each subgraph: in-process (embedded) or over HTTP (distributed). */
  dataSourceFor: (name: string, url: string | undefined) => GraphQLDataSource;
  verifier: TokenVerifier;
  /** The event bus that GraphQL subscriptions (graphql-ws on `/graphql`) follow. */
  bus: EventBus;
  /** Cache of REST reads with a read scope (per tenant; invalidated by the owning subgraph's writes). */
  cache?: Cache;
  /** Per-socket limits of the subscriptions (defaults: subscriptions/socket-budget.ts). */
  subscriptionLimits?: Partial<SocketLimits>;
  /** Sockets per tenant and in total (defaults: subscriptions/connection-caps.ts). */
  subscriptionCaps?: Partial<ConnectionCapLimits>;
  /** Per-tenant fairness on /graphql and /api, after the token is verified (tenant-rate-limit.ts). */
  rateLimit?: RateLimitCheck;
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
  /** Every operation answered (`/graphql` and the REST routes' named operations), for the metrics. */
  onOperation?: OperationObserver;
}

/** Bytes of parsed `/graphql` documents the gateway keeps (Apollo's default is 30 MiB). */
const DOCUMENT_CACHE_BYTES = 8 * 1024 * 1024;

export interface GatewayServer {
  httpServer: Server;
  apollo: ApolloServer<GatewayContext>;
  /** graphql-ws on the same server and path as `/graphql`. */
  subscriptions: SubscriptionServer;
  /** Stops accepting, finishes in-flight requests, stops Apollo. Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds (does not listen) the gateway: Apollo Gateway over the static supergraph, `/graphql` for the
 * back-office, the REST facade on `/api`, on one node:http server.
 */
export async function createGatewayServer(deps: GatewayDeps): Promise<GatewayServer> {
  const httpServer = createServer();
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
      requestIdPlugin(),
      ...(deps.onOperation ? [operationMetricsPlugin(deps.onOperation)] : []),
    ],
  });
  await apollo.start();

  const createContext = async (req: IncomingMessage): Promise<GatewayContext> => {
    const authorization = req.headers.authorization;
    const trace = traceOf(req);
    const requestId = trace?.id ?? 'none';
    try {
      const viewer = await deps.verifier.verifyAuthorizationHeader(authorization);
      if (trace) trace.tenant = viewer.tenantId;
      await deps.rateLimit?.(viewer);
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
  const restContext = async (req: IncomingMessage) => {
    try {
      return await createContext(req);
    } catch (error) {
      if (error instanceof GraphQLError) {
        throw error.originalError instanceof AppError
          ? error.originalError
          : new UnauthenticatedError(error.message);
      }
      throw error;
    }
  };

  const handleRest = createRestHandler({
    server: apollo,
    routes,
    createContext: restContext,
    ...(deps.cache ? { cache: deps.cache } : {}),
    bodyLimitBytes: deps.bodyLimitBytes,
    logger: deps.logger,
  });
  const handleGraphQL = createGraphQLHttpHandler({
    server: apollo,
    createContext,
    bodyLimitBytes: deps.bodyLimitBytes,
    maxTokens: operationLimits.maxTokens,
    trustedDocuments: deps.trustedDocuments,
    logger: deps.logger,
  });

  const serveFloorPlan = createFloorPlanHandler();
  const handleOpenApi = createOpenApiHandler(() => openApiDocument(deps.supergraphSdl));
  const handleAsyncApi = createAsyncApiHandler(asyncApiDocument);
  const handleExplorer = createExplorerHandler(deps.explorer ?? false);

  const matchRoute = createRouteMatcher(routes);
  const restTemplate = (method: string, path: string) => {
    const found = matchRoute(method, path);
    return found.kind === 'found' ? found.route.path : undefined;
  };
  const applyCors = createCors(deps.corsOrigins ?? []);

  httpServer.on('request', (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const label = routeLabel(path, (p) => restTemplate(req.method ?? 'GET', p));
    const trace = startTrace(req, res, label);
    logAccess(deps.logger, req, res, trace, (entry) =>
      deps.onRequest?.({
        method: entry.method,
        route: entry.route,
        status: entry.status,
        durationMs: entry.durationMs,
      }),
    );
    if (applyCors(req, res, path)) return;
    const route = path === '/graphql' ? '/graphql' : path.startsWith('/api/') ? '/api' : 'other';
    const notFound = () => sendJson(res, 404, withRequestId(restErrorBody('NOT_FOUND', 'Not found'), req));
    const target = requestTarget(req.url);
    if (!target) return notFound();
    if (handleExplorer(req, res, target)) return;
    if (route === '/graphql') return void handleGraphQL(req, res);
    if (route === '/api') return void handleRest(req, res);
    if (handleOpenApi(req, res, path)) return;
    if (handleAsyncApi(req, res, path)) return;
    if (serveFloorPlan(req, res, path)) return;
    notFound();
  });

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
  });

  let closing: Promise<void> | undefined;
  return {
    httpServer,
    apollo,
    subscriptions,
    close: () =>
      (closing ??= (async () => {
        await subscriptions.close();
        await feed.close();
        await apollo.stop();
        await closeHttpServer(httpServer);
      })()),
  };
}
