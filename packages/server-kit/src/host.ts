import { hostname } from 'node:os';
import type { Server } from 'node:http';
import { listen } from '@coperto/async';
import type { OutboxRelay } from '@coperto/bus';
import { createHealthServer, type HealthServer, type Probe } from '@coperto/health';
import { createMetricsServer, type Metrics } from '@coperto/metrics';
import type { Dependencies } from './dependencies.js';
import type { Logger } from './logger.js';
import type { ServiceConfig } from './service-config.js';
import { closeHttpServer, registerShutdown, SHUTDOWN_STEPS_MARGIN_MS } from './shutdown.js';
import { APP_VERSION, FRAMEWORK_VERSION } from './versions.js';

export interface HostOptions {
  config: ServiceConfig;
  logger: Logger;
  /** `gateway`, `tavolo`, … */
  nodeType: string;
  /** The services this process hosts (health overview). */
  services: readonly string[];
  deps: Dependencies;
  /** The application server, built but not listening. */
  appServer: Server;
  metrics: Metrics;
  relay?: OutboxRelay;
  /** Extra shutdown work before the dependencies close (e.g. stopping Apollo). */
  beforeClose?: () => Promise<void>;
  /** Register SIGTERM/SIGINT (a real process); tests call `close()` instead. Default true. */
  handleSignals?: boolean;
}

export interface Host {
  ports: { app: number; health: number; metrics: number };
  health: HealthServer;
  /** Readiness 503, stop accepting, finish in-flight, stop the relay, close the dependencies. Idempotent. */
  close(): Promise<void>;
}

/**
 * Runs a process: the app on PORT, the health server on HEALTH_PORT (database/cache/bus probes from the
 * process's dependencies, the outbox relay as a custom check), metrics on METRICS_PORT, and the shutdown
 * sequence (readiness 503 at once, in-flight requests finish, exit 0).
 */
export async function startHost(options: HostOptions): Promise<Host> {
  const { config, deps, logger } = options;
  const health = createHealthServer({
    nodeId: config.NODE_ID ?? `${options.nodeType}-${hostname()}-${process.pid}`,
    nodeType: options.nodeType,
    version: APP_VERSION,
    frameworkVersion: FRAMEWORK_VERSION,
    services: () => options.services,
    dependencies: {
      ...(deps.store ? { database: storeProbe(deps) } : {}),
      cache: {
        ping: (timeoutMs) => deps.cache.ping(timeoutMs),
        details: async () => ({ ...(await deps.cache.details()) }),
        connected: () => deps.cache.connected(),
      },
      bus: {
        ping: (timeoutMs) => deps.bus.ping(timeoutMs),
        details: () => ({ reconnects: deps.bus.status().reconnects }),
        connected: () => deps.bus.status().connected,
      },
    },
    readiness: {
      database: config.HEALTH_READINESS_DATABASE,
      cache: config.HEALTH_READINESS_CACHE,
      bus: config.HEALTH_READINESS_BUS,
    },
    detailedAllowedNetworks: config.HEALTH_DETAILED_NETWORKS.map(String),
    isServing: () => options.appServer.listening,
  });
  const relay = options.relay;
  if (relay) {
    health.registerCheck('outbox', async () => {
      const stats = relay.stats();
      const queueLength = await relay.countPending();
      const failing =
        stats.lastErrorAt !== null && (stats.lastSuccess === null || stats.lastErrorAt > stats.lastSuccess);
      return {
        status: failing ? 'degraded' : 'up',
        queueLength,
        lastSuccess: stats.lastSuccess,
        lastError: stats.lastError,
      };
    });
    options.metrics.gauge('outbox_backlog', 'Records with events not yet published to the bus', () =>
      relay.countPending(),
    );
    options.metrics.gauge(
      'outbox_oldest_event_age_seconds',
      'Age of the oldest event this process relays that the bus has not yet taken (0 when none)',
      () => relay.oldestPendingAgeSeconds(),
    );
    options.metrics.bounded('outbox_early_publishes', () => relay.earlyPublishes());
    relay.start();
  }
  // The verified tokens (staff, service) and the channel directory's memory: docs/scaling.md.
  for (const name of Object.keys(deps.verifier.bounded())) {
    options.metrics.bounded(`auth_${name}`, () => deps.verifier.bounded()[name]!);
  }
  const metricsServer = createMetricsServer(options.metrics);

  const app = await listen(options.appServer, config.PORT, config.HOST);
  const healthPort = (await health.listen(config.HEALTH_PORT, config.HOST)).port;
  const metricsPort = (await metricsServer.listen(config.METRICS_PORT, config.HOST)).port;
  logger.info(`${options.nodeType} listening`, { port: app, healthPort, metricsPort, mode: deps.mode });

  const steps = [
    { name: 'app', run: () => options.beforeClose?.() },
    { name: 'app-server', run: () => closeHttpServer(options.appServer, config.SHUTDOWN_GRACE_MS) },
    { name: 'relay', run: () => relay?.stop() },
    { name: 'dependencies', run: () => deps.close() },
    { name: 'metrics', run: () => metricsServer.close() },
    { name: 'health', run: () => health.close() },
  ];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      health.setShuttingDown();
      if (config.SHUTDOWN_DRAIN_MS > 0) await new Promise((r) => setTimeout(r, config.SHUTDOWN_DRAIN_MS));
      for (const step of steps) {
        try {
          await step.run();
        } catch (error) {
          logger.error(`shutdown step ${step.name} failed`, { error });
        }
      }
    })());
  if (options.handleSignals !== false) {
    registerShutdown({
      logger,
      onSignal: () => health.setShuttingDown(),
      // In-flight requests get SHUTDOWN_GRACE_MS; past that and the remaining steps' margin, exit 1.
      graceMs: config.SHUTDOWN_DRAIN_MS + config.SHUTDOWN_GRACE_MS + SHUTDOWN_STEPS_MARGIN_MS,
      steps: [{ name: 'close', run: close }],
    });
  }
  return { ports: { app, health: healthPort, metrics: metricsPort }, health, close };
}

function storeProbe(deps: Dependencies): Probe {
  const store = deps.store!;
  return {
    ping: (timeoutMs) => store.ping(timeoutMs),
    details: () => {
      const info = store.info();
      return {
        database: info.database,
        ...(info.poolSize !== undefined ? { poolSize: info.poolSize } : {}),
        ...(info.availableConnections !== undefined
          ? { availableConnections: info.availableConnections }
          : {}),
      };
    },
  };
}
