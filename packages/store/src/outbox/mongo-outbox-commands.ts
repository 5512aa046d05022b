import { randomUUID } from 'node:crypto';
import { trustedTenantId } from '@coperto/auth';
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import type { MongoContext } from '../mongo-collection.js';
import {
  OUTBOX_AT_FIELD,
  OUTBOX_CLAIM_FIELD,
  OUTBOX_FIELD,
  OUTBOX_LEASE_FIELD,
  isDeletedOutboxCollection,
  tenantKey,
} from '../stored-document.js';
import type { OutboxAcknowledgement, OutboxMessage, PendingOutbox } from '../types.js';
import { releasesClaim } from './claim.js';

/**
 * The MongoDB commands of the outbox protocol on one collection `name` (MongoOutbox decides which to send when):
 * lease records by `_id` under a fresh claim id, read back a claim, claim a batch of the oldest claimable records,
 * acknowledge a round in one ordered `update` command. Every statement finds its records by `_id` where it can, which
 * matters beyond MongoDB: a MongoDB-protocol server whose planner uses an index only for a filter of exactly its keys
 * (mongo-java-server, the test server) would scan the collection for each.
 */

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
export const claimable = (now: number): Document => ({
  ...PENDING,
  $or: [{ [OUTBOX_LEASE_FIELD]: { $exists: false } }, { [OUTBOX_LEASE_FIELD]: { $lte: now } }],
});

/**
 * Leases, from `now`, those of the records `ids` of `name` that meet `condition` in one `updateMany` stamped with a
 * fresh claim id (each document's update is atomic, so of two relays racing for a record exactly one leases it).
 */
export async function leaseByIds(
  context: MongoContext,
  name: string,
  ids: readonly unknown[],
  condition: Document,
  now: number,
  leaseMs: number,
): Promise<{ leased: number; claimId: string }> {
  const claimId = randomUUID();
  const result = await context.run(() =>
    context.db.collection(name).updateMany({ _id: { $in: [...ids] }, ...condition } as Document, {
      $set: { [OUTBOX_LEASE_FIELD]: now + leaseMs, [OUTBOX_CLAIM_FIELD]: claimId },
    }),
  );
  return { leased: result.modifiedCount, claimId };
}

/** Of the records `ids` of `name`, those a lease stamped with `claimId` took, oldest pending first. */
export async function readClaimed(
  context: MongoContext,
  name: string,
  ids: readonly unknown[],
  claimId: string,
): Promise<Document[]> {
  return await context.run(() =>
    context.db
      .collection(name)
      .find({ _id: { $in: [...ids] }, [OUTBOX_CLAIM_FIELD]: claimId } as Document, {
        projection: CLAIMED_FIELDS,
        sort: OLDEST_FIRST,
      })
      .toArray(),
  );
}

/**
 * One collection's acknowledgements, in one ordered `update` command whose every statement but the last filters
 * on `_id` alone (so any MongoDB-protocol server finds the record by its `_id` index, never by a scan): each
 * record loses the events it published (an event pushed meanwhile stays) and, when they were all its claim,
 * its lease; then the records of the round left with an empty outbox lose their pending marker. Each statement
 * is atomic per record, so an event pushed between the two keeps its record pending. Returns the `_id`s of the
 * records whose claim it released.
 */
export async function acknowledgeIn(
  context: MongoContext,
  name: string,
  acks: readonly OutboxAcknowledgement[],
): Promise<string[]> {
  const released: string[] = [];
  const operations: AnyBulkWriteOperation[] = acks.map((ack) => {
    const published = new Set(ack.messageIds);
    const update: Document = { $pull: { [OUTBOX_FIELD]: { id: { $in: [...published] } } } };
    if (releasesClaim(ack.pending, published)) {
      update.$unset = { [OUTBOX_LEASE_FIELD]: '', [OUTBOX_CLAIM_FIELD]: '' };
      released.push(recordId(ack.pending));
    }
    return { updateOne: { filter: { _id: recordId(ack.pending) } as Document, update } };
  });
  // A record keeps its outbox while any claim on it is unfinished (a partial acknowledgement leaves events).
  if (released.length > 0) operations.push({ updateMany: emptiedOutboxes(released) });
  await context.run(() => context.db.collection(name).bulkWrite(operations, { ordered: true }));
  if (isDeletedOutboxCollection(name)) await purgeTombstones(context, name, acks);
  return released;
}

/** Deleted records' tombstones whose events were all relayed have no reason to stay. */
async function purgeTombstones(
  context: MongoContext,
  name: string,
  acks: readonly OutboxAcknowledgement[],
): Promise<void> {
  const ids = acks.map((ack) => recordId(ack.pending));
  await context.run(() =>
    context.db.collection(name).deleteMany({ _id: { $in: ids }, ...NOT_PENDING } as Document),
  );
}

/** A deleted record's tombstone whose events were all relayed has no reason to stay. */
async function purgeIfTombstone(context: MongoContext, name: string, key: Document): Promise<void> {
  if (!isDeletedOutboxCollection(name)) return;
  await context.run(() => context.db.collection(name).deleteOne({ ...key, ...NOT_PENDING } as Document));
}

/**
 * Leases up to `wanted` of the oldest claimable records of one collection. `found`: how many claimable
 * records the last attempt saw (less than `wanted`: the collection has no more for now).
 */
export async function claimBatch(
  context: MongoContext,
  name: string,
  wanted: number,
  leaseMs: number,
): Promise<{ records: PendingOutbox[]; found: number }> {
  const collection = context.db.collection(name);
  for (let attempt = 0; ; attempt++) {
    const now = Date.now();
    const candidates = await context.run(() =>
      collection
        .find(claimable(now), { projection: CLAIMED_FIELDS, sort: OLDEST_FIRST, limit: wanted })
        .toArray(),
    );
    if (candidates.length === 0) return { records: [], found: 0 };
    const ids = candidates.map((doc) => doc._id);
    const { leased, claimId } = await leaseByIds(context, name, ids, claimable(now), now, leaseMs);
    if (leased === 0) {
      if (attempt < LOST_RACE_RETRIES) continue;
      return { records: [], found: candidates.length };
    }
    // Leased them all (the common case): the records as read are the claim. Events pushed between the read and
    // the lease wait for the next claim (acknowledging the read ones keeps them, see acknowledge). Otherwise
    // another relay took some: read back the ones carrying this claim id.
    const docs = leased === candidates.length ? candidates : await readClaimed(context, name, ids, claimId);
    return { records: await claimedRecords(context, name, docs), found: candidates.length };
  }
}

/** Leased records as read: their events; one left with none is cleaned up instead. */
export async function claimedRecords(
  context: MongoContext,
  name: string,
  docs: readonly Document[],
): Promise<PendingOutbox[]> {
  const records: PendingOutbox[] = [];
  for (const doc of docs) {
    const messages = (doc[OUTBOX_FIELD] ?? []) as OutboxMessage[];
    if (messages.length === 0) {
      // An acknowledgement cut off between its two statements: finish the cleanup.
      await clearIfEmpty(context, name, String(doc._id));
      await purgeIfTombstone(context, name, { _id: doc._id, tenantId: doc.tenantId } as Document);
      continue;
    }
    records.push({
      collection: name,
      tenantId: trustedTenantId(String(doc.tenantId)),
      id: String(doc.id),
      messages,
    });
  }
  return records;
}

/** No events left → no longer pending (an event pushed meanwhile wins): a claim's cleanup after a crash. */
async function clearIfEmpty(context: MongoContext, name: string, id: string): Promise<void> {
  const { filter, update } = emptiedOutboxes([id]);
  await context.run(() => context.db.collection(name).updateMany(filter, update));
}

/** A record's MongoDB `_id` (its tenant is part of it). */
export function recordId(pending: PendingOutbox): string {
  return tenantKey(pending.tenantId, pending.id);
}

/** Of these records, those whose outbox is empty stop being pending. */
function emptiedOutboxes(ids: readonly string[]): { filter: Document; update: Document } {
  return {
    filter: { _id: { $in: [...ids] }, [OUTBOX_FIELD]: { $size: 0 } },
    update: { $unset: ALL_OUTBOX_FIELDS },
  };
}

/** Records of `name` with pending events. */
export async function countPendingIn(context: MongoContext, name: string): Promise<number> {
  return await context.run(() => context.db.collection(name).countDocuments(PENDING));
}
