import {
  DuplicateKeyError,
  type DocumentStore,
  type TenantCollection,
  type TenantStore,
} from '@coperto/store';
import type { GaranziaRecord } from './garanzia-record.js';
import { POLICY_ID, type PoliticaRecord } from './policy.js';

export const GARANZIE_COLLECTION = 'garanzie';
export const POLITICA_COLLECTION = 'garanzie_politica';
export const EVENTI_COLLECTION = 'garanzie_eventi';

/** Every Stripe event the service was handed, by event id: what it did with it (kept for staff and support). */
export interface EventoRecord {
  id: string;
  type: string;
  prenotazioneId: string | null;
  intentId: string | null;
  esito: string;
  receivedAt: string;
}

export async function ensureGaranzieIndexes(store: DocumentStore): Promise<void> {
  await store.ensureIndexes(GARANZIE_COLLECTION, [
    { name: 'garanzie_stato', fields: { stato: 1, createdAt: 1 } },
  ]);
}

/** Storage of one tenant's policy, guarantees and received Stripe events: nothing but reads and writes. */
export class GaranzieStore {
  private readonly garanzie: TenantCollection<GaranziaRecord>;
  private readonly politica: TenantCollection<PoliticaRecord>;
  private readonly eventi: TenantCollection<EventoRecord>;

  constructor(tenantStore: TenantStore) {
    this.garanzie = tenantStore.collection<GaranziaRecord>(GARANZIE_COLLECTION);
    this.politica = tenantStore.collection<PoliticaRecord>(POLITICA_COLLECTION);
    this.eventi = tenantStore.collection<EventoRecord>(EVENTI_COLLECTION);
  }

  policy(): Promise<PoliticaRecord | null> {
    return this.politica.findById(POLICY_ID);
  }

  /** Compare-and-set on `version` (0 = not stored yet: inserted); null when another writer came first. */
  async savePolicy(expectedVersion: number, next: PoliticaRecord): Promise<PoliticaRecord | null> {
    if (expectedVersion === 0) return insertOrNull(this.politica, next);
    const { id, ...fields } = next;
    return this.politica.findOneAndUpdate({ id, version: expectedVersion }, { $set: fields });
  }

  guarantee(bookingId: string): Promise<GaranziaRecord | null> {
    return this.garanzie.findById(bookingId);
  }

  guarantees(bookingIds: readonly string[]): Promise<GaranziaRecord[]> {
    return this.garanzie.findByIds(bookingIds);
  }

  /** Null when the booking already has one (another instance made it first). */
  insertGuarantee(record: GaranziaRecord): Promise<GaranziaRecord | null> {
    return insertOrNull(this.garanzie, record);
  }

  /** Compare-and-set on `version`; null when the guarantee changed meanwhile. */
  updateGuarantee(current: GaranziaRecord, changes: Partial<GaranziaRecord>, now: string) {
    const { id: _id, ...fields } = changes;
    return this.garanzie.findOneAndUpdate(
      { id: current.id, version: current.version },
      { $set: { ...fields, version: current.version + 1, updatedAt: now } },
    );
  }

  stuck(): Promise<GaranziaRecord[]> {
    return this.garanzie.find({ stato: 'stuck' }, { sort: { createdAt: 1 }, limit: 500 });
  }

  /** Records a received event once (a repeated delivery keeps the first record). */
  async recordEvent(event: EventoRecord): Promise<void> {
    await insertOrNull(this.eventi, event);
  }
}

async function insertOrNull<T extends { id: string }>(
  collection: TenantCollection<T>,
  doc: T,
): Promise<T | null> {
  try {
    return await collection.insertOne(doc);
  } catch (error) {
    if (error instanceof DuplicateKeyError) return null;
    throw error;
  }
}
