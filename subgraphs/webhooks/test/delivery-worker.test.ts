// The delivery worker on the embedded store: how it claims due work. Regression (bench scenario 15): the claims of
// a round were awaited one by one, so a round of 32 cost 32 store round trips (32 disk commits in embedded mode)
// and an instance delivered about 30 a second under load whatever the endpoints answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { newTenantId } from '@coperto/testkit';
import { DeliveryQueue, type QueueEntry } from '../src/delivery/delivery-queue.js';
import { createDeliveryWorker } from '../src/delivery/delivery-worker.js';
import { createSender } from '../src/delivery/sender.js';

/** The real queue, noting how many claims are in flight at once. */
class WatchedQueue extends DeliveryQueue {
  inFlight = 0;
  peak = 0;
  override async claim(entry: QueueEntry, now: Date, leaseMs: number) {
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      return await super.claim(entry, now, leaseMs);
    } finally {
      this.inFlight--;
    }
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
    expect(queue.peak).toBe(8);
  });
});
