/**
 * Events published early (OutboxSource.onAnnounce) against the real MongoDB store and nats-server: a write that
 * leaves its record nothing else pending reaches a JetStream follower while the relay's claim is held back; a write
 * behind a pending event waits for the claim; JetStream keeps each event once, in write order, and a core NATS
 * subscriber (`nats sub`) gets each event once too: the round does not publish again what the bus took early.
 */
import { trustedTenantId } from '@coperto/auth';
import type { DocumentStore, OutboxSource } from '@coperto/store';
import { uniqueName, type TestServer } from '@coperto/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOutboxRelay } from '../src/outbox/relay.js';
import type { OutboxRelay } from '../src/outbox/relay-types.js';
import type { CloudEvent, EventBus, Subscription } from '../src/types.js';
import {
  closeRelayServers,
  COLLECTION,
  openRelayServers,
  tableEvent,
  type Tavolo,
} from './support/relay-fixture.js';

/**
 * The store's outbox, whose claims wait while held (the relay's round stuck behind a slow claim). `hold` resolves
 * once no claim that began before it is still running: such a claim could otherwise lease a write made after it.
 */
function holdableOutbox(source: OutboxSource) {
  let release: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  let heldClaims = 0;
  let running = 0;
  const outbox: OutboxSource = {
    async claimPending(...args) {
      if (gate) {
        heldClaims++;
        await gate;
      }
      running++;
      try {
        return await source.claimPending(...args);
      } finally {
        running--;
      }
    },
    acknowledge: (acks) => source.acknowledge(acks),
    countPending: () => source.countPending(),
    onAnnounce: (listener) => source.onAnnounce!(listener),
  };
  return {
    outbox,
    async hold() {
      gate = new Promise((resolve) => (release = resolve));
      await vi.waitFor(() => expect(running).toBe(0), { timeout: 10_000, interval: 5 });
    },
    release() {
      gate = null;
      release?.();
    },
    heldClaims: () => heldClaims,
  };
}

describe('events published early: MongoDB store → nats-server, ahead of the claim', () => {
  const database = uniqueName('bus_announce');
  let nats: TestServer;
  let store: DocumentStore;
  let bus: EventBus;
  let relay: OutboxRelay;
  let followed: Subscription;
  let core: Subscription;
  const received: CloudEvent[] = [];
  const coreReceived: CloudEvent[] = [];
  let claims: ReturnType<typeof holdableOutbox>;

  beforeAll(async () => {
    ({ nats, store, bus } = await openRelayServers(database, { name: 'announce-integration' }));
    followed = await bus.follow('tenant.*.restaurant.>');
    void (async () => {
      for await (const event of followed) received.push(event);
    })();
    core = bus.subscribe('tenant.*.restaurant.>');
    void (async () => {
      for await (const event of core) coreReceived.push(event);
    })();
    claims = holdableOutbox(store.outbox([COLLECTION]));
    relay = createOutboxRelay({ source: claims.outbox, bus, pollIntervalMs: 50 });
    relay.start();
  });

  afterAll(async () => {
    claims?.release();
    await relay?.stop();
    followed?.unsubscribe();
    core?.unsubscribe();
    await closeRelayServers({ nats, store, bus }, database);
  });

  it('a write with nothing else pending is stored at once; one behind a pending event waits for the claim', async () => {
    const tenantId = trustedTenantId(uniqueName('announce'));
    const tavoli = store.forTenant(tenantId).collection<Tavolo>(COLLECTION);
    const ids = () => received.filter((e) => e.tenantid === tenantId).map((e) => e.id);

    // Relayed the ordinary way, and the record's outbox emptied: its next change has nothing before it.
    const created = tableEvent(tenantId, { id: 'T1', stato: 'libero' });
    await tavoli.insertOne({ id: 'T1', stato: 'libero' }, { events: [created] });
    relay.kick();
    await vi.waitFor(() => expect(ids()).toEqual([created.id]), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), { timeout: 10_000 });

    await claims.hold();
    const seated = tableEvent(tenantId, { id: 'T1', stato: 'occupato' });
    await tavoli.findOneAndUpdate({ id: 'T1' }, { $set: { stato: 'occupato' } }, { events: [seated] });
    relay.kick();
    // Delivered while every claim waits.
    await vi.waitFor(() => expect(ids()).toEqual([created.id, seated.id]), { timeout: 5000 });
    await vi.waitFor(() => expect(claims.heldClaims()).toBeGreaterThan(0), { timeout: 5000 });

    // The seated event is still in the outbox (nothing acknowledged it): the next change waits behind it.
    const freed = tableEvent(tenantId, { id: 'T1', stato: 'libero' });
    await tavoli.findOneAndUpdate({ id: 'T1' }, { $set: { stato: 'libero' } }, { events: [freed] });
    relay.kick();
    // A new record has nothing pending before its insert: announced too.
    const other = tableEvent(tenantId, { id: 'T2', stato: 'libero' });
    await tavoli.insertOne({ id: 'T2', stato: 'libero' }, { events: [other] });
    await vi.waitFor(() => expect(ids()).toContain(other.id), { timeout: 5000 });
    expect(ids()).not.toContain(freed.id);

    claims.release();
    await vi.waitFor(() => expect(ids()).toContain(freed.id), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await relay.countPending()).toBe(0), { timeout: 10_000 });
    // Each once, T1's in write order: in JetStream, and for a core subscriber (nothing published twice).
    const all = [created.id, seated.id, freed.id, other.id];
    const t1 = ids().filter((id) => [created.id, seated.id, freed.id].includes(id));
    expect(t1).toEqual([created.id, seated.id, freed.id]);
    expect([...ids()].sort()).toEqual([...all].sort());
    const coreIds = () => coreReceived.filter((e) => e.tenantid === tenantId).map((e) => e.id);
    await vi.waitFor(() => expect([...coreIds()].sort()).toEqual([...all].sort()), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 300)); // a second copy would arrive within this
    expect(coreIds()).toHaveLength(all.length);
    expect(relay.stats().published).toBe(all.length);
  });
});
