import { seatCandidates, type SeatCandidate, type Span } from './assignment.js';
import { endsAt } from './holds.js';
import { isActive, type PrenotazioneRecord } from '../bookings/prenotazione-record.js';
import type { BlockingBooking, OwnedSpan, ReseatSearch } from './reseat-plan.js';
import type { SeatingCombination, SeatingTable } from './seating-sources.js';

/** What a re-seating search reads: the tenant's places, the holds around the day, the bookings holding them. */
export interface ReseatSnapshot {
  tables: readonly SeatingTable[];
  combinations: readonly SeatingCombination[];
  /** Non-stale holds of each table over the local day and a day either side (the party's own left out). */
  holdsOf: (tableId: string) => readonly OwnedSpan[];
  /** The bookings owning those holds (options and claims in flight have none: they never move). */
  bookings: ReadonlyMap<string, PrenotazioneRecord>;
  /** Bookings starting before this instant (now + reseatFreezeMinutes) are never moved. */
  frozenUntil: number;
}

/** The party a re-seating search places. */
export interface ReseatParty {
  ownerId: string;
  covers: number;
  window: Span;
  /** The window's local day (the ranking's free-time bounds). */
  day: Span;
}

/**
 * The search the booking path's re-seating runs (docs/seating.md "Re-seating") over a snapshot: movable are
 * active auto-assigned bookings starting after the freeze; a moved booking stays in its room. One function for
 * the booking path and the day search, so a time offered through re-seating is one the booking re-seats for.
 */
export function reseatSearchOf(
  snapshot: ReseatSnapshot,
  party: ReseatParty,
  targets: readonly SeatCandidate[],
): ReseatSearch {
  const salaOf = new Map(snapshot.tables.map((t) => [t.id, t.salaId]));
  return {
    targets,
    covers: party.covers,
    ownerId: party.ownerId,
    window: party.window,
    day: party.day,
    places: (covers, salaId) =>
      seatCandidates(
        snapshot.tables.filter((t) => t.salaId === salaId),
        snapshot.combinations.filter((c) => c.salaId === salaId),
        covers,
      ),
    holdsOf: snapshot.holdsOf,
    bookingOf: (id) => blockingBooking(snapshot.bookings.get(id), snapshot.frozenUntil),
    salaOf: (tableId) => salaOf.get(tableId),
  };
}

/** A booking as re-seating sees it; undefined when the hold's owner is not a stored booking. */
export function blockingBooking(
  booking: PrenotazioneRecord | undefined,
  frozenUntil: number,
): BlockingBooking | undefined {
  if (!booking) return undefined;
  return {
    id: booking.id,
    covers: booking.covers,
    window: { start: Date.parse(booking.startsAt), end: Date.parse(endsAt(booking)) },
    tableIds: booking.tableIds,
    movable:
      isActive(booking.state) &&
      booking.assegnazione === 'auto' &&
      Date.parse(booking.startsAt) >= frozenUntil,
  };
}
