import { InputChecks } from '@coperto/domain';
import { OptionExpiredError, TableUnavailableError } from '@coperto/errors';
import type { BookingInserts } from '../bookings/new-bookings.js';
import { checkPrenotazione, guestFields, mergeAliases } from '../bookings/prenotazione-input.js';
import { isActive, newBookingRecord, type PrenotazioneRecord } from '../bookings/prenotazione-record.js';
import type { OptionBookings } from '../bookings/prenotazione-service.js';
import type { PrenotazioneInput } from '../generated/resolvers-types.js';
import { bookingClaim } from '../seating/booking-owner.js';
import type { TableClaims } from '../seating/table-claims.js';
import { heldBy, isLiveOption } from './opzione-record.js';
import type { OpzioneStore } from './opzione-store.js';
import { releaseOptionHolds } from './option-holds.js';

export interface BookingFromOptionDeps {
  options: OpzioneStore;
  claims: TableClaims;
  bookings: BookingInserts;
  timeZone: string;
  now: () => Date;
  /** The caller's booking channel: it books from its own options only (another's is as if it did not exist). */
  channelId?: string | null;
}

/**
 * A booking from an option: exactly the option's tables and window, its id the option's (so one option can
 * never become two bookings: the id is unique), the option consumed by compare-and-set. The booking claims
 * its tables first (the option's own holds do not block it: same id), so the tables are never free in
 * between; then the option is closed; then the booking is stored; then the option's holds are removed.
 */
export class BookingFromOption implements OptionBookings {
  constructor(private readonly deps: BookingFromOptionDeps) {}

  async create(input: PrenotazioneInput, optionId: string): Promise<PrenotazioneRecord> {
    const moment = checkPrenotazione(input, { required: false, zone: this.deps.timeZone });
    const merged = mergeAliases(input);
    const checks = new InputChecks().required('customerName', merged.customerName);
    if (input.tableIds != null || input.combinationId != null || input.autoAssign === true) {
      checks.add('opzioneId', 'takes the tables of the option: no tableIds, combinationId or autoAssign');
    }
    if (input.durationMinutes != null) checks.add('durationMinutes', "the option's window applies");
    checks.text('opzioneId', optionId, { min: 1, max: 200 }).throwIfAny();
    const option = await this.deps.options.findById(optionId);
    if (!option || !isLiveOption(option, this.stamp()) || !heldBy(option, this.deps.channelId)) {
      throw new OptionExpiredError(optionId);
    }
    const mismatch = new InputChecks();
    if (merged.covers != null && merged.covers !== option.covers) {
      mismatch.add('covers', `must be the option's ${option.covers} (or absent)`);
    }
    if (moment && moment.startsAt !== option.startsAt) {
      mismatch.add('bookingDate', `must be the option's ${option.bookingDate} (or absent)`);
    }
    const state = input.state ?? 'pending';
    if (!isActive(state)) mismatch.add('state', 'must be an active state for a booking from an option');
    mismatch.throwIfAny();
    const record = newBookingRecord(
      {
        id: option.id,
        covers: option.covers,
        bookingDate: option.bookingDate,
        startsAt: option.startsAt,
        localDate: option.localDate,
        customerName: merged.customerName!.trim(),
        ...guestFields(input),
        tableIds: [...option.tableIds],
        combinationId: option.combinationId,
        assegnazione: option.assegnazione,
        notes: input.notes ?? null,
        state,
        durationMinutes: option.durationMinutes,
        effectiveDurationMinutes: (Date.parse(option.endsAt) - Date.parse(option.startsAt)) / 60_000,
        externalId: input.externalId?.trim() || null,
      },
      this.stamp(),
    );
    let claimId: string | null;
    try {
      claimId = await this.deps.claims.claim(bookingClaim(record));
    } catch (error) {
      const again = await this.deps.options.findById(optionId);
      if (error instanceof TableUnavailableError && (!again || !isLiveOption(again, this.stamp()))) {
        throw new OptionExpiredError(optionId);
      }
      throw error;
    }
    const usedAt = this.stamp();
    if (!(await this.deps.options.close(option.id, usedAt, 'usedAt'))) {
      if (claimId) await this.deps.claims.release(bookingClaim(record), claimId).catch(() => {});
      throw new OptionExpiredError(optionId);
    }
    let saved: PrenotazioneRecord;
    try {
      saved = (await this.deps.bookings.insert(record, claimId, null)).record;
    } catch (error) {
      await this.deps.options.reopen(option.id, usedAt).catch(() => {});
      throw error;
    }
    await releaseOptionHolds(this.deps.claims, option);
    return saved;
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}
