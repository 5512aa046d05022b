import { readFileSync } from 'node:fs';
import { Counter } from 'prom-client';
import { createOutboxRelay, type OutboxRelay } from '@coperto/bus';
import { createMetrics } from '@coperto/metrics';
import {
  askingCanali,
  connectDependencies,
  createHttpSubgraphClient,
  hostSubgraphsInProcess,
  startEventConsumers,
  operationLimitsFromConfig,
  reportSubgraphBounds,
  startHost,
  startWorkers,
  type Dependencies,
  type Host,
  type Logger,
} from '@coperto/server-kit';
import type { GatewayConfig } from '../config.js';
import { reportGatewayBounds } from './bounded-state.js';
import { dedupeInFlight } from './fetch-dedupe.js';
import { InProcessDataSource } from './in-process-data-source.js';
import { AuthForwardingDataSource } from './remote-data-source.js';
import { createGatewayServer, type GatewayServer } from './server.js';
import { loadTrustedDocuments } from '../graphql/trusted-documents.js';
import { subgraphFactories } from './subgraph-registry.js';
import { openGatewayRateLimit, type GatewayRateLimit } from '../http/rate-limit.js';

export const SUPERGRAPH_FILE = new URL('../../../supergraph.graphql', import.meta.url);

export interface GatewayApp extends Host {
  gateway: GatewayServer;
  deps: Dependencies;
}

/**
 * Starts the gateway process. Embedded mode (the default) also hosts the subgraphs in-process with the
 * embedded store, the in-process bus and a memory cache; distributed mode reaches them over HTTP.
 */
export async function startGatewayApp(
  config: GatewayConfig,
  logger: Logger,
  options: { handleSignals?: boolean } = {},
): Promise<GatewayApp> {
  const mode = config.COPERTO_MODE;
  const deps = await connectDependencies(config, {
    mode,
    needsStore: mode === 'embedded',
    logger,
    name: 'gateway',
  });
  let rateLimit: GatewayRateLimit | undefined;
  try {
    const metrics = createMetrics({ service: 'gateway' });
    const hosted = mode === 'embedded' ? await hostSubgraphs(config, deps, logger) : undefined;
    // Distributed: the subgraphs' URLs as the data sources resolve them, for the gateway's own calls (canali).
    const remoteUrls: Record<string, string> = {};
    const subgraphClient = hosted?.client ?? createHttpSubgraphClient(remoteUrls);
    deps.channels.bind(hosted?.channelDirectory ?? askingCanali(subgraphClient));
    const subgraphSource = (name: string, url: string | undefined) => {
      const executor = hosted?.executors.get(name);
      if (executor) return new InProcessDataSource(executor);
      if (mode === 'embedded') throw new Error(`Subgraph ${name} is not hosted in this process`);
      const target = config.subgraphUrls[name] ?? url;
      if (!target) throw new Error(`Subgraph ${name} has no URL (supergraph or SUBGRAPH_URLS)`);
      remoteUrls[name] = target;
      return new AuthForwardingDataSource(target);
    };
    const subscriptionResumes = new Counter({
      name: 'graphql_ws_resumes_total',
      help: 'Subscriptions started with after, by outcome: resumed, or why not (unknown, too-many, unavailable)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
    const sharedFetches = new Counter({
      name: 'gateway_subgraph_fetches_shared_total',
      help: 'Subgraph fetches answered by an identical fetch of the same token already in flight',
      labelNames: ['subgraph'],
      registers: [metrics.registry],
    });
    const rateLimitedRequests = new Counter({
      name: 'gateway_rate_limited_total',
      help: 'Requests refused with 429 RATE_LIMITED, by the budget used up (tenants, channel_keys, channel_addresses)',
      labelNames: ['budget'],
      registers: [metrics.registry],
    });
    const rateLimitFailOpen = new Counter({
      name: 'gateway_rate_limit_fail_open_total',
      help: 'Requests let through without a rate-limit decision because the shared store (Redis) failed',
      registers: [metrics.registry],
    });
    rateLimit = await openGatewayRateLimit({
      limits: {
        tenants: { ratePerSecond: config.RATE_LIMIT_TENANT_RPS, burst: config.RATE_LIMIT_TENANT_BURST },
        channel_keys: {
          ratePerSecond: config.RATE_LIMIT_CHANNEL_RPS,
          burst: config.RATE_LIMIT_CHANNEL_BURST,
        },
        channel_addresses: {
          ratePerSecond: config.RATE_LIMIT_CHANNEL_ADDRESS_RPS,
          burst: config.RATE_LIMIT_CHANNEL_ADDRESS_BURST,
        },
        guest_tokens: { ratePerSecond: config.RATE_LIMIT_GUEST_RPS, burst: config.RATE_LIMIT_GUEST_BURST },
      },
      mode,
      redisUrl: config.REDIS_URL,
      logger,
      observer: {
        limited: (budget) => rateLimitedRequests.inc({ budget }),
        failedOpen: () => rateLimitFailOpen.inc(),
      },
    });
    const gateway = await createGatewayServer({
      supergraphSdl: readFileSync(SUPERGRAPH_FILE, 'utf8'),
      dataSourceFor: (name, url) => {
        const source = subgraphSource(name, url);
        if (!config.SUBGRAPH_FETCH_DEDUPE) return source;
        return dedupeInFlight(source, () => sharedFetches.inc({ subgraph: name }));
      },
      verifier: deps.verifier,
      bus: deps.bus,
      cache: deps.cache,
      graphqlReadCache: config.GRAPHQL_READ_CACHE,
      ...(rateLimit ? { rateLimit: rateLimit.check } : {}),
      trustedProxies: config.TRUSTED_PROXIES,
      logger,
      introspection: config.GRAPHQL_INTROSPECTION,
      subscriptionCaps: {
        maxSocketsPerTenant: config.SUBSCRIPTION_MAX_SOCKETS_PER_TENANT,
        maxSockets: config.SUBSCRIPTION_MAX_SOCKETS,
      },
      onSubscriptionResume: (outcome) => subscriptionResumes.inc({ outcome }),
      subscriptionReplay: {
        windowMs: config.SUBSCRIPTION_REPLAY_WINDOW_MS,
        maxEvents: config.SUBSCRIPTION_REPLAY_MAX_EVENTS,
      },
      explorer: config.GRAPHQL_EXPLORER,
      corsOrigins: config.CORS_ORIGINS,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
      operationLimits: operationLimitsFromConfig(config),
      trustedDocuments: config.GRAPHQL_TRUSTED_DOCUMENTS
        ? loadTrustedDocuments(config.GRAPHQL_TRUSTED_DOCUMENTS)
        : undefined,
      stripeWebhook: { secret: config.STRIPE_WEBHOOK_SECRET, tokens: deps.serviceTokens },
      onRequest: (r) => metrics.observeRequest(r),
      onOperation: (name, outcome, durationMs) => metrics.observeGraphqlOperation(name, outcome, durationMs),
      google: {
        canali: subgraphClient,
        serviceTokens: deps.serviceTokens,
        timeZone: config.RESTAURANT_TIMEZONE,
        credentials:
          config.GOOGLE_BOOKING_USER && config.GOOGLE_BOOKING_PASSWORD
            ? { user: config.GOOGLE_BOOKING_USER, password: config.GOOGLE_BOOKING_PASSWORD }
            : undefined,
      },
    });
    metrics.gauge('graphql_ws_open_sockets', 'Open graphql-ws sockets', () =>
      gateway.subscriptions.connections(),
    );
    metrics.gauge(
      'graphql_ws_subscription_groups',
      'Subscription groups open (one execution per event each, shared by their subscriptions)',
      () => gateway.subscriptions.groups().groups,
    );
    metrics.gauge(
      'graphql_ws_subscriptions',
      'Subscriptions open on graphql-ws sockets',
      () => gateway.subscriptions.groups().members,
    );
    reportGatewayBounds(metrics, {
      http: () => gateway.bounded(),
      cache: deps.cache,
      rateLimit,
      subscriptions: gateway.subscriptions,
      bus: deps.bus,
    });
    if (hosted) reportSubgraphBounds(metrics, hosted.subgraphs);
    if (deps.cache) {
      const cache = deps.cache;
      metrics.totalCounter(
        'cache_hits_total',
        'Cache reads answered from the cache',
        () => cache.stats().hits,
      );
      metrics.totalCounter('cache_misses_total', 'Cache reads that missed', () => cache.stats().misses);
    }
    let workers: ReturnType<typeof startWorkers> | undefined;
    const host = await startHost({
      config,
      logger,
      nodeType: 'gateway',
      services: ['gateway', ...(hosted ? [...hosted.executors.keys()] : [])],
      deps,
      appServer: gateway.httpServer,
      metrics,
      ...(hosted ? { relay: hosted.relay } : {}),
      beforeClose: async () => {
        await workers?.stop();
        await gateway.close();
        await rateLimit?.close();
      },
      handleSignals: options.handleSignals ?? true,
    });
    // After the relay started (in startHost): a worker's writes carry events the relay publishes.
    if (hosted) workers = startWorkers(hosted.subgraphs);
    return { ...host, gateway, deps };
  } catch (error) {
    await rateLimit?.close();
    await deps.close();
    throw error;
  }
}

async function hostSubgraphs(config: GatewayConfig, deps: Dependencies, logger: Logger) {
  let relay: OutboxRelay | undefined;
  const { subgraphs, executors, channelDirectory, client } = await hostSubgraphsInProcess({
    factories: subgraphFactories(config),
    deps: {
      store: deps.store!,
      cache: deps.cache,
      verifier: deps.verifier,
      serviceTokens: deps.serviceTokens,
      timeZone: config.RESTAURANT_TIMEZONE,
      onEventsWritten: () => relay?.kick(),
    },
    onInternalError: (error) => logger.error('subgraph error', { error }),
    logger,
  });
  // Before the relay starts (in startHost): the in-process bus hands an event only to consumers already there.
  // They end with the bus, which closes after the relay stopped, so no event the relay publishes misses them.
  await startEventConsumers(subgraphs, deps.bus, logger);
  relay = createOutboxRelay({
    source: deps.store!.outbox(subgraphs.flatMap((s) => s.outboxCollections)),
    bus: deps.bus,
    onError: (error) => logger.warn('outbox relay: will retry', { error }),
  });
  return { subgraphs, executors, relay, channelDirectory, client };
}

export { readGatewayConfig, SUBGRAPH_NAMES, type GatewayConfig } from '../config.js';
export { apiSchemaOf, openApiDocument } from '../pages/openapi/index.js';
export { asyncApiDocument, channelKey, EVENT_CHANNELS } from '../pages/asyncapi/index.js';
