import type { TenantCollection, TenantStore } from '@coperto/store';
import { SLOT_CONFIG_ID, type SlotConfigRecord } from './slot-config-record.js';

export const SLOT_CONFIG_COLLECTION = 'slot_config';

/** Storage of one tenant's slot settings (a single record): nothing but reads and writes. */
export class SlotConfigStore {
  private readonly configs: TenantCollection<SlotConfigRecord>;

  constructor(tenantStore: TenantStore) {
    this.configs = tenantStore.collection<SlotConfigRecord>(SLOT_CONFIG_COLLECTION);
  }

  find(): Promise<SlotConfigRecord | null> {
    return this.configs.findById(SLOT_CONFIG_ID);
  }

  /** Throws DuplicateKeyError when another writer stored the record first. */
  insert(record: SlotConfigRecord): Promise<SlotConfigRecord> {
    return this.configs.insertOne(record);
  }

  /** Compare-and-set on `version`: null when the record changed meanwhile. */
  replace(expectedVersion: number, record: SlotConfigRecord): Promise<SlotConfigRecord | null> {
    const { id, ...fields } = record;
    return this.configs.findOneAndUpdate({ id, version: expectedVersion }, { $set: fields });
  }
}
