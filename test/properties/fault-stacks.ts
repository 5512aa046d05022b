/**
 * Stacks the fault suite can break: distributed on servers of its own (MongoDB-protocol on the H2 backend so a
 * restart keeps the data, NATS with JetStream, Redis) with its subgraph processes, or embedded as a child process
 * (gateway/src/index.ts) on a DATA_DIR that outlives it. Each exposes the faults it supports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectNatsBus, type EventBus } from '@coperto/bus';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import {
  freePorts,
  startMongoServer,
  startNatsServer,
  startRedisServer,
  uniqueName,
  type TestServer,
} from '@coperto/testkit';
import { createApi, createGraphQL } from '../support/http.js';
import {
  collectorOf,
  logLinesOf,
  startDistributed,
  startProcess,
  type EventCollector,
  type Mode,
  type ProcessHandle,
  type Stack,
} from '../support/stack.js';
import { agendaReader } from './stacks.js';
import type { AgendaView } from './invariants.js';

export interface Fault {
  name: string;
  inject(): Promise<void>;
  heal(): Promise<void>;
}

export interface FaultStack {
  stack: Stack;
  faults: Fault[];
  readAgendas(tenant: string): Promise<AgendaView[]>;
  /** Gap-free event watching (JetStream ordered consumer); undefined when events cannot be observed. */
  observe?: (subject: string) => Promise<EventCollector>;
  close(): Promise<void>;
}

/**
 * The faults a run injects: all of them, or those whose names contain one of TORTURE_FAULTS' comma-separated
 * parts (`TORTURE_FAULTS="kill mongo"` to chase a finding that needs MongoDB restarts). A seed replays only with
 * the same setting, since it picks faults by their place in this list.
 */
export function chosenFaults(all: readonly Fault[], only: string | undefined): Fault[] {
  const parts = (only ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0) return [...all];
  const chosen = all.filter((fault) => parts.some((part) => fault.name.includes(part)));
  if (chosen.length === 0)
    throw new Error(`TORTURE_FAULTS="${only}" names none of: ${all.map((f) => f.name).join(', ')}`);
  return chosen;
}

/** SIGKILL a process, and start it again on the same ports with the same environment. */
function processFault(
  name: string,
  get: () => ProcessHandle,
  set: (h: ProcessHandle) => void,
  entry: string,
): Fault {
  return {
    name,
    inject: async () => {
      await get().stop('SIGKILL');
    },
    heal: async () => {
      const old = get();
      set(
        await startProcess(old.name, entry, old.settings, {
          app: old.port,
          health: old.healthPort,
          metrics: old.metricsPort,
        }),
      );
    },
  };
}

function serverFaults(server: TestServer): Fault[] {
  return [
    { name: `kill ${server.kind}`, inject: () => server.kill(), heal: () => server.restart() },
    {
      name: `pause ${server.kind}`,
      inject: async () => server.pause(),
      heal: async () => server.resume(),
    },
  ];
}

async function startDistributedFaultStack(): Promise<FaultStack> {
  const [mongo, nats, redis] = await Promise.all([
    startMongoServer(undefined, { persistent: true }),
    startNatsServer(),
    startRedisServer(),
  ]);
  const database = uniqueName('faults');
  let stack: Awaited<ReturnType<typeof startDistributed>> | undefined;
  let store: DocumentStore | undefined;
  let observer: EventBus | undefined;
  try {
    stack = await startDistributed({ mongoUrl: mongo.url, natsUrl: nats.url, redisUrl: redis.url, database });
    store = await connectMongoStore({ url: mongo.url, database });
    observer = await connectNatsBus({ url: nats.url, name: 'faults-observer' });
    const running = stack;
    const subgraphFaults = Object.entries(running.subgraphs).map(([name, handles]) =>
      processFault(
        `kill subgraph ${name}`,
        () => handles[0]!,
        (h) => {
          running.processes[running.processes.indexOf(handles[0]!)] = h;
          handles[0] = h;
        },
        `subgraphs/${name}/src/index.ts`,
      ),
    );
    const bus = observer;
    const agendas = agendaReader(store);
    const opened = store;
    return {
      stack: running,
      faults: [
        ...serverFaults(mongo),
        ...serverFaults(nats).slice(0, 1),
        ...serverFaults(redis).slice(0, 1),
        ...subgraphFaults,
      ],
      readAgendas: agendas,
      observe: async (subject) => collectorOf(subject, await bus.follow(subject)),
      close: async () => {
        await bus.close().catch(() => {});
        await opened.close().catch(() => {});
        await running.close();
        await Promise.all([mongo.stop(), nats.stop(), redis.stop()]);
      },
    };
  } catch (error) {
    await observer?.close().catch(() => {});
    await store?.close().catch(() => {});
    await stack?.close().catch(() => {});
    await Promise.all([mongo.stop(), nats.stop(), redis.stop()]);
    throw error;
  }
}

async function startEmbeddedFaultStack(): Promise<FaultStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coperto-faults-'));
  const [app, health, metrics] = (await freePorts(3)) as [number, number, number];
  let handle = await startProcess(
    'embedded',
    'gateway/src/index.ts',
    { COPERTO_MODE: 'embedded', DATA_DIR: dataDir },
    { app, health, metrics },
  );
  const baseUrl = `http://127.0.0.1:${app}`;
  const stack: Stack = {
    mode: 'embedded',
    baseUrl,
    healthUrl: `http://127.0.0.1:${health}`,
    metricsUrl: `http://127.0.0.1:${metrics}/metrics`,
    api: createApi(baseUrl),
    graphql: createGraphQL(baseUrl),
    // The child's bus is in its own process: nothing to watch from here.
    events: () => ({ received: [], waitFor: async () => [], stop: () => {} }),
    logLines: (needle) => logLinesOf([handle], needle),
    close: async () => {
      await handle.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return {
    stack,
    faults: [
      processFault(
        'kill embedded process',
        () => handle,
        (h) => (handle = h),
        'gateway/src/index.ts',
      ),
    ],
    // The store belongs to the running child (one process per data directory): agendas are not read here.
    readAgendas: async () => [],
    close: () => stack.close(),
  };
}

export function startFaultStack(mode: Mode): Promise<FaultStack> {
  return mode === 'embedded' ? startEmbeddedFaultStack() : startDistributedFaultStack();
}
