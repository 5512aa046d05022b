import type { AgendaEntry } from './table-agenda-store.js';
import { isActive, type PrenotazioneRecord } from './prenotazione-record.js';

/** Meal length of bookings stored before effective durations were (the figure their holds were written with). */
export const LEGACY_MEAL_MINUTES = 120;
/** A claim whose booking does not (yet) match it is in flight for this long; after that it is stale. */
export const IN_FLIGHT_CLAIM_MS = 30_000;
/** Holds that ended longer ago than this are pruned: nothing bookable can overlap them any more. */
export const PAST_HOLD_MARGIN_MS = 24 * 3_600_000;
/** At most this many bookings are looked up when an agenda is tidied (bounded work per claim). */
export const TIDY_MAX_BOOKINGS = 200;

/** The booking's effective duration: stored at create/move; legacy records fall back to their own or 120. */
export function effectiveMinutes(record: PrenotazioneRecord): number {
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

/** Half-open windows [aStart, aEnd) and [bStart, bEnd) of ISO instants overlap; touching ends do not. */
export function overlapsWindow(entry: Pick<AgendaEntry, 'start' | 'end'>, from: string, to: string): boolean {
  return entry.start < to && entry.end > from;
}
