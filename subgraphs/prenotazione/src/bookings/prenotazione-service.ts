import { randomUUID } from 'node:crypto';
import {
  AppError,
  InvalidTransitionError,
  NotFoundError,
  ValidationError,
  WriteConflictError,
} from '@coperto/errors';
import { InputChecks, localDateOf, localDayBounds, parseLocalDate, preferEnglish } from '@coperto/domain';
import type { BookingEvent } from '../events.js';
import type {
  PrenotazioneInput,
  PrenotazionePatch,
  PrenotazioniFilter,
} from '../generated/resolvers-types.js';
import { bookingClaim, bookingPlacement } from '../seating/booking-owner.js';
import type { Reseater } from '../seating/reseater.js';
import type { SeatPlacement } from '../seating/seat-placement.js';
import { stayMinutes, type SeatingSources } from '../seating/seating-sources.js';
import type { TableClaims } from '../seating/table-claims.js';
import { mayHaveBeenApplied } from '../seating/write-outcome.js';
import type { BookingInserts, CreateOutcome } from './new-bookings.js';
import { checkPrenotazione, guestFields, mergeAliases, patchedFields } from './prenotazione-input.js';
import {
  importedId,
  isActive,
  newBookingRecord,
  transition,
  type BookingState,
  type PrenotazioneRecord,
} from './prenotazione-record.js';
import type { PrenotazioneStore } from './prenotazione-store.js';

const MAX_CAS_ATTEMPTS = 8;

/** A booking made from an option (options/booking-from-option.ts): the option's tables, window and id. */
export interface OptionBookings {
  create(input: PrenotazioneInput, optionId: string): Promise<PrenotazioneRecord>;
}

export interface PrenotazioneServiceDeps {
  store: PrenotazioneStore;
  claims: TableClaims;
  /** Turns tableIds, a combinationId or autoAssign into claimed tables. */
  placement: SeatPlacement;
  /** The re-seating step of auto-assignment (when the tenant's settings allow it). */
  reseater: Reseater;
  /** The tenant's seating settings (turn times), for the effective duration. */
  seating: SeatingSources;
  inserts: BookingInserts;
  fromOption: OptionBookings;
  event: BookingEvent;
  timeZone: string;
  now: () => Date;
  onEventsWritten: () => void;
}

/** Rules for bookings: reads, validation, aliases, creates and moves that claim their tables, the state flow. */
export class PrenotazioneService {
  constructor(private readonly deps: PrenotazioneServiceDeps) {}

  get(id: string): Promise<PrenotazioneRecord | null> {
    return this.deps.store.findById(id);
  }

  getByCodice(codice: string): Promise<PrenotazioneRecord | null> {
    return this.deps.store.findByCodice(codice.trim().toUpperCase());
  }

  async list(query: PrenotazioniFilter) {
    const dal = query.dal == null ? undefined : parseLocalDate(query.dal);
    const al = query.al == null ? undefined : parseLocalDate(query.al);
    const checks = new InputChecks();
    if (dal === null) checks.add('dal', 'must be a date YYYY-MM-DD');
    if (al === null) checks.add('al', 'must be a date YYYY-MM-DD');
    checks.throwIfAny();
    return this.deps.store.list({
      dal: dal ?? undefined,
      al: al ?? undefined,
      state: query.state ?? undefined,
      tableId: query.tableId ?? undefined,
      activeOnly: query.activeOnly ?? undefined,
    });
  }

  /** getPrenotazioniGiorno: the active bookings of one local day. */
  async day(data: string): Promise<PrenotazioneRecord[]> {
    const date = parseLocalDate(data);
    if (!date) throw new ValidationError([{ field: 'data', message: 'must be a date YYYY-MM-DD' }]);
    return this.deps.store.list({ dal: date, al: date, activeOnly: true });
  }

  /** Active bookings of a table: on a local date, or from the start of today. */
  async forTable(tableId: string, data?: string | null): Promise<PrenotazioneRecord[]> {
    if (data != null) {
      const date = parseLocalDate(data);
      if (!date) throw new ValidationError([{ field: 'data', message: 'must be a date YYYY-MM-DD' }]);
      return this.deps.store.list({ tableId, dal: date, al: date, activeOnly: true });
    }
    const today = localDateOf(this.deps.now(), this.deps.timeZone);
    const startsFrom = localDayBounds(today, this.deps.timeZone).start.toISOString();
    return this.deps.store.list({ tableId, activeOnly: true, startsFrom });
  }

  create(input: PrenotazioneInput): Promise<PrenotazioneRecord> {
    return this.createRecord(input, null).then((r) => r.record);
  }

  /** The legacy batch's create: the same externalId always maps to the same booking (idempotent). */
  async import(input: PrenotazioneInput): Promise<CreateOutcome> {
    const externalId = input.externalId?.trim();
    if (!externalId) throw new ValidationError([{ field: 'externalId', message: 'is required' }]);
    if (input.opzioneId != null || input.holdId != null) {
      // An imported booking's id comes from its externalId; a booking from an option takes the option's.
      throw new ValidationError([{ field: 'opzioneId', message: 'is not accepted by the batch upload' }]);
    }
    return this.createRecord(input, importedId(externalId));
  }

  async update(id: string, patch: PrenotazionePatch): Promise<PrenotazioneRecord> {
    const moment = checkPrenotazione(patch, { required: false, zone: this.deps.timeZone });
    if (patch.tableIds) await this.deps.placement.requireTables(patch.tableIds);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.requireBooking(id);
      const changes = patchedFields(patch, moment);
      if (patch.combinationId != null) {
        const combination = await this.deps.placement.combinationFor(
          patch.combinationId,
          changes.covers ?? current.covers,
        );
        Object.assign(changes, {
          tableIds: [...combination.tableIds],
          combinationId: combination.id,
          assegnazione: 'manual',
        });
      }
      if (!patch.autoAssign && !changesAnything(current, changes)) return current;
      const next: PrenotazioneRecord = {
        ...current,
        ...changes,
        version: current.version + 1,
        updatedAt: this.stamp(),
      };
      const moved =
        patch.autoAssign === true ||
        next.startsAt !== current.startsAt ||
        next.durationMinutes !== current.durationMinutes ||
        next.covers !== current.covers ||
        next.tableIds.join() !== current.tableIds.join();
      // A move fixes the effective duration anew (its own, else the turn time for its covers now).
      if (moved) {
        next.effectiveDurationMinutes = await stayMinutes(
          this.deps.seating,
          next.durationMinutes,
          next.covers,
        );
      }
      const reschedule = isActive(current.state) && moved;
      let claimId: string | null = null;
      if (reschedule) {
        next.claimRev = current.claimRev + 1;
        if (patch.autoAssign) {
          const reseat = await this.deps.reseater.whenEnabled();
          const placed = await this.deps.placement.assign(bookingPlacement(next), reseat);
          Object.assign(next, {
            tableIds: placed.tableIds,
            combinationId: placed.combinationId,
            assegnazione: 'auto',
          });
          claimId = placed.claimId;
        } else {
          claimId = await this.deps.claims.claim(bookingClaim(next));
        }
      } else if (patch.autoAssign) {
        // The booking's own state refuses it (state, not shape): a conflict, as a move out of a final state is.
        throw new AppError(
          'INVALID_TRANSITION',
          `autoAssign needs an active booking state, not ${current.state}`,
          { from: current.state, to: 'autoAssign' },
        );
      }
      let saved: PrenotazioneRecord | null;
      try {
        saved = await this.deps.store.replace(current.version, next, [
          this.deps.event('bookings.updated', next),
        ]);
      } catch (error) {
        if (claimId && !mayHaveBeenApplied(error)) await this.releaseClaim(next, claimId).catch(() => {});
        throw error;
      }
      if (!saved) {
        if (claimId) await this.releaseClaim(next, claimId);
        continue;
      }
      this.deps.onEventsWritten();
      if (reschedule) {
        await this.deps.claims.releaseOlderRevisions(saved.id, saved.claimRev, [
          ...current.tableIds,
          ...saved.tableIds,
        ]);
      }
      return saved;
    }
    throw new WriteConflictError('Prenotazione', id);
  }

  /**
   * Moves to `to` per the transition table. The current state again is a no-op without an event; annullata
   * stores motivo and cancelledAt and publishes bookings.cancelled, any other move bookings.updated. Leaving
   * the active states frees the tables.
   */
  async changeState(id: string, to: BookingState, motivo?: string | null): Promise<PrenotazioneRecord> {
    new InputChecks().text('motivo', motivo, { max: 500 }).throwIfAny();
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.requireBooking(id);
      const verdict = transition(current.state, to);
      if (verdict === 'same') return current;
      if (verdict === 'refused') throw new InvalidTransitionError(current.state, to);
      const now = this.stamp();
      const next: PrenotazioneRecord = {
        ...current,
        state: to,
        ...(to === 'annullata' ? { motivo: motivo?.trim() || null, cancelledAt: now } : {}),
        version: current.version + 1,
        updatedAt: now,
      };
      const type = to === 'annullata' ? 'bookings.cancelled' : 'bookings.updated';
      const saved = await this.deps.store.replace(current.version, next, [this.deps.event(type, next)]);
      if (!saved) continue;
      this.deps.onEventsWritten();
      if (!isActive(to)) await this.deps.claims.releaseAll(saved.id, saved.tableIds);
      return saved;
    }
    throw new Error(`Prenotazione ${id} kept changing during the state change`);
  }

  private async createRecord(input: PrenotazioneInput, fixedId: string | null): Promise<CreateOutcome> {
    const optionId = preferEnglish(input.opzioneId, input.holdId);
    if (optionId != null)
      return { status: 'created', record: await this.deps.fromOption.create(input, optionId) };
    const moment = checkPrenotazione(input, { required: true, zone: this.deps.timeZone })!;
    if (fixedId) {
      const existing = await this.deps.store.findById(fixedId);
      if (existing) return { status: 'duplicate', record: existing };
    }
    const merged = mergeAliases(input);
    const covers = merged.covers!;
    const base = newBookingRecord(
      {
        id: fixedId ?? randomUUID(),
        covers,
        bookingDate: moment.local,
        startsAt: moment.startsAt,
        localDate: moment.localDate,
        customerName: merged.customerName!.trim(),
        ...guestFields(input),
        tableIds: [],
        combinationId: null,
        assegnazione: input.autoAssign ? 'auto' : 'manual',
        notes: input.notes ?? null,
        state: input.state ?? 'pending',
        durationMinutes: input.durationMinutes ?? null,
        effectiveDurationMinutes: await stayMinutes(this.deps.seating, input.durationMinutes, covers),
        externalId: input.externalId?.trim() || null,
      },
      this.stamp(),
    );
    const placed = await this.deps.placement.place(bookingPlacement(base), input, {
      claim: isActive(base.state),
      reseat: input.autoAssign ? await this.deps.reseater.whenEnabled() : undefined,
    });
    const record = {
      ...base,
      tableIds: placed.tableIds,
      combinationId: placed.combinationId,
      assegnazione: placed.assegnazione,
    };
    return this.deps.inserts.insert(record, placed.claimId, fixedId);
  }

  /** Removes one claim attempt's entries (and only those: another attempt of the same booking keeps its own). */
  private releaseClaim(record: PrenotazioneRecord, claimId: string): Promise<void> {
    return this.deps.claims.release(bookingClaim(record), claimId);
  }

  private async requireBooking(id: string): Promise<PrenotazioneRecord> {
    const found = await this.deps.store.findById(id);
    if (!found) throw new NotFoundError('Prenotazione', id);
    return found;
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}

function changesAnything(current: PrenotazioneRecord, changes: Partial<PrenotazioneRecord>): boolean {
  return Object.entries(changes).some(([key, value]) => {
    const before = current[key as keyof PrenotazioneRecord];
    return Array.isArray(value)
      ? value.join('\u0000') !== (before as string[]).join('\u0000')
      : value !== before;
  });
}
