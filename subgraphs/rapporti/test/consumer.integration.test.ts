// rapporti's durable consumer on the real servers (MongoDB-protocol store, NATS JetStream), as a rapporti process
// runs it: events published while no process consumed are kept once started; a replay (twice, out of order)
// leaves what one delivery left; a table's history stays within its bound.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, trustedTenantId } from '@coperto/auth';
import { buildEvent, connectNatsBus, type CloudEvent, type EventBus } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import { createLogger, startEventConsumers, type SubgraphClient } from '@coperto/server-kit';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import { newTenantId, serverUrls, TEST_JWT_SECRET, uniqueName } from '@coperto/testkit';
import { RapportiStore } from '../src/rapporti-store.js';
import { createRapportiSubgraph } from '../src/subgraph.js';

const logger = createLogger({ name: 'rapporti-consumer-test', level: 'error' });
const HISTORY = 5;

describe('rapporti consumer on MongoDB and NATS', () => {
  let store: DocumentStore;
  let bus: EventBus;
  const database = uniqueName('rapporti');

  beforeAll(async () => {
    store = await connectMongoStore({ url: serverUrls().mongoUrl, database });
    bus = await connectNatsBus({ url: serverUrls().natsUrl, name: 'rapporti-consumer-test' });
  });
  afterAll(async () => {
    await bus?.close();
    await store?.close();
  });

  const subgraph = () =>
    createRapportiSubgraph(
      {
        store,
        cache: createMemoryCache(),
        verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
        subgraphs: {} as SubgraphClient,
        timeZone: 'Europe/Rome',
        onEventsWritten: () => {},
      },
      { historyPerTable: HISTORY },
    );
  const start = async () => {
    const rapporti = subgraph();
    await rapporti.init();
    return startEventConsumers([rapporti], bus, logger, { scope: database });
  };

  const STATUSES = ['occupied', 'open', 'payment_pending', 'dirty', 'free'] as const;
  /** The n-th status change of table t1, a minute after the previous one. */
  const change = (tenant: string, n: number) =>
    buildEvent({
      tenantId: trustedTenantId(tenant),
      type: 'tables.status',
      source: 'coperto/tavolo',
      subject: 't1',
      time: new Date(Date.UTC(2027, 1, 1, 19, n)).toISOString(),
      data: {
        id: 't1',
        seats: 4,
        salaId: 's1',
        status: STATUSES[n % STATUSES.length],
        previousStatus: STATUSES[(n + STATUSES.length - 1) % STATUSES.length],
        orderId: null,
        pax: n % STATUSES.length === 0 ? 2 : null,
        totalAmount: n % STATUSES.length === 2 ? 10 * n : null,
      },
    });
  const booking = (tenant: string, state: string, updatedAt: string) =>
    buildEvent({
      tenantId: trustedTenantId(tenant),
      type: state === 'annullata' ? 'bookings.cancelled' : 'bookings.updated',
      source: 'coperto/prenotazione',
      subject: 'b1',
      data: {
        id: 'b1',
        covers: 2,
        startsAt: '2027-02-01T19:00:00.000Z',
        tableIds: ['t1'],
        state,
        durationMinutes: 90,
        externalId: null,
        origine: 'staff',
        updatedAt,
      },
    });

  it('keeps what was published while no process consumed, once the consumer starts again', async () => {
    const tenant = newTenantId();
    const rapporti = new RapportiStore(store.forTenant(trustedTenantId(tenant)));
    await (await start()).stop();
    const events = [0, 1, 2].map((n) => change(tenant, n));
    for (const { message, event } of events) await bus.publish(message.subject, event);
    expect(await rapporti.history('t1', 10)).toEqual([]);
    const running = await start();
    try {
      await vi.waitFor(async () => expect(await rapporti.history('t1', 10)).toHaveLength(3), {
        timeout: 10_000,
        interval: 50,
      });
      expect((await rapporti.history('t1', 10)).map((c) => c.stato)).toEqual([
        'payment_pending',
        'open',
        'occupied',
      ]);
    } finally {
      await running.stop();
    }
  });

  it('a replay, twice and out of order, leaves what one delivery left, within the bound per table', async () => {
    const tenant = newTenantId();
    const rapporti = new RapportiStore(store.forTenant(trustedTenantId(tenant)));
    const consumer = subgraph().eventConsumers![0]!;
    const deliver = async (built: { message: { subject: string }; event: CloudEvent }) =>
      consumer.handle(built.event, built.message.subject);
    const changes = Array.from({ length: 12 }, (_, n) => change(tenant, n));
    const bookings = [
      booking(tenant, 'confermata', '2027-01-01T10:00:00.000Z'),
      booking(tenant, 'annullata', '2027-01-02T10:00:00.000Z'),
    ];
    for (const built of [...changes, ...bookings]) await deliver(built);
    const once = await rapporti.history('t1', 100);
    // The newest changes, newest first: HISTORY of them, up to a tenth more (here 1) until the next trim.
    expect(once.length).toBeGreaterThanOrEqual(HISTORY);
    expect(once.length).toBeLessThanOrEqual(HISTORY + 1);
    expect(once.map((c) => c.id)).toEqual(
      changes
        .slice(-once.length)
        .reverse()
        .map((c) => c.event.id),
    );
    for (const built of [...changes, ...bookings]) await deliver(built);
    for (const built of [...changes, ...bookings].reverse()) await deliver(built);
    expect(await rapporti.history('t1', 100)).toEqual(once);
    const [stored] = await rapporti.bookingsBetween(
      new Date('2027-02-01T00:00:00Z'),
      new Date('2027-02-02T00:00:00Z'),
    );
    // The older confermata delivered after the cancellation does not bring the booking back.
    expect(stored).toMatchObject({ id: 'b1', state: 'annullata', walkIn: false, covers: 2 });
  });
});
