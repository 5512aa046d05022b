import { compareListed, rankCandidates, type SeatCandidate, type Span } from './assignment.js';

/** A hold on a table with the id of the booking or option that owns it. */
export interface OwnedSpan extends Span {
  ownerId: string;
}

/** A booking that blocks a candidate, as re-seating sees it. */
export interface BlockingBooking {
  id: string;
  covers: number;
  window: Span;
  tableIds: string[];
  /** Auto-assigned, active, starting after now + reseatFreezeMinutes: the only bookings ever moved. */
  movable: boolean;
}

export interface ReseatMove {
  bookingId: string;
  from: string[];
  to: SeatCandidate;
}

export interface ReseatPlan {
  /** Where the new party sits once the moves are made. */
  target: SeatCandidate;
  moves: ReseatMove[];
}

/** The bounds of one re-seating search (docs/seating.md "Re-seating"). */
export interface ReseatLimits {
  /** Candidate places for the new party examined, in rank order. */
  candidates: number;
  /** Bookings that may block one candidate (all must move). */
  blocking: number;
}

export const RESEAT_LIMITS: ReseatLimits = { candidates: 5, blocking: 3 };

export interface ReseatSearch {
  /** Places that fit the new party (free or not). */
  targets: readonly SeatCandidate[];
  covers: number;
  ownerId: string;
  window: Span;
  day: Span;
  /** The places that fit `covers` in room `salaId` (tables and combinations). */
  places: (covers: number, salaId: string | null) => SeatCandidate[];
  /** Non-stale holds of a table (the new party's own left out). */
  holdsOf: (tableId: string) => readonly OwnedSpan[];
  /** The blocking booking, undefined when the owner is not a booking (an option, a claim in flight). */
  bookingOf: (id: string) => BlockingBooking | undefined;
  /** The room of a table, undefined when the table is unknown or inactive. */
  salaOf: (tableId: string) => string | null | undefined;
  limits?: ReseatLimits;
}

/**
 * A bounded, depth-1 search (pure). The fitting places whose blocking bookings (those holding any of their
 * tables during the window) are at most `limits.blocking` and all movable are ranked (single tables before
 * combinations, fewest empty seats, then fewest bookings to move, then tavolo's list order) and the first
 * `limits.candidates` of them are examined in that order: each blocking booking must find another free fitting
 * place of its own room with no more seats than its own (never a worse fit), given the moves already planned
 * and the new party's place; the first place for which all of them do is the plan. Places that cannot be freed
 * are left out before the bound applies (a cheap look at their holds), so the bound counts places worth a
 * search, not the first ids of a size. Moved bookings are never moved twice and never moved onto a place that
 * needs another move (depth 1). Null when nothing works.
 */
export function planReseat(search: ReseatSearch): ReseatPlan | null {
  const limits = search.limits ?? RESEAT_LIMITS;
  const targets = search.targets
    .map((c) => ({ target: c, blockers: blockersOf(c, search) }))
    .filter(({ blockers }) => blockers.length > 0 && blockers.length <= limits.blocking)
    .map(({ target, blockers }) => ({ target, bookings: blockers.map((id) => search.bookingOf(id)) }))
    .filter((t): t is { target: SeatCandidate; bookings: BlockingBooking[] } =>
      t.bookings.every((b) => b !== undefined && b.movable),
    )
    .sort(
      (a, b) =>
        Number(a.target.kind === 'combination') - Number(b.target.kind === 'combination') ||
        a.target.capacity - b.target.capacity ||
        a.bookings.length - b.bookings.length ||
        compareListed(a.target, b.target),
    )
    .slice(0, limits.candidates);
  for (const { target, bookings } of targets) {
    const plan = planFor(target, bookings, search);
    if (plan) return plan;
  }
  return null;
}

/** The owners of the holds on any of the place's tables that overlap the window, sorted. */
function blockersOf(target: SeatCandidate, search: ReseatSearch): string[] {
  return [
    ...new Set(
      target.tableIds.flatMap((t) =>
        search
          .holdsOf(t)
          .filter((h) => h.start < search.window.end && h.end > search.window.start)
          .map((h) => h.ownerId),
      ),
    ),
  ].sort();
}

function planFor(
  target: SeatCandidate,
  bookings: readonly BlockingBooking[],
  search: ReseatSearch,
): ReseatPlan | null {
  const planned: Array<OwnedSpan & { tableId: string }> = target.tableIds.map((tableId) => ({
    tableId,
    ownerId: search.ownerId,
    ...search.window,
  }));
  // A moving booking's own holds do not block its destination (its claim is by the same id); the other
  // moving bookings' holds do, until they are moved (their destinations are claimed before any move is written).
  const holdsFor =
    (bookingId: string) =>
    (tableId: string): OwnedSpan[] => [
      ...search.holdsOf(tableId).filter((h) => h.ownerId !== bookingId),
      ...planned.filter((p) => p.tableId === tableId),
    ];
  const moves: ReseatMove[] = [];
  for (const booking of bookings) {
    const rooms = new Set(booking.tableIds.map((t) => search.salaOf(t)));
    const [room] = [...rooms];
    if (rooms.size !== 1 || room === undefined) return null;
    const current = [...booking.tableIds].sort().join();
    const fitting = search.places(booking.covers, room);
    // Never a worse fit: a moved party keeps as few empty seats as it had (a couple moved from a 2-top to a
    // 4-top would take a table that a later four needs; the scenario 8 figures showed it costing more than it won).
    const seats = fitting.find((p) => [...p.tableIds].sort().join() === current)?.capacity ?? Infinity;
    const places = fitting.filter((p) => [...p.tableIds].sort().join() !== current && p.capacity <= seats);
    const [best] = rankCandidates(places, booking.covers, booking.window, search.day, holdsFor(booking.id));
    if (!best) return null;
    const { emptySeats: _e, gapMs: _g, ...to } = best;
    moves.push({ bookingId: booking.id, from: [...booking.tableIds], to });
    planned.push(...to.tableIds.map((tableId) => ({ tableId, ownerId: booking.id, ...booking.window })));
  }
  return { target, moves };
}
