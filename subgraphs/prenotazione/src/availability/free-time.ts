import type { Span } from '../seating/assignment.js';

/**
 * The free time of each table over a day, computed once from its holds (merged into disjoint, sorted busy
 * spans) and then asked for any instant: how long the table stays free from there. The day search asks it for
 * every slot and every place without reading anything again.
 */
export class FreeTime {
  private readonly busy = new Map<string, readonly Span[]>();

  constructor(tableIds: Iterable<string>, holdsOf: (tableId: string) => readonly Span[]) {
    for (const tableId of new Set(tableIds)) this.busy.set(tableId, mergeSpans(holdsOf(tableId)));
  }

  /**
   * Milliseconds the table stays free from `at`: 0 when a hold covers `at`, Infinity when no hold follows.
   * A window [at, at + length) overlaps none of the table's holds exactly when `runFrom(at) >= length`
   * (touching ends do not overlap, as in the guard).
   */
  runFrom(tableId: string, at: number): number {
    const spans = this.busy.get(tableId) ?? NONE;
    const next = spans[firstEndingAfter(spans, at)];
    if (!next) return Infinity;
    return next.start <= at ? 0 : next.start - at;
  }

  /**
   * The ranking's free time around a window the table is free for (assignment.ts freeGapMs: from the last hold
   * before it, or the day's start, to the window, plus from the window to the next hold, or the day's end), read
   * off the merged spans: the same figure for holds of positive length, without scanning them.
   */
  gapAround(tableId: string, window: Span, day: Span): number {
    const spans = this.busy.get(tableId) ?? NONE;
    const index = firstEndingAfter(spans, window.start);
    const before = index > 0 ? Math.max(day.start, spans[index - 1]!.end) : day.start;
    const after = index < spans.length ? Math.min(day.end, spans[index]!.start) : day.end;
    return Math.max(0, window.start - before) + Math.max(0, after - window.end);
  }

  /** How long every table of a place stays free from `at` (the shortest of its tables). */
  placeRunFrom(tableIds: readonly string[], at: number): number {
    let run = Infinity;
    for (const t of tableIds) run = Math.min(run, this.runFrom(t, at));
    return run;
  }

  /** The ranking's free time around `window` of a place free for it: the total over its tables. */
  placeGapAround(tableIds: readonly string[], window: Span, day: Span): number {
    let gap = 0;
    for (const t of tableIds) gap += this.gapAround(t, window, day);
    return gap;
  }
}

const NONE: readonly Span[] = [];

/** The index of the first of the sorted, disjoint `spans` that ends after `at` (spans.length when none does). */
function firstEndingAfter(spans: readonly Span[], at: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans[mid]!.end > at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
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
