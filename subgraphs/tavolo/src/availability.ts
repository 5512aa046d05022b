import type { TavoloRecord } from './tavolo-record.js';

/** A booking as the availability check needs it (from prenotazione's day query). */
export interface BookedSlot {
  tableIds: readonly string[];
  start: Date;
  /** The booking's own duration, when it has one. */
  durationMinutes: number | null;
}

export interface AvailabilityWindow {
  start: Date;
  end: Date;
  partySize: number;
  /** Used for bookings without a duration of their own. */
  defaultDurationMinutes: number;
}

/** Half-open intervals [a, b) and [c, d) overlap; touching ends do not. */
export function overlaps(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart < bEnd && bStart < aEnd;
}

/** Ids of the tables that some booking occupies during the window. */
export function occupiedTableIds(window: AvailabilityWindow, bookings: readonly BookedSlot[]): Set<string> {
  const occupied = new Set<string>();
  const start = window.start.getTime();
  const end = window.end.getTime();
  for (const booking of bookings) {
    const bookingStart = booking.start.getTime();
    const bookingEnd = bookingStart + (booking.durationMinutes ?? window.defaultDurationMinutes) * 60_000;
    if (overlaps(start, end, bookingStart, bookingEnd)) for (const id of booking.tableIds) occupied.add(id);
  }
  return occupied;
}

/** Active tables with enough seats and no overlapping booking, and their total seats. */
export function availableTables(
  tables: readonly TavoloRecord[],
  window: AvailabilityWindow,
  bookings: readonly BookedSlot[],
): { tables: TavoloRecord[]; totalCapacity: number } {
  const occupied = occupiedTableIds(window, bookings);
  const free = tables.filter((t) => t.attivo && t.capacita >= window.partySize && !occupied.has(t.id));
  return { tables: free, totalCapacity: free.reduce((sum, t) => sum + t.capacita, 0) };
}
