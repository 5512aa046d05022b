/** A table's status change as the report reads it (times in milliseconds since the epoch). */
export interface ChangeFact {
  id: string;
  tavoloId: string;
  at: number;
  stato: string;
  pax: number | null;
  totalAmount: number | null;
}

/** A booking as the report reads it. */
export interface BookingFact {
  id: string;
  startsAt: number;
  covers: number;
  tableIds: readonly string[];
  state: string;
  /** Its stay in minutes (the booking's own, else its party's turn time). */
  stayMinutes: number;
  walkIn: boolean;
}

/** One table's turn: from `occupied` to the next `free` or `dirty` (null: not ended in what is kept). */
export interface TableSeating {
  tavoloId: string;
  start: number;
  end: number | null;
  /** The pax last given while the table was taken. */
  pax: number | null;
  /** The totalAmount of the last `payment_pending` of the turn (the check), null when it was never paid. */
  revenue: number | null;
}

/** A party: the seatings of one booking on its tables, or a seating that no booking explains. */
export interface Party {
  bookingId: string | null;
  covers: number;
  walkIn: boolean;
  start: number;
  /** The last of its tables to be freed (null while any of them is still taken). */
  end: number | null;
  seatings: TableSeating[];
}

/** A party may sit this long before its booking's time and still be that booking's. */
export const EARLY_ARRIVAL_MINUTES = 60;

const MINUTE = 60_000;
const TAKEN_AFTER_TURN = new Set(['free', 'dirty']);
const NOT_SEATED_STATES = new Set(['annullata', 'no_show']);

/** Each table's turns from its status changes (any order: sorted here by time, then id). */
export function tableSeatings(changes: readonly ChangeFact[]): TableSeating[] {
  const byTable = new Map<string, ChangeFact[]>();
  for (const change of changes) {
    const list = byTable.get(change.tavoloId) ?? [];
    list.push(change);
    byTable.set(change.tavoloId, list);
  }
  const seatings: TableSeating[] = [];
  for (const [tavoloId, list] of byTable) {
    list.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
    let open: TableSeating | null = null;
    for (const change of list) {
      if (!open) {
        if (change.stato === 'occupied')
          open = { tavoloId, start: change.at, end: null, pax: change.pax, revenue: null };
        continue;
      }
      if (TAKEN_AFTER_TURN.has(change.stato)) {
        seatings.push({ ...open, end: change.at });
        open = null;
        continue;
      }
      if (change.pax !== null) open.pax = change.pax;
      if (change.stato === 'payment_pending' && change.totalAmount !== null)
        open.revenue = change.totalAmount;
    }
    if (open) seatings.push(open);
  }
  return seatings.sort((a, b) => a.start - b.start || a.tavoloId.localeCompare(b.tavoloId));
}

/**
 * The parties: each table's turn goes to the booking that holds that table and whose window
 * [startsAt − EARLY_ARRIVAL_MINUTES, startsAt + stay) covers the moment it was taken (a walk-in's from its startsAt) (not cancelled, not a
 * no-show), the closest pairs first (so a party seated early never takes the booking of the party seated on time
 * after it); a booking is seated once per table. A turn no booking explains is a party of its own (a walk-in
 * without a booking, its covers the pax).
 */
export function partiesOf(seatings: readonly TableSeating[], bookings: readonly BookingFact[]): Party[] {
  const byTable = new Map<string, BookingFact[]>();
  for (const booking of bookings) {
    if (NOT_SEATED_STATES.has(booking.state)) continue;
    for (const tableId of booking.tableIds) {
      const list = byTable.get(tableId) ?? [];
      list.push(booking);
      byTable.set(tableId, list);
    }
  }
  const pairs: Array<{ seating: number; booking: BookingFact; distance: number }> = [];
  seatings.forEach((seating, index) => {
    for (const booking of byTable.get(seating.tavoloId) ?? []) {
      // A walk-in's booking is made as its party sits down (the waitlist's `siedi`): no turn before it is its own.
      const from = booking.walkIn ? booking.startsAt : booking.startsAt - EARLY_ARRIVAL_MINUTES * MINUTE;
      const to = booking.startsAt + booking.stayMinutes * MINUTE;
      if (seating.start < from || seating.start >= to) continue;
      pairs.push({ seating: index, booking, distance: Math.abs(seating.start - booking.startsAt) });
    }
  });
  pairs.sort(
    (a, b) => a.distance - b.distance || a.seating - b.seating || a.booking.id.localeCompare(b.booking.id),
  );
  const bookingOf = new Map<number, BookingFact>();
  const used = new Set<string>();
  for (const pair of pairs) {
    const key = `${pair.booking.id}\n${seatings[pair.seating]!.tavoloId}`;
    if (bookingOf.has(pair.seating) || used.has(key)) continue;
    bookingOf.set(pair.seating, pair.booking);
    used.add(key);
  }
  const parties = new Map<string, Party>();
  const alone: Party[] = [];
  seatings.forEach((seating, index) => {
    const booking = bookingOf.get(index);
    if (!booking) {
      alone.push({
        bookingId: null,
        covers: seating.pax ?? 0,
        walkIn: true,
        start: seating.start,
        end: seating.end,
        seatings: [seating],
      });
      return;
    }
    const party = parties.get(booking.id);
    if (!party) {
      parties.set(booking.id, {
        bookingId: booking.id,
        covers: booking.covers,
        walkIn: booking.walkIn,
        start: seating.start,
        end: seating.end,
        seatings: [seating],
      });
      return;
    }
    party.seatings.push(seating);
    party.start = Math.min(party.start, seating.start);
    party.end = party.end === null || seating.end === null ? null : Math.max(party.end, seating.end);
  });
  return [...parties.values(), ...alone].sort((a, b) => a.start - b.start);
}
