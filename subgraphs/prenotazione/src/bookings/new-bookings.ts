import { DuplicateKeyError } from '@coperto/store';
import type { BookingEvent } from '../events.js';
import { bookingClaim } from '../seating/booking-owner.js';
import type { TableClaims } from '../seating/table-claims.js';
import { mayHaveBeenApplied } from '../seating/write-outcome.js';
import { generateCodice, type PrenotazioneRecord } from './prenotazione-record.js';
import { CODICE_INDEX, type PrenotazioneStore } from './prenotazione-store.js';
import type { ChannelRef, Origine } from './service-token-rights.js';

const MAX_CODICE_ATTEMPTS = 10;

/** A create's outcome: stored now, or found already stored under the same fixed id (an import's retry). */
export interface CreateOutcome {
  status: 'created' | 'duplicate';
  record: PrenotazioneRecord;
}

/** Stores a booking whose tables are already claimed: what a create and a booking from an option share. */
export interface BookingInserts {
  /**
   * Stores `base` with a fresh codice (retried on collision) and its bookings.created event. With `fixedId`
   * (an import), a booking stored concurrently under that id is the outcome ('duplicate'). Releases the claim
   * when the booking was surely not stored.
   */
  insert(base: PrenotazioneRecord, claimId: string | null, fixedId: string | null): Promise<CreateOutcome>;
}

export interface NewBookingsDeps {
  store: PrenotazioneStore;
  claims: TableClaims;
  event: BookingEvent;
  onEventsWritten: () => void;
  /** The caller's booking channel: its bookings are `online` (or its key's origine) and carry it. */
  channel?: ChannelRef | null;
  /** The channel key's origine (`online`, or `google` for Reserve with Google's channel). */
  channelOrigine?: Origine | null;
}

export class NewBookings implements BookingInserts {
  constructor(private readonly deps: NewBookingsDeps) {}

  /** `origine|source` and `canale` of a new booking: a channel's is online, the batch's (fixedId) pos. */
  private provenance(fixedId: string | null): { origine: Origine; canale: ChannelRef | null } {
    const channel = this.deps.channel ?? null;
    const origine = channel ? (this.deps.channelOrigine ?? 'online') : fixedId ? 'pos' : 'staff';
    return { origine, canale: channel };
  }

  async insert(
    base: PrenotazioneRecord,
    claimId: string | null,
    fixedId: string | null,
  ): Promise<CreateOutcome> {
    try {
      for (let attempt = 0; ; attempt++) {
        const record = { ...base, ...this.provenance(fixedId), codice: generateCodice() };
        try {
          const saved = await this.deps.store.insert(record, [this.deps.event('bookings.created', record)]);
          this.deps.onEventsWritten();
          return { status: 'created', record: saved };
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error;
          if (error.index === CODICE_INDEX && attempt < MAX_CODICE_ATTEMPTS) continue;
          if (fixedId && error.index !== CODICE_INDEX) {
            // The same externalId was created concurrently: that booking holds its own tables; this attempt's
            // claims (maybe other tables or times) are released by their claimId, so no phantom hold remains.
            const existing = await this.deps.store.findById(fixedId);
            if (existing) {
              if (claimId) await this.release(base, claimId).catch(() => {});
              return { status: 'duplicate', record: existing };
            }
          }
          throw error;
        }
      }
    } catch (error) {
      if (claimId && !mayHaveBeenApplied(error)) await this.release(base, claimId).catch(() => {});
      throw error;
    }
  }

  private release(record: PrenotazioneRecord, claimId: string): Promise<void> {
    return this.deps.claims.release(bookingClaim(record), claimId);
  }
}
