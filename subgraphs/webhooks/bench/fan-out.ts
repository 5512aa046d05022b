/**
 * Fan-out of webhook deliveries on the real servers: ENDPOINTS endpoints of one tenant, RATE events/s published on
 * NATS for SECONDS, taken in and delivered by INSTANCES webhooks instances (in this process, each with its own
 * MongoDB and NATS connections, as separate processes would have) to one local receiver that answers 204.
 * Run from the repository root (mongo-java-server and nats-server from .cache, as the tests use):
 *
 *   nice -n 10 node --import tsx subgraphs/webhooks/bench/fan-out.ts
 *   ENDPOINTS=50 RATE=200 SECONDS=60 INSTANCES=2 node --import tsx subgraphs/webhooks/bench/fan-out.ts
 *
 * Prints deliveries/s while publishing and until drained, the p50/p99 of receipt − the event's `time` (set when
 * published), store commands per delivery (counted with the store's onCommand) and this process's CPU per
 * delivery (user + system: workers, consumers, publisher and receiver together; the servers' CPU is not in it).
 * A sample of endpoint e0's requests is verified with the standardwebhooks package (a bad signature ends the run).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createTokenVerifier, trustedTenantId } from '@coperto/auth';
import { buildEvent, connectNatsBus, type EventBus } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import {
  createLogger,
  createSubgraphExecutor,
  startWorkers,
  startEventConsumers,
  type SubgraphClient,
} from '@coperto/server-kit';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import {
  bearer,
  mintToken,
  newTenantId,
  startMongoServer,
  startNatsServer,
  TEST_JWT_SECRET,
} from '@coperto/testkit';
import { createWebhooksSubgraph } from '../src/subgraph.js';

const ENDPOINTS = Number(process.env.ENDPOINTS ?? 10);
const RATE = Number(process.env.RATE ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 20);
const INSTANCES = Number(process.env.INSTANCES ?? 2);
const DRAIN_S = Number(process.env.DRAIN_S ?? 300);

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

const mongo = await startMongoServer();
const nats = await startNatsServer();
const logger = createLogger({ name: 'fan-out', level: 'error' });
let commands = 0;
const byName = new Map<string, number>();
const database = `fanout_${Date.now()}`;

const latencies: number[] = [];
const seen = new Set<string>();
let received = 0;
let secret = '';
let verified = 0;
/** The app maker's side: answers 204, times each request against its event's time, verifies a sample of e0's. */
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (c: Buffer) => chunks.push(c));
  request.on('end', () => {
    received++;
    const body = Buffer.concat(chunks).toString('utf8');
    const event = JSON.parse(body) as { id: string; time: string };
    latencies.push(Date.now() - Date.parse(event.time));
    seen.add(`${request.url}|${event.id}`);
    if (request.url === '/e0' && received % 10 === 1) {
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(request.headers[h])]),
      );
      new Webhook(secret).verify(body, headers); // throws (and ends the run) on a bad signature
      verified++;
    }
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

interface Running {
  store: DocumentStore;
  bus: EventBus;
  stop(): Promise<void>;
  execute: ReturnType<typeof createSubgraphExecutor>;
}
const start = async (): Promise<Running> => {
  const store = await connectMongoStore({
    url: mongo.url,
    database,
    onCommand: (name) => {
      commands++;
      byName.set(name, (byName.get(name) ?? 0) + 1);
    },
  });
  const bus = await connectNatsBus({ url: nats.url, name: 'fan-out' });
  const subgraph = createWebhooksSubgraph(
    {
      store,
      cache: createMemoryCache(),
      verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
      subgraphs: {} as SubgraphClient,
      timeZone: 'Europe/Rome',
      onEventsWritten: () => {},
    },
    { allowPrivate: true },
    { onError: (error) => logger.error('round failed', { error }) },
  );
  await subgraph.init();
  const consumers = await startEventConsumers([subgraph], bus, logger, { scope: database });
  const workers = startWorkers([subgraph]);
  return {
    store,
    bus,
    execute: createSubgraphExecutor(subgraph),
    stop: async () => {
      await workers.stop();
      await consumers.stop();
      await bus.close();
      await store.close();
    },
  };
};
const instances: Running[] = [];
for (let i = 0; i < INSTANCES; i++) instances.push(await start());

const tenant = newTenantId();
const admin = bearer(await mintToken({ tenantId: tenant, admin: true }));
for (let i = 0; i < ENDPOINTS; i++) {
  const result = await instances[0]!.execute(
    {
      query: 'mutation($u: String!) { createWebhook(input: { url: $u }) { secret } }',
      variables: { u: `${base}/e${i}` },
    },
    { authorization: admin },
  );
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  // e0's secret: a sample of e0's requests is verified with it.
  if (i === 0) secret = (result.data as { createWebhook: { secret: string } }).createWebhook.secret;
}
const expected = RATE * SECONDS * ENDPOINTS;
const commandsBefore = commands;
const cpuBefore = process.cpuUsage();
const startedAt = performance.now();
let published = 0;
const publisher = instances[0]!.bus;
for (let second = 0; second < SECONDS; second++) {
  const tick = performance.now();
  const batch = [];
  for (let i = 0; i < RATE; i++) {
    const { message, event } = buildEvent({
      tenantId: trustedTenantId(tenant),
      type: 'bookings.created',
      source: '/bench/fan-out',
      subject: `b${published}`,
      data: { id: `b${published}`, covers: 2, customerName: 'Bench' },
    });
    published++;
    batch.push(publisher.publish(message.subject, event));
    // Spread over the second.
    if (i % 10 === 9)
      await new Promise((r) =>
        setTimeout(r, Math.max(0, tick + ((i + 1) * 1000) / RATE - performance.now())),
      );
  }
  await Promise.all(batch);
}
const publishedAfter = (performance.now() - startedAt) / 1000;
const deliveredWhilePublishing = seen.size;
while (seen.size < expected && (performance.now() - startedAt) / 1000 < SECONDS + DRAIN_S)
  await new Promise((r) => setTimeout(r, 200));
const took = (performance.now() - startedAt) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const sorted = [...latencies].sort((a, b) => a - b);
const deliveries = seen.size;
console.log(
  JSON.stringify(
    {
      endpoints: ENDPOINTS,
      rate: RATE,
      seconds: SECONDS,
      instances: INSTANCES,
      published,
      expectedDeliveries: expected,
      delivered: deliveries,
      requests: received,
      duplicates: received - deliveries,
      verifiedSample: verified,
      deliveredWhilePublishingPerS: Math.round(deliveredWhilePublishing / publishedAfter),
      drainedAfterS: Number(took.toFixed(1)),
      overallDeliveriesPerS: Math.round(deliveries / took),
      latencyP50ms: quantile(sorted, 0.5),
      latencyP99ms: quantile(sorted, 0.99),
      storeCommandsPerDelivery: Number(((commands - commandsBefore) / Math.max(1, deliveries)).toFixed(2)),
      storeCommandsByName: Object.fromEntries([...byName].sort((a, b) => b[1] - a[1])),
      cpuMsPerDelivery: Number(((cpu.user + cpu.system) / 1000 / Math.max(1, deliveries)).toFixed(3)),
    },
    null,
    2,
  ),
);
await Promise.all(instances.map((i) => i.stop()));
receiver.close();
await nats.stop();
await mongo.stop();
process.exit(0);
