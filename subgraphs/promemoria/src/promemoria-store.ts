import {
  DuplicateKeyError,
  type DocumentStore,
  type TenantCollection,
  type TenantStore,
} from '@coperto/store';
import type { BookingFacts } from './booking-facts.js';
import type { ReminderRule } from './plan.js';

export const BOOKINGS_COLLECTION = 'promemoria_prenotazioni';
export const SETTINGS_COLLECTION = 'promemoria_impostazioni';
/** One record per email a reminder began to send (id = the reminder's effect id): an email goes out at most once. */
export const SENDS_COLLECTION = 'promemoria_invii';
/** The scheduler's jobs (its own partition, not a tenant's); their done marks carry the reminders.due events. */
export const JOBS_COLLECTION = 'promemoria_jobs';

/** A booking as promemoria keeps it: the facts of its latest event, and since when it has its start. */
export interface BookingRecord extends BookingFacts {
  /** The `updatedAt` of the event that gave the booking its current start (reminders due before it are not planned). */
  startSetAt: string;
}

export interface SettingsRecord {
  id: 'impostazioni';
  regole: ReminderRule[];
  updatedAt: string;
}

export interface SendRecord {
  id: string;
  startedAt: string;
}

const SETTINGS_ID = 'impostazioni';
const RACE_RETRIES = 5;

export async function ensurePromemoriaIndexes(store: DocumentStore): Promise<void> {
  await store.ensureIndexes(BOOKINGS_COLLECTION, [{ name: 'start', fields: { startsAt: 1 } }]);
}

/** One tenant's bookings (as promemoria saw them) and reminder settings: reads and writes only. */
export class PromemoriaStore {
  private readonly bookings: TenantCollection<BookingRecord>;
  private readonly settings: TenantCollection<SettingsRecord>;
  private readonly sends: TenantCollection<SendRecord>;

  constructor(tenantStore: TenantStore) {
    this.bookings = tenantStore.collection<BookingRecord>(BOOKINGS_COLLECTION);
    this.settings = tenantStore.collection<SettingsRecord>(SETTINGS_COLLECTION);
    this.sends = tenantStore.collection<SendRecord>(SENDS_COLLECTION);
  }

  /**
   * Claims the one send of a reminder's email (a unique insert keyed by its effect id): true for the first
   * attempt, false when an earlier one already began it. That attempt's process may have died after the SMTP
   * server took the message and before the job's done mark: sending again could reach the guest twice.
   */
  async claimSend(effectId: string, at: Date): Promise<boolean> {
    try {
      await this.sends.insertOne({ id: effectId, startedAt: at.toISOString() });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Gives a claimed send back after the SMTP server refused it (nothing went out): the job's retry sends it. */
  async releaseSend(effectId: string): Promise<void> {
    await this.sends.deleteOne({ id: effectId });
  }

  booking(id: string): Promise<BookingRecord | null> {
    return this.bookings.findById(id);
  }

  /** Active-or-not bookings starting after `after`, earliest first (at most `limit`). */
  bookingsAfter(after: string, limit: number): Promise<BookingRecord[]> {
    return this.bookings.find({ startsAt: { $gt: after } }, { sort: { startsAt: 1 }, limit });
  }

  /**
   * Keeps the facts of an event unless the stored ones are newer (events of one booking may be handled twice or,
   * across instances, out of order). Returns the record kept, or null when the event was older.
   */
  async saveBooking(facts: BookingFacts): Promise<BookingRecord | null> {
    for (let attempt = 0; ; attempt++) {
      const existing = await this.bookings.findById(facts.id);
      if (existing && existing.updatedAt > facts.updatedAt) return null;
      const startSetAt =
        existing && existing.startsAt === facts.startsAt ? existing.startSetAt : facts.updatedAt;
      const record: BookingRecord = { ...facts, startSetAt };
      try {
        if (!existing) return await this.bookings.insertOne(record);
        const { id: _id, ...fields } = record;
        const updated = await this.bookings.findOneAndUpdate(
          { id: facts.id, updatedAt: existing.updatedAt },
          { $set: fields },
        );
        if (updated) return updated;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      if (attempt >= RACE_RETRIES) throw new Error(`booking ${facts.id}: lost ${RACE_RETRIES} races`);
    }
  }

  readSettings(): Promise<SettingsRecord | null> {
    return this.settings.findById(SETTINGS_ID);
  }

  async writeSettings(regole: ReminderRule[], updatedAt: string): Promise<SettingsRecord> {
    return (await this.settings.findOneAndUpdate(
      { id: SETTINGS_ID },
      { $set: { regole, updatedAt } },
      { upsert: true },
    ))!;
  }
}
