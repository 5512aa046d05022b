/**
 * Scenario 8's figures, computed from what the service answers when every booking of the evening is read back
 * (GET /api/prenotazioni?dal&al), plus the waitlist figures the replay recorded. Pure.
 */

/** The fields of a read-back booking the figures use. */
export interface ReadBackBooking {
  id: string;
  covers: number;
  tableIds: readonly string[];
  state: string;
  /** UTC instants (ISO 8601). */
  startsAt: string;
  endsAt: string;
  updatedAt: string;
}

/** The read-back list, checked field by field: a figure computed from a missing field would be silently wrong. */
export function checkReadBack(list: readonly unknown[]): ReadBackBooking[] {
  return list.map((item, i) => {
    const b = item as Partial<ReadBackBooking>;
    const instant = (v: unknown) => typeof v === 'string' && Number.isFinite(Date.parse(v));
    const ok =
      typeof b.id === 'string' &&
      typeof b.covers === 'number' &&
      Array.isArray(b.tableIds) &&
      typeof b.state === 'string' &&
      instant(b.startsAt) &&
      instant(b.endsAt) &&
      instant(b.updatedAt);
    if (!ok) throw new Error(`read-back booking ${i} lacks a field: ${JSON.stringify(item).slice(0, 200)}`);
    return b as ReadBackBooking;
  });
}

export const ACTIVE_STATES: ReadonlySet<string> = new Set(['pending', 'confermata', 'caparra_pagata']);

export interface Interval {
  start: number;
  end: number;
}

/** While an active booking holds its tables: [startsAt, endsAt). Others hold nothing. */
export function activeHold(b: ReadBackBooking): Interval | null {
  return ACTIVE_STATES.has(b.state) ? { start: Date.parse(b.startsAt), end: Date.parse(b.endsAt) } : null;
}

/**
 * While a booking had people at its tables or held them: a completed one from its start until it was completed
 * (its last update, in the service's clock) or its end, whichever is first; an active one its whole window;
 * a cancelled one or a no-show never (their holds were released when they changed state).
 */
export function occupiedOrHeld(b: ReadBackBooking): Interval | null {
  if (b.state === 'completata') {
    const start = Date.parse(b.startsAt);
    return { start, end: Math.min(Date.parse(b.endsAt), Math.max(start, Date.parse(b.updatedAt))) };
  }
  return activeHold(b);
}

export interface DoubleBooking {
  tableId: string;
  first: string;
  second: string;
}

/** Every pair of bookings whose intervals (half-open) overlap on a table they share. */
export function findDoubleBookings(
  bookings: readonly ReadBackBooking[],
  interval: (b: ReadBackBooking) => Interval | null,
): DoubleBooking[] {
  const byTable = new Map<string, { id: string; at: Interval }[]>();
  for (const b of bookings) {
    const at = interval(b);
    if (!at || at.end <= at.start) continue;
    for (const tableId of new Set(b.tableIds)) {
      const list = byTable.get(tableId) ?? [];
      list.push({ id: b.id, at });
      byTable.set(tableId, list);
    }
  }
  const found: DoubleBooking[] = [];
  for (const [tableId, list] of byTable) {
    list.sort((x, y) => x.at.start - y.at.start);
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length && list[j]!.at.start < list[i]!.at.end; j++) {
        found.push({ tableId, first: list[i]!.id, second: list[j]!.id });
      }
    }
  }
  return found;
}

export interface SeatedFigures {
  parties: number;
  covers: number;
  /** Covers × minutes at the table inside the evening's window. */
  seatMinutes: number;
}

/** Parties that sat down and left (completata), and the seat-minutes they used inside [windowStart, windowEnd). */
export function seatedFigures(
  bookings: readonly ReadBackBooking[],
  windowStart: number,
  windowEnd: number,
): SeatedFigures {
  let parties = 0;
  let covers = 0;
  let seatMinutes = 0;
  for (const b of bookings) {
    if (b.state !== 'completata') continue;
    const at = occupiedOrHeld(b)!;
    parties++;
    covers += b.covers;
    const minutes = Math.max(0, Math.min(at.end, windowEnd) - Math.max(at.start, windowStart)) / 60_000;
    seatMinutes += b.covers * minutes;
  }
  return { parties, covers, seatMinutes };
}

/** Nearest-rank percentile (0 < p <= 100) of `values`; null when empty. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** What the replay recorded for one walk-in party. */
export interface WalkInOutcome {
  covers: number;
  /** The service's quote when the party joined the waitlist (minutes), null if it gave none. */
  quotedMinutes: number | null;
  outcome: 'seated' | 'balked' | 'reneged' | 'left-at-close' | 'failed';
  /** Minutes from joining the list to being seated (seated parties only). */
  waitedMinutes: number | null;
}

export interface WaitlistFigures {
  walkIns: number;
  seated: number;
  seatedCovers: number;
  balked: number;
  reneged: number;
  leftAtClose: number;
  failed: number;
  /** |quoted − actual| wait of seated parties with a quote, minutes. */
  errorMedian: number | null;
  errorP90: number | null;
}

export function waitlistFigures(outcomes: readonly WalkInOutcome[]): WaitlistFigures {
  const count = (o: WalkInOutcome['outcome']) => outcomes.filter((x) => x.outcome === o).length;
  const seated = outcomes.filter((x) => x.outcome === 'seated');
  const errors = seated
    .filter((x) => x.quotedMinutes !== null && x.waitedMinutes !== null)
    .map((x) => Math.abs(x.quotedMinutes! - x.waitedMinutes!));
  return {
    walkIns: outcomes.length,
    seated: seated.length,
    seatedCovers: seated.reduce((sum, x) => sum + x.covers, 0),
    balked: count('balked'),
    reneged: count('reneged'),
    leftAtClose: count('left-at-close'),
    failed: count('failed'),
    errorMedian: percentile(errors, 50),
    errorP90: percentile(errors, 90),
  };
}
