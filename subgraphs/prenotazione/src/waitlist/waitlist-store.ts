import type { DocumentStore, IndexSpec, OutboxMessage, TenantCollection, TenantStore } from '@coperto/store';
import { NotFoundError } from '@coperto/errors';
import { ACTIVE_WAITLIST_STATES, type WaitlistRecord } from './waitlist-record.js';

export const WAITLIST_COLLECTION = 'lista_attesa';

export const waitlistIndexes: readonly IndexSpec[] = [
  { name: 'lista_attesa_day', fields: { localDate: 1, state: 1, createdAt: 1 } },
];

export function ensureWaitlistIndexes(store: DocumentStore): Promise<void> {
  return store.ensureIndexes(WAITLIST_COLLECTION, waitlistIndexes);
}

/** At most this many parties are read for one day's queue. */
export const WAITLIST_DAY_LIMIT = 1000;

/** Storage of one tenant's waitlist: nothing but reads and writes. */
export class WaitlistStore {
  private readonly entries: TenantCollection<WaitlistRecord>;

  constructor(tenantStore: TenantStore) {
    this.entries = tenantStore.collection<WaitlistRecord>(WAITLIST_COLLECTION);
  }

  findById(id: string): Promise<WaitlistRecord | null> {
    return this.entries.findById(id);
  }

  /** The waiting and notified parties of a local day, oldest first. */
  activeOn(localDate: string): Promise<WaitlistRecord[]> {
    return this.entries.find(
      { localDate, state: { $in: [...ACTIVE_WAITLIST_STATES] } },
      { sort: { createdAt: 1, id: 1 }, limit: WAITLIST_DAY_LIMIT },
    );
  }

  insert(record: WaitlistRecord, events: readonly OutboxMessage[]): Promise<WaitlistRecord> {
    return this.entries.insertOne(record, { events });
  }

  /** Compare-and-set on `version`, events in the same atomic write; null when the entry changed meanwhile. */
  replace(
    expectedVersion: number,
    next: WaitlistRecord,
    events: readonly OutboxMessage[] = [],
  ): Promise<WaitlistRecord | null> {
    const { id, ...fields } = next;
    return this.entries.findOneAndUpdate({ id, version: expectedVersion }, { $set: fields }, { events });
  }
}

/** The entry, or 404 NOT_FOUND naming it. */
export async function requireEntry(store: WaitlistStore, id: string): Promise<WaitlistRecord> {
  const found = await store.findById(id);
  if (!found) throw new NotFoundError('VoceAttesa', id);
  return found;
}
