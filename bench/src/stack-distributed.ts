import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { freePorts } from './ports.js';
import { httpOk, spawnService, waitUntil, type Proc } from './processes.js';
import { newJwtSecret } from './tokens.js';

export const SUBGRAPHS = [
  'tavolo',
  'sala',
  'prenotazione',
  'bookings',
  'capacity',
  'canali',
  'ospiti',
  'promemoria',
  'garanzie',
  'webhooks',
  'rapporti',
] as const;

/** Every subgraph of the committed supergraph.yaml (the one list the gateway plans over), in its order. */
export function everySubgraph(config: BenchConfig): string[] {
  const yaml = readFileSync(join(config.repoRoot, 'supergraph.yaml'), 'utf8');
  const block = yaml.slice(yaml.indexOf('\nsubgraphs:'));
  return [...block.matchAll(/^ {2}([a-z][a-z0-9-]*):\s*$/gm)].map((m) => m[1]!);
}

/** One process of the stack with the endpoints the bench reads. */
export interface Instance {
  proc: Proc;
  /** Its Prometheus endpoint. */
  metricsUrl: string;
}

export interface DistributedStack {
  gateway: Proc;
  subgraphs: Record<(typeof SUBGRAPHS)[number], Proc>;
  /** SUBGRAPH_<NAME>_URL values, by subgraph name. */
  subgraphUrls: Record<string, string>;
  baseUrl: string;
  wsUrl: string;
  /** Every gateway instance's base URL (the first is `baseUrl`). */
  baseUrls: string[];
  /** Every process started (gateways and subgraphs, all instances). */
  instances: Instance[];
  /**
   * Another gateway process over the same subgraphs and servers, e.g. with SUBGRAPH_FETCH_DEDUPE=false; the
   * caller stops it (or the cleanup does).
   */
  startGateway(name: string, env: Record<string, string>): Promise<{ proc: Proc; baseUrl: string }>;
  /**
   * Starts a subgraph instance again by its process name (`promemoria`, `promemoria#1`), on its ports and
   * environment, once the caller has stopped or killed it (scenario 17); resolves when it is ready.
   */
  restart(name: string): Promise<Proc>;
}

type Ports = { app: number; health: number; metrics: number };

/**
 * Distributed mode as test/support/stack.ts starts it: one process per subgraph and the gateway with
 * COPERTO_MODE=distributed, against MongoDB (here: through the counting proxy), NATS and Redis.
 * `instances` runs that many copies of the gateway and of each subgraph as parallel slices: copy i of the
 * gateway and of every subgraph calls copy i of the subgraphs (no load balancer in between), all of them on the
 * same MongoDB, NATS and Redis. `subgraphs` (default SUBGRAPHS) names the subgraphs to start.
 */
export async function startDistributed(
  config: BenchConfig,
  options: {
    jwtSecret: string;
    mongoUrl: string;
    natsUrl: string;
    redisUrl: string;
    database: string;
    instances?: number;
    subgraphs?: readonly string[];
    /** More environment for every process (scenario 17: the SMTP server). */
    env?: Record<string, string>;
  },
): Promise<DistributedStack> {
  const names = options.subgraphs ?? SUBGRAPHS;
  const copies = options.instances ?? 1;
  const pool = await freePorts(names.length * copies * 3);
  const take = (): Ports => ({ app: pool.pop()!, health: pool.pop()!, metrics: pool.pop()! });
  const slices = Array.from({ length: copies }, () => names.map((name) => ({ name, ports: take() })));
  const urlsOf = (slice: (typeof slices)[number]) =>
    Object.fromEntries(slice.map(({ name, ports }) => [name, `http://127.0.0.1:${ports.app}/graphql`]));
  const subgraphUrls = urlsOf(slices[0]!);
  const shared = {
    MONGO_URL: options.mongoUrl,
    MONGO_DATABASE: options.database,
    NATS_URL: options.natsUrl,
    REDIS_URL: options.redisUrl,
    JWT_SECRET: options.jwtSecret,
    SERVICE_TOKEN_SECRET: newJwtSecret(),
    ...options.env,
  };
  const envFor = (ports: Ports, urls: Record<string, string>) => ({
    ...shared,
    ...Object.fromEntries(
      Object.entries(urls).map(([name, url]) => [`SUBGRAPH_${name.toUpperCase()}_URL`, url]),
    ),
    PORT: String(ports.app),
    HEALTH_PORT: String(ports.health),
    METRICS_PORT: String(ports.metrics),
  });
  const suffix = (i: number) => (i === 0 ? '' : `#${i}`);
  const instances: Instance[] = [];
  // One slice at a time: a whole slice starting at once is already a few dozen CPU-seconds on a small machine.
  const slicesStarted: Array<Array<readonly [string, Proc]>> = [];
  const starters = new Map<string, () => Promise<Proc>>();
  for (const [i, slice] of slices.entries()) {
    slicesStarted.push(
      await Promise.all(
        slice.map(async ({ name, ports }) => {
          const start = async () => {
            const proc = spawnService(
              config,
              `${name}${suffix(i)}`,
              `subgraphs/${name}/src/index.ts`,
              envFor(ports, urlsOf(slice)),
            );
            await waitUntil(
              proc,
              'readiness',
              httpOk(`http://127.0.0.1:${ports.health}/public/health/ready`),
            );
            return proc;
          };
          starters.set(`${name}${suffix(i)}`, start);
          const proc = await start();
          instances.push({ proc, metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics` });
          return [name, proc] as const;
        }),
      ),
    );
  }
  const gatewayOf = async (name: string, env: Record<string, string>, urls: Record<string, string>) => {
    const [app, health, metrics] = await freePorts(3);
    const ports = { app: app!, health: health!, metrics: metrics! };
    const proc = spawnService(config, name, 'gateway/src/index.ts', {
      ...envFor(ports, urls),
      COPERTO_MODE: 'distributed',
      ...env,
    });
    await waitUntil(proc, 'readiness', httpOk(`http://127.0.0.1:${ports.health}/public/health/ready`));
    return {
      proc,
      baseUrl: `http://127.0.0.1:${ports.app}`,
      metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics`,
    };
  };
  const startGateway = (name: string, env: Record<string, string>) => gatewayOf(name, env, subgraphUrls);
  const gateways = await Promise.all(
    slices.map((slice, i) => gatewayOf(`gateway-distributed${suffix(i)}`, {}, urlsOf(slice))),
  );
  instances.push(...gateways.map(({ proc, metricsUrl }) => ({ proc, metricsUrl })));
  return {
    gateway: gateways[0]!.proc,
    subgraphs: Object.fromEntries(slicesStarted[0]!) as DistributedStack['subgraphs'],
    subgraphUrls,
    baseUrl: gateways[0]!.baseUrl,
    wsUrl: gateways[0]!.baseUrl.replace(/^http/, 'ws') + '/graphql',
    baseUrls: gateways.map((g) => g.baseUrl),
    instances,
    startGateway,
    restart: async (name) => {
      const start = starters.get(name);
      if (!start) throw new Error(`no subgraph instance named ${name}`);
      return start();
    },
  };
}
