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
 * [startsAt − EARLY_ARRIVAL_MINUTES, startsAt + stay) covers the moment it was taken (not cancelled, not a
 * no-show; the nearest start wins; a booking is seated once per table); a turn no booking explains is a party of
 * its own (a walk-in without a booking, its covers the pax).
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
  const used = new Set<string>();
  const parties = new Map<string, Party>();
  const alone: Party[] = [];
  for (const seating of seatings) {
    const booking = nearest(byTable.get(seating.tavoloId) ?? [], seating, used);
    if (!booking) {
      alone.push({
        bookingId: null,
        covers: seating.pax ?? 0,
        walkIn: true,
        start: seating.start,
        end: seating.end,
        seatings: [seating],
      });
      continue;
    }
    used.add(`${booking.id}\n${seating.tavoloId}`);
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
      continue;
    }
    party.seatings.push(seating);
    party.start = Math.min(party.start, seating.start);
    party.end = party.end === null || seating.end === null ? null : Math.max(party.end, seating.end);
  }
  return [...parties.values(), ...alone].sort((a, b) => a.start - b.start);
}

function nearest(
  candidates: readonly BookingFact[],
  seating: TableSeating,
  used: ReadonlySet<string>,
): BookingFact | null {
  let best: BookingFact | null = null;
  for (const booking of candidates) {
    if (used.has(`${booking.id}\n${seating.tavoloId}`)) continue;
    const from = booking.startsAt - EARLY_ARRIVAL_MINUTES * MINUTE;
    const to = booking.startsAt + booking.stayMinutes * MINUTE;
    if (seating.start < from || seating.start >= to) continue;
    const distance = Math.abs(seating.start - booking.startsAt);
    const bestDistance = best ? Math.abs(seating.start - best.startsAt) : Infinity;
    if (distance < bestDistance || (distance === bestDistance && best && booking.id < best.id))
      best = booking;
  }
  return best;
}
