import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { freePorts } from './ports.js';
import { httpOk, spawnService, waitUntil, type Proc } from './processes.js';

export interface EmbeddedStack {
  proc: Proc;
  baseUrl: string;
  wsUrl: string;
  /** Its Prometheus endpoint (heap and external memory figures for scenario 5). */
  metricsUrl: string;
  /** Its DATA_DIR: the store's files (scenario 5 reports how much data the soak left behind). */
  dataDir: string;
}

/**
 * The all-in-one process (`bash scripts/start.sh` runs the same entry): gateway + five subgraphs + store.
 * The same `name` gives the same DATA_DIR (scenario 5 starts it again on its data after a kill -9).
 * `extra` adds node flags and environment (scenario 8 runs it on a virtual clock).
 */
export async function startEmbedded(
  config: BenchConfig,
  jwtSecret: string,
  extra: {
    nodeArgs?: readonly string[];
    env?: Record<string, string>;
    name?: string;
    /** How often readiness is polled (ms; default 100): scenarios 5 and 9 time the start to ready. */
    readyPollMs?: number;
    /** The compiled entry to run (default: the bundle; scenario 9 also runs the per-file build). */
    entry?: string;
  } = {},
): Promise<EmbeddedStack> {
  const [port, health, metrics] = (await freePorts(3)) as [number, number, number];
  const name = extra.name ?? 'gateway-embedded';
  const dataDir = join(config.tmpDir, `${name}-data`);
  mkdirSync(dataDir, { recursive: true });
  const proc = spawnService(
    config,
    name,
    extra.entry ?? 'gateway/src/index.ts',
    {
      COPERTO_MODE: 'embedded',
      PORT: String(port),
      HEALTH_PORT: String(health),
      METRICS_PORT: String(metrics),
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
      ...extra.env,
    },
    extra.nodeArgs,
  );
  await waitUntil(
    proc,
    'readiness',
    httpOk(`http://127.0.0.1:${health}/public/health/ready`),
    90_000,
    extra.readyPollMs,
  );
  return {
    proc,
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    metricsUrl: `http://127.0.0.1:${metrics}/metrics`,
    dataDir,
  };
}
