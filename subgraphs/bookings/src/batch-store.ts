import type { TenantCollection, TenantStore } from '@coperto/store';
import type { BatchUploadRecord } from './batch-record.js';

export const BOOKINGS_COLLECTION = 'bookings';

/** Storage of one tenant's batch uploads: nothing but reads and writes. */
export class BatchStore {
  private readonly batches: TenantCollection<BatchUploadRecord>;

  constructor(tenantStore: TenantStore) {
    this.batches = tenantStore.collection<BatchUploadRecord>(BOOKINGS_COLLECTION);
  }

  findById(id: string): Promise<BatchUploadRecord | null> {
    return this.batches.findById(id);
  }

  insert(record: BatchUploadRecord): Promise<BatchUploadRecord> {
    return this.batches.insertOne(record);
  }
}
