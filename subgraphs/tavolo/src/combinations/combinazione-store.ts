import type { DocumentStore, Filter, IndexSpec, TenantCollection, TenantStore } from '@coperto/store';
import type { CombinazioneRecord } from './combinazione-record.js';

/** What a write may change: anything but the identity, the version and the creation time. */
export type CombinazioneChanges = Partial<Omit<CombinazioneRecord, 'id' | 'version' | 'createdAt'>>;

export const COMBINAZIONI_COLLECTION = 'combinazioni';

export const combinazioniIndexes: readonly IndexSpec[] = [
  { name: 'combinazioni_sala', fields: { salaId: 1 } },
];

export function ensureCombinazioniIndexes(store: DocumentStore): Promise<void> {
  return store.ensureIndexes(COMBINAZIONI_COLLECTION, combinazioniIndexes);
}

/** The store filter of a list query (pure). */
export function combinazioniFilter(query: { salaId?: string | null; attivo?: boolean | null }): Filter {
  const filter: Filter = {};
  if (query.salaId != null) filter.salaId = query.salaId;
  if (query.attivo != null) filter.attivo = query.attivo;
  return filter;
}

/** Storage of one tenant's table combinations: nothing but reads and writes. */
export class CombinazioneStore {
  private readonly combinazioni: TenantCollection<CombinazioneRecord>;

  constructor(tenantStore: TenantStore) {
    this.combinazioni = tenantStore.collection<CombinazioneRecord>(COMBINAZIONI_COLLECTION);
  }

  list(query: { salaId?: string | null; attivo?: boolean | null }): Promise<CombinazioneRecord[]> {
    return this.combinazioni.find(combinazioniFilter(query), { sort: { nome: 1, id: 1 } });
  }

  /** The combinations a table belongs to. */
  listWithTable(tableId: string): Promise<CombinazioneRecord[]> {
    return this.combinazioni.find({ tableIds: tableId });
  }

  findById(id: string): Promise<CombinazioneRecord | null> {
    return this.combinazioni.findById(id);
  }

  findByIds(ids: readonly string[]): Promise<CombinazioneRecord[]> {
    return this.combinazioni.findByIds(ids);
  }

  insert(record: CombinazioneRecord): Promise<CombinazioneRecord> {
    return this.combinazioni.insertOne(record);
  }

  /** Compare-and-set on `version` (bumped): null when the record changed meanwhile or is gone. */
  update(
    id: string,
    expectedVersion: number,
    changes: CombinazioneChanges,
  ): Promise<CombinazioneRecord | null> {
    return this.combinazioni.findOneAndUpdate(
      { id, version: expectedVersion },
      { $set: { ...changes, version: expectedVersion + 1 } },
    );
  }

  delete(id: string): Promise<boolean> {
    return this.combinazioni.deleteOne({ id });
  }
}
