// The delivery worker on the embedded store: how its store writes overlap. Regressions: the claims of a round were
// awaited one by one, so a round of 32 cost 32 store round trips (32 disk commits in embedded mode) and an instance
// delivered about 30 a second under load whatever the endpoints answered (bench scenario 15); an endpoint back from
// an outage had its missed deliveries brought forward one by one, 148 s for 2,918 (bench scenario 16).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { newTenantId } from '@coperto/testkit';
import { DeliveryQueue, type QueueEntry } from '../src/delivery/delivery-queue.js';
import { createDeliveryWorker } from '../src/delivery/delivery-worker.js';
import { newDelivery } from '../src/delivery/intake.js';
import { createSender } from '../src/delivery/sender.js';
import { WebhooksStore } from '../src/webhooks-store.js';
import { startReceiver } from './support/receiver.js';

/** How many calls of one kind are in flight at once, at most. */
class Peak {
  private now = 0;
  max = 0;
  async watch<T>(call: () => Promise<T>): Promise<T> {
    this.max = Math.max(this.max, ++this.now);
    try {
      return await call();
    } finally {
      this.now--;
    }
  }
}

/** The real queue, noting how many claims and how many enqueues are in flight at once. */
class WatchedQueue extends DeliveryQueue {
  readonly claims = new Peak();
  readonly enqueues = new Peak();
  override claim(entry: QueueEntry, now: Date, leaseMs: number) {
    return this.claims.watch(() => super.claim(entry, now, leaseMs));
  }
  override enqueue(tenant: string, consegnaId: string, webhookId: string, at: Date) {
    return this.enqueues.watch(() => super.enqueue(tenant, consegnaId, webhookId, at));
  }
}

describe('delivery worker', () => {
  let dir: string;
  let store: DocumentStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhooks-worker-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
    await DeliveryQueue.ensureIndexes(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('claims a round of due entries side by side, not one commit after another', async () => {
    const queue = new WatchedQueue(store);
    const tenant = newTenantId();
    const due = new Date(Date.now() - 1000);
    // Entries whose delivery no longer exists (e.g. removed with its endpoint): each is claimed, then dropped.
    for (let i = 0; i < 8; i++) await queue.enqueue(tenant, `gone-${i}`, 'w1', due);
    const sender = createSender({ allowPrivate: true });
    const worker = createDeliveryWorker({
      store,
      queue,
      sender,
      now: () => new Date(),
      onEventsWritten: () => {},
      batch: 8,
      pollMs: 20,
    });
    worker.start();
    await expect.poll(() => queue.due(new Date(), 100), { timeout: 5000, interval: 20 }).toEqual([]);
    await worker.stop();
    await sender.close();
    expect(queue.claims.max).toBe(8);
  });

  it('brings an endpoint’s waiting deliveries forward side by side when it answers again', async () => {
    const queue = new WatchedQueue(store);
    const tenant = newTenantId();
    const tenantStore = new WebhooksStore(store, trustedTenantId(tenant));
    const receiver = await startReceiver();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    receiver.secrets.push(secret);
    const now = new Date();
    const at = now.toISOString();
    await tenantStore.webhooks.insertOne({
      id: 'w-back',
      url: receiver.url,
      eventi: [],
      attivo: true,
      segreti: [{ secret, creatoIl: at }],
      // Failing for an hour: its deliveries wait for their next try, an hour away.
      inErroreDa: new Date(now.getTime() - 3_600_000).toISOString(),
      ultimaConsegnaAt: null,
      disattivatoAt: null,
      createdAt: at,
      updatedAt: at,
      version: 1,
    });
    const event = (n: number) =>
      buildEvent({
        tenantId: trustedTenantId(tenant),
        type: 'bookings.created',
        source: '/test/worker',
        subject: `b${n}`,
        data: { id: `b${n}` },
      }).event;
    const later = new Date(now.getTime() + 3_600_000).toISOString();
    for (let n = 0; n < 10; n++)
      await tenantStore.deliveries.insertOne({
        ...newDelivery('w-back', event(n), now),
        prossimoTentativoAt: later,
      });
    // A new event, due now: its success is the endpoint's first since it failed.
    const fresh = newDelivery('w-back', event(10), now);
    await tenantStore.deliveries.insertOne(fresh);
    await queue.enqueue(tenant, fresh.id, 'w-back', now);

    const sender = createSender({ allowPrivate: true });
    const worker = createDeliveryWorker({
      store,
      queue,
      sender,
      now: () => new Date(),
      onEventsWritten: () => {},
      pollMs: 20,
    });
    worker.start();
    await expect.poll(() => receiver.delivered().size, { timeout: 10_000, interval: 20 }).toBe(11);
    await worker.stop();
    await sender.close();
    await receiver.close();
    // The fresh one's enqueue above, then the ten brought forward at once.
    expect(queue.enqueues.max).toBe(10);
    expect(receiver.received.every((r) => r.verifiedWith.includes(0))).toBe(true);
  });
});
