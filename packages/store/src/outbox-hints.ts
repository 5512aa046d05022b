import { randomUUID } from 'node:crypto';
import type { TenantId } from '@coperto/auth';
import type { OutboxMessage } from './types.js';

/** A record this process inserted with events, leased by the insert for this process's relay. */
export interface HintedRecord {
  collection: string;
  tenantId: TenantId;
  id: string;
  /** The record's outbox: the insert's events, and those of updates made before the relay took the hint. */
  messages: OutboxMessage[];
  /** Epoch ms the insert's lease runs to. */
  leasedUntil: number;
}

/** Records inserted since the last claim that wait for it, at most; past that, inserts are read back as before. */
const MAX_HINTS = 10_000;

/**
 * What this process's inserts hand its own outbox relay (MongoDB), so that the claim after a write takes them
 * without a store command. A claim is otherwise a find and a lease: two round trips, which a MongoDB-protocol server
 * without a usable index for them (mongo-java-server) pays with two collection scans.
 *
 * A new record cannot be held by any other relay, so its insert stamps the lease (and a claim id) for this
 * process's relay, and its events are exactly the insert's: the relay publishes them from the hint. If the process
 * dies before, the lease runs out and any relay's poll claims the record, as after a crash between a claim and its
 * acknowledgement. An update of a record whose hint still waits (nothing of it published yet, and the lease is this
 * relay's) replaces the hint's events with the outbox the update returned; any other update is read back by the
 * claim as before.
 *
 * Off until a relay of this process claims (`serve`: the collections it serves, its lease), so a process without
 * a relay never leases what it writes.
 */
export class OutboxHints {
  private leaseMs: number | null = null;
  private readonly served = new Set<string>();
  /** Waiting hints by record, in insertion order (a Map keeps it). */
  private waiting = new Map<string, HintedRecord>();

  constructor(private readonly maxHints = MAX_HINTS) {}

  /** This process's relay claims `collections` with leases of `leaseMs`: inserts into them are hinted from now on. */
  serve(collections: readonly string[], leaseMs: number): void {
    for (const name of collections) this.served.add(name);
    this.leaseMs = leaseMs;
  }

  /** The lease a new record of `collection` with events is inserted with; null when it is not to be hinted. */
  writeLease(collection: string, now: number): { until: number; claimId: string } | null {
    if (this.leaseMs === null || !this.served.has(collection) || this.waiting.size >= this.maxHints)
      return null;
    return { until: now + this.leaseMs, claimId: randomUUID() };
  }

  /** After the insert succeeded. */
  offer(record: HintedRecord): void {
    this.waiting.set(keyOf(record.collection, record.tenantId, record.id), record);
  }

  /** Whether the record's hint still waits (an update of it should return its outbox for `refresh`). */
  isWaiting(collection: string, tenantId: string, id: string): boolean {
    return this.waiting.has(keyOf(collection, tenantId, id));
  }

  /**
   * After an update of a record with events: when its hint still waits, the hint takes the record's whole outbox as
   * the update returned it and true is returned; false when there is no such hint (the claim reads the record).
   */
  refresh(collection: string, tenantId: string, id: string, outbox: readonly OutboxMessage[]): boolean {
    const hint = this.waiting.get(keyOf(collection, tenantId, id));
    if (!hint) return false;
    hint.messages = [...outbox];
    return true;
  }

  /** Takes up to `limit` waiting hints of `collections`, oldest first; the others wait for the next claim. */
  take(collections: readonly string[], limit: number): HintedRecord[] {
    if (this.waiting.size === 0) return [];
    const wanted = new Set(collections);
    const taken: HintedRecord[] = [];
    for (const [key, hint] of this.waiting) {
      if (taken.length >= limit) break;
      if (!wanted.has(hint.collection)) continue;
      taken.push(hint);
      this.waiting.delete(key);
    }
    return taken;
  }
}

function keyOf(collection: string, tenantId: string, id: string): string {
  return JSON.stringify([collection, tenantId, id]);
}
