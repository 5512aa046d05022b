import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connectNatsBus, type CloudEvent, type Subscription } from '@coperto/bus';
import { readGatewayConfig, startGatewayApp, type GatewayApp } from '@coperto/gateway';
import { ALL_SUBGRAPHS, createLogger } from '@coperto/server-kit';
import { freePorts, killOnExit, TEST_JWT_SECRET, TEST_SERVICE_TOKEN_SECRET } from '@coperto/testkit';
import { busEventViolation, recordViolation } from '../../gateway/test/support/event-contract.js';
import { createApi, createGraphQL } from './http.js';

const repoRoot = resolve(import.meta.dirname, '../..');

export type Mode = 'embedded' | 'distributed';

/** A running Coperto, in either mode, seen only through its public ports (plus the bus, to watch events). */
export interface Stack {
  mode: Mode;
  baseUrl: string;
  healthUrl: string;
  /** The gateway's Prometheus endpoint. */
  metricsUrl: string;
  api: ReturnType<typeof createApi>;
  graphql: ReturnType<typeof createGraphQL>;
  /** Events on a NATS subject pattern (embedded: the in-process bus; distributed: the real NATS). */
  events(subject: string): EventCollector;
  /** The log lines of the stack's processes that contain `needle` (stacks whose processes are children). */
  logLines?(needle: string): string[];
  close(): Promise<void>;
}

/** The lines of the processes' recent output that contain `needle`, each prefixed with its process's name. */
export function logLinesOf(processes: readonly ProcessHandle[], needle: string): string[] {
  return processes.flatMap((p) =>
    p
      .output()
      .split('\n')
      .filter((line) => line.includes(needle))
      .map((line) => `${p.name}: ${line}`),
  );
}

/** Every event received is checked against the AsyncAPI document (gateway/test/support/event-contract.ts). */
export interface EventCollector {
  /**
   * Each event once, in arrival order. Delivery is at least once (docs/events.md): a relay whose publish timed out
   * publishes again, and core subscribers see both copies. The collector deduplicates by `id` as every consumer is
   * told to, so a test checks what a consumer sees; two different events with the same content still count twice.
   */
  readonly received: CloudEvent[];
  /** Waits until `count` events arrived (bounded), returns them. */
  waitFor(count: number, timeoutMs?: number): Promise<CloudEvent[]>;
  stop(): void;
}

/** Collects the events of a bus subscription, checking each against the AsyncAPI document. */
export function collectorOf(subject: string, subscription: Subscription): EventCollector {
  const received: CloudEvent[] = [];
  const seen = new Set<string>();
  void (async () => {
    for await (const event of subscription) {
      recordViolation(busEventViolation(subject, event));
      if (seen.has(event.id)) continue;
      seen.add(event.id);
      received.push(event);
    }
  })().catch(() => {});
  return {
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return received;
    },
    stop: () => subscription.unsubscribe(),
  };
}

const baseEnv = (extra: Record<string, string>) => ({
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  JWT_SECRET: TEST_JWT_SECRET,
  SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
  RESTAURANT_TIMEZONE: 'Europe/Rome',
  APOLLO_TELEMETRY_DISABLED: '1',
  ...extra,
});

export type EmbeddedStack = Stack & { app: GatewayApp; dataDir: string };

/** Everything in this test process, as `start` runs it, on free ports with a fresh data directory. */
export async function startEmbedded(extraEnv: Record<string, string> = {}): Promise<EmbeddedStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coperto-e2e-'));
  const config = readGatewayConfig(
    baseEnv({
      PORT: '0',
      HEALTH_PORT: '0',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      COPERTO_MODE: 'embedded',
      ...extraEnv,
    }),
  );
  const app = await startGatewayApp(
    config,
    createLogger({ name: 'e2e', level: process.env.E2E_LOG_LEVEL === 'debug' ? 'debug' : 'silent' }),
    { handleSignals: false },
  );
  const baseUrl = `http://127.0.0.1:${app.ports.app}`;
  return {
    mode: 'embedded',
    app,
    dataDir,
    baseUrl,
    healthUrl: `http://127.0.0.1:${app.ports.health}`,
    metricsUrl: `http://127.0.0.1:${app.ports.metrics}/metrics`,
    api: createApi(baseUrl),
    graphql: createGraphQL(baseUrl),
    events: (subject) => collectorOf(subject, app.deps.bus.subscribe(subject)),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ProcessHandle {
  name: string;
  child: ChildProcess;
  port: number;
  healthPort: number;
  metricsPort: number;
  /** The settings it was started with (its ports excluded): to start another like it. */
  settings: Record<string, string>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts one entry point (`gateway/src/index.ts`, `subgraphs/x/src/index.ts`) as its own process. */
export async function startProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  ports?: { app: number; health: number; metrics: number },
): Promise<ProcessHandle> {
  const [port, healthPort, metricsPort] = (
    ports ? [ports.app, ports.health, ports.metrics] : await freePorts(3)
  ) as [number, number, number];
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, entry)], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      ...baseEnv({}),
      ...env,
      PORT: String(port),
      HEALTH_PORT: String(healthPort),
      METRICS_PORT: String(metricsPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  child.stderr?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  killOnExit(child);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const handle: ProcessHandle = {
    name,
    child,
    port,
    healthPort,
    metricsPort,
    settings: env,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  await waitReady(handle, 60_000);
  return handle;
}

async function waitReady(handle: ProcessHandle, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (handle.child.exitCode !== null) {
      throw new Error(`${handle.name} exited with ${handle.child.exitCode}:\n${handle.output()}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${handle.healthPort}/public/health/ready`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${handle.name} not ready within ${timeoutMs} ms:\n${handle.output()}`);
}

/** Every subgraph, each its own process (the one list: server-kit's). */
export const DISTRIBUTED_SUBGRAPHS = ALL_SUBGRAPHS;

/** The subgraphs that tables, their status and deleting them reach (tavolo asks prenotazione before a delete). */
export const TABLE_SUBGRAPHS = ['tavolo', 'sala', 'prenotazione', 'capacity'] as const;

type DistributedOptions = {
  mongoUrl: string;
  natsUrl: string;
  redisUrl: string;
  database: string;
  /** Copies of each subgraph (default 1), or of the named ones only (the others run one). */
  instances?: number | Partial<Record<(typeof DISTRIBUTED_SUBGRAPHS)[number], number>>;
  /**
   * Only these subgraphs (default: every one), for a file whose requests reach no other: the gateway still plans
   * over the whole supergraph, and a field of a subgraph not started would fail as that subgraph being down.
   */
  only?: ReadonlyArray<(typeof DISTRIBUTED_SUBGRAPHS)[number]>;
  extraEnv?: Record<string, string>;
};
export type DistributedStack = Stack & {
  processes: ProcessHandle[];
  subgraphs: Record<string, ProcessHandle[]>;
  /** The MongoDB database its processes share. */
  database: string;
  /**
   * One more gateway process in front of this stack's subgraphs, with `extraEnv` on top of the stack's own
   * settings: for a file whose settings are the gateway's alone (CORS, rate limits, socket caps, trusted
   * documents, introspection). A gateway starts in about a tenth of a whole stack's time. Its `close()` stops that
   * gateway only.
   */
  withGateway(extraEnv: Record<string, string>): Promise<DistributedStack>;
};

/** How often a distributed stack is started again on fresh ports when a reserved port was taken meanwhile. */
const PORT_RACE_ATTEMPTS = 3;

/**
 * Distributed mode: every subgraph and the gateway as separate processes against the real MongoDB-protocol,
 * NATS and Redis servers, on a database of their own. `instances` runs that many copies of each subgraph;
 * the gateway and sibling subgraphs use the first copy.
 */
export async function startDistributed(options: DistributedOptions): Promise<DistributedStack> {
  // Ports are reserved by binding and closing them before the processes start; another process on the machine
  // can take one in between (EADDRINUSE, seen in CI under load). That is the harness's race, not the service's:
  // start again on fresh ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDistributedOnce(options);
    } catch (error) {
      if (attempt >= PORT_RACE_ATTEMPTS || !String((error as Error).message).includes('EADDRINUSE'))
        throw error;
    }
  }
}

async function startDistributedOnce(options: DistributedOptions): Promise<DistributedStack> {
  const shared = {
    MONGO_URL: options.mongoUrl,
    MONGO_DATABASE: options.database,
    NATS_URL: options.natsUrl,
    REDIS_URL: options.redisUrl,
    ...options.extraEnv,
  };
  const processes: ProcessHandle[] = [];
  const subgraphs: Record<string, ProcessHandle[]> = {};
  try {
    // Every port is reserved up front: sibling URLs must be known before the processes start.
    const copies = (name: (typeof DISTRIBUTED_SUBGRAPHS)[number]) =>
      typeof options.instances === 'number' ? options.instances : (options.instances?.[name] ?? 1);
    const names = DISTRIBUTED_SUBGRAPHS.filter((name) => !options.only || options.only.includes(name));
    const processCount = names.reduce((sum, name) => sum + copies(name), 1);
    const pool = await freePorts(processCount * 3);
    const take = () => ({ app: pool.pop()!, health: pool.pop()!, metrics: pool.pop()! });
    const plan = names.map((name) => ({
      name,
      ports: Array.from({ length: copies(name) }, take),
    }));
    // A subgraph not started points at port 9 (discard, nothing listens): refused at once, never another stack's.
    const urls = Object.fromEntries(
      DISTRIBUTED_SUBGRAPHS.map((name) => {
        const started = plan.find((p) => p.name === name);
        const url = started
          ? `http://127.0.0.1:${started.ports[0]!.app}/graphql`
          : 'http://127.0.0.1:9/graphql';
        return [`SUBGRAPH_${name.toUpperCase()}_URL`, url];
      }),
    );
    await Promise.all(
      plan.map(async ({ name, ports }) => {
        subgraphs[name] = [];
        for (const [i, instancePorts] of ports.entries()) {
          const handle = await startProcess(
            `${name}#${i}`,
            `subgraphs/${name}/src/index.ts`,
            { ...shared, ...urls },
            instancePorts,
          );
          subgraphs[name]!.push(handle);
          processes.push(handle);
        }
      }),
    );
    const gatewayEnv = { ...shared, ...urls, COPERTO_MODE: 'distributed' };
    const gateway = await startProcess('gateway', 'gateway/src/index.ts', gatewayEnv, take());
    processes.push(gateway);
    const bus = await connectNatsBus({ url: options.natsUrl, name: 'e2e-observer' });
    const view = (
      front: ProcessHandle,
      own: ProcessHandle[],
      close: () => Promise<void>,
    ): DistributedStack => {
      const baseUrl = `http://127.0.0.1:${front.port}`;
      return {
        mode: 'distributed',
        processes: own,
        subgraphs,
        database: options.database,
        baseUrl,
        healthUrl: `http://127.0.0.1:${front.healthPort}`,
        metricsUrl: `http://127.0.0.1:${front.metricsPort}/metrics`,
        api: createApi(baseUrl),
        graphql: createGraphQL(baseUrl),
        events: (subject) => collectorOf(subject, bus.subscribe(subject)),
        logLines: (needle) => logLinesOf(own, needle),
        withGateway: async (extraEnv) => {
          const extra = await startProcess('gateway', 'gateway/src/index.ts', { ...gatewayEnv, ...extraEnv });
          return view(extra, [...processes.filter((p) => p !== gateway), extra], async () => {
            await extra.stop();
          });
        },
        close,
      };
    };
    return view(gateway, processes, async () => {
      await Promise.all(processes.map((p) => p.stop()));
      await bus.close();
    });
  } catch (error) {
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    throw error;
  }
}
