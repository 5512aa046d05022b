import type { CombinazioneRecord } from '../combinations/combinazione-record.js';
import type { TavoloRecord } from '../tables/tavolo-record.js';

/**
 * A table held by a booking (from prenotazione's occupazioniTavoli): [start, end), the end being the
 * booking's stored effective duration, the same figure prenotazione's double-booking guard uses.
 */
export interface BookedSlot {
  tableId: string;
  start: Date;
  end: Date;
}

export interface AvailabilityWindow {
  start: Date;
  end: Date;
  partySize: number;
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
    if (overlaps(start, end, booking.start.getTime(), booking.end.getTime())) occupied.add(booking.tableId);
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

/**
 * Combinations offered for the window (pure): active, the party within capacitaMin..capacitaMax, every member
 * table among `activeTables` (still there, active, still in the combination's room) and free of bookings in the
 * window.
 */
export function availableCombinations(
  combinations: readonly CombinazioneRecord[],
  activeTables: readonly TavoloRecord[],
  window: AvailabilityWindow,
  bookings: readonly BookedSlot[],
): CombinazioneRecord[] {
  const occupied = occupiedTableIds(window, bookings);
  const roomOf = new Map(activeTables.filter((t) => t.attivo).map((t) => [t.id, t.salaId]));
  return combinations.filter(
    (c) =>
      c.attivo &&
      c.capacitaMin <= window.partySize &&
      window.partySize <= c.capacitaMax &&
      c.tableIds.length > 0 &&
      // A member table moved to another room since breaks the combination until it is revised.
      c.tableIds.every((id) => roomOf.get(id) === c.salaId && !occupied.has(id)),
  );
}

/** The tables whose holds the check needs: single tables big enough, and every candidate combination's tables. */
export function candidateTableIds(
  activeTables: readonly TavoloRecord[],
  combinations: readonly CombinazioneRecord[],
  partySize: number,
): string[] {
  const ids = new Set(activeTables.filter((t) => t.attivo && t.capacita >= partySize).map((t) => t.id));
  for (const c of combinations) {
    if (c.capacitaMin <= partySize && partySize <= c.capacitaMax) c.tableIds.forEach((id) => ids.add(id));
  }
  return [...ids];
}
