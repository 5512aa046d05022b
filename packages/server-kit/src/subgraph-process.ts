import { createOutboxRelay } from '@coperto/bus';
import { createMetrics } from '@coperto/metrics';
import { reportSubgraphBounds } from './subgraph-bounds.js';
import { askingCanali } from './channel-directories.js';
import { connectDependencies } from './dependencies.js';
import { createSubgraphExecutor } from './execute-subgraph.js';
import { startEventConsumers, type RunningConsumers } from './event-consumers.js';
import { startHost, type Host } from './host.js';
import { createLogger, type Logger } from './logger.js';
import { createSubgraphHttpServer } from './serve-subgraph.js';
import { operationLimitsFromConfig, type ServiceConfig } from './service-config.js';
import { createHttpSubgraphClient } from './subgraph-client.js';
import type { Subgraph, SubgraphDeps, SubgraphFactory } from './subgraph.js';
import { startWorkers } from './workers.js';

interface SubgraphProcessOptions {
  name: string;
  create: SubgraphFactory;
  config: ServiceConfig;
  /** URLs of the subgraphs this one calls (SUBGRAPH_<NAME>_URL). */
  subgraphUrls: Readonly<Record<string, string>>;
}

/**
 * A subgraph process's main (its `src/index.ts`): `startSubgraphProcess` with a logger named after the subgraph
 * (which `create` may use); a process that cannot start logs why and exits with status 1.
 */
export async function runSubgraphProcess(
  options: Omit<SubgraphProcessOptions, 'create'> & {
    create: (deps: SubgraphDeps, logger: Logger) => Subgraph<unknown>;
  },
): Promise<void> {
  const logger = createLogger({ name: options.name, level: options.config.LOG_LEVEL });
  try {
    await startSubgraphProcess({ ...options, create: (deps) => options.create(deps, logger), logger });
  } catch (error) {
    logger.error(`${options.name} failed to start`, { error });
    process.exit(1);
  }
}

/**
 * Distributed mode: one subgraph in its own process, with MongoDB, NATS and Redis, its own outbox relay,
 * its GraphQL endpoint on PORT (reached only by the gateway and sibling subgraphs), health and metrics.
 */
export async function startSubgraphProcess(
  options: SubgraphProcessOptions & { logger: Logger; handleSignals?: boolean },
): Promise<Host> {
  const { config, logger } = options;
  const deps = await connectDependencies(config, {
    mode: 'distributed',
    needsStore: true,
    logger,
    name: options.name,
  });
  let consumers: RunningConsumers | undefined;
  try {
    let kick = () => {};
    const client = createHttpSubgraphClient(options.subgraphUrls);
    const subgraph = options.create({
      store: deps.store!,
      cache: deps.cache,
      verifier: deps.verifier,
      serviceTokens: deps.serviceTokens,
      subgraphs: client,
      timeZone: config.RESTAURANT_TIMEZONE,
      onEventsWritten: () => kick(),
    });
    await subgraph.init();
    deps.channels.bind(subgraph.channelDirectory ?? askingCanali(client));
    consumers = await startEventConsumers([subgraph], deps.bus, logger, {
      scope: deps.store!.info().database,
    });
    const relay =
      subgraph.outboxCollections.length > 0
        ? createOutboxRelay({
            source: deps.store!.outbox(subgraph.outboxCollections),
            bus: deps.bus,
            onError: (error) => logger.warn('outbox relay: will retry', { error }),
          })
        : undefined;
    if (relay) kick = () => relay.kick();
    const metrics = createMetrics({ service: options.name });
    reportSubgraphBounds(metrics, [subgraph]);
    const app = await createSubgraphHttpServer({
      executor: createSubgraphExecutor(subgraph, {
        onInternalError: (error) => logger.error('subgraph error', { error }),
        limits: operationLimitsFromConfig(config),
        logger,
      }),
      logger,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      onRequest: ({ status, durationMs }) =>
        metrics.observeRequest({ method: 'POST', route: '/graphql', status, durationMs }),
    });
    let workers: ReturnType<typeof startWorkers> | undefined;
    const host = await startHost({
      config,
      logger,
      nodeType: options.name,
      services: [options.name],
      deps,
      appServer: app.server,
      metrics,
      ...(relay ? { relay } : {}),
      beforeClose: async () => {
        await workers?.stop();
        await consumers!.stop();
      },
      handleSignals: options.handleSignals ?? true,
    });
    workers = startWorkers([subgraph]);
    return host;
  } catch (error) {
    await consumers?.stop();
    await deps.close();
    throw error;
  }
}
