/**
 * The proof that an acknowledged write's event is never lost: the real MongoDB store, a private nats-server
 * that is killed while writes go on, and the relay running throughout. When the server is back, every event
 * reaches a subscriber (duplicates allowed, counted) and JetStream holds each exactly once.
 */
import { trustedTenantId, type TenantId } from '@coperto/auth';
import type { DocumentStore } from '@coperto/store';
import { uniqueName, type TestServer } from '@coperto/testkit';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOutboxRelay } from '../src/outbox/relay.js';
import type { OutboxRelay } from '../src/outbox/relay-types.js';
import type { CloudEvent, EventBus } from '../src/types.js';
import {
  closeRelayServers,
  COLLECTION,
  openRelayServers,
  tableEvent,
  type Tavolo,
} from './support/relay-fixture.js';

const RECORDS = 40;

/** The Nats-Msg-Id of every message JetStream holds for one tenant (read with an ordered consumer). */
async function storedIds(natsUrl: string, tenantId: TenantId, expected: number): Promise<string[]> {
  const nc = await connect({ servers: natsUrl });
  try {
    const consumer = await nc.jetstream().consumers.get('RESTAURANT', {
      filterSubjects: `tenant.${tenantId}.restaurant.>`,
    });
    const ids: string[] = [];
    while (ids.length < expected) {
      const batch = await consumer.fetch({ max_messages: 100, expires: 2000 });
      const before = ids.length;
      for await (const msg of batch) ids.push(msg.headers?.get('Nats-Msg-Id') ?? '');
      if (ids.length === before) break;
    }
    return ids;
  } finally {
    await nc.close();
  }
}

/** Deliveries of one tenant's events: first-seen order and how many were repeats. */
function deliveries(received: CloudEvent[], tenantId: TenantId) {
  const ours = received.filter((e) => e.tenantid === tenantId);
  const firstSeen: string[] = [];
  for (const event of ours) if (!firstSeen.includes(event.id)) firstSeen.push(event.id);
  return { ours, firstSeen, duplicates: ours.length - firstSeen.length };
}

describe('outbox relay: MongoDB store → NATS that dies and comes back', () => {
  const database = uniqueName('bus_relay');
  let nats: TestServer;
  let store: DocumentStore;
  let bus: EventBus;
  let relay: OutboxRelay;
  const received: CloudEvent[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    ({ nats, store, bus } = await openRelayServers(database, {
      name: 'relay-integration',
      publishTimeoutMs: 1000,
    }));
    // Subscribed on the relay's connection: nats.js restores subscriptions before it sends anything after a
    // reconnect, so this subscriber cannot miss a live event (a second connection could still be reconnecting).
    const sub = bus.subscribe('tenant.*.restaurant.>', { maxPending: 100_000 });
    void (async () => {
      for await (const event of sub) received.push(event);
    })();
    relay = createOutboxRelay({
      source: store.outbox([COLLECTION]),
      bus,
      pollIntervalMs: 50,
      maxBackoffMs: 1000,
      onError: (error) => errors.push(error),
    });
    relay.start();
  });

  afterAll(async () => {
    await relay?.stop();
    await closeRelayServers({ nats, store, bus }, database);
  });

  it('delivers every event written while nats-server was down once it restarts, and drains the outbox', async ({
    annotate,
  }) => {
    const tenantId = trustedTenantId(uniqueName('relay'));
    const tavoli = store.forTenant(tenantId).collection<Tavolo>(COLLECTION);

    // Before the outage: a write is relayed at once.
    const warmUp = { id: 'warm-up', stato: 'libero' };
    const warmUpEvent = tableEvent(tenantId, warmUp, 'none');
    await tavoli.insertOne(warmUp, { events: [warmUpEvent] });
    relay.kick();
    await vi.waitFor(() => expect(received.map((e) => e.id)).toContain(warmUpEvent.id), { timeout: 10_000 });

    await nats.kill();

    // Each record: created with one event, then changed twice, each change appending its event.
    const expected = new Map<string, string[]>();
    for (let i = 0; i < RECORDS; i++) {
      const id = `T${i}`;
      const created = tableEvent(tenantId, { id, stato: 'libero' }, 'none');
      await tavoli.insertOne({ id, stato: 'libero' }, { events: [created] });
      relay.kick();
      const ids = [created.id];
      let previous = 'libero';
      for (const stato of ['occupato', 'libero']) {
        const event = tableEvent(tenantId, { id, stato }, previous);
        await tavoli.findOneAndUpdate({ id }, { $set: { stato } }, { events: [event] });
        relay.kick();
        ids.push(event.id);
        previous = stato;
      }
      expected.set(id, ids);
    }
    const allIds = [...expected.values()].flat();

    // While the server is down the relay fails, backs off and keeps every event in the store.
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(await relay.countPending()).toBe(RECORDS);
    expect(received.filter((e) => allIds.includes(e.id))).toEqual([]);
    // The age of the oldest waiting event (outbox_oldest_event_age_seconds) grows while the bus is down.
    const age = relay.oldestPendingAgeSeconds();
    expect(age).toBeGreaterThan(0);
    await vi.waitFor(() => expect(relay.oldestPendingAgeSeconds()).toBeGreaterThan(age), { timeout: 10_000 });

    await nats.restart();

    await vi.waitFor(
      async () => {
        const seen = new Set(received.map((e) => e.id));
        expect(allIds.filter((id) => !seen.has(id))).toEqual([]);
        expect(await relay.countPending()).toBe(0);
        expect(relay.oldestPendingAgeSeconds()).toBe(0);
      },
      { timeout: 45_000, interval: 100 },
    );

    // No event missing, none unexpected, per-record order kept (first deliveries), duplicates counted.
    const { ours, firstSeen, duplicates } = deliveries(
      received.filter((e) => e.subject !== warmUp.id),
      tenantId,
    );
    expect(new Set(ours.map((e) => e.id))).toEqual(new Set(allIds));
    for (const [id, ids] of expected) {
      expect(
        firstSeen.filter((eventId) => ids.includes(eventId)),
        `order of ${id}`,
      ).toEqual(ids);
    }
    await annotate(
      `kill: ${allIds.length} events in ${RECORDS} records; ${ours.length} deliveries (${duplicates} duplicates); ` +
        `${errors.length} relay error reports; bus reconnects: ${bus.status().reconnects}`,
    );

    // JetStream stored each event exactly once (Nats-Msg-Id dedup), across the restart.
    const stored = await storedIds(nats.url, tenantId, allIds.length + 1);
    expect(stored.sort()).toEqual([...allIds, warmUpEvent.id].sort());
  });

  it('delivers every event when nats-server is paused in the middle of a stream of writes', async ({
    annotate,
  }) => {
    const tenantId = trustedTenantId(uniqueName('relay'));
    const tavoli = store.forTenant(tenantId).collection<Tavolo>(COLLECTION);
    const errorsBefore = errors.length;
    const allIds: string[] = [];
    const write = async (i: number) => {
      const id = `P${i}`;
      const event = tableEvent(tenantId, { id, stato: 'libero' }, 'none');
      await tavoli.insertOne({ id, stato: 'libero' }, { events: [event] });
      allIds.push(event.id);
      relay.kick();
    };

    for (let i = 0; i < 10; i++) await write(i);
    nats.pause();
    try {
      for (let i = 10; i < 30; i++) await write(i);
      // Publishes now time out (the socket accepts bytes but nothing answers).
      await vi.waitFor(() => expect(errors.length).toBeGreaterThan(errorsBefore), { timeout: 15_000 });
    } finally {
      nats.resume();
    }
    for (let i = 30; i < 40; i++) await write(i);

    await vi.waitFor(
      async () => {
        const seen = new Set(received.map((e) => e.id));
        expect(allIds.filter((id) => !seen.has(id))).toEqual([]);
        expect(await relay.countPending()).toBe(0);
        expect(relay.oldestPendingAgeSeconds()).toBe(0);
      },
      { timeout: 45_000, interval: 100 },
    );
    const { ours, duplicates } = deliveries(received, tenantId);
    expect(new Set(ours.map((e) => e.id))).toEqual(new Set(allIds));
    await annotate(`pause: ${allIds.length} events; ${ours.length} deliveries (${duplicates} duplicates)`);
    const stored = await storedIds(nats.url, tenantId, allIds.length);
    expect(stored.sort()).toEqual([...allIds].sort());
  });
});
