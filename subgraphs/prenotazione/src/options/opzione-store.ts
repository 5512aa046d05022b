import type { DocumentStore, IndexSpec, TenantCollection, TenantStore } from '@coperto/store';
import type { OpzioneRecord } from './opzione-record.js';

export const OPZIONI_COLLECTION = 'opzioni';

const opzioniIndexes: readonly IndexSpec[] = [{ name: 'opzioni_expires', fields: { expiresAt: 1 } }];

export function ensureOpzioniIndexes(store: DocumentStore): Promise<void> {
  return store.ensureIndexes(OPZIONI_COLLECTION, opzioniIndexes);
}

/** At most this many live options are listed. */
export const OPZIONI_LIST_LIMIT = 1000;

/** Storage of one tenant's options: nothing but reads and writes. */
export class OpzioneStore {
  private readonly opzioni: TenantCollection<OpzioneRecord>;

  constructor(tenantStore: TenantStore) {
    this.opzioni = tenantStore.collection<OpzioneRecord>(OPZIONI_COLLECTION);
  }

  insert(record: OpzioneRecord): Promise<OpzioneRecord> {
    return this.opzioni.insertOne(record);
  }

  findById(id: string): Promise<OpzioneRecord | null> {
    return this.opzioni.findById(id);
  }

  findByIds(ids: readonly string[]): Promise<OpzioneRecord[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.opzioni.findByIds(ids);
  }

  /** Options neither used nor released that expire after `now`, soonest first. */
  live(now: string): Promise<OpzioneRecord[]> {
    return this.opzioni.find(
      { usedAt: null, releasedAt: null, expiresAt: { $gt: now } },
      { sort: { expiresAt: 1, id: 1 }, limit: OPZIONI_LIST_LIMIT },
    );
  }

  /**
   * Compare-and-set: marks the option used (or released) only while it is live at `now`; null when it was
   * already used, released or expired (so an option converts into at most one booking).
   */
  close(id: string, now: string, field: 'usedAt' | 'releasedAt'): Promise<OpzioneRecord | null> {
    return this.opzioni.findOneAndUpdate(
      { id, usedAt: null, releasedAt: null, expiresAt: { $gt: now } },
      { $set: { [field]: now } },
    );
  }

  /** Undoes a `close(…, 'usedAt')` whose booking could not be written (the option holds again if unexpired). */
  reopen(id: string, usedAt: string): Promise<OpzioneRecord | null> {
    return this.opzioni.findOneAndUpdate({ id, usedAt }, { $set: { usedAt: null } });
  }
}
