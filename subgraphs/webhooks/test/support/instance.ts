// One webhooks instance as its process runs it: its own MongoDB connection and NATS connection, the subgraph's
// durable consumer, its delivery worker and its outbox relay, and its GraphQL API through the subgraph executor.
import { createTokenVerifier } from '@coperto/auth';
import { connectNatsBus, createOutboxRelay, type EventBus } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import {
  createLogger,
  createSubgraphExecutor,
  startWorkers,
  startEventConsumers,
  type SubgraphClient,
} from '@coperto/server-kit';
import { connectMongoStore } from '@coperto/store';
import { bearer, serverUrls, TEST_JWT_SECRET } from '@coperto/testkit';
import { createWebhooksSubgraph, type WebhooksTuning } from '../../src/subgraph.js';

const logger = createLogger({ name: 'webhooks-test', level: 'error' });

export interface Instance {
  run<T>(query: string, variables: Record<string, unknown>, token: string): Promise<T>;
  /** The errors' codes of a request expected to fail. */
  refusal(query: string, variables: Record<string, unknown>, token: string): Promise<string[]>;
  bus: EventBus;
  /** Stops as a deploy would: the attempts in flight finish and are recorded. */
  stop(): Promise<void>;
  /** Dies as a crash would: its connections go first, so nothing in flight is recorded and its leases stay. */
  kill(): Promise<void>;
}

export async function startInstance(options: {
  database: string;
  tuning?: WebhooksTuning;
  now?: () => Date;
  allowPrivate?: boolean;
}): Promise<Instance> {
  const store = await connectMongoStore({ url: serverUrls().mongoUrl, database: options.database });
  const bus = await connectNatsBus({ url: serverUrls().natsUrl, name: 'webhooks-test' });
  let kick = () => {};
  const subgraph = createWebhooksSubgraph(
    {
      store,
      cache: createMemoryCache(),
      verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
      subgraphs: {} as SubgraphClient,
      timeZone: 'Europe/Rome',
      onEventsWritten: () => kick(),
      ...(options.now ? { now: options.now } : {}),
    },
    { allowPrivate: options.allowPrivate ?? true },
    { onError: () => {}, ...options.tuning },
  );
  await subgraph.init();
  const consumers = await startEventConsumers([subgraph], bus, logger, { scope: options.database });
  const workers = startWorkers([subgraph]);
  const relay = createOutboxRelay({
    source: store.outbox(subgraph.outboxCollections),
    bus,
    pollIntervalMs: 50,
  });
  kick = () => relay.kick();
  relay.start();
  const execute = createSubgraphExecutor(subgraph);
  const request = (query: string, variables: Record<string, unknown>, token: string) =>
    execute({ query, variables }, { authorization: bearer(token) });
  return {
    bus,
    async run<T>(query: string, variables: Record<string, unknown>, token: string) {
      const result = await request(query, variables, token);
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      return result.data as T;
    },
    async refusal(query, variables, token) {
      const result = await request(query, variables, token);
      return (result.errors ?? []).map((e) => String(e.extensions?.code));
    },
    async stop() {
      await workers.stop();
      await consumers.stop();
      await relay.stop();
      await bus.close();
      await store.close();
    },
    async kill() {
      await store.close();
      await Promise.allSettled([workers.stop(), consumers.stop(), relay.stop()]);
      await bus.close();
    },
  };
}
