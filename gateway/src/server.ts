import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError } from 'graphql';
import type { TokenVerifier } from '@coperto/auth';
import type { EventBus } from '@coperto/bus';
import type { Cache } from '@coperto/cache';
import { AppError, formatGraphQLError, restErrorBody, UnauthenticatedError } from '@coperto/errors';
import { closeHttpServer, sendJson, type Logger } from '@coperto/server-kit';
import type { GatewayContext } from './context.js';
import { createFloorPlanHandler } from './floor-plan.js';
import { createGraphQLHttpHandler } from './graphql-http.js';
import { operationMetricsPlugin, type OperationObserver } from './operation-metrics-plugin.js';
import { startEventFeed } from './subscriptions/event-feed.js';
import { createRestHandler } from './rest/rest-handler.js';
import { routes } from './rest/routes.js';
import type { SocketLimits } from './subscriptions/socket-budget.js';
import { createSubscriptionServer, type SubscriptionServer } from './subscriptions/ws-server.js';

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
  logger: Logger;
  introspection: boolean;
  bodyLimitBytes: number;
  onRequest?: (info: { method: string; route: string; status: number; durationMs: number }) => void;
  /** Every operation answered (`/graphql` and the REST routes' named operations), for the metrics. */
  onOperation?: OperationObserver;
}

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
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
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
      ApolloServerPluginDrainHttpServer({ httpServer, stopGracePeriodMillis: 5_000 }),
      ApolloServerPluginLandingPageDisabled(),
      ...(deps.onOperation ? [operationMetricsPlugin(deps.onOperation)] : []),
    ],
  });
  await apollo.start();

  const createContext = async (req: IncomingMessage): Promise<GatewayContext> => {
    const authorization = req.headers.authorization;
    const requestId = headerValue(req.headers['x-request-id']) ?? randomUUID();
    try {
      const viewer = await deps.verifier.verifyAuthorizationHeader(authorization);
      return { viewer, authorization: authorization!, requestId };
    } catch (error) {
      if (error instanceof AppError && error.code === 'UNAUTHENTICATED') {
        throw new GraphQLError(error.message, {
          extensions: {
            code: 'UNAUTHENTICATED',
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
      if (error instanceof GraphQLError) throw new UnauthenticatedError(error.message);
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
    logger: deps.logger,
  });

  const serveFloorPlan = createFloorPlanHandler();
  httpServer.on('request', (req, res) => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = path === '/graphql' ? '/graphql' : path.startsWith('/api/') ? '/api' : 'other';
    res.once('finish', () =>
      deps.onRequest?.({
        method: req.method ?? 'GET',
        route,
        status: res.statusCode,
        durationMs: performance.now() - started,
      }),
    );
    if (route === '/graphql') return void handleGraphQL(req, res);
    if (route === '/api') return void handleRest(req, res);
    if (serveFloorPlan(req, res, path)) return;
    sendJson(res, 404, restErrorBody('NOT_FOUND', 'Not found'));
  });

  const feed = await startEventFeed(deps.bus, deps.logger);
  const subscriptions = createSubscriptionServer({
    httpServer,
    bus: feed.bus,
    verifier: deps.verifier,
    logger: deps.logger,
    introspection: deps.introspection,
    maxPayloadBytes: deps.bodyLimitBytes,
    ...(deps.subscriptionLimits ? { limits: deps.subscriptionLimits } : {}),
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

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
