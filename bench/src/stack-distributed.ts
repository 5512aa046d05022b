import type { BenchConfig } from './config.js';
import { freePorts } from './ports.js';
import { httpOk, spawnService, waitUntil, type Proc } from './processes.js';
import { newJwtSecret } from './tokens.js';

export const SUBGRAPHS = ['tavolo', 'sala', 'prenotazione', 'bookings', 'capacity', 'canali'] as const;

export interface DistributedStack {
  gateway: Proc;
  subgraphs: Record<(typeof SUBGRAPHS)[number], Proc>;
  /** SUBGRAPH_<NAME>_URL values, by subgraph name. */
  subgraphUrls: Record<string, string>;
  baseUrl: string;
  wsUrl: string;
  /**
   * Another gateway process over the same subgraphs and servers, e.g. with SUBGRAPH_FETCH_DEDUPE=false; the
   * caller stops it (or the cleanup does).
   */
  startGateway(name: string, env: Record<string, string>): Promise<{ proc: Proc; baseUrl: string }>;
}

/**
 * Distributed mode as test/support/stack.ts starts it: one process per subgraph and the gateway with
 * COPERTO_MODE=distributed, against MongoDB (here: through the counting proxy), NATS and Redis.
 */
export async function startDistributed(
  config: BenchConfig,
  options: { jwtSecret: string; mongoUrl: string; natsUrl: string; redisUrl: string; database: string },
): Promise<DistributedStack> {
  const pool = await freePorts(SUBGRAPHS.length * 3);
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
    SERVICE_TOKEN_SECRET: newJwtSecret(),
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
  const startGateway = async (name: string, env: Record<string, string>) => {
    const [app, health, metrics] = await freePorts(3);
    const ports = { app: app!, health: health!, metrics: metrics! };
    const proc = spawnService(config, name, 'gateway/src/index.ts', {
      ...envFor(ports),
      COPERTO_MODE: 'distributed',
      ...env,
    });
    await waitUntil(proc, 'readiness', httpOk(`http://127.0.0.1:${ports.health}/public/health/ready`));
    return { proc, baseUrl: `http://127.0.0.1:${ports.app}` };
  };
  const gateway = await startGateway('gateway-distributed', {});
  return {
    gateway: gateway.proc,
    subgraphs: Object.fromEntries(started) as DistributedStack['subgraphs'],
    subgraphUrls,
    baseUrl: gateway.baseUrl,
    wsUrl: gateway.baseUrl.replace(/^http/, 'ws') + '/graphql',
    startGateway,
  };
}
