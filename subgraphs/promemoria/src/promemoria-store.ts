import {
  DuplicateKeyError,
  type DocumentStore,
  type TenantCollection,
  type TenantStore,
} from '@coperto/store';
import type { ReminderRule } from '@coperto/domain';
import type { BookingFacts } from './booking-facts.js';

export const BOOKINGS_COLLECTION = 'promemoria_prenotazioni';
/** The tenant's reminder rules as capacity's config last said them (its capacity.config.updated events). */
export const RULES_COLLECTION = 'promemoria_regole';
/** One record per email a reminder began to send (id = the reminder's effect id): an email goes out at most once. */
export const SENDS_COLLECTION = 'promemoria_invii';
/** The scheduler's jobs (its own partition, not a tenant's); their done marks carry the reminders.due events. */
export const JOBS_COLLECTION = 'promemoria_jobs';

/** A booking as promemoria keeps it: the facts of its latest event, and since when it has its start. */
export interface BookingRecord extends BookingFacts {
  /** The `updatedAt` of the event that gave the booking its current start (reminders due before it are not planned). */
  startSetAt: string;
}

/** capacity's reminder rules, kept from its events: the one record of a tenant (id `capacity`). */
export interface RulesRecord {
  id: typeof RULES_ID;
  regole: ReminderRule[];
  /** When the rules last changed in capacity (reminders due before it are not planned); null: never. */
  since: string | null;
  /** The `updatedAt` of the capacity config the rules came with: a newer config's rules replace older ones. */
  configUpdatedAt: string;
  /** Whether the bookings still to come were planned again under these rules (false until that finished). */
  replanned: boolean;
}

export interface SendRecord {
  id: string;
  startedAt: string;
}

const RULES_ID = 'capacity';
const RACE_RETRIES = 5;

export async function ensurePromemoriaIndexes(store: DocumentStore): Promise<void> {
  await store.ensureIndexes(BOOKINGS_COLLECTION, [{ name: 'start', fields: { startsAt: 1 } }]);
}

/** One tenant's bookings and reminder rules (as promemoria saw them in events): reads and writes only. */
export class PromemoriaStore {
  private readonly bookings: TenantCollection<BookingRecord>;
  private readonly rules: TenantCollection<RulesRecord>;
  private readonly sends: TenantCollection<SendRecord>;

  constructor(tenantStore: TenantStore) {
    this.bookings = tenantStore.collection<BookingRecord>(BOOKINGS_COLLECTION);
    this.rules = tenantStore.collection<RulesRecord>(RULES_COLLECTION);
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

  /** Whether an attempt already claimed the reminder's email (it went out, or began to at its commit point). */
  async sendClaimed(effectId: string): Promise<boolean> {
    return (await this.sends.findById(effectId)) !== null;
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

  readRules(): Promise<RulesRecord | null> {
    return this.rules.findById(RULES_ID);
  }

  /**
   * Stores the rules of a capacity config in place of `expected` (compare-and-set on the config they came with;
   * null: none stored yet). Returns false when another handler stored rules meanwhile (the caller reads again).
   */
  async replaceRules(expected: RulesRecord | null, rules: Omit<RulesRecord, 'id'>): Promise<boolean> {
    try {
      if (!expected) return (await this.rules.insertOne({ id: RULES_ID, ...rules })) !== null;
      const filter = {
        id: RULES_ID,
        configUpdatedAt: expected.configUpdatedAt,
        replanned: expected.replanned,
      };
      return (await this.rules.findOneAndUpdate(filter, { $set: rules })) !== null;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Marks the rules of this config as planned into the bookings still to come (unless newer ones came). */
  async markReplanned(configUpdatedAt: string): Promise<void> {
    await this.rules.findOneAndUpdate({ id: RULES_ID, configUpdatedAt }, { $set: { replanned: true } });
  }
}
