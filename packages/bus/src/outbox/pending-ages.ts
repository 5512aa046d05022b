import type { OutboxMessage } from '@coperto/store';

interface Entry {
  /** Epoch ms of the record's oldest unpublished event. */
  oldest: number;
  /** When the relay's claim of the record runs out. */
  leaseUntil: number;
}

/** When an outbox message's event was written: its CloudEvents `time`, else `fallback`. */
export function eventTime(message: OutboxMessage, fallback: number): number {
  const time = (message.body as { time?: unknown } | null)?.time;
  const parsed = typeof time === 'string' ? Date.parse(time) : Number.NaN;
  return Number.isNaN(parsed) ? fallback : parsed;
}

/**
 * The write times of the events a relay has claimed and not yet seen acknowledged, per record: the outbox
 * age gauge (`outbox_oldest_event_age_seconds`). The store is only read through claims, so a record counts
 * from its first claim by this relay until its events are acknowledged; a record whose claim ran out more
 * than a lease ago (another relay's now, or claimed again, which renews it) no longer counts.
 */
export class PendingAges {
  private readonly records = new Map<string, Entry>();

  constructor(private readonly leaseMs: number) {}

  /** A record claimed (or still held) with these events left to publish; none left forgets it. */
  track(key: string, messages: readonly OutboxMessage[], leaseUntil: number, now: number): void {
    if (messages.length === 0) {
      this.records.delete(key);
      return;
    }
    const oldest = Math.min(...messages.map((m) => eventTime(m, now)));
    this.records.set(key, { oldest, leaseUntil });
  }

  /** Age in seconds of the oldest event still pending (0 when none). */
  oldestAgeSeconds(now: number): number {
    let oldest = now;
    for (const [key, entry] of this.records) {
      if (now > entry.leaseUntil + this.leaseMs) this.records.delete(key);
      else oldest = Math.min(oldest, entry.oldest);
    }
    return Math.max(0, now - oldest) / 1000;
  }

  clear(): void {
    this.records.clear();
  }
}
