/**
 * Scenario 8 diagnostics (BENCH_SEATING_DIAG=1): why a booking request was refused, from every booking of the
 * day read back at the refusal. Pure. Single tables only (combinations are named by the count of big parties).
 * - busy: fitting tables held at the requested instant;
 * - cut: fitting tables free at that instant but held again before the party's turn time ends (fragmentation),
 *   with the longest such free stretch;
 * - small: fitting tables held at that instant by a party that a smaller table type would seat;
 * - ±15/±30: whether a fitting table is free for the whole turn time 15 / 30 minutes earlier or later.
 */
import { localInstant } from './local-time.js';
import { ACTIVE_STATES, type ReadBackBooking } from './metrics.js';
import { turnMinutes, type RestaurantSpec } from './restaurant.js';

const MINUTE = 60_000;

export function refusalReason(
  day: readonly ReadBackBooking[],
  seats: ReadonlyMap<string, number>,
  spec: RestaurantSpec,
  date: string,
  timeZone: string,
  request: { covers: number; time: number },
): string {
  const start = localInstant(date, request.time, timeZone);
  const turn = turnMinutes(spec.turnTimes, request.covers) * MINUTE;
  const holds = new Map<string, { start: number; end: number; covers: number }[]>();
  for (const b of day) {
    if (!ACTIVE_STATES.has(b.state) && b.state !== 'completata') continue;
    for (const t of b.tableIds) {
      const list = holds.get(t) ?? [];
      list.push({ start: Date.parse(b.startsAt), end: Date.parse(b.endsAt), covers: b.covers });
      holds.set(t, list);
    }
  }
  const sizes = [...new Set(seats.values())].sort((a, b) => a - b);
  const smallestFor = (covers: number) => sizes.find((s) => s >= covers) ?? Infinity;
  const fitting = [...seats].filter(([, s]) => s >= request.covers).map(([id]) => id);
  const freeFor = (id: string, from: number) =>
    !(holds.get(id) ?? []).some((h) => h.start < from + turn && h.end > from);
  let busy = 0;
  let cut = 0;
  let longestCut = 0;
  let small = 0;
  for (const id of fitting) {
    const list = holds.get(id) ?? [];
    const now = list.find((h) => h.start <= start && h.end > start);
    if (now) {
      busy++;
      if (smallestFor(now.covers) < seats.get(id)!) small++;
      continue;
    }
    const next = Math.min(...list.filter((h) => h.start > start).map((h) => h.start));
    if (next < start + turn) {
      cut++;
      longestCut = Math.max(longestCut, (next - start) / MINUTE);
    }
  }
  const shifted = [-30, -15, 15, 30]
    .filter((d) => fitting.some((id) => freeFor(id, start + d * MINUTE)))
    .map((d) => (d > 0 ? `+${d}` : `${d}`));
  const free = fitting.filter((id) => freeFor(id, start)).length;
  return (
    `fitting ${fitting.length} free ${free} busy ${busy} (smaller party on ${small}) cut ${cut}` +
    ` (longest ${longestCut} of ${turn / MINUTE} min) shift-fits [${shifted.join(' ')}]`
  );
}
