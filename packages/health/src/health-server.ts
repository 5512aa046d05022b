import { createKeptLoads, listen, type KeptLoadsOptions } from '@coperto/async';
import Fastify from 'fastify';
import { createAddressFilter } from './address-filter.js';
import {
  detailedAnswer,
  familyBAnswer,
  liveAnswer,
  nodeStatus,
  overviewAnswer,
  readyAnswer,
  resolveToggles,
  type NodeIdentity,
  type NodeState,
} from './bodies.js';
import { CustomChecks } from './custom-checks.js';
import { checkDependencies } from './dependency-checks.js';
import { EventLoopMonitor } from './event-loop-monitor.js';
import { registerHealthRoutes } from './routes.js';
import type { HealthServer, HealthServerOptions } from './types.js';

function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new TypeError(`health: ${name} must be a non-empty string`);
  return value;
}

function requirePositive(
  value: number | undefined,
  fallback: number,
  name: string,
  allowZero = false,
): number {
  const n = value ?? fallback;
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new TypeError(`health: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return n;
}

/**
 * The health server of a Coperto process (port 3001 by default, chosen by the caller): Family A under
 * `/public/health/*` and Family B at `/health`, on a fastify instance of its own. See README.md for every answer.
 */
export function createHealthServer(options: HealthServerOptions): HealthServer {
  const identity: NodeIdentity = {
    nodeId: requireText(options.nodeId, 'nodeId'),
    nodeType: requireText(options.nodeType, 'nodeType'),
    version: requireText(options.version, 'version'),
    frameworkVersion: requireText(options.frameworkVersion, 'frameworkVersion'),
  };
  if (typeof options.services !== 'function') throw new TypeError('health: services must be a function');
  const timeoutMs = requirePositive(options.checkTimeoutMs, 1000, 'checkTimeoutMs');
  const reuseMs = requirePositive(options.checkCacheMs, 500, 'checkCacheMs', true);
  const dependencies = { ...options.dependencies };
  const toggles = resolveToggles(options.readiness);
  const allowDetailed = createAddressFilter(options.detailedAllowedNetworks);
  const monitor = new EventLoopMonitor({
    maxDelayMs: requirePositive(options.maxEventLoopDelayMs, 2000, 'maxEventLoopDelayMs'),
    windowMs: requirePositive(options.eventLoopWindowMs, 1000, 'eventLoopWindowMs', true),
    sampleIntervalMs: requirePositive(options.eventLoopSampleIntervalMs, 100, 'eventLoopSampleIntervalMs'),
  });

  const customChecks = new CustomChecks();
  // Concurrent probes share one round of checks, and its result is reused for `reuseMs` (a storm of probes is not
  // a storm of pings on the database).
  const dependencyRounds = createKeptLoads<Awaited<ReturnType<typeof checkDependencies>>>(rounds(reuseMs));
  const customRounds = createKeptLoads<Awaited<ReturnType<CustomChecks['run']>>>(rounds(reuseMs));
  const dependencyRound = () => dependencyRounds.get(ROUND, () => checkDependencies(dependencies, timeoutMs));
  const customRound = () => customRounds.get(ROUND, () => customChecks.run(timeoutMs));
  let shuttingDown = false;

  const state = (): NodeState => {
    let serving = true;
    try {
      serving = options.isServing ? options.isServing() === true : true;
    } catch {
      serving = false;
    }
    return { shuttingDown, serving, readiness: toggles };
  };
  const services = (): string[] => {
    try {
      return [...options.services()].map(String);
    } catch {
      return [];
    }
  };
  const uptime = () => process.uptime();

  // Probes are tiny GETs: no reason to hold a slow or idle client for long.
  const app = Fastify({ logger: false, requestTimeout: 10_000, keepAliveTimeout: 5_000 });
  const server = app.server;
  server.headersTimeout = 5_000;
  registerHealthRoutes(app, {
    live: () => liveAnswer(monitor.alive(), new Date()),
    async ready() {
      const reports = await dependencyRound();
      return readyAnswer(state(), reports); // state read after the checks: a shutdown begun meanwhile counts
    },
    async overview() {
      const [reports, custom] = await Promise.all([dependencyRound(), customRound()]);
      return overviewAnswer(identity, nodeStatus(state(), reports, custom), uptime(), services());
    },
    async detailed() {
      const [reports, custom] = await Promise.all([dependencyRound(), customRound()]);
      const memory = process.memoryUsage();
      return detailedAnswer({
        identity,
        status: nodeStatus(state(), reports, custom),
        uptimeSeconds: uptime(),
        figures: { memory, cpu: process.cpuUsage(), eventLoop: monitor.stats() },
        reports,
        custom,
      });
    },
    familyB: () =>
      familyBAnswer({
        state: state(),
        bus: dependencies.bus,
        cache: dependencies.cache,
        serviceCount: services().length,
        uptimeSeconds: uptime(),
      }),
    allowDetailed,
  });

  let closing: Promise<void> | undefined;
  return {
    http: app,
    async listen(port, host) {
      await app.ready();
      return { port: await listen(server, port, host) };
    },
    registerCheck(name, check) {
      const remove = customChecks.register(name, check);
      customRounds.delete(ROUND);
      return () => {
        remove();
        customRounds.delete(ROUND);
      };
    },
    setShuttingDown() {
      shuttingDown = true;
    },
    isShuttingDown: () => shuttingDown,
    close() {
      closing ??= new Promise<void>((resolve) => {
        shuttingDown = true;
        monitor.stop();
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The one key of a round of checks. */
const ROUND = 'round';

function rounds(reuseMs: number): KeptLoadsOptions {
  return { ttlMs: reuseMs, maxKeys: 1 };
}
