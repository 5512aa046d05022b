import type { BenchConfig } from './config.js';
import { freePorts } from './ports.js';
import { httpOk, spawnService, waitUntil, type Proc } from './processes.js';

export const SUBGRAPHS = ['tavolo', 'sala', 'prenotazione', 'bookings', 'capacity'] as const;

export interface DistributedStack {
  gateway: Proc;
  subgraphs: Record<(typeof SUBGRAPHS)[number], Proc>;
  /** SUBGRAPH_<NAME>_URL values, by subgraph name. */
  subgraphUrls: Record<string, string>;
  baseUrl: string;
  wsUrl: string;
}

/**
 * Distributed mode as test/support/stack.ts starts it: one process per subgraph and the gateway with
 * COPERTO_MODE=distributed, against MongoDB (here: through the counting proxy), NATS and Redis.
 */
export async function startDistributed(
  config: BenchConfig,
  options: { jwtSecret: string; mongoUrl: string; natsUrl: string; redisUrl: string; database: string },
): Promise<DistributedStack> {
  const pool = await freePorts((SUBGRAPHS.length + 1) * 3);
  const take = () => ({ app: pool.pop()!, health: pool.pop()!, metrics: pool.pop()! });
  const plan = SUBGRAPHS.map((name) => ({ name, ports: take() }));
  const subgraphUrls = Object.fromEntries(
    plan.map(({ name, ports }) => [name, `http://127.0.0.1:${ports.app}/graphql`]),
  );
  const shared = {
    MONGO_URL: options.mongoUrl,
    MONGO_DATABASE: options.database,
    NATS_URL: options.natsUrl,
    REDIS_URL: options.redisUrl,
    JWT_SECRET: options.jwtSecret,
    ...Object.fromEntries(
      plan.map(({ name }) => [`SUBGRAPH_${name.toUpperCase()}_URL`, subgraphUrls[name]!]),
    ),
  };
  const envFor = (ports: { app: number; health: number; metrics: number }) => ({
    ...shared,
    PORT: String(ports.app),
    HEALTH_PORT: String(ports.health),
    METRICS_PORT: String(ports.metrics),
  });
  const started = await Promise.all(
    plan.map(async ({ name, ports }) => {
      const proc = spawnService(config, name, `subgraphs/${name}/src/index.ts`, envFor(ports));
      await waitUntil(proc, 'readiness', httpOk(`http://127.0.0.1:${ports.health}/public/health/ready`));
      return [name, proc] as const;
    }),
  );
  const gatewayPorts = take();
  const gateway = spawnService(config, 'gateway-distributed', 'gateway/src/index.ts', {
    ...envFor(gatewayPorts),
    COPERTO_MODE: 'distributed',
  });
  await waitUntil(
    gateway,
    'readiness',
    httpOk(`http://127.0.0.1:${gatewayPorts.health}/public/health/ready`),
  );
  return {
    gateway,
    subgraphs: Object.fromEntries(started) as DistributedStack['subgraphs'],
    subgraphUrls,
    baseUrl: `http://127.0.0.1:${gatewayPorts.app}`,
    wsUrl: `ws://127.0.0.1:${gatewayPorts.app}/graphql`,
  };
}
