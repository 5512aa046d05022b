import type { DocumentStore, IndexSpec, TenantCollection, TenantStore } from '@coperto/store';
import type { SalaRecord } from './sala-record.js';

export const SALE_COLLECTION = 'sale';
export const CODICE_INDEX = 'sale_codice_unique';

export const saleIndexes: readonly IndexSpec[] = [
  { name: CODICE_INDEX, fields: { codice: 1 }, unique: true },
];

export function ensureSaleIndexes(store: DocumentStore): Promise<void> {
  return store.ensureIndexes(SALE_COLLECTION, saleIndexes);
}

/** Storage of one tenant's rooms: nothing but reads and writes. */
export class SalaStore {
  private readonly sale: TenantCollection<SalaRecord>;

  constructor(tenantStore: TenantStore) {
    this.sale = tenantStore.collection<SalaRecord>(SALE_COLLECTION);
  }

  list(): Promise<SalaRecord[]> {
    return this.sale.find({}, { sort: { codice: 1 } });
  }

  findById(id: string): Promise<SalaRecord | null> {
    return this.sale.findById(id);
  }

  findByIds(ids: readonly string[]): Promise<SalaRecord[]> {
    return this.sale.findByIds(ids);
  }

  insert(record: SalaRecord): Promise<SalaRecord> {
    return this.sale.insertOne(record);
  }

  /** Compare-and-set on `version`: null when the record changed (or vanished) meanwhile. */
  replace(expectedVersion: number, record: SalaRecord): Promise<SalaRecord | null> {
    const { id, ...fields } = record;
    return this.sale.findOneAndUpdate({ id, version: expectedVersion }, { $set: fields });
  }

  delete(id: string): Promise<boolean> {
    return this.sale.deleteOne({ id });
  }
}
