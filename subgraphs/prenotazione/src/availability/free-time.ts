import type { Span } from '../seating/assignment.js';

/**
 * The free time of each table over a day, computed once from its holds (merged into disjoint, sorted busy
 * spans) and then asked for any instant: how long the table stays free from there. The day search asks it for
 * every slot and every place without reading anything again.
 */
export class FreeTime {
  private readonly busy = new Map<string, Span[]>();

  constructor(tableIds: Iterable<string>, holdsOf: (tableId: string) => readonly Span[]) {
    for (const tableId of new Set(tableIds)) this.busy.set(tableId, mergeSpans(holdsOf(tableId)));
  }

  /**
   * Milliseconds the table stays free from `at`: 0 when a hold covers `at`, Infinity when no hold follows.
   * A window [at, at + length) overlaps none of the table's holds exactly when `runFrom(at) >= length`
   * (touching ends do not overlap, as in the guard).
   */
  runFrom(tableId: string, at: number): number {
    const spans = this.busy.get(tableId) ?? [];
    // the first busy span that ends after `at`
    let lo = 0;
    let hi = spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (spans[mid]!.end > at) hi = mid;
      else lo = mid + 1;
    }
    const next = spans[lo];
    if (!next) return Infinity;
    return next.start <= at ? 0 : next.start - at;
  }

  /** How long every table of a place stays free from `at` (the shortest of its tables). */
  placeRunFrom(tableIds: readonly string[], at: number): number {
    return tableIds.reduce((run, t) => Math.min(run, this.runFrom(t, at)), Infinity);
  }
}

/** Overlapping or touching spans joined, sorted by start (empty spans dropped). */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const s of sorted) {
    const last = merged.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ start: s.start, end: s.end });
  }
  return merged;
}
