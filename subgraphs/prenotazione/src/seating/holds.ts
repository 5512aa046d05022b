import type { AgendaEntry } from './table-agenda-store.js';
import { isLiveOption, type OpzioneRecord } from '../options/opzione-record.js';
import { isActive, type PrenotazioneRecord } from '../bookings/prenotazione-record.js';

/** Meal length of bookings stored before effective durations were (the figure their holds were written with). */
export const LEGACY_MEAL_MINUTES = 120;
/** A claim whose booking does not (yet) match it is in flight for this long; after that it is stale. */
export const IN_FLIGHT_CLAIM_MS = 30_000;
/** Holds that ended longer ago than this are pruned: nothing bookable can overlap them any more. */
export const PAST_HOLD_MARGIN_MS = 24 * 3_600_000;
/** At most this many bookings are looked up when an agenda is tidied (bounded work per claim). */
export const TIDY_MAX_BOOKINGS = 200;

/** The booking's effective duration: stored at create/move; legacy records fall back to their own or 120. */
export function effectiveMinutes(
  record: Pick<PrenotazioneRecord, 'effectiveDurationMinutes' | 'durationMinutes'>,
): number {
  return record.effectiveDurationMinutes ?? record.durationMinutes ?? LEGACY_MEAL_MINUTES;
}

/** End of the booking's stay as a UTC instant: start + effective duration. */
export function endsAt(record: PrenotazioneRecord): string {
  return new Date(Date.parse(record.startsAt) + effectiveMinutes(record) * 60_000).toISOString();
}

/**
 * What a hold on `tableId` is worth: `live` (its booking is active and holds exactly this), `in-flight` (its
 * booking is being written or moved: blocks like a live hold for IN_FLIGHT_CLAIM_MS), `stale` (a booking no
 * longer active, an older revision, a crash's leftover, or a claim its booking never used): safe to remove.
 * The guard and the availability check both use this verdict, so they agree.
 */
export type HoldVerdict = 'live' | 'in-flight' | 'stale';

export function holdVerdict(
  entry: AgendaEntry,
  tableId: string,
  booking: PrenotazioneRecord | undefined,
  inFlightAfter: string,
): HoldVerdict {
  const young = entry.at >= inFlightAfter;
  if (!booking) return young ? 'in-flight' : 'stale';
  if (!isActive(booking.state) || entry.rev < booking.claimRev) return 'stale';
  const matches =
    entry.rev === booking.claimRev &&
    booking.tableIds.includes(tableId) &&
    entry.start === booking.startsAt &&
    entry.end === endsAt(booking);
  if (matches) return 'live';
  return young ? 'in-flight' : 'stale';
}

/**
 * What a hold written by an option is worth: `live` while the option is unused, unreleased and unexpired and
 * holds exactly this, `stale` once it expired, was released or became a booking (the booking holds with its
 * own entries), `in-flight` for IN_FLIGHT_CLAIM_MS when the option is not (yet) stored or does not match.
 * Expiry needs no request: the verdict changes with the clock, so an expired option's tables are free at once,
 * also after a restart.
 */
export function optionHoldVerdict(
  entry: AgendaEntry,
  tableId: string,
  option: OpzioneRecord | undefined,
  inFlightAfter: string,
  now: string,
): HoldVerdict {
  const young = entry.at >= inFlightAfter;
  if (!option) return young ? 'in-flight' : 'stale';
  if (!isLiveOption(option, now)) return 'stale';
  const matches =
    entry.claimId === option.claimId &&
    option.tableIds.includes(tableId) &&
    entry.start === option.startsAt &&
    entry.end === option.endsAt;
  if (matches) return 'live';
  return young ? 'in-flight' : 'stale';
}

/** The holders of a set of agenda entries: bookings and options by id. */
export interface HoldOwners {
  bookings: ReadonlyMap<string, PrenotazioneRecord>;
  options: ReadonlyMap<string, OpzioneRecord>;
}

/** The verdict of any entry: an option's hold (owner 'opzione') or a booking's. */
export function entryVerdict(
  entry: AgendaEntry,
  tableId: string,
  owners: HoldOwners,
  inFlightAfter: string,
  now: string,
): HoldVerdict {
  return entry.owner === 'opzione'
    ? optionHoldVerdict(entry, tableId, owners.options.get(entry.bookingId), inFlightAfter, now)
    : holdVerdict(entry, tableId, owners.bookings.get(entry.bookingId), inFlightAfter);
}

/** Half-open windows [aStart, aEnd) and [bStart, bEnd) of ISO instants overlap; touching ends do not. */
export function overlapsWindow(entry: Pick<AgendaEntry, 'start' | 'end'>, from: string, to: string): boolean {
  return entry.start < to && entry.end > from;
}
