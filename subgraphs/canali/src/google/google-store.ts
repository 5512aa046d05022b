import type { DocumentStore, TenantCollection } from '@coperto/store';
import type { TenantId } from '@coperto/auth';
import {
  GOOGLE_DIRECTORY_TENANT,
  type GoogleMerchantRecord,
  type GooglePrenotazioneRecord,
  type GoogleUserRecord,
} from './google-records.js';

export const GOOGLE_MERCHANTS_COLLECTION = 'google_merchants';
export const GOOGLE_USERS_COLLECTION = 'google_users';
export const GOOGLE_PRENOTAZIONI_COLLECTION = 'google_prenotazioni';

export async function ensureGoogleIndexes(store: DocumentStore): Promise<void> {
  await store.ensureIndexes(GOOGLE_MERCHANTS_COLLECTION, [
    { name: 'google_merchants_tenant', fields: { tenant: 1 } },
  ]);
  await store.ensureIndexes(GOOGLE_USERS_COLLECTION, [{ name: 'google_users_user', fields: { userId: 1 } }]);
  await store.ensureIndexes(GOOGLE_PRENOTAZIONI_COLLECTION, [
    { name: 'google_prenotazioni_booking', fields: { bookingId: 1 } },
    { name: 'google_prenotazioni_user', fields: { userId: 1 } },
  ]);
}

/** The directory partition: merchant links and the merchants each Google user booked with. */
export class GoogleDirectoryStore {
  readonly merchants: TenantCollection<GoogleMerchantRecord>;
  readonly users: TenantCollection<GoogleUserRecord>;

  constructor(store: DocumentStore) {
    const directory = store.forTenant(GOOGLE_DIRECTORY_TENANT);
    this.merchants = directory.collection<GoogleMerchantRecord>(GOOGLE_MERCHANTS_COLLECTION);
    this.users = directory.collection<GoogleUserRecord>(GOOGLE_USERS_COLLECTION);
  }

  merchant(merchantId: string): Promise<GoogleMerchantRecord | null> {
    return this.merchants.findById(merchantId);
  }

  /** The tenant's link (at most one: linking another merchant id removes the old one). */
  linkOf(tenant: string): Promise<GoogleMerchantRecord | null> {
    return this.merchants.findOne({ tenant });
  }

  /** Records that `userId` booked with `merchantId` (idempotent). */
  async addUser(userId: string, merchantId: string): Promise<void> {
    await this.users.findOneAndUpdate(
      { id: `${merchantId}\n${userId}` },
      { $set: { userId, merchantId } },
      { upsert: true },
    );
  }

  async merchantsOf(userId: string): Promise<string[]> {
    return (await this.users.find({ userId })).map((record) => record.merchantId);
  }
}

/** One restaurant's CreateBooking idempotency records. */
export class GooglePrenotazioniStore {
  private readonly records: TenantCollection<GooglePrenotazioneRecord>;

  constructor(store: DocumentStore, tenantId: TenantId) {
    this.records = store
      .forTenant(tenantId)
      .collection<GooglePrenotazioneRecord>(GOOGLE_PRENOTAZIONI_COLLECTION);
  }

  /** Throws DuplicateKeyError when the token was claimed before. */
  insert(record: GooglePrenotazioneRecord): Promise<GooglePrenotazioneRecord> {
    return this.records.insertOne(record);
  }

  find(token: string): Promise<GooglePrenotazioneRecord | null> {
    return this.records.findById(token);
  }

  /** Takes over a pending claim made at `claimedAt` (abandoned); null when another took it or it completed. */
  takeOver(token: string, claimedAt: string, now: string): Promise<GooglePrenotazioneRecord | null> {
    return this.records.findOneAndUpdate(
      { id: token, state: 'pending', claimedAt },
      { $set: { claimedAt: now } },
    );
  }

  complete(
    token: string,
    done: Pick<GooglePrenotazioneRecord, 'answer' | 'bookingId'>,
  ): Promise<GooglePrenotazioneRecord | null> {
    return this.records.findOneAndUpdate(
      { id: token, state: 'pending' },
      { $set: { state: 'done', ...done } },
    );
  }

  release(token: string): Promise<boolean> {
    return this.records.deleteOne({ id: token, state: 'pending' });
  }

  byBooking(bookingId: string): Promise<GooglePrenotazioneRecord | null> {
    return this.records.findOne({ bookingId });
  }

  byUser(userId: string): Promise<GooglePrenotazioneRecord[]> {
    return this.records.find({ userId, state: 'done', bookingId: { $ne: null } }, { sort: { claimedAt: 1 } });
  }
}
