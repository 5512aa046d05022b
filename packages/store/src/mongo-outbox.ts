import { trustedTenantId } from '@coperto/auth';
import type { Document } from 'mongodb';
import type { MongoContext } from './mongo-collection.js';
import { assertClaim, releasesClaim } from './outbox-claim.js';
import { OUTBOX_AT_FIELD, OUTBOX_FIELD, OUTBOX_LEASE_FIELD, tenantKey } from './stored-document.js';
import type { OutboxMessage, OutboxSource, PendingOutbox } from './types.js';

/** Records with pending events: `_outboxAt` is set exactly while `_outbox` is non-empty (sparse index). */
const PENDING: Document = { [OUTBOX_AT_FIELD]: { $exists: true } };

/**
 * The relay's cross-tenant view of MongoDB collections. A claim is one conditional findOneAndUpdate per record
 * (pending and not leased, oldest first → lease it), so two relays never hold one record at the same time
 * unless a lease expires. Collections are served round-robin so a backlog in one does not starve the others.
 * Acknowledging is two conditional updates: pull the published events (releasing the claim when they were all
 * of it), then clear the pending marker only if the outbox is empty, so an event pushed in between survives.
 */
export class MongoOutbox implements OutboxSource {
  constructor(
    private readonly context: MongoContext,
    private readonly collections: readonly string[],
  ) {}

  async claimPending(limit: number, leaseMs: number): Promise<PendingOutbox[]> {
    assertClaim(limit, leaseMs);
    const now = Date.now();
    const claimed: PendingOutbox[] = [];
    let active = [...new Set(this.collections)];
    while (claimed.length < limit && active.length > 0) {
      const stillPending: string[] = [];
      for (const name of active) {
        if (claimed.length >= limit) break;
        const one = await this.claimOne(name, now, leaseMs);
        if (one === null) continue;
        stillPending.push(name);
        if (one !== 'empty') claimed.push(one);
      }
      active = stillPending;
    }
    return claimed;
  }

  async acknowledge(pending: PendingOutbox, messageIds: readonly string[]): Promise<void> {
    const collection = this.context.db.collection(pending.collection);
    const key = { _id: tenantKey(pending.tenantId, pending.id), tenantId: pending.tenantId } as Document;
    const update: Document = { $pull: { [OUTBOX_FIELD]: { id: { $in: [...messageIds] } } } };
    if (releasesClaim(pending, new Set(messageIds))) update.$unset = { [OUTBOX_LEASE_FIELD]: '' };
    await this.context.run(() => collection.updateOne(key, update));
    await this.clearIfEmpty(pending.collection, key);
  }

  async countPending(): Promise<number> {
    let count = 0;
    for (const name of new Set(this.collections)) {
      count += await this.context.run(() => this.context.db.collection(name).countDocuments(PENDING));
    }
    return count;
  }

  /** Leases the oldest free pending record: null when there is none, 'empty' for a leftover empty outbox. */
  private async claimOne(
    name: string,
    now: number,
    leaseMs: number,
  ): Promise<PendingOutbox | 'empty' | null> {
    const collection = this.context.db.collection(name);
    const doc = await this.context.run(() =>
      collection.findOneAndUpdate(
        {
          ...PENDING,
          $or: [{ [OUTBOX_LEASE_FIELD]: { $exists: false } }, { [OUTBOX_LEASE_FIELD]: { $lte: now } }],
        },
        { $set: { [OUTBOX_LEASE_FIELD]: now + leaseMs } },
        {
          sort: { [OUTBOX_AT_FIELD]: 1 },
          returnDocument: 'after',
          projection: { tenantId: 1, id: 1, [OUTBOX_FIELD]: 1 },
        },
      ),
    );
    if (!doc) return null;
    const messages = (doc[OUTBOX_FIELD] ?? []) as OutboxMessage[];
    if (messages.length === 0) {
      // A crash between acknowledge's two steps: finish the cleanup.
      await this.clearIfEmpty(name, { _id: doc._id, tenantId: doc.tenantId } as Document);
      return 'empty';
    }
    return {
      collection: name,
      tenantId: trustedTenantId(String(doc.tenantId)),
      id: String(doc.id),
      messages,
    };
  }

  /** Second step of an acknowledgement: no events left → no longer pending (an event pushed meanwhile wins). */
  private async clearIfEmpty(name: string, key: Document): Promise<void> {
    await this.context.run(() =>
      this.context.db.collection(name).updateOne({ ...key, [OUTBOX_FIELD]: { $size: 0 } }, {
        $unset: { [OUTBOX_FIELD]: '', [OUTBOX_AT_FIELD]: '', [OUTBOX_LEASE_FIELD]: '' },
      } as Document),
    );
  }
}
