import { trustedTenantId } from '@coperto/auth';
import type { LmdbEngine } from '../lmdb-engine.js';
import { assertClaim, releasesClaim } from './claim.js';
import { isDeletedOutboxCollection } from '../stored-document.js';
import type { OutboxAcknowledgement, OutboxSource, PendingOutbox } from '../types.js';

/**
 * The relay's view of the embedded store. It reads committed (durable) outboxes only, oldest first. Leases live
 * in memory only (a restart frees them, which at worst republishes events: the relay is at-least-once anyway);
 * a relay's round of acknowledgements is one write transaction. An acknowledgement of every claimed message releases the claim;
 * a partial one keeps it.
 */
export class EmbeddedOutbox implements OutboxSource {
  constructor(
    private readonly engine: LmdbEngine,
    private readonly collections: readonly string[],
    /** `collection \0 tenant \0 id` → epoch ms until which a relay holds the record's outbox. */
    private readonly leases: Map<string, number>,
  ) {}

  async claimPending(limit: number, leaseMs: number): Promise<PendingOutbox[]> {
    this.engine.assertUsable();
    assertClaim(limit, leaseMs);
    const now = Date.now();
    const free: Array<{ collection: string; outboxAt: string; tenantId: string; id: string }> = [];
    for (const collection of new Set(this.collections)) {
      let taken = 0;
      for (const entry of this.engine.pending(collection)) {
        if ((this.leases.get(leaseKey(collection, entry.tenantId, entry.id)) ?? 0) > now) continue;
        free.push({ collection, ...entry });
        if (++taken >= limit) break;
      }
    }
    free.sort((a, b) => (a.outboxAt < b.outboxAt ? -1 : a.outboxAt > b.outboxAt ? 1 : 0));
    const claimed: PendingOutbox[] = [];
    for (const { collection, tenantId, id } of free.slice(0, limit)) {
      const record = this.engine.get(collection, tenantId, id);
      if (!record || record.outbox.length === 0) continue;
      this.leases.set(leaseKey(collection, tenantId, id), now + leaseMs);
      claimed.push({ collection, tenantId: trustedTenantId(tenantId), id, messages: record.outbox });
    }
    return claimed;
  }

  async acknowledge(acks: readonly OutboxAcknowledgement[]): Promise<boolean> {
    this.engine.assertUsable();
    const work = acks.filter((ack) => ack.messageIds.length > 0);
    if (work.length === 0) return false;
    // One write transaction for the whole round; what each record keeps (events written after its claim).
    const kept = await this.engine.write(() =>
      work.map(({ pending, messageIds }) => this.removePublished(pending, new Set(messageIds))),
    );
    let releasedWithEvents = false;
    work.forEach(({ pending, messageIds }, i) => {
      if (!releasesClaim(pending, new Set(messageIds))) return;
      this.leases.delete(leaseKey(pending.collection, pending.tenantId, pending.id));
      if (kept[i]! > 0) releasedWithEvents = true;
    });
    return releasedWithEvents;
  }

  /**
   * Inside a write: the record's outbox without the published events (a relayed tombstone is purged). Returns how
   * many events the record keeps.
   */
  private removePublished(pending: PendingOutbox, published: ReadonlySet<string>): number {
    const { collection, tenantId, id } = pending;
    const record = this.engine.get(collection, tenantId, id);
    if (!record) return 0; // deleted meanwhile
    const outbox = record.outbox.filter((message) => !published.has(message.id));
    if (outbox.length === record.outbox.length) return outbox.length;
    if (outbox.length === 0 && isDeletedOutboxCollection(collection)) {
      this.engine.remove(collection, tenantId, record);
      return 0;
    }
    const outboxAt = outbox.length > 0 ? record.outboxAt : null;
    this.engine.put(collection, tenantId, { doc: record.doc, outbox, outboxAt }, record);
    return outbox.length;
  }

  async countPending(): Promise<number> {
    this.engine.assertUsable();
    let count = 0;
    for (const collection of new Set(this.collections)) count += this.engine.countPending(collection);
    return count;
  }
}

function leaseKey(collection: string, tenantId: string, id: string): string {
  return `${collection}\u0000${tenantId}\u0000${id}`;
}
