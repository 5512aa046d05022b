import type { DocumentStore, IndexSpec, TenantCollection, TenantStore } from '@coperto/store';
import type { CategoryRecord } from './category-record.js';

export const CATEGORIES_COLLECTION = 'production_categories';

export const categoriesIndexes: readonly IndexSpec[] = [
  { name: 'production_categories_name_unique', fields: { nameKey: 1 }, unique: true },
];

export function ensureCategoriesIndexes(store: DocumentStore): Promise<void> {
  return store.ensureIndexes(CATEGORIES_COLLECTION, categoriesIndexes);
}

/** Storage of one tenant's production categories: nothing but reads and writes. */
export class CategoryStore {
  private readonly categories: TenantCollection<CategoryRecord>;

  constructor(tenantStore: TenantStore) {
    this.categories = tenantStore.collection<CategoryRecord>(CATEGORIES_COLLECTION);
  }

  list(): Promise<CategoryRecord[]> {
    return this.categories.find({}, { sort: { nameKey: 1, id: 1 } });
  }

  findById(id: string): Promise<CategoryRecord | null> {
    return this.categories.findById(id);
  }

  findByIds(ids: readonly string[]): Promise<CategoryRecord[]> {
    return this.categories.findByIds(ids);
  }

  /** Throws DuplicateKeyError when the name is taken. */
  insert(record: CategoryRecord): Promise<CategoryRecord> {
    return this.categories.insertOne(record);
  }

  /** Compare-and-set on `version`: null when the record changed (or vanished) meanwhile. */
  replace(expectedVersion: number, record: CategoryRecord): Promise<CategoryRecord | null> {
    const { id, ...fields } = record;
    return this.categories.findOneAndUpdate({ id, version: expectedVersion }, { $set: fields });
  }

  delete(id: string): Promise<boolean> {
    return this.categories.deleteOne({ id });
  }
}
