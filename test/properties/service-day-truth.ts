/**
 * The truth of a played service day (service-day.e2e.test.ts): what the reports must say, computed here from what
 * the test did and the times the service recorded for it, from docs/reports.md's definitions, written anew (none
 * of rapporti's functions). Times are UTC milliseconds; the zone has a fixed offset (the test picks one).
 */

/** One turn of a table as the test played it: which party sat, and the times recorded for its changes. */
export interface TruthTurn {
  tableId: string;
  /** The booking it seated (a booked party or a waitlist seating), or null: a party no booking explains. */
  bookingId: string | null;
  /** The last pax the test gave while the table was taken (null: none given). */
  pax: number | null;
  /** The totalAmount of the turn's last payment_pending (null: never paid). */
  check: number | null;
  start: number;
  /** null: the party is still seated (its stay counts up to now). */
  end: number | null;
}

export interface TruthBooking {
  id: string;
  startsAt: number;
  covers: number;
  tableIds: readonly string[];
  state: string;
  walkIn: boolean;
}

export interface TruthTable {
  id: string;
  seats: number;
  active: boolean;
  roomId: string | null;
}

export interface TruthDay {
  /** Minutes the zone is ahead of UTC (constant: the zone has no daylight saving). */
  offsetMinutes: number;
  dal: string;
  al: string;
  /** The opening intervals of every weekday, local minutes of the day [open, close). */
  intervals: ReadonlyArray<readonly [number, number]>;
  turnRows: ReadonlyArray<{ maxCovers: number; minutes: number }>;
  defaultMealMinutes: number;
  tables: readonly TruthTable[];
  turns: readonly TruthTurn[];
  bookings: readonly TruthBooking[];
  now: number;
}

export interface Figures {
  coversBooked: number;
  coversSeated: number;
  walkIns: number;
  noShows: number;
  bookingsDue: number;
  noShowRate: number | null;
  cancellations: number;
  seatUtilisation: number | null;
  revenue: number;
  revPash: number | null;
}

export interface TruthReport {
  services: Array<{ date: string; start: string; end: string } & Figures>;
  byHour: Array<{ hour: string; covers: number }>;
  turns: Array<{ covers: number; seatings: number; medianMinutes: number | null; configuredMinutes: number }>;
  totals: Figures;
}

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The local dates dal..al (YYYY-MM-DD), each with the UTC instant of its local midnight. */
function datesOf(dal: string, al: string, offsetMinutes: number): Array<{ date: string; midnight: number }> {
  const out: Array<{ date: string; midnight: number }> = [];
  for (let day = Date.parse(`${dal}T00:00:00Z`); day <= Date.parse(`${al}T00:00:00Z`); day += DAY)
    out.push({ date: new Date(day).toISOString().slice(0, 10), midnight: day - offsetMinutes * MINUTE });
  return out;
}

const overlap = (a: number, b: number, from: number, to: number) =>
  Math.max(0, Math.min(b, to) - Math.max(a, from));

/** A party: a booking's turns on its tables (of the room asked), or one turn no booking explains. */
interface TruthParty {
  covers: number;
  walkIn: boolean;
  start: number;
  end: number | null;
}

interface Sums {
  booked: number;
  seated: number;
  walkIns: number;
  noShows: number;
  due: number;
  cancellations: number;
  seatMinutes: number;
  availableSeatMinutes: number;
  revenue: number;
}

/** Half up, after dropping floating-point noise beyond 12 significant digits (a half reached by summing shares). */
const round = (value: number, digits: number) =>
  Math.round(Number((value * 10 ** digits).toPrecision(12))) / 10 ** digits;
const rate = (a: number, b: number, digits: number) => (b > 0 ? round(a / b, digits) : null);

function figuresOf(s: Sums): Figures {
  return {
    coversBooked: s.booked,
    coversSeated: s.seated,
    walkIns: s.walkIns,
    noShows: s.noShows,
    bookingsDue: s.due,
    noShowRate: rate(s.noShows, s.due, 4),
    cancellations: s.cancellations,
    seatUtilisation: rate(s.seatMinutes, s.availableSeatMinutes, 4),
    revenue: round(s.revenue, 2),
    revPash: rate(s.revenue, s.availableSeatMinutes / 60, 2),
  };
}

/** The report of the day for the whole restaurant, or for one room (`roomId`). */
export function truthReport(day: TruthDay, roomId: string | null = null): TruthReport {
  const inRoom = (tableId: string) =>
    roomId === null || day.tables.find((t) => t.id === tableId)?.roomId === roomId;
  const seats = day.tables.filter((t) => t.active && inRoom(t.id)).reduce((n, t) => n + t.seats, 0);
  const bookings = day.bookings.filter((b) => roomId === null || b.tableIds.some(inRoom));
  const byId = new Map(bookings.map((b) => [b.id, b]));
  const turns = day.turns.filter((t) => inRoom(t.tableId));
  const parties: TruthParty[] = [];
  const ofBooking = new Map<string, TruthParty>();
  for (const turn of turns) {
    const booking = turn.bookingId === null ? undefined : byId.get(turn.bookingId);
    if (!booking) {
      parties.push({ covers: turn.pax ?? 0, walkIn: true, start: turn.start, end: turn.end });
      continue;
    }
    const party = ofBooking.get(booking.id);
    if (party) {
      party.start = Math.min(party.start, turn.start);
      party.end = party.end === null || turn.end === null ? null : Math.max(party.end, turn.end);
    } else {
      const made = { covers: booking.covers, walkIn: booking.walkIn, start: turn.start, end: turn.end };
      ofBooking.set(booking.id, made);
      parties.push(made);
    }
  }
  const dates = datesOf(day.dal, day.al, day.offsetMinutes);
  const services = dates.flatMap(({ date, midnight }) =>
    [...day.intervals]
      .sort((a, b) => a[0] - b[0])
      .map(([open, close]) => ({
        date,
        start: clock(open),
        end: clock(close),
        from: midnight + open * MINUTE,
        to: midnight + close * MINUTE,
      })),
  );
  const sums = services.map(({ from, to }) => {
    const s: Sums = {
      booked: 0,
      seated: 0,
      walkIns: 0,
      noShows: 0,
      due: 0,
      cancellations: 0,
      seatMinutes: 0,
      availableSeatMinutes: (seats * (to - from)) / MINUTE,
      revenue: 0,
    };
    const inside = (t: number) => from <= t && t < to;
    for (const b of bookings) {
      if (b.walkIn || !inside(b.startsAt)) continue;
      if (b.state === 'annullata') s.cancellations += 1;
      else {
        s.booked += b.covers;
        if (b.startsAt <= day.now) s.due += 1;
        if (b.state === 'no_show') s.noShows += 1;
      }
    }
    for (const p of parties) {
      if (inside(p.start)) {
        s.seated += p.covers;
        if (p.walkIn) s.walkIns += p.covers;
      }
      s.seatMinutes += (p.covers * overlap(p.start, p.end ?? day.now, from, to)) / MINUTE;
    }
    for (const t of turns) {
      if (t.check === null) continue;
      const end = t.end ?? day.now;
      if (end === t.start) s.revenue += inside(t.start) ? t.check : 0;
      else s.revenue += (t.check * overlap(t.start, end, from, to)) / (end - t.start);
    }
    return s;
  });
  const total = sums.reduce<Sums>(
    (a, b) => ({
      booked: a.booked + b.booked,
      seated: a.seated + b.seated,
      walkIns: a.walkIns + b.walkIns,
      noShows: a.noShows + b.noShows,
      due: a.due + b.due,
      cancellations: a.cancellations + b.cancellations,
      seatMinutes: a.seatMinutes + b.seatMinutes,
      availableSeatMinutes: a.availableSeatMinutes + b.availableSeatMinutes,
      revenue: a.revenue + b.revenue,
    }),
    {
      booked: 0,
      seated: 0,
      walkIns: 0,
      noShows: 0,
      due: 0,
      cancellations: 0,
      seatMinutes: 0,
      availableSeatMinutes: 0,
      revenue: 0,
    },
  );
  const rangeFrom = dates[0]?.midnight ?? 0;
  const rangeTo = (dates.at(-1)?.midnight ?? 0) + DAY;
  const seated = parties.filter((p) => p.covers > 0 && p.start >= rangeFrom && p.start < rangeTo);
  const hours = new Map<string, number>();
  for (const p of seated) {
    const localMinute = Math.floor((p.start + day.offsetMinutes * MINUTE) / MINUTE) % 1440;
    const hour = `${clock(localMinute).slice(0, 2)}:00`;
    hours.set(hour, (hours.get(hour) ?? 0) + p.covers);
  }
  const rows =
    day.turnRows.length > 0
      ? day.turnRows
      : [{ maxCovers: Math.max(1, ...parties.map((p) => p.covers)), minutes: day.defaultMealMinutes }];
  const stays = rows.map(() => [] as number[]);
  for (const p of seated) {
    if (p.end === null) continue;
    const row = rows.findIndex((r) => p.covers <= r.maxCovers);
    stays[row === -1 ? rows.length - 1 : row]!.push((p.end - p.start) / MINUTE);
  }
  return {
    services: services.map((s, i) => ({ date: s.date, start: s.start, end: s.end, ...figuresOf(sums[i]!) })),
    byHour: [...hours.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([hour, covers]) => ({ hour, covers })),
    turns: rows.map((r, i) => ({
      covers: r.maxCovers,
      seatings: stays[i]!.length,
      medianMinutes: middle(stays[i]!),
      configuredMinutes: r.minutes,
    })),
    totals: figuresOf(total),
  };
}

/** The median, to the whole minute (halves up); null of nothing. */
function middle(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return Math.round(n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2);
}

/** The CSV the report must answer (docs/reports.md: English names, CRLF, an empty field for null). */
export function truthCsv(report: TruthReport): string {
  const columns = [
    'date',
    'start',
    'end',
    'coversBooked',
    'coversSeated',
    'walkIns',
    'noShows',
    'bookingsDue',
    'noShowRate',
    'cancellations',
    'seatUtilisation',
    'revenue',
    'revPash',
  ] as const;
  const rows = report.services.map((s) => columns.map((c) => (s[c] === null ? '' : String(s[c]))).join(','));
  return [columns.join(','), ...rows].map((line) => `${line}\r\n`).join('');
}
