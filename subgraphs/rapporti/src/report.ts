import { zoneOffsetMinutes, type TurnTime } from '@coperto/domain';
import type { BookingFact, Party } from './seatings.js';
import type { Service } from './services.js';

/** What a report is computed from: everything already read and filtered to the room asked for. */
export interface ReportInput {
  dal: string;
  al: string;
  salaId: string | null;
  zone: string;
  services: readonly Service[];
  /** [start, end) of the local dates dal..al. */
  range: { startMs: number; endMs: number };
  /** Seats of the active tables (of the room): what is available in every minute of a service. */
  seats: number;
  /** The turn time rows the party sizes fall into (ascending maxCovers, at least one). */
  turnRows: readonly TurnTime[];
  parties: readonly Party[];
  bookings: readonly BookingFact[];
  now: number;
}

/** The additive figures of a service (or a sum of services); the rates are made from them. */
export interface Sums {
  booked: number;
  seated: number;
  walkIns: number;
  noShows: number;
  /** Bookings due whose time has come and that were not cancelled: the no-show rate's denominator. */
  due: number;
  cancellations: number;
  occupiedSeatMinutes: number;
  availableSeatMinutes: number;
  revenue: number;
}

export interface TurnRow {
  maxCovers: number;
  configured: number;
  seatings: number;
  median: number | null;
  /** The minutes of each finished party of the row (for the suggestions). */
  minutes: number[];
}

export interface ReportFigures {
  services: Array<{ service: Service; sums: Sums }>;
  byHour: Array<{ hour: string; covers: number }>;
  turns: TurnRow[];
  totals: Sums;
}

const MINUTE = 60_000;
const empty = (): Sums => ({
  booked: 0,
  seated: 0,
  walkIns: 0,
  noShows: 0,
  due: 0,
  cancellations: 0,
  occupiedSeatMinutes: 0,
  availableSeatMinutes: 0,
  revenue: 0,
});

const overlapMs = (a: number, b: number, from: number, to: number): number =>
  Math.max(0, Math.min(b, to) - Math.max(a, from));

/** The figures of a report (docs/reports.md defines each one). */
export function computeReport(input: ReportInput): ReportFigures {
  const services = input.services.map((service) => ({ service, sums: serviceSums(input, service) }));
  const totals = services.reduce((sum, { sums }) => addSums(sum, sums), empty());
  return { services, byHour: coversByHour(input), turns: turnRows(input), totals };
}

function serviceSums(input: ReportInput, service: Service): Sums {
  const sums = empty();
  const within = (t: number) => t >= service.startMs && t < service.endMs;
  for (const booking of input.bookings) {
    if (booking.walkIn || !within(booking.startsAt)) continue;
    if (booking.state === 'annullata') {
      sums.cancellations++;
      continue;
    }
    sums.booked += booking.covers;
    if (booking.startsAt <= input.now) sums.due++;
    if (booking.state === 'no_show') sums.noShows++;
  }
  for (const party of input.parties) {
    if (within(party.start)) {
      sums.seated += party.covers;
      if (party.walkIn) sums.walkIns += party.covers;
    }
    const end = party.end ?? input.now;
    sums.occupiedSeatMinutes +=
      (party.covers * overlapMs(party.start, end, service.startMs, service.endMs)) / MINUTE;
    for (const seating of party.seatings) {
      if (seating.revenue === null) continue;
      sums.revenue += revenueWithin(seating.revenue, seating.start, seating.end ?? input.now, service);
    }
  }
  sums.availableSeatMinutes = (input.seats * (service.endMs - service.startMs)) / MINUTE;
  return sums;
}

/**
 * The part of a check credited to a service: the check spread evenly over the minutes its table was taken
 * (a turn of no length: all of it to the service it falls in).
 */
export function revenueWithin(revenue: number, start: number, end: number, service: Service): number {
  if (end <= start) return start >= service.startMs && start < service.endMs ? revenue : 0;
  return (revenue * overlapMs(start, end, service.startMs, service.endMs)) / (end - start);
}

function addSums(a: Sums, b: Sums): Sums {
  const sum = empty();
  for (const key of Object.keys(sum) as Array<keyof Sums>) sum[key] = a[key] + b[key];
  return sum;
}

/** Local 'HH:00' of an instant in `zone`. */
export function localHour(ms: number, zone: string): string {
  const local = new Date(ms + zoneOffsetMinutes(ms, zone) * MINUTE);
  return `${String(local.getUTCHours()).padStart(2, '0')}:00`;
}

function coversByHour(input: ReportInput): Array<{ hour: string; covers: number }> {
  const byHour = new Map<string, number>();
  for (const party of input.parties) {
    if (party.start < input.range.startMs || party.start >= input.range.endMs || party.covers === 0) continue;
    const hour = localHour(party.start, input.zone);
    byHour.set(hour, (byHour.get(hour) ?? 0) + party.covers);
  }
  return [...byHour.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([hour, covers]) => ({ hour, covers }));
}

/** The row of a party of `covers`: the first whose maxCovers holds it, beyond the last the last. */
export function rowIndexOf(rows: readonly TurnTime[], covers: number): number {
  const index = rows.findIndex((row) => row.maxCovers >= covers);
  return index === -1 ? rows.length - 1 : index;
}

function turnRows(input: ReportInput): TurnRow[] {
  const rows: TurnRow[] = input.turnRows.map((row) => ({
    maxCovers: row.maxCovers,
    configured: row.minutes,
    seatings: 0,
    median: null,
    minutes: [],
  }));
  for (const party of input.parties) {
    if (party.end === null || party.covers === 0) continue;
    if (party.start < input.range.startMs || party.start >= input.range.endMs) continue;
    rows[rowIndexOf(input.turnRows, party.covers)]!.minutes.push((party.end - party.start) / MINUTE);
  }
  for (const row of rows) {
    row.seatings = row.minutes.length;
    row.median = median(row.minutes);
  }
  return rows;
}

/** The median, rounded to a whole minute; null of nothing. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const value = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(value);
}
