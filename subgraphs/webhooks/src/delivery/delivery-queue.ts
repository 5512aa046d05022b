import { randomUUID } from 'node:crypto';
import { trustedTenantId, type TenantId } from '@coperto/auth';
import type { DocumentStore, TenantCollection } from '@coperto/store';

/**
 * The queue of deliveries waiting for an attempt, across tenants. Its entries are pointers (the delivery itself
 * is the tenant's record, and says what is due); they live under a partition no tenant can be (`:` is not a
 * character of a tenant id), so every instance sees every tenant's work and none reads another tenant's data.
 */
const QUEUE_PARTITION = trustedTenantId(':webhooks');
export const QUEUE = 'webhooks_coda';

export interface QueueEntry {
  /** `<tenant>/<deliveryId>` */
  id: string;
  tenant: string;
  consegnaId: string;
  /** The delivery's endpoint: read beside the delivery, not after it. */
  webhookId: string;
  /** When it is due (ISO). */
  dovutoAt: string;
  /** An instance holds it until then ('' when none: `'' < any time`). */
  leaseFino: string;
  /** Who holds it: the claim's random id ('' when none). */
  claim: string;
}

export interface ClaimedEntry extends QueueEntry {
  tenantId: TenantId;
}

export class DeliveryQueue {
  private readonly entries: TenantCollection<QueueEntry>;
  constructor(store: DocumentStore) {
    this.entries = store.forTenant(QUEUE_PARTITION).collection<QueueEntry>(QUEUE);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store.ensureIndexes(QUEUE, [{ name: 'dovutoAt', fields: { dovutoAt: 1 } }]);
  }

  /** Makes the delivery due at `at` (earlier than it was, never later); a lease held on it stays. */
  async enqueue(tenant: string, consegnaId: string, webhookId: string, at: Date): Promise<void> {
    const id = `${tenant}/${consegnaId}`;
    const due = at.toISOString();
    const entry = await this.entries.findOneAndUpdate(
      { id },
      { $setOnInsert: { tenant, consegnaId, webhookId, dovutoAt: due, leaseFino: '', claim: '' } },
      { upsert: true },
    );
    if (entry && entry.dovutoAt > due)
      await this.entries.findOneAndUpdate({ id, dovutoAt: { $gt: due } }, { $set: { dovutoAt: due } });
  }

  /**
   * Up to `limit` entries due at `now` that nobody holds. Unsorted on purpose: a sort makes the store read every
   * due entry to return a few (the embedded store sorts in memory; a backlog of 400,000 made each read cost
   * seconds), while unsorted it stops at the first `limit` (the embedded store's insertion order, MongoDB's
   * `dovutoAt` index order: the oldest first either way).
   */
  due(now: Date, limit: number): Promise<QueueEntry[]> {
    const at = now.toISOString();
    return this.entries.find({ dovutoAt: { $lte: at }, leaseFino: { $lt: at } }, { limit });
  }

  /** Takes an entry for `leaseMs` if it is still as read (exactly one of racing instances gets it). */
  async claim(entry: QueueEntry, now: Date, leaseMs: number): Promise<ClaimedEntry | null> {
    const claim = randomUUID();
    const taken = await this.entries.findOneAndUpdate(
      { id: entry.id, leaseFino: entry.leaseFino, dovutoAt: entry.dovutoAt },
      { $set: { leaseFino: new Date(now.getTime() + leaseMs).toISOString(), claim } },
    );
    return taken ? { ...taken, tenantId: trustedTenantId(taken.tenant) } : null;
  }

  /** The holder sets when the delivery is due next and lets it go. */
  async reschedule(entry: ClaimedEntry, at: string): Promise<void> {
    await this.entries.findOneAndUpdate(
      { id: entry.id, claim: entry.claim },
      { $set: { dovutoAt: at, leaseFino: '', claim: '' } },
    );
  }

  /** The holder drops an entry with nothing left to do. */
  async remove(entry: ClaimedEntry): Promise<void> {
    await this.entries.deleteOne({ id: entry.id, claim: entry.claim });
  }
}
