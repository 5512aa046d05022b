import type { OutboxMessage, TenantCollection, TenantStore } from '@coperto/store';
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

  /** With the events of the change in the record's outbox. Throws DuplicateKeyError when another writer stored the record first. */
  insert(record: SlotConfigRecord, events: readonly OutboxMessage[]): Promise<SlotConfigRecord> {
    return this.configs.insertOne(record, { events });
  }

  /** Compare-and-set on `version` (with the change's events): null when the record changed meanwhile. */
  replace(
    expectedVersion: number,
    record: SlotConfigRecord,
    events: readonly OutboxMessage[],
  ): Promise<SlotConfigRecord | null> {
    const { id, ...fields } = record;
    return this.configs.findOneAndUpdate({ id, version: expectedVersion }, { $set: fields }, { events });
  }
}
