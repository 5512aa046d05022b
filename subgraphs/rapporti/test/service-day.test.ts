// A generated service day whose truth the test knows: parties seated at tables (booked, early or late; walk-ins
// from the waitlist; parties no booking explains), no-shows, cancellations, bookings never seated, checks paid.
// The truth is a minute-by-minute simulation written here (not the production code); the report's pipeline
// (tableSeatings → partiesOf → computeReport) is fed the status changes, shuffled, and the bookings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeReport } from '../src/report.js';
import { partiesOf, tableSeatings, type BookingFact, type ChangeFact } from '../src/seatings.js';
import { rangeBounds, servicesBetween } from '../src/services.js';

const DATE = '2026-11-14';
const ZONE = 'Europe/Rome';
/** Midnight of DATE in Rome (UTC+1 in November) as UTC milliseconds. */
const LOCAL_MIDNIGHT = Date.UTC(2026, 10, 13, 23, 0);
const MINUTE = 60_000;
/** The opening hours, local minutes of the day: lunch 12:00–15:00, dinner 19:00–23:00. */
const SERVICES = [
  [720, 900],
  [1140, 1380],
] as const;
const OPENING = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
  weekday,
  intervals: [
    { open: '12:00', close: '15:00' },
    { open: '19:00', close: '23:00' },
  ],
}));
const TURN_ROWS = [
  { maxCovers: 2, minutes: 75 },
  { maxCovers: 4, minutes: 100 },
];

type Kind = 'booked' | 'waitlist' | 'unbooked';
interface GenParty {
  kind: Kind;
  covers: number;
  /** Minutes from the previous party's leaving (or 10:00) to this one's arrival. */
  gap: number;
  duration: number;
  /** Booked parties: arrival minus the booking's time, −20..20 (arrivals on a table are 60+ minutes apart). */
  lateness: number;
  /** Cents per minute the check is worth (a whole number of cents a minute: the truth stays exact); 0: unpaid. */
  centsPerMinute: number;
  leaveAs: 'free' | 'dirty';
  /** Extra changes while seated: open, and the pax again. */
  opens: boolean;
}
interface GenBooking {
  state: 'no_show' | 'annullata' | 'confermata';
  covers: number;
  minute: number;
  onTable: boolean;
}

const partyArb = fc.record({
  kind: fc.constantFrom<Kind>('booked', 'booked', 'waitlist', 'unbooked'),
  covers: fc.integer({ min: 1, max: 6 }),
  gap: fc.integer({ min: 1, max: 120 }),
  duration: fc.integer({ min: 1, max: 200 }),
  lateness: fc.integer({ min: -20, max: 20 }),
  centsPerMinute: fc.integer({ min: 0, max: 90 }),
  leaveAs: fc.constantFrom<'free' | 'dirty'>('free', 'dirty'),
  opens: fc.boolean(),
});
const dayArb = fc.record({
  tables: fc.array(
    fc.record({ seats: fc.integer({ min: 2, max: 6 }), parties: fc.array(partyArb, { maxLength: 6 }) }),
    { minLength: 1, maxLength: 4 },
  ),
  others: fc.array(
    fc.record({
      state: fc.constantFrom<GenBooking['state']>('no_show', 'annullata', 'confermata'),
      covers: fc.integer({ min: 1, max: 8 }),
      minute: fc.integer({ min: 600, max: 1400 }),
      onTable: fc.boolean(),
    }),
    { maxLength: 6 },
  ),
  seed: fc.integer(),
});

interface TruthParty {
  covers: number;
  walkIn: boolean;
  arrival: number;
  departure: number;
  revenueCents: number;
}

/** The day laid out: parties with local minutes, the events and bookings that tell of them. */
function layOut(day: Array<{ seats: number; parties: GenParty[] }>, others: GenBooking[]) {
  const changes: ChangeFact[] = [];
  const bookings: BookingFact[] = [];
  const truth: TruthParty[] = [];
  let n = 0;
  const at = (minute: number) => LOCAL_MIDNIGHT + minute * MINUTE;
  day.forEach((table, t) => {
    const tavoloId = `t${t}`;
    let free = 600;
    let lastArrival = -Infinity;
    for (const party of table.parties) {
      const arrival = Math.max(free + party.gap, lastArrival + 60);
      const departure = arrival + party.duration;
      if (departure > 1430) break;
      const covers = Math.min(party.covers, table.seats);
      const change = (minute: number, stato: string, extra: Partial<ChangeFact> = {}) =>
        changes.push({
          id: `e${n++}`,
          tavoloId,
          at: at(minute) + (extra.at ?? 0),
          stato,
          pax: extra.pax ?? null,
          totalAmount: extra.totalAmount ?? null,
        });
      const revenueCents = party.centsPerMinute * party.duration;
      change(arrival, 'occupied', { pax: party.kind === 'booked' ? null : covers });
      // Changes within the turn, a second apart (a turn of one minute still has them all before it ends).
      if (party.opens) change(arrival, 'open', { at: 1000, pax: covers });
      if (revenueCents > 0) change(arrival, 'payment_pending', { at: 2000, totalAmount: revenueCents / 100 });
      change(departure, party.leaveAs);
      if (party.kind !== 'unbooked') {
        bookings.push({
          id: `b${n++}`,
          startsAt: at(party.kind === 'booked' ? arrival - party.lateness : arrival),
          covers,
          tableIds: [tavoloId],
          state: 'completata',
          stayMinutes: 90,
          walkIn: party.kind === 'waitlist',
        });
      }
      truth.push({ covers, walkIn: party.kind !== 'booked', arrival, departure, revenueCents });
      free = departure;
      lastArrival = arrival;
    }
  });
  for (const other of others) {
    bookings.push({
      id: `b${n++}`,
      startsAt: at(other.minute),
      covers: other.covers,
      // A booking still confirmed is on no table: on one, it would explain a party seated there in its window.
      tableIds: other.onTable && other.state !== 'confermata' ? ['t0'] : [],
      state: other.state,
      stayMinutes: 90,
      walkIn: false,
    });
  }
  return { changes, bookings, truth };
}

const inService = (minute: number) => SERVICES.findIndex(([from, to]) => minute >= from && minute < to);

/** The figures, minute by minute, from what the generator made. */
function simulate(parties: TruthParty[], bookings: BookingFact[], seats: number) {
  const services = SERVICES.map(() => ({
    booked: 0,
    seated: 0,
    walkIns: 0,
    noShows: 0,
    due: 0,
    cancellations: 0,
    occupiedSeatMinutes: 0,
    revenueCentsTimesDuration: 0,
    revenue: 0,
  }));
  for (const booking of bookings) {
    if (booking.walkIn) continue;
    const s = inService((booking.startsAt - LOCAL_MIDNIGHT) / MINUTE);
    if (s === -1) continue;
    if (booking.state === 'annullata') services[s]!.cancellations++;
    else {
      services[s]!.booked += booking.covers;
      services[s]!.due++;
      if (booking.state === 'no_show') services[s]!.noShows++;
    }
  }
  const byHour = new Map<string, number>();
  const turns = TURN_ROWS.map(() => [] as number[]);
  for (const party of parties) {
    const arrivalService = inService(party.arrival);
    if (arrivalService !== -1) {
      services[arrivalService]!.seated += party.covers;
      if (party.walkIn) services[arrivalService]!.walkIns += party.covers;
    }
    for (let minute = party.arrival; minute < party.departure; minute++) {
      const s = inService(minute);
      if (s === -1) continue;
      services[s]!.occupiedSeatMinutes += party.covers;
      // Each minute of the turn carries an equal share of the check.
      services[s]!.revenue += party.revenueCents / (party.departure - party.arrival) / 100;
    }
    const hour = `${String(Math.floor(party.arrival / 60)).padStart(2, '0')}:00`;
    byHour.set(hour, (byHour.get(hour) ?? 0) + party.covers);
    const row = TURN_ROWS.findIndex((r) => r.maxCovers >= party.covers);
    turns[row === -1 ? TURN_ROWS.length - 1 : row]!.push(party.departure - party.arrival);
  }
  const available = SERVICES.map(([from, to]) => seats * (to - from));
  return { services, byHour, turns, available };
}

const medianOf = (values: number[]) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length / 2;
  return Number.isInteger(half)
    ? Math.round((sorted[half - 1]! + sorted[half]!) / 2)
    : sorted[Math.floor(half)]!;
};

/** A deterministic shuffle (the consumer may store changes in any order). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1664525 + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('the report of a generated service day', () => {
  it('equals the minute-by-minute truth: covers, walk-ins, no-shows, utilisation, revenue, turns', () => {
    fc.assert(
      fc.property(dayArb, ({ tables, others, seed }) => {
        const { changes, bookings, truth } = layOut(tables, others);
        const seats = tables.reduce((sum, t) => sum + t.seats, 0);
        const parties = partiesOf(tableSeatings(shuffled(changes, seed)), bookings);
        const figures = computeReport({
          dal: DATE,
          al: DATE,
          salaId: null,
          zone: ZONE,
          services: servicesBetween(DATE, DATE, ZONE, OPENING),
          range: rangeBounds(DATE, DATE, ZONE),
          seats,
          turnRows: TURN_ROWS,
          parties,
          bookings,
          now: LOCAL_MIDNIGHT + 2 * 86_400_000,
        });
        const expected = simulate(truth, bookings, seats);
        expect(figures.services.map((s) => [s.service.startMs, s.service.endMs])).toEqual(
          SERVICES.map(([from, to]) => [LOCAL_MIDNIGHT + from * MINUTE, LOCAL_MIDNIGHT + to * MINUTE]),
        );
        figures.services.forEach(({ sums }, s) => {
          const want = expected.services[s]!;
          expect({
            booked: sums.booked,
            seated: sums.seated,
            walkIns: sums.walkIns,
            noShows: sums.noShows,
            due: sums.due,
            cancellations: sums.cancellations,
            availableSeatMinutes: sums.availableSeatMinutes,
          }).toEqual({
            booked: want.booked,
            seated: want.seated,
            walkIns: want.walkIns,
            noShows: want.noShows,
            due: want.due,
            cancellations: want.cancellations,
            availableSeatMinutes: expected.available[s],
          });
          expect(sums.occupiedSeatMinutes).toBeCloseTo(want.occupiedSeatMinutes, 6);
          expect(sums.revenue).toBeCloseTo(want.revenue, 6);
          // Revenue per available seat-hour.
          expect(sums.revenue / (sums.availableSeatMinutes / 60)).toBeCloseTo(
            want.revenue / ((expected.available[s]! / 60) as number),
            6,
          );
        });
        expect(new Map(figures.byHour.map((h) => [h.hour, h.covers]))).toEqual(expected.byHour);
        expect(figures.turns.map((t) => ({ seatings: t.seatings, median: t.median }))).toEqual(
          expected.turns.map((minutes) => ({ seatings: minutes.length, median: medianOf(minutes) })),
        );
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 200) },
    );
  });
});
