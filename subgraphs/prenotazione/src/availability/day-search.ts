import { localDateOf, localDayBounds } from '@coperto/domain';
import { rankCandidates, seatCandidates, type SeatCandidate, type Span } from '../seating/assignment.js';
import type { OwnedSpan, ReseatPlan } from '../seating/reseat-plan.js';
import type { SeatingCombination, SeatingTable } from '../seating/seating-sources.js';
import { FreeTime } from './free-time.js';

/** A slot of the day a party may arrive in, with the covers pacing and the kitchen still take in it. */
export interface BookableSlot {
  /** The slot's start (epoch milliseconds): the time offered. */
  startsAt: number;
  /** Covers that may still arrive in the slot (capacity's pacing and production categories). */
  coversBookable: number;
}

/** A time the search offers, with the place the autoAssign rule would take for it. */
export interface OfferedTime {
  startsAt: number;
  /** The party's turn time, or (shortened) the longest stay that fits, in whole minutes. */
  durationMinutes: number;
  shortened: boolean;
  place: SeatCandidate;
  /** Whether the place needs other bookings moved first (re-seating). */
  reseated: boolean;
  /**
   * How many of the party's places (roomPlaces) are free for the stay: Google's `spots_open`. A re-seated time
   * counts 1, the place the re-seating makes.
   */
  spotsOpen: number;
}

/** Re-seating as the booking path runs it: a plan for the party's window over the same snapshot, or null. */
export type ReseatFor = (fitting: readonly SeatCandidate[], window: Span) => ReseatPlan | null;

/** Everything the day's answer depends on, read once (availability-service.ts) and then searched in memory. */
export interface DaySearch {
  slots: readonly BookableSlot[];
  covers: number;
  /** The party's turn time (turnMinutes of the tenant's rows). */
  turnMinutes: number;
  /** capacity's `shortenedMinMinutes`: null = no shortened seatings. */
  shortenedMinMinutes: number | null;
  /** tavolo's active tables and combinations, in its list order (the ranking's last tie-break). */
  tables: readonly SeatingTable[];
  combinations: readonly SeatingCombination[];
  /** Only places of this room are offered (re-seating plans too); null: every room. */
  salaId: string | null;
  /** The non-stale holds (bookings, live options, claims in flight) of every table around the day. */
  holdsOf: (tableId: string) => readonly OwnedSpan[];
  /** The restaurant's zone: the local day of a window (the ranking's free-time bounds), as the booking path. */
  timeZone: string;
  /** Times before this instant are not offered (now). */
  notBefore: number;
  /** The wished time: the nearest first (ties: the earlier); null: in time order. */
  wished: number | null;
  /** At most this many times; null: every one. */
  limit: number | null;
  /** Null when the tenant's re-seating is off. */
  reseat: ReseatFor | null;
}

/**
 * The bookable times of a day for a party (docs/availability.md): each slot with room in pacing and a place the
 * autoAssign rule would take for the party's turn time — free single tables first, then combinations, then
 * re-seating — or, failing that, a shortened stay of at least `shortenedMinMinutes` (the longest that fits on a
 * free place). The free time of every table is computed once; then each slot is answered in memory, nearest to
 * the wished time first, stopping at `limit`.
 */
export function searchDay(search: DaySearch): OfferedTime[] {
  const singles = seatCandidates(search.tables, [], search.covers);
  const combinations = seatCandidates([], search.combinations, search.covers);
  const inRoom = (c: SeatCandidate) => search.salaId === null || c.salaId === search.salaId;
  const places = { singles: singles.filter(inRoom), combinations: combinations.filter(inRoom) };
  const free = new FreeTime(
    [...places.singles, ...places.combinations].flatMap((c) => c.tableIds),
    search.holdsOf,
  );
  /** How many of the party's places are free from `at` for `length` milliseconds. */
  const openFor = (at: number, length: number) =>
    [...places.singles, ...places.combinations].filter((p) => free.placeRunFrom(p.tableIds, at) >= length)
      .length;
  const turnMs = search.turnMinutes * 60_000;
  const localDay = localDays(search.timeZone);
  const offered: OfferedTime[] = [];
  for (const slot of orderSlots(search)) {
    if (search.limit !== null && offered.length >= search.limit) break;
    const at = slot.startsAt;
    const day = localDay(at);
    const best = (window: Span) =>
      bestFree(places.singles, window, day, free, search) ??
      bestFree(places.combinations, window, day, free, search);
    const full = { start: at, end: at + turnMs };
    const place = best(full);
    if (place) {
      offered.push({
        startsAt: at,
        durationMinutes: search.turnMinutes,
        shortened: false,
        place,
        reseated: false,
        spotsOpen: openFor(at, turnMs),
      });
      continue;
    }
    // The booking path re-seats over every fitting place (any room): so does the search, keeping the room's.
    const plan = search.reseat?.([...singles, ...combinations], full);
    if (plan && inRoom(plan.target)) {
      offered.push(reseatedTime(at, search.turnMinutes, plan.target));
      continue;
    }
    const shortened = shortenedStay(search, places, free, at);
    if (shortened === null) continue;
    const shortPlace = best({ start: at, end: at + shortened * 60_000 });
    if (shortPlace) {
      offered.push({
        startsAt: at,
        durationMinutes: shortened,
        shortened: true,
        place: shortPlace,
        reseated: false,
        spotsOpen: openFor(at, shortened * 60_000),
      });
    }
  }
  return offered;
}

/** The time a re-seating plan offers: the whole turn, at the place the plan makes (the one spot open). */
export function reseatedTime(startsAt: number, durationMinutes: number, place: SeatCandidate): OfferedTime {
  return { startsAt, durationMinutes, shortened: false, place, reseated: true, spotsOpen: 1 };
}

/**
 * The places a party may be offered (Google's `spots_total`): the active tables that seat it and the active
 * combinations whose range holds it, in the room asked for (every room when null).
 */
export function roomPlaces(
  search: Pick<DaySearch, 'tables' | 'combinations' | 'covers' | 'salaId'>,
): SeatCandidate[] {
  return seatCandidates(search.tables, search.combinations, search.covers).filter(
    (c) => search.salaId === null || c.salaId === search.salaId,
  );
}

/**
 * The slots worth answering, in the order answered: with room in pacing for the party and not before now;
 * nearest to the wished time first (ties: the earlier), else in time order.
 */
export function orderSlots(
  search: Pick<DaySearch, 'slots' | 'covers' | 'notBefore' | 'wished'>,
): BookableSlot[] {
  const open = search.slots.filter(
    (s) => s.coversBookable >= search.covers && s.startsAt >= search.notBefore,
  );
  const wished = search.wished;
  return wished === null
    ? open.sort((a, b) => a.startsAt - b.startsAt)
    : open.sort(
        (a, b) => Math.abs(a.startsAt - wished) - Math.abs(b.startsAt - wished) || a.startsAt - b.startsAt,
      );
}

/**
 * The autoAssign rule's first choice among `places` for the window (assignment.ts), or null when none is free.
 * The free time prefilters; the ranking is the booking path's own.
 */
function bestFree(
  places: readonly SeatCandidate[],
  window: Span,
  day: Span,
  free: FreeTime,
  search: Pick<DaySearch, 'covers' | 'holdsOf'>,
): SeatCandidate | null {
  const length = window.end - window.start;
  const open = places.filter((p) => free.placeRunFrom(p.tableIds, window.start) >= length);
  if (open.length === 0) return null;
  const [first] = rankCandidates(open, search.covers, window, day, search.holdsOf);
  if (!first) return null;
  const { emptySeats: _e, gapMs: _g, ...place } = first;
  return place;
}

/**
 * The longest stay (whole minutes, below the turn time) that some free fitting place allows from `at`, when it
 * is at least `shortenedMinMinutes`; else null.
 */
function shortenedStay(
  search: Pick<DaySearch, 'shortenedMinMinutes' | 'turnMinutes'>,
  places: { singles: readonly SeatCandidate[]; combinations: readonly SeatCandidate[] },
  free: FreeTime,
  at: number,
): number | null {
  if (search.shortenedMinMinutes === null) return null;
  const longest = [...places.singles, ...places.combinations].reduce(
    (run, p) => Math.max(run, free.placeRunFrom(p.tableIds, at)),
    0,
  );
  const minutes = Math.min(Math.floor(longest / 60_000), search.turnMinutes - 1);
  return minutes >= search.shortenedMinMinutes ? minutes : null;
}

/**
 * The local day of an instant in the restaurant's zone, as the booking path bounds a window's free time
 * (SeatPlacement.day), each day computed once.
 */
export function localDays(zone: string): (at: number) => Span {
  const days = new Map<string, Span>();
  return (at) => {
    const date = localDateOf(new Date(at), zone);
    let day = days.get(date);
    if (!day) {
      const bounds = localDayBounds(date, zone);
      day = { start: bounds.start.getTime(), end: bounds.end.getTime() };
      days.set(date, day);
    }
    return day;
  };
}
