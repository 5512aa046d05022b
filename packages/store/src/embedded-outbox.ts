import { trustedTenantId } from '@coperto/auth';
import type { EmbeddedEngine } from './embedded-engine.js';
import type { CollectionState, StoredRecord } from './embedded-state.js';
import { copyJson } from './json-values.js';
import { assertClaim, releasesClaim } from './outbox-claim.js';
import { isDeletedOutboxCollection } from './stored-document.js';
import type { OutboxSource, PendingOutbox } from './types.js';

/**
 * The relay's view of the embedded store. Leases live in memory only (a restart frees them, which at worst
 * republishes events: the relay is at-least-once anyway); acknowledgements are logged like any write. An
 * acknowledgement of every claimed message releases the claim; a partial one keeps it.
 */
export class EmbeddedOutbox implements OutboxSource {
  constructor(
    private readonly engine: EmbeddedEngine,
    private readonly collections: readonly string[],
  ) {}

  async claimPending(limit: number, leaseMs: number): Promise<PendingOutbox[]> {
    this.engine.assertUsable();
    assertClaim(limit, leaseMs);
    const now = Date.now();
    const free: Array<{ collection: CollectionState; record: StoredRecord }> = [];
    for (const name of new Set(this.collections)) {
      const collection = this.engine.existing(name);
      if (!collection) continue;
      for (const record of collection.pending) if (record.lease <= now) free.push({ collection, record });
    }
    free.sort((a, b) =>
      a.record.outboxAt! < b.record.outboxAt! ? -1 : a.record.outboxAt! > b.record.outboxAt! ? 1 : 0,
    );
    return free.slice(0, limit).map(({ collection, record }) => {
      record.lease = now + leaseMs;
      return {
        collection: collection.name,
        tenantId: trustedTenantId(record.tenantId),
        id: record.id,
        messages: copyJson(record.outbox),
      };
    });
  }

  async acknowledge(pending: PendingOutbox, messageIds: readonly string[]): Promise<void> {
    this.engine.assertUsable();
    const collection = this.engine.existing(pending.collection);
    const record = collection?.get(pending.tenantId, pending.id);
    if (!collection || !record) return; // deleted meanwhile
    const published = new Set(messageIds);
    const outbox = record.outbox.filter((message) => !published.has(message.id));
    const lease = releasesClaim(pending, published) ? 0 : record.lease;
    if (outbox.length === record.outbox.length) {
      record.lease = lease;
      return;
    }
    if (outbox.length === 0 && isDeletedOutboxCollection(collection.name)) {
      await this.engine.commitDelete(collection, record.tenantId, record.id); // a relayed tombstone is purged
      return;
    }
    await this.engine.commitPut(collection, {
      tenantId: record.tenantId,
      id: record.id,
      doc: record.doc,
      outbox,
      outboxAt: outbox.length > 0 ? record.outboxAt : null,
      lease,
    });
  }

  async countPending(): Promise<number> {
    this.engine.assertUsable();
    let count = 0;
    for (const name of new Set(this.collections)) count += this.engine.existing(name)?.pending.size ?? 0;
    return count;
  }
}
