import type { SeatingCombination, SeatingTable } from './seating-sources.js';

/** A place a party can be seated: one table, or a combination of tables booked as a unit. */
export interface SeatCandidate {
  kind: 'table' | 'combination';
  /** The table's id, or the combination's. */
  id: string;
  tableIds: string[];
  salaId: string | null;
  /** Seats of the table, maxCovers of the combination. */
  capacity: number;
  /**
   * Its position in tavolo's list (tables and combinations are listed by name): the tie-break before the id,
   * so that equal places are taken in the restaurant's own order, the same on every run, not in the order of
   * generated ids. Absent: after every listed one.
   */
  order?: number;
}

/** A half-open window [start, end) in epoch milliseconds. */
export interface Span {
  start: number;
  end: number;
}

/** The active tables with enough seats and the active combinations whose range holds the party. */
export function seatCandidates(
  tables: readonly SeatingTable[],
  combinations: readonly SeatingCombination[],
  covers: number,
): SeatCandidate[] {
  return [
    ...tables
      .map((t, order) => ({ t, order }))
      .filter(({ t }) => t.seats >= covers)
      .map(({ t, order }) => ({
        kind: 'table' as const,
        id: t.id,
        tableIds: [t.id],
        salaId: t.salaId,
        capacity: t.seats,
        order,
      })),
    ...combinations
      .map((c, order) => ({ c, order }))
      .filter(({ c }) => c.attivo && c.minCovers <= covers && covers <= c.maxCovers)
      .map(({ c, order }) => ({
        kind: 'combination' as const,
        id: c.id,
        tableIds: [...c.tableIds],
        salaId: c.salaId,
        capacity: c.maxCovers,
        order,
      })),
  ];
}

/** Whether any of `holds` overlaps `window` (touching ends do not). */
export function overlapsAny(holds: readonly Span[], window: Span): boolean {
  return holds.some((h) => h.start < window.end && h.end > window.start);
}

/**
 * Free time around `window` on one table: from the end of the last hold before it (or the start of the local
 * day) to the window's start, plus from the window's end to the start of the next hold (or the end of the day).
 * Holds that overlap the window are not expected (the table would not be free).
 */
export function freeGapMs(holds: readonly Span[], window: Span, day: Span): number {
  const before = holds.filter((h) => h.end <= window.start).reduce((at, h) => Math.max(at, h.end), day.start);
  const after = holds.filter((h) => h.start >= window.end).reduce((at, h) => Math.min(at, h.start), day.end);
  return Math.max(0, window.start - before) + Math.max(0, after - window.end);
}

/** A free candidate with what the ranking compares. */
export interface RankedCandidate extends SeatCandidate {
  emptySeats: number;
  /** Free time around the window: a table's own, a combination's the total over its tables. */
  gapMs: number;
}

/**
 * The assignment rule (docs/seating.md "Assignment"): single tables before combinations, then fewest empty
 * seats, then the shortest free time around the window (keeps long gaps for other parties), then the order
 * tavolo lists them (by name), then id, so the order is total and the choice deterministic. `holdsOf` gives each table's live holds of the local day.
 * Candidates with a hold overlapping the window on any of their tables are left out.
 */
export function rankCandidates(
  candidates: readonly SeatCandidate[],
  covers: number,
  window: Span,
  day: Span,
  holdsOf: (tableId: string) => readonly Span[],
): RankedCandidate[] {
  return candidates
    .filter((c) => c.tableIds.every((t) => !overlapsAny(holdsOf(t), window)))
    .map((c) => ({
      ...c,
      emptySeats: c.capacity - covers,
      gapMs: c.tableIds.reduce((sum, t) => sum + freeGapMs(holdsOf(t), window, day), 0),
    }))
    .sort(compareRanked);
}

export function compareRanked(a: RankedCandidate, b: RankedCandidate): number {
  if (a.kind !== b.kind) return a.kind === 'table' ? -1 : 1;
  if (a.emptySeats !== b.emptySeats) return a.emptySeats - b.emptySeats;
  if (a.gapMs !== b.gapMs) return a.gapMs - b.gapMs;
  return compareListed(a, b);
}

/** The last tie-break: tavolo's list order (by name), then the id. */
export function compareListed(
  a: Pick<SeatCandidate, 'order' | 'id'>,
  b: Pick<SeatCandidate, 'order' | 'id'>,
): number {
  const ao = a.order ?? Infinity;
  const bo = b.order ?? Infinity;
  if (ao !== bo) return ao < bo ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
