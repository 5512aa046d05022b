import { randomUUID } from 'node:crypto';
import type { TenantId } from '@coperto/auth';
import type { OutboxMessage } from '../types.js';

/**
 * A record this process wrote events to, handed to its own relay: leased by its insert, or (an update of a record
 * no relay held) to be leased by the claim by `_id`.
 */
export interface HintedRecord {
  collection: string;
  tenantId: TenantId;
  id: string;
  /** The record's outbox as the write left it, and as updates made before the relay took the hint left it. */
  messages: OutboxMessage[];
  /** Epoch ms the insert's lease runs to; null for an update's hint, which the claim leases. */
  leasedUntil: number | null;
  /** The claim id the insert's lease was stamped with (it renews a lease mostly spent); null for an update's hint. */
  claimId: string | null;
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
 * relay's) replaces the hint's events with the outbox the update returned. An update of a record that no relay
 * held when it was written hands over the outbox it returned too, unleased: the claim leases such records by `_id`
 * in one command (no find), and reads back the ones another relay leased first. An update of a record a relay
 * holds is read by a claim after that relay's acknowledgement, as before.
 *
 * Off until a relay of this process claims (`serve`: the collections it serves, its lease), so a process without
 * a relay never leases what it writes.
 */
export class OutboxHints {
  private leaseMs: number | null = null;
  private readonly served = new Set<string>();
  /** Waiting hints by record, in insertion order (a Map keeps it). */
  private waiting = new Map<string, HintedRecord>();
  /** Who takes a write's events when they are all its record has pending (`announce`), by collection. */
  private readonly announcers = new Map<string, (messages: readonly OutboxMessage[]) => void>();

  constructor(private readonly maxHints = MAX_HINTS) {}

  /** This process's relay claims `collections` with leases of `leaseMs`: inserts into them are hinted from now on. */
  serve(collections: readonly string[], leaseMs: number): void {
    for (const name of collections) this.served.add(name);
    this.leaseMs = leaseMs;
  }

  /** Whether a write with events to `collection` is to be hinted (this process's relay serves it; room left). */
  accepts(collection: string): boolean {
    return this.leaseMs !== null && this.served.has(collection) && this.waiting.size < this.maxHints;
  }

  /** The lease a new record of `collection` with events is inserted with; null when it is not to be hinted. */
  writeLease(collection: string, now: number): { until: number; claimId: string } | null {
    if (this.leaseMs === null || !this.accepts(collection)) return null;
    return { until: now + this.leaseMs, claimId: randomUUID() };
  }

  /**
   * After the write succeeded. A hint already waiting for the record (two updates answered out of order) keeps the
   * longer outbox: the record's outbox only grew between them, unless another relay relayed some of it meanwhile,
   * and then an event the kept one lacks waits for a claim that reads the collection.
   */
  offer(record: HintedRecord): void {
    const key = keyOf(record.collection, record.tenantId, record.id);
    const waiting = this.waiting.get(key);
    if (waiting && waiting.messages.length >= record.messages.length) return;
    this.waiting.set(key, waiting ? { ...waiting, messages: record.messages } : record);
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
    // Two updates answered out of order: the longer outbox is the later (nothing of it is published yet).
    if (outbox.length > hint.messages.length) hint.messages = [...outbox];
    return true;
  }

  /**
   * `listener` is told of the events of each write to `collections` whose record has nothing else pending (every
   * earlier event of it is acknowledged by the bus): they may leave ahead of the relay without overtaking one.
   */
  onAnnounce(collections: readonly string[], listener: (messages: readonly OutboxMessage[]) => void): void {
    for (const name of collections) this.announcers.set(name, listener);
  }

  /**
   * After a write with events to `collection`: `outbox` is the record's outbox as the write left it. When it holds
   * only the write's `events`, the collection's announcer (if any) gets them; otherwise nothing happens.
   */
  announce(collection: string, events: readonly OutboxMessage[], outbox: readonly OutboxMessage[]): void {
    const listener = this.announcers.get(collection);
    if (!listener || !holdsOnly(outbox, events)) return;
    try {
      listener(events);
    } catch {
      // Announcing is an early copy: the relay publishes the events anyway.
    }
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

/** Whether `outbox` is exactly `events` (ids, in order): the write left nothing older pending. */
function holdsOnly(outbox: readonly OutboxMessage[], events: readonly OutboxMessage[]): boolean {
  return (
    events.length > 0 && outbox.length === events.length && outbox.every((m, i) => m.id === events[i]!.id)
  );
}

function keyOf(collection: string, tenantId: string, id: string): string {
  return JSON.stringify([collection, tenantId, id]);
}
