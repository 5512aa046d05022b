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
  /** Bookings leaving `to`'s tables in this booking's window: their moves come (and are written) first. */
  after?: string[];
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
  /** Bookings that may block one place (the new party's, or a moved booking's destination): all must move. */
  blocking: number;
  /** The longest chain of moves: 1 = blocking bookings move to free places only. */
  depth: number;
  /** Places examined in all (a moved booking's possible destinations), whatever the size of the day. */
  steps: number;
}

export const RESEAT_LIMITS: ReseatLimits = { candidates: 10, blocking: 3, depth: 3, steps: 20_000 };

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
  limits?: Partial<ReseatLimits>;
}

/**
 * A bounded search (pure) for moves that free a place for the new party. The fitting places whose blocking
 * bookings (those holding any of their tables during the window) are at most `limits.blocking` and all movable
 * are ranked (single tables before combinations, fewest empty seats, then fewest bookings to move, then tavolo's
 * list order) and the first `limits.candidates` of them are examined. Each blocking booking must get another
 * fitting place of its own room with no more seats than its own (never a worse fit): a free one (ranked by the
 * assignment rule), else — chains — one whose own blocking bookings (at most `limits.blocking`, all movable, none
 * already moving) can be moved the same way, up to `limits.depth` moves deep. Iterative deepening: every
 * candidate is tried with chains of 1 move first, then 2, ..., so the plan found moves as few bookings deep as
 * possible. `limits.steps` bounds the destinations examined in all. Planned places (the new party's, the moved
 * bookings') never overlap; a place vacated by a move planned earlier may be reused by a later one.
 *
 * The moves come in the order they must be written: a booking is moved onto tables only after every booking
 * leaving those tables in the window has been moved (`ReseatMove.after` names them), so that no two live
 * bookings ever hold a table at once. Null when nothing works within the bounds.
 */
export function planReseat(search: ReseatSearch): ReseatPlan | null {
  const limits = { ...RESEAT_LIMITS, ...search.limits };
  const targets = search.targets
    .map((c) => ({ target: c, blockers: blockersOf(c, search.window, search.holdsOf) }))
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
  const budget = { steps: limits.steps };
  for (let depth = 1; depth <= limits.depth; depth++) {
    for (const { target, bookings } of targets) {
      const plan = new Planner(search, limits, budget, depth).planFor(target, bookings);
      if (plan) return plan;
      if (budget.steps <= 0) return null;
    }
  }
  return null;
}

/** The owners of the holds on any of the place's tables that overlap the window, sorted. */
function blockersOf(
  target: SeatCandidate,
  window: Span,
  holdsOf: (tableId: string) => readonly OwnedSpan[],
): string[] {
  return [
    ...new Set(
      target.tableIds.flatMap((t) =>
        holdsOf(t)
          .filter((h) => h.start < window.end && h.end > window.start)
          .map((h) => h.ownerId),
      ),
    ),
  ].sort();
}

/** Each table list's key once (the day search asks the same places' keys at every slot). */
const placeKeys = new WeakMap<readonly string[], string>();
function placeKey(tableIds: readonly string[]): string {
  let key = placeKeys.get(tableIds);
  if (key === undefined) {
    key = [...tableIds].sort().join();
    placeKeys.set(tableIds, key);
  }
  return key;
}

/** One search for one candidate place at one depth: the places planned so far and the moves written before. */
class Planner {
  /** New holds: the new party's place and each moved booking's destination. */
  private readonly planned: Array<OwnedSpan & { tableId: string }> = [];
  /** Bookings moving (their relocation found or being searched): never moved twice. */
  private readonly moving = new Set<string>();
  /** Moves in write order. */
  private readonly moves: ReseatMove[] = [];

  constructor(
    private readonly search: ReseatSearch,
    private readonly limits: ReseatLimits,
    private readonly budget: { steps: number },
    private readonly depth: number,
  ) {}

  planFor(target: SeatCandidate, bookings: readonly BlockingBooking[]): ReseatPlan | null {
    this.planned.push(
      ...target.tableIds.map((tableId) => ({ tableId, ownerId: this.search.ownerId, ...this.search.window })),
    );
    for (const b of bookings) this.moving.add(b.id);
    for (const booking of bookings) {
      if (!this.relocate(booking, 1)) return null;
    }
    return { target, moves: this.moves };
  }

  /**
   * The holds a destination must avoid: every hold except the moving booking's own and those of bookings
   * whose move comes earlier in write order (their tables are vacated before), plus the planned places.
   */
  private holdsFor(bookingId: string) {
    const written = new Set(this.moves.map((m) => m.bookingId));
    return (tableId: string): OwnedSpan[] => [
      ...this.search.holdsOf(tableId).filter((h) => h.ownerId !== bookingId && !written.has(h.ownerId)),
      ...this.planned.filter((p) => p.tableId === tableId && p.ownerId !== bookingId),
    ];
  }

  /** Finds `booking` another place (a free one, else one freed by a chain of moves); false leaves no trace. */
  private relocate(booking: BlockingBooking, level: number): boolean {
    const rooms = new Set(booking.tableIds.map((t) => this.search.salaOf(t)));
    const [room] = [...rooms];
    if (rooms.size !== 1 || room === undefined) return false;
    const current = placeKey(booking.tableIds);
    const fitting = this.search.places(booking.covers, room);
    // Never a worse fit: a moved party keeps as few empty seats as it had (a couple moved from a 2-top to a
    // 4-top would take a table that a later four needs; the scenario 8 figures showed it costing more than it won).
    const seats = fitting.find((p) => placeKey(p.tableIds) === current)?.capacity ?? Infinity;
    const places = fitting.filter((p) => placeKey(p.tableIds) !== current && p.capacity <= seats);
    this.budget.steps -= places.length;
    const holds = this.holdsFor(booking.id);
    const [free] = rankCandidates(places, booking.covers, booking.window, this.search.day, holds);
    if (free) {
      const { emptySeats: _e, gapMs: _g, ...to } = free;
      this.emit(booking, to);
      this.planned.push(
        ...to.tableIds.map((tableId) => ({ tableId, ownerId: booking.id, ...booking.window })),
      );
      return true;
    }
    if (level >= this.depth || this.budget.steps <= 0) return false;
    // Chains: a destination held by bookings that can move on in turn (as few as possible first).
    const chained = places
      .map((place) => ({ place, blockers: blockersOf(place, booking.window, holds) }))
      .filter(
        ({ place, blockers }) =>
          blockers.length <= this.limits.blocking &&
          !blockers.includes(this.search.ownerId) &&
          !place.tableIds.some((t) =>
            this.planned.some(
              (p) => p.tableId === t && p.start < booking.window.end && p.end > booking.window.start,
            ),
          ),
      )
      .map(({ place, blockers }) => ({ place, bookings: blockers.map((id) => this.search.bookingOf(id)) }))
      .filter((c): c is { place: SeatCandidate; bookings: BlockingBooking[] } =>
        c.bookings.every((b) => b !== undefined && b.movable && !this.moving.has(b.id)),
      )
      .sort(
        (a, b) =>
          a.bookings.length - b.bookings.length ||
          Number(a.place.kind === 'combination') - Number(b.place.kind === 'combination') ||
          a.place.capacity - b.place.capacity ||
          compareListed(a.place, b.place),
      );
    for (const { place, bookings } of chained) {
      if (this.budget.steps <= 0) return false;
      const mark = { planned: this.planned.length, moves: this.moves.length, moving: new Set(this.moving) };
      // the destination is planned before its bookings move on, so that none of them takes it
      this.planned.push(
        ...place.tableIds.map((tableId) => ({ tableId, ownerId: booking.id, ...booking.window })),
      );
      for (const b of bookings) this.moving.add(b.id);
      if (bookings.every((b) => this.relocate(b, level + 1))) {
        this.emit(booking, place);
        return true;
      }
      this.planned.splice(mark.planned);
      this.moves.splice(mark.moves);
      this.moving.clear();
      for (const id of mark.moving) this.moving.add(id);
    }
    return false;
  }

  /**
   * Appends a move in write order. `after`: the bookings already moving off any of its tables (a chain's, or an
   * earlier move whose place it reuses): their holds must not block its claim, and they are written first.
   */
  private emit(booking: BlockingBooking, to: SeatCandidate) {
    const after = this.moves
      .filter((m) => m.from.some((t) => to.tableIds.includes(t)))
      .map((m) => m.bookingId);
    this.moves.push({
      bookingId: booking.id,
      from: [...booking.tableIds],
      to,
      ...(after.length > 0 ? { after } : {}),
    });
  }
}
