import type {
  DocumentStore,
  Filter,
  IndexSpec,
  OutboxMessage,
  TenantCollection,
  TenantStore,
  Update,
} from '@coperto/store';
import type { TavoliFilter } from '../generated/resolvers-types.js';
import type { TavoloRecord } from './tavolo-record.js';

/** What a non-lock write may change: any field but the identity, the lock and the version. */
export type TavoloChanges = Partial<Omit<TavoloRecord, 'id' | 'lock' | 'version' | 'createdAt'>>;

export const TAVOLI_COLLECTION = 'tavoli';

export const tavoliIndexes: readonly IndexSpec[] = [
  { name: 'tavoli_sala', fields: { salaId: 1 } },
  { name: 'tavoli_attivo_capacita', fields: { attivo: 1, capacita: 1 } },
];

export function ensureTavoliIndexes(store: DocumentStore): Promise<void> {
  return store.ensureIndexes(TAVOLI_COLLECTION, tavoliIndexes);
}

/** The store filter for a list query (pure). */
export function tavoliFilter(query: TavoliFilter): Filter {
  const filter: Filter = {};
  if (query.attivo != null) filter.attivo = query.attivo;
  if (query.capacitaMin != null) filter.capacita = { $gte: query.capacitaMin };
  if (query.posizione != null) filter.posizione = query.posizione;
  if (query.salaId != null) filter.salaId = query.salaId;
  return filter;
}

/** Storage of one tenant's tables: nothing but reads and writes. */
export class TavoloStore {
  private readonly tavoli: TenantCollection<TavoloRecord>;

  constructor(tenantStore: TenantStore) {
    this.tavoli = tenantStore.collection<TavoloRecord>(TAVOLI_COLLECTION);
  }

  list(query: TavoliFilter): Promise<TavoloRecord[]> {
    return this.tavoli.find(tavoliFilter(query), { sort: { nome: 1, id: 1 } });
  }

  /** Tables of several rooms in one query. */
  listInRooms(salaIds: readonly string[]): Promise<TavoloRecord[]> {
    return this.tavoli.find({ salaId: { $in: [...salaIds] } }, { sort: { nome: 1, id: 1 } });
  }

  findById(id: string): Promise<TavoloRecord | null> {
    return this.tavoli.findById(id);
  }

  findByIds(ids: readonly string[]): Promise<TavoloRecord[]> {
    return this.tavoli.findByIds(ids);
  }

  insert(record: TavoloRecord): Promise<TavoloRecord> {
    return this.tavoli.insertOne(record);
  }

  /**
   * Sets `changes` (and nothing else: never the lock, which only lock operations write) if the record is still
   * at `expectedVersion` and matches `condition` (e.g. the lock rule), bumping the version, with its events in
   * the same atomic update. Null when the condition failed or the record changed.
   */
  update(
    id: string,
    expectedVersion: number,
    changes: TavoloChanges,
    options: { condition?: Filter; events?: readonly OutboxMessage[] } = {},
  ): Promise<TavoloRecord | null> {
    return this.tavoli.findOneAndUpdate(
      { id, version: expectedVersion, ...options.condition },
      { $set: { ...withoutLock(changes), version: expectedVersion + 1 } },
      options.events ? { events: options.events } : {},
    );
  }

  /** Conditional update without a version check (locks: the condition itself decides the race). */
  updateWhere(id: string, condition: Filter, update: Update): Promise<TavoloRecord | null> {
    return this.tavoli.findOneAndUpdate({ id, ...condition }, update);
  }

  delete(id: string): Promise<boolean> {
    return this.tavoli.deleteOne({ id });
  }
}

/** The changes as stored: a `lock` that slipped in (a whole record spread into the changes) is dropped. */
function withoutLock(changes: TavoloChanges): Record<string, unknown> {
  const { lock: _lock, id: _id, version: _version, ...fields } = changes as Partial<TavoloRecord>;
  return fields;
}
