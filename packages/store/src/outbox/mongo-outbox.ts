import type { Document } from 'mongodb';
import type { MongoContext } from '../mongo-collection.js';
import { OUTBOX_CLAIM_FIELD, tenantKey } from '../stored-document.js';
import type {
  ClaimOptions,
  OutboxAcknowledgement,
  OutboxMessage,
  OutboxSource,
  PendingOutbox,
} from '../types.js';
import { assertClaim } from './claim.js';
import type { HintedRecord } from './hints.js';
import {
  acknowledgeIn,
  claimBatch,
  claimable,
  claimedRecords,
  countPendingIn,
  leaseByIds,
  readClaimed,
  recordId,
} from './mongo-outbox-commands.js';

/**
 * A lease its insert took is claimed from the hint while this share of it is left: the relay reckons a claim's
 * lease from the claim, so it overestimates this one by at most a tenth, and it retries from memory only while half
 * of it is left. A lease with less left (the insert waited for a slow or paused store) is renewed first.
 */
const FRESH_WRITE_LEASE = 0.9;
/**
 * Claimed records whose collection's write count at the claim is kept, at most; past that the oldest are forgotten,
 * and their release has the collection read again as if written meanwhile.
 */
const MAX_CLAIMS_NOTED = 10_000;

/**
 * The relay's cross-tenant view of MongoDB collections. A claim leases a batch of records in two commands,
 * whatever its size: read the oldest claimable records, then lease those still claimable in one `updateMany`
 * stamped with a fresh claim id (each document's update is atomic, so of two relays racing for a record exactly
 * one leases it). When the lease took fewer than were read (another relay was faster), a third command reads
 * back the records carrying this claim id. Records this process inserted since the last claim come first, with no
 * command at all: their inserts leased them for this relay (OutboxHints). Collections share a claim round-robin,
 * so a backlog in one does not starve the others. A claim after writes (`afterWrites`) reads only the collections this
 * process wrote events to since it last read them, and every one not read for a while (WrittenOutboxes).
 * Acknowledging a relay's round is one `update` command per collection (acknowledgeIn). The commands themselves
 * are in mongo-outbox-commands.ts; this class decides which to send when.
 */
export class MongoOutbox implements OutboxSource {
  /**
   * Per record this relay claimed and has not released (`collection \0 _id`), its collection's write count when
   * the claim began (WrittenOutboxes.writeCount): a release after more writes may leave events a claim skipped.
   */
  private readonly claimedAtWrite = new Map<string, number>();

  constructor(
    private readonly context: MongoContext,
    private readonly collections: readonly string[],
  ) {}

  onAnnounce(listener: (messages: readonly OutboxMessage[]) => void): void {
    this.context.outboxHints.onAnnounce([...new Set(this.collections)], listener);
  }

  async claimPending(limit: number, leaseMs: number, options: ClaimOptions = {}): Promise<PendingOutbox[]> {
    assertClaim(limit, leaseMs);
    const all = [...new Set(this.collections)];
    this.context.outboxHints.serve(all, leaseMs);
    const writesAtClaim = new Map(all.map((name) => [name, this.context.writtenOutboxes.writeCount(name)]));
    const claimed = await this.claimHinted(all, limit, leaseMs);
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
        const batch = await claimBatch(this.context, name, wanted, leaseMs);
        claimed.push(...batch.records);
        // A full batch may leave more behind; a short one means the collection has no more claimable now.
        if (batch.found >= wanted) stillPending.push(name);
      }
      // A pass that leased nothing (other relays took what it saw) ends the claim.
      active = claimed.length > before ? stillPending : [];
    }
    // What a full claim left behind is read again at the next one.
    for (const name of active) this.context.writtenOutboxes.reread(name);
    for (const pending of claimed) this.noteClaim(pending, writesAtClaim.get(pending.collection) ?? 0);
    return claimed;
  }

  private noteClaim(pending: PendingOutbox, writeCount: number): void {
    const key = claimKey(pending.collection, recordId(pending));
    this.claimedAtWrite.delete(key); // re-inserted last, so the oldest claims are the first forgotten
    this.claimedAtWrite.set(key, writeCount);
    if (this.claimedAtWrite.size > MAX_CLAIMS_NOTED) {
      this.claimedAtWrite.delete(this.claimedAtWrite.keys().next().value as string);
    }
  }

  /**
   * After an acknowledgement released the record `_id` of `name`: whether events may have been written to it while
   * it was leased, which a claim after writes made meanwhile skipped (the write's mark was spent on it). Then the
   * collection is read again by the next claim after writes. Known of this process's writes only: another's is
   * found by the next read of the collection that is not after writes, within `outboxQuietReadMs`.
   */
  private releasedAfterWrites(name: string, id: string): boolean {
    const key = claimKey(name, id);
    const atClaim = this.claimedAtWrite.get(key);
    this.claimedAtWrite.delete(key);
    const written = atClaim === undefined || this.context.writtenOutboxes.writeCount(name) > atClaim;
    if (written) this.context.writtenOutboxes.reread(name);
    return written;
  }

  /**
   * The records this process wrote events to since the last claim (OutboxHints). Those its inserts leased for this
   * relay are claimed as they are, without a store command, while nine tenths of their lease are left. Otherwise the
   * relay, which reckons a claim's lease from the claim, would overestimate one that began long before (the insert
   * waited for a slow or paused store): such records are leased anew from now by the claim id their insert stamped,
   * one command per collection (leaseHinted); one whose lease ran out and another relay claimed meanwhile has
   * another claim id and is left to it. Those its updates handed over unleased are leased by `_id`, one command per
   * collection (leaseHinted).
   */
  private async claimHinted(
    collections: readonly string[],
    limit: number,
    leaseMs: number,
  ): Promise<PendingOutbox[]> {
    const now = Date.now();
    const claimed: PendingOutbox[] = [];
    const unleased = new Map<string, HintedRecord[]>();
    const spent = new Map<string, HintedRecord[]>();
    for (const hint of this.context.outboxHints.take(collections, limit)) {
      if (hint.leasedUntil === null || hint.claimId === null) {
        unleased.set(hint.collection, [...(unleased.get(hint.collection) ?? []), hint]);
      } else if (hint.leasedUntil - now >= leaseMs * FRESH_WRITE_LEASE) {
        claimed.push(pendingOf(hint));
      } else {
        spent.set(hint.collection, [...(spent.get(hint.collection) ?? []), hint]);
      }
    }
    for (const [name, hints] of unleased) claimed.push(...(await this.leaseHinted(name, hints, leaseMs)));
    for (const [name, hints] of spent) {
      const ownClaims = { [OUTBOX_CLAIM_FIELD]: { $in: hints.map((hint) => hint.claimId) } };
      claimed.push(...(await this.leaseHinted(name, hints, leaseMs, ownClaims)));
    }
    return claimed;
  }

  /**
   * Leases by `_id`, in one `updateMany`, the records of `name` this process's writes handed over (`hints`), and returns
   * them with the outbox the writes returned (an event written after that waits for the next claim, as one written
   * between a claim's read and its lease). `condition` says which records may be leased: by default those no relay
   * holds (updates' hand-overs); for inserts whose leases are mostly spent, those still carrying their insert's claim
   * id (renewed from now: one whose lease ran out and that another relay claimed since has that relay's claim id, and
   * is not taken). When the lease took fewer (another relay leased some first, or relayed all of one), the records
   * carrying this claim id are read back, as claimBatch does.
   */
  private async leaseHinted(
    name: string,
    hints: readonly HintedRecord[],
    leaseMs: number,
    condition: Document = claimable(Date.now()),
  ): Promise<PendingOutbox[]> {
    const ids = hints.map((hint) => tenantKey(hint.tenantId, hint.id));
    const { leased, claimId } = await leaseByIds(this.context, name, ids, condition, Date.now(), leaseMs);
    if (leased === hints.length) return hints.map(pendingOf);
    if (leased === 0) return [];
    return await claimedRecords(this.context, name, await readClaimed(this.context, name, ids, claimId));
  }

  async acknowledge(acks: readonly OutboxAcknowledgement[]): Promise<boolean> {
    const byCollection = new Map<string, OutboxAcknowledgement[]>();
    for (const ack of acks) {
      if (ack.messageIds.length === 0) continue;
      const list = byCollection.get(ack.pending.collection) ?? [];
      list.push(ack);
      byCollection.set(ack.pending.collection, list);
    }
    let claimAgain = false;
    for (const [name, list] of byCollection) {
      const released = await acknowledgeIn(this.context, name, list);
      for (const id of released) if (this.releasedAfterWrites(name, id)) claimAgain = true;
    }
    return claimAgain;
  }
  async countPending(): Promise<number> {
    let count = 0;
    for (const name of new Set(this.collections)) count += await countPendingIn(this.context, name);
    return count;
  }
}

function pendingOf({ collection, tenantId, id, messages }: HintedRecord): PendingOutbox {
  return { collection, tenantId, id, messages };
}

function claimKey(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}
