/**
 * The relay against a MongoDB that stops answering for a while: an insert that waited for the server (its write-time
 * lease was stamped before the pause, so most of it was spent when the relay got the hint), then an update of the same
 * record. The relay renews such a lease by the insert's claim id rather than wait for it to run out (10 s): both
 * events reach the bus, in order, within seconds.
 */
import { trustedTenantId } from '@coperto/auth';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import { startMongoServer, startNatsServer, uniqueName, type TestServer } from '@coperto/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectNatsBus } from '../src/nats-bus.js';
import { createOutboxRelay } from '../src/outbox/relay.js';
import type { OutboxRelay } from '../src/outbox/relay-types.js';
import type { CloudEvent, EventBus } from '../src/types.js';
import { COLLECTION, tableEvent, type Tavolo } from './support/relay-fixture.js';

describe('outbox relay: a MongoDB store that pauses', () => {
  const database = uniqueName('bus_relay_pause');
  let mongo: TestServer;
  let nats: TestServer;
  let store: DocumentStore;
  let bus: EventBus;
  let relay: OutboxRelay;
  const received: Array<CloudEvent & { at: number }> = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    [mongo, nats] = await Promise.all([startMongoServer(undefined, { persistent: true }), startNatsServer()]);
    store = await connectMongoStore({ url: mongo.url, database });
    await store.ensureIndexes(COLLECTION, []);
    bus = await connectNatsBus({ url: nats.url, name: 'relay-store-pause', publishTimeoutMs: 1000 });
    const sub = bus.subscribe('tenant.*.restaurant.>', { maxPending: 100_000 });
    void (async () => {
      for await (const event of sub) received.push({ ...event, at: Date.now() });
    })();
    // The production relay's settings (subgraph-process.ts): the defaults.
    relay = createOutboxRelay({
      source: store.outbox([COLLECTION]),
      bus,
      onError: (error) => errors.push(error),
    });
    relay.start();
  }, 60_000);

  afterAll(async () => {
    await relay?.stop();
    await bus?.close();
    await store?.close();
    await Promise.all([mongo?.stop(), nats?.stop()]);
  });

  it('publishes the insert and the update of a record whose insert waited out the pause, in order', async ({
    annotate,
  }) => {
    const tenantId = trustedTenantId(uniqueName('relay'));
    const tavoli = store.forTenant(tenantId).collection<Tavolo>(COLLECTION);
    const warmUp = { id: 'warm-up', stato: 'libero' };
    const warmUpEvent = tableEvent(tenantId, warmUp);
    await tavoli.insertOne(warmUp, { events: [warmUpEvent] });
    relay.kick();
    await vi.waitFor(() => expect(received.map((e) => e.id)).toContain(warmUpEvent.id), { timeout: 10_000 });

    mongo.pause();
    const started = Date.now();
    const created = tableEvent(tenantId, { id: 'T1', stato: 'libero' });
    const insert = tavoli.insertOne({ id: 'T1', stato: 'libero' }, { events: [created] });
    await new Promise((r) => setTimeout(r, 3000));
    mongo.resume();
    await insert;
    relay.kick();
    const changed = tableEvent(tenantId, { id: 'T1', stato: 'occupato' }, 'libero');
    await tavoli.findOneAndUpdate({ id: 'T1' }, { $set: { stato: 'occupato' } }, { events: [changed] });
    relay.kick();
    const written = Date.now();

    await vi.waitFor(
      () => expect(received.map((e) => e.id)).toEqual(expect.arrayContaining([created.id, changed.id])),
      { timeout: 30_000, interval: 100 },
    );
    const order = received.map((e) => e.id).filter((id) => id === created.id || id === changed.id);
    expect(order.indexOf(created.id)).toBeLessThan(order.indexOf(changed.id));
    const at = (id: string) => received.find((e) => e.id === id)!.at;
    // Not left until the insert's lease ran out (7 s after the write here, before the renewal).
    expect(at(changed.id) - written).toBeLessThan(3000);
    await annotate(
      `insert and update took ${written - started} ms; created after ${at(created.id) - written} ms, updated after ` +
        `${at(changed.id) - written} ms; ${errors.length} relay error reports`,
    );
  }, 60_000);
});
