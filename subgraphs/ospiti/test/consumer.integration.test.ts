// The durable consumer on the real servers (MongoDB-protocol store, NATS JetStream), as an ospiti process runs it:
// events published while no ospiti process consumes are handled when one starts again, once each.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceTokenIssuer, createTokenVerifier, trustedTenantId } from '@coperto/auth';
import { buildEvent, connectNatsBus, type EventBus } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import { createLogger, startEventConsumers, type SubgraphClient } from '@coperto/server-kit';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import {
  newTenantId,
  serverUrls,
  TEST_JWT_SECRET,
  TEST_SERVICE_TOKEN_SECRET,
  uniqueName,
} from '@coperto/testkit';
import { contactKey } from '../src/contacts.js';
import { OspitiStore } from '../src/ospiti-store.js';
import { createOspitiSubgraph } from '../src/subgraph.js';

const logger = createLogger({ name: 'ospiti-consumer-test', level: 'error' });

describe('ospiti consumer on MongoDB and NATS', () => {
  let store: DocumentStore;
  let bus: EventBus;
  const database = uniqueName('ospiti');

  beforeAll(async () => {
    store = await connectMongoStore({ url: serverUrls().mongoUrl, database });
    bus = await connectNatsBus({ url: serverUrls().natsUrl, name: 'ospiti-consumer-test' });
  });
  afterAll(async () => {
    await bus?.close();
    await store?.close();
  });

  const startOspiti = async () => {
    const subgraph = createOspitiSubgraph({
      store,
      cache: createMemoryCache(),
      verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
      subgraphs: {} as SubgraphClient,
      serviceTokens: createServiceTokenIssuer({ secret: TEST_SERVICE_TOKEN_SECRET }),
      timeZone: 'Europe/Rome',
      onEventsWritten: () => {},
    });
    await subgraph.init();
    return startEventConsumers([subgraph], bus, logger, { scope: database });
  };

  const bookingEvent = (tenantId: string, state: string, updatedAt: string) =>
    buildEvent({
      tenantId: trustedTenantId(tenantId),
      type: state === 'confermata' ? 'bookings.created' : 'bookings.updated',
      source: '/test/ospiti',
      subject: 'b1',
      data: {
        id: 'b1',
        customerName: 'Rita Greco',
        customerPhone: '+39 333 5550001',
        covers: 3,
        state,
        bookingDate: '2027-02-01T20:00:00',
        startsAt: '2027-02-01T19:00:00.000Z',
        cancelledAt: null,
        updatedAt,
      },
    });

  it('handles what was published while no process consumed, after a restart, once per booking', async () => {
    const tenant = newTenantId();
    const guests = new OspitiStore(store.forTenant(trustedTenantId(tenant)));
    const visits = async () => {
      const owner = await guests.contact(contactKey('tel', '+393335550001'));
      return owner ? (await guests.guest(owner.ospiteId))?.visite : undefined;
    };
    // The first start creates the consumer; then the process stops.
    await (await startOspiti()).stop();
    const created = bookingEvent(tenant, 'confermata', '2027-01-01T10:00:00.000Z');
    const completed = bookingEvent(tenant, 'completata', '2027-01-02T10:00:00.000Z');
    // The same change published twice under two ids (beyond JetStream's duplicate window): counted once.
    const again = bookingEvent(tenant, 'completata', '2027-01-02T10:00:00.000Z');
    for (const { message, event } of [created, completed, again]) await bus.publish(message.subject, event);
    expect(await visits()).toBeUndefined();

    const running = await startOspiti();
    try {
      await vi.waitFor(async () => expect(await visits()).toBe(1), { timeout: 10_000, interval: 50 });
      const next = bookingEvent(tenant, 'completata', '2027-01-03T10:00:00.000Z');
      await bus.publish(next.message.subject, next.event);
      const probe = buildEvent({
        tenantId: trustedTenantId(tenant),
        type: 'bookings.created',
        source: '/test/ospiti',
        subject: 'b2',
        data: { ...(created.event.data as object), id: 'b2', customerPhone: '+39 333 5550002' },
      });
      await bus.publish(probe.message.subject, probe.event);
      // Handled in order: once the later probe's guest exists, the repeated completion was seen.
      await vi.waitFor(
        async () => expect(await guests.contact(contactKey('tel', '+393335550002'))).not.toBeNull(),
        {
          timeout: 10_000,
          interval: 50,
        },
      );
      expect(await visits()).toBe(1);
    } finally {
      await running.stop();
    }
  });
});
