import type { DocumentStore, TenantCollection, TenantStore } from '@coperto/store';
import type { CanaleRecord } from './canale-record.js';

export const CANALI_COLLECTION = 'canali';

export function ensureCanaliIndexes(store: DocumentStore): Promise<void> {
  return store.ensureIndexes(CANALI_COLLECTION, [{ name: 'canali_created', fields: { createdAt: 1 } }]);
}

/** Storage of one tenant's channels: nothing but reads and writes. */
export class CanaleStore {
  private readonly canali: TenantCollection<CanaleRecord>;

  constructor(tenantStore: TenantStore) {
    this.canali = tenantStore.collection<CanaleRecord>(CANALI_COLLECTION);
  }

  /** The channels not deleted, oldest first. */
  listActive(): Promise<CanaleRecord[]> {
    return this.canali.find({ deletedAt: null }, { sort: { createdAt: 1, id: 1 } });
  }

  /** The channel, if it exists and is not deleted. */
  findActive(id: string): Promise<CanaleRecord | null> {
    return this.canali.findOne({ id, deletedAt: null });
  }

  insert(record: CanaleRecord): Promise<CanaleRecord> {
    return this.canali.insertOne(record);
  }

  /** Marks the channel deleted; null when there is no such channel not deleted yet. */
  markDeleted(id: string, deletedAt: string): Promise<CanaleRecord | null> {
    return this.canali.findOneAndUpdate({ id, deletedAt: null }, { $set: { deletedAt } });
  }
}
