import { randomUUID } from 'node:crypto';
import { trustedTenantId } from '@coperto/auth';
import type { Document } from 'mongodb';
import type { MongoContext } from './mongo-collection.js';
import { assertClaim, releasesClaim } from './outbox-claim.js';
import {
  OUTBOX_AT_FIELD,
  OUTBOX_CLAIM_FIELD,
  OUTBOX_FIELD,
  OUTBOX_LEASE_FIELD,
  isDeletedOutboxCollection,
  tenantKey,
} from './stored-document.js';
import type {
  ClaimOptions,
  OutboxAcknowledgement,
  OutboxMessage,
  OutboxSource,
  PendingOutbox,
} from './types.js';

/** Records with pending events: `_outboxAt` is set exactly while `_outbox` is non-empty (sparse index). */
const PENDING: Document = { [OUTBOX_AT_FIELD]: { $exists: true } };
const NOT_PENDING: Document = { [OUTBOX_AT_FIELD]: { $exists: false } };
/** A batch that found candidates but leased none of them (another relay was faster) is tried again this often. */
const LOST_RACE_RETRIES = 3;
const ALL_OUTBOX_FIELDS = {
  [OUTBOX_FIELD]: '',
  [OUTBOX_AT_FIELD]: '',
  [OUTBOX_LEASE_FIELD]: '',
  [OUTBOX_CLAIM_FIELD]: '',
};

/** What a claim hands the relay of each record, oldest pending first. */
const CLAIMED_FIELDS = { tenantId: 1, id: 1, [OUTBOX_FIELD]: 1 };
const OLDEST_FIRST = { [OUTBOX_AT_FIELD]: 1 } as const;

/** Pending and not leased (or its lease ran out) at `now`. */
const claimable = (now: number): Document => ({
  ...PENDING,
  $or: [{ [OUTBOX_LEASE_FIELD]: { $exists: false } }, { [OUTBOX_LEASE_FIELD]: { $lte: now } }],
});

/**
 * The relay's cross-tenant view of MongoDB collections. A claim leases a batch of records in two commands,
 * whatever its size: read the oldest claimable records, then lease those still claimable in one `updateMany`
 * stamped with a fresh claim id (each document's update is atomic, so of two relays racing for a record exactly
 * one leases it). When the lease took fewer than were read (another relay was faster), a third command reads
 * back the records carrying this claim id. Collections share a claim round-robin, so a backlog
 * in one does not starve the others. A claim after writes (`afterWrites`) reads only the collections this
 * process wrote events to since it last read them, and every one not read for a while (WrittenOutboxes).
 *
 * Acknowledging a relay's round is one bulk update when each outbox holds exactly the published events (the
 * common case: clear the outbox and release the claim together); otherwise, for the records that did not match,
 * two conditional updates: pull the published events (releasing the claim when they were all of it), then clear
 * the pending marker only if the outbox is empty, so an event pushed in between survives.
 */
export class MongoOutbox implements OutboxSource {
  constructor(
    private readonly context: MongoContext,
    private readonly collections: readonly string[],
  ) {}

  async claimPending(limit: number, leaseMs: number, options: ClaimOptions = {}): Promise<PendingOutbox[]> {
    assertClaim(limit, leaseMs);
    const claimed: PendingOutbox[] = [];
    const all = [...new Set(this.collections)];
    let active = this.context.writtenOutboxes.due(all, Date.now(), { all: options.afterWrites !== true });
    while (claimed.length < limit && active.length > 0) {
      const before = claimed.length;
      const share = Math.ceil((limit - claimed.length) / active.length);
      const stillPending: string[] = [];
      for (const name of active) {
        const wanted = Math.min(share, limit - claimed.length);
        if (wanted <= 0) {
          stillPending.push(name); // not read in this claim: the next one reads it
          continue;
        }
        const batch = await this.claimBatch(name, wanted, leaseMs);
        claimed.push(...batch.records);
        // A full batch may leave more behind; a short one means the collection has no more claimable now.
        if (batch.found >= wanted) stillPending.push(name);
      }
      // A pass that leased nothing (other relays took what it saw) ends the claim.
      active = claimed.length > before ? stillPending : [];
    }
    // What a full claim left behind is read again at the next one.
    for (const name of active) this.context.writtenOutboxes.mark(name);
    return claimed;
  }

  async acknowledge(acks: readonly OutboxAcknowledgement[]): Promise<void> {
    const byCollection = new Map<string, OutboxAcknowledgement[]>();
    for (const ack of acks) {
      if (ack.messageIds.length === 0) continue;
      const list = byCollection.get(ack.pending.collection) ?? [];
      list.push(ack);
      byCollection.set(ack.pending.collection, list);
    }
    for (const [name, list] of byCollection) await this.acknowledgeIn(name, list);
  }

  /**
   * One collection's acknowledgements. Those that publish all their record's claimed events go first, all in one
   * unordered bulk write (one `update` command): each clears its record only if the outbox holds exactly the
   * published events. Any that did not match (an event was pushed meanwhile, or the record is gone) are told
   * apart by one read, and those still holding published events take the two-step path.
   */
  private async acknowledgeIn(name: string, acks: readonly OutboxAcknowledgement[]): Promise<void> {
    const collection = this.context.db.collection(name);
    const complete = acks.filter((ack) => releasesClaim(ack.pending, new Set(ack.messageIds)));
    const rest = acks.filter((ack) => !complete.includes(ack));
    if (complete.length > 0) {
      const result = await this.context.run(() =>
        collection.bulkWrite(
          complete.map((ack) => ({
            updateOne: {
              filter: {
                ...recordKey(ack.pending),
                [OUTBOX_FIELD]: { $size: new Set(ack.messageIds).size },
                [`${OUTBOX_FIELD}.id`]: { $all: [...new Set(ack.messageIds)] },
              } as Document,
              update: { $unset: ALL_OUTBOX_FIELDS },
            },
          })),
          { ordered: false },
        ),
      );
      if (result.matchedCount < complete.length) rest.push(...(await this.stillHolding(name, complete)));
    }
    for (const ack of rest) await this.acknowledgeInTwoSteps(name, ack);
    if (isDeletedOutboxCollection(name)) await this.purgeTombstones(name, acks);
  }

  /** Of these acknowledgements, those whose record still holds one of the events they publish. */
  private async stillHolding(
    name: string,
    acks: readonly OutboxAcknowledgement[],
  ): Promise<OutboxAcknowledgement[]> {
    const docs = await this.context.run(() =>
      this.context.db
        .collection(name)
        .find({ _id: { $in: acks.map((ack) => recordKey(ack.pending)._id) } } as Document, {
          projection: { [OUTBOX_FIELD]: 1 },
        })
        .toArray(),
    );
    const held = new Map(
      docs.map((doc) => [
        String(doc._id),
        new Set(((doc[OUTBOX_FIELD] ?? []) as OutboxMessage[]).map((m) => m.id)),
      ]),
    );
    return acks.filter((ack) => {
      const ids = held.get(recordKey(ack.pending)._id);
      return ids !== undefined && ack.messageIds.some((id) => ids.has(id));
    });
  }

  /**
   * Pull the published events (releasing the claim when they were all of it), then clear the pending marker only
   * if the outbox is empty, so an event pushed in between survives.
   */
  private async acknowledgeInTwoSteps(name: string, ack: OutboxAcknowledgement): Promise<void> {
    const key = recordKey(ack.pending) as Document;
    const update: Document = { $pull: { [OUTBOX_FIELD]: { id: { $in: [...ack.messageIds] } } } };
    if (releasesClaim(ack.pending, new Set(ack.messageIds))) {
      update.$unset = { [OUTBOX_LEASE_FIELD]: '', [OUTBOX_CLAIM_FIELD]: '' };
    }
    await this.context.run(() => this.context.db.collection(name).updateOne(key, update));
    await this.clearIfEmpty(name, key);
  }

  /** Deleted records' tombstones whose events were all relayed have no reason to stay. */
  private async purgeTombstones(name: string, acks: readonly OutboxAcknowledgement[]): Promise<void> {
    const ids = acks.map((ack) => recordKey(ack.pending)._id);
    await this.context.run(() =>
      this.context.db.collection(name).deleteMany({ _id: { $in: ids }, ...NOT_PENDING } as Document),
    );
  }

  /** A deleted record's tombstone whose events were all relayed has no reason to stay. */
  private async purgeIfTombstone(name: string, key: Document): Promise<void> {
    if (!isDeletedOutboxCollection(name)) return;
    await this.context.run(() =>
      this.context.db.collection(name).deleteOne({ ...key, ...NOT_PENDING } as Document),
    );
  }

  async countPending(): Promise<number> {
    let count = 0;
    for (const name of new Set(this.collections)) {
      count += await this.context.run(() => this.context.db.collection(name).countDocuments(PENDING));
    }
    return count;
  }

  /**
   * Leases up to `wanted` of the oldest claimable records of one collection. `found`: how many claimable
   * records the last attempt saw (less than `wanted`: the collection has no more for now).
   */
  private async claimBatch(
    name: string,
    wanted: number,
    leaseMs: number,
  ): Promise<{ records: PendingOutbox[]; found: number }> {
    const collection = this.context.db.collection(name);
    for (let attempt = 0; ; attempt++) {
      const now = Date.now();
      const candidates = await this.context.run(() =>
        collection
          .find(claimable(now), { projection: CLAIMED_FIELDS, sort: OLDEST_FIRST, limit: wanted })
          .toArray(),
      );
      if (candidates.length === 0) return { records: [], found: 0 };
      const ids = candidates.map((doc) => doc._id);
      const claimId = randomUUID();
      const leased = await this.context.run(() =>
        collection.updateMany(
          { _id: { $in: ids }, ...claimable(now) },
          { $set: { [OUTBOX_LEASE_FIELD]: now + leaseMs, [OUTBOX_CLAIM_FIELD]: claimId } },
        ),
      );
      if (leased.modifiedCount === 0) {
        if (attempt < LOST_RACE_RETRIES) continue;
        return { records: [], found: candidates.length };
      }
      // Leased them all (the common case): the records as read are the claim. Events pushed between the read and
      // the lease wait for the next claim (acknowledging the read ones keeps them, see acknowledge). Otherwise
      // another relay took some: read back the ones carrying this claim id.
      const docs =
        leased.modifiedCount === candidates.length
          ? candidates
          : await this.context.run(() =>
              collection
                .find(
                  { _id: { $in: ids }, [OUTBOX_CLAIM_FIELD]: claimId },
                  { projection: CLAIMED_FIELDS, sort: OLDEST_FIRST },
                )
                .toArray(),
            );
      const records: PendingOutbox[] = [];
      for (const doc of docs) {
        const messages = (doc[OUTBOX_FIELD] ?? []) as OutboxMessage[];
        if (messages.length === 0) {
          // A crash between acknowledge's two steps: finish the cleanup.
          await this.clearIfEmpty(name, { _id: doc._id, tenantId: doc.tenantId } as Document);
          await this.purgeIfTombstone(name, { _id: doc._id, tenantId: doc.tenantId } as Document);
          continue;
        }
        records.push({
          collection: name,
          tenantId: trustedTenantId(String(doc.tenantId)),
          id: String(doc.id),
          messages,
        });
      }
      return { records, found: candidates.length };
    }
  }

  /** Second step of an acknowledgement: no events left → no longer pending (an event pushed meanwhile wins). */
  private async clearIfEmpty(name: string, key: Document): Promise<void> {
    await this.context.run(() =>
      this.context.db
        .collection(name)
        .updateOne({ ...key, [OUTBOX_FIELD]: { $size: 0 } }, { $unset: ALL_OUTBOX_FIELDS } as Document),
    );
  }
}

/** A record's MongoDB key: `_id` and its tenant. */
function recordKey(pending: PendingOutbox): { _id: string; tenantId: string } {
  return { _id: tenantKey(pending.tenantId, pending.id), tenantId: pending.tenantId };
}
