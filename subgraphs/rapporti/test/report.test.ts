// The report's pure steps at the edges the generated day does not aim at (docs/reports.md).
import { describe, expect, it } from 'vitest';
import { computeReport, median, revenueWithin } from '../src/report.js';
import { reportCsv } from '../src/report-csv.js';
import { reportView, round } from '../src/report-view.js';
import { partiesOf, tableSeatings, type BookingFact, type ChangeFact } from '../src/seatings.js';
import { rangeBounds, servicesBetween } from '../src/services.js';
import { suggestTurnTimes } from '../src/turn-suggestions.js';

const T = (iso: string) => Date.parse(iso);
let n = 0;
const change = (
  tavoloId: string,
  at: string,
  stato: string,
  extra: Partial<ChangeFact> = {},
): ChangeFact => ({
  id: `e${n++}`,
  tavoloId,
  at: T(at),
  stato,
  pax: null,
  totalAmount: null,
  ...extra,
});
const booking = (id: string, startsAt: string, extra: Partial<BookingFact> = {}): BookingFact => ({
  id,
  startsAt: T(startsAt),
  covers: 2,
  tableIds: ['t1'],
  state: 'completata',
  stayMinutes: 90,
  walkIn: false,
  ...extra,
});

describe('seatings', () => {
  it('one turn from occupied to the next free or dirty, the check its last payment_pending', () => {
    const seatings = tableSeatings([
      change('t1', '2026-11-14T19:40:00Z', 'free'),
      change('t1', '2026-11-14T18:00:00Z', 'occupied', { pax: 2 }),
      change('t1', '2026-11-14T19:00:00Z', 'payment_pending', { totalAmount: 50 }),
      change('t1', '2026-11-14T19:05:00Z', 'occupied', { pax: 3 }),
      change('t1', '2026-11-14T19:30:00Z', 'payment_pending', { totalAmount: 70 }),
      change('t1', '2026-11-14T20:00:00Z', 'dirty'),
    ]);
    expect(seatings).toEqual([
      {
        tavoloId: 't1',
        start: T('2026-11-14T18:00:00Z'),
        end: T('2026-11-14T19:40:00Z'),
        pax: 3,
        revenue: 70,
      },
    ]);
  });

  // Found by the generated service day: linking seatings in time order gave a walk-in seated 40 minutes before a
  // booking the booking itself (its window opens an hour early), and the booked party then had none.
  it('a party seated before a booked one on the same table does not take its booking', () => {
    const seatings = tableSeatings([
      change('t1', '2026-11-14T19:20:00Z', 'occupied', { pax: 4 }),
      change('t1', '2026-11-14T19:50:00Z', 'free'),
      change('t1', '2026-11-14T20:00:00Z', 'occupied'),
      change('t1', '2026-11-14T21:00:00Z', 'free'),
    ]);
    const parties = partiesOf(seatings, [booking('b1', '2026-11-14T20:00:00Z')]);
    expect(parties.map((p) => [p.bookingId, p.covers, p.walkIn])).toEqual([
      [null, 4, true],
      ['b1', 2, false],
    ]);
  });

  // Found by the service-day torture run (embedded, FC_SEED=-1010177769): a booked party's turn began 146 ms before
  // the next party came off the waitlist, and the walk-in's booking (its window an hour early, like any booking's)
  // was the closer: it took the booked party's turn, the walk-ins took each other's, and the booking the last one.
  it("a walk-in's booking never takes the turn of the party before it on that table", () => {
    const seatings = tableSeatings([
      change('t1', '2026-11-14T20:00:00.000Z', 'occupied', { pax: 4 }),
      change('t1', '2026-11-14T20:00:00.031Z', 'free'),
      change('t1', '2026-11-14T20:00:00.330Z', 'occupied', { pax: 4 }),
      change('t1', '2026-11-14T20:00:00.553Z', 'free'),
      change('t1', '2026-11-14T20:00:00.699Z', 'occupied', { pax: 5 }),
      change('t1', '2026-11-14T20:00:00.835Z', 'free'),
    ]);
    const parties = partiesOf(seatings, [
      booking('booked', '2026-11-14T19:55:38.357Z', { covers: 7 }),
      booking('walk-in-1', '2026-11-14T20:00:00.146Z', { covers: 4, walkIn: true }),
      booking('walk-in-2', '2026-11-14T20:00:00.648Z', { covers: 5, walkIn: true }),
    ]);
    expect(parties.map((p) => [p.bookingId, p.start - T('2026-11-14T20:00:00.000Z')])).toEqual([
      ['booked', 0],
      ['walk-in-1', 330],
      ['walk-in-2', 699],
    ]);
  });

  it('a booking over two tables is one party: its covers once, from the first table taken to the last freed', () => {
    const seatings = tableSeatings([
      change('t1', '2026-11-14T20:00:00Z', 'occupied'),
      change('t2', '2026-11-14T20:05:00Z', 'occupied'),
      change('t1', '2026-11-14T21:00:00Z', 'payment_pending', { totalAmount: 90 }),
      change('t1', '2026-11-14T21:10:00Z', 'free'),
      change('t2', '2026-11-14T21:30:00Z', 'dirty'),
    ]);
    const parties = partiesOf(seatings, [
      booking('b1', '2026-11-14T20:00:00Z', { covers: 7, tableIds: ['t1', 't2'] }),
    ]);
    expect(parties).toHaveLength(1);
    expect(parties[0]).toMatchObject({
      bookingId: 'b1',
      covers: 7,
      start: T('2026-11-14T20:00:00Z'),
      end: T('2026-11-14T21:30:00Z'),
    });
    // Each table keeps its own check, spread over its own turn.
    expect(parties[0]!.seatings.map((s) => [s.tavoloId, s.revenue])).toEqual([
      ['t1', 90],
      ['t2', null],
    ]);
  });

  it('never seats a cancelled booking or a no-show, and a booking once per table', () => {
    const seatings = tableSeatings([
      change('t1', '2026-11-14T20:00:00Z', 'occupied', { pax: 2 }),
      change('t1', '2026-11-14T20:30:00Z', 'free'),
      change('t1', '2026-11-14T20:40:00Z', 'occupied', { pax: 1 }),
      change('t1', '2026-11-14T21:00:00Z', 'free'),
    ]);
    const parties = partiesOf(seatings, [
      booking('gone', '2026-11-14T20:00:00Z', { state: 'annullata' }),
      booking('missed', '2026-11-14T20:00:00Z', { state: 'no_show' }),
      booking('b1', '2026-11-14T20:10:00Z'),
    ]);
    expect(parties.map((p) => p.bookingId)).toEqual(['b1', null]);
  });
});

describe('figures', () => {
  const services = servicesBetween('2026-11-14', '2026-11-14', 'UTC', [
    { weekday: 6, intervals: [{ open: '12:00', close: '15:00' }] },
  ]);

  it('spreads a check over the minutes its table was taken, not the hour it opened', () => {
    // 14:00–16:00, 120: half of it in a lunch that ends at 15:00.
    expect(revenueWithin(120, T('2026-11-14T14:00:00Z'), T('2026-11-14T16:00:00Z'), services[0]!)).toBe(60);
    // A turn of no length: all of it to the service it falls in.
    expect(revenueWithin(30, T('2026-11-14T13:00:00Z'), T('2026-11-14T13:00:00Z'), services[0]!)).toBe(30);
  });

  it('rounds a half reached by summing a spread check half up (regression: service-day torture, FC_SEED=2026412787)', () => {
    // A check of 75.48 spread over five minutes, two of them in one one-minute service and three in the next, sums
    // back to 75.47999999999999; with a check of 176.63 that makes 252.11 over 8 seat-minutes: 1890.825 per
    // seat-hour, which the report rounded down to 1890.82.
    const start = -60_000;
    const end = start + 5 * 60_000;
    const spread =
      revenueWithin(75.48, start, end, { ...services[0]!, startMs: start, endMs: start + 2 * 60_000 }) +
      revenueWithin(75.48, start, end, { ...services[0]!, startMs: start + 2 * 60_000, endMs: end });
    expect(spread).not.toBe(75.48);
    expect(round((spread + 176.63) / (8 / 60), 2)).toBe(1890.83);
    expect(round(1890.825, 2)).toBe(1890.83);
    expect(round(0.125, 2)).toBe(0.13);
    expect(round(2.675, 2)).toBe(2.68);
  });

  it('rates are null when nothing was due or no seat was available; CSV leaves them empty', () => {
    const figures = computeReport({
      dal: '2026-11-14',
      al: '2026-11-14',
      salaId: 'nowhere',
      zone: 'UTC',
      services,
      range: rangeBounds('2026-11-14', '2026-11-14', 'UTC'),
      seats: 0,
      turnRows: [{ maxCovers: 4, minutes: 90 }],
      parties: [],
      bookings: [booking('later', '2026-11-14T13:00:00Z', { state: 'confermata' })],
      now: T('2026-11-14T12:30:00Z'),
    });
    const view = reportView({ dal: '2026-11-14', al: '2026-11-14', salaId: 'nowhere' }, figures);
    expect(view.totali).toMatchObject({
      copertiPrenotati: 2,
      prenotazioniDovute: 0,
      tassoNoShow: null,
      utilizzoPosti: null,
      ricavo: 0,
      ricavoPerPostoOra: null,
    });
    expect(view.turni).toEqual([
      {
        coperti: 4,
        covers: 4,
        sedute: 0,
        seatings: 0,
        medianaMinuti: null,
        medianMinutes: null,
        configuratiMinuti: 90,
        configuredMinutes: 90,
      },
    ]);
    expect(reportCsv(view)).toBe(
      'date,start,end,coversBooked,coversSeated,walkIns,noShows,bookingsDue,noShowRate,cancellations,seatUtilisation,revenue,revPash\r\n' +
        '2026-11-14,12:00,15:00,2,0,0,0,0,,0,,0,\r\n',
    );
  });

  it('services are the local opening intervals, across a change of the clocks', () => {
    // Rome moves to UTC+2 on 2026-03-29: dinner 19:00–23:00 is 17:00–21:00 UTC that day, 18:00–22:00 the day before.
    const dinner = [0, 6].map((weekday) => ({ weekday, intervals: [{ open: '19:00', close: '23:00' }] }));
    expect(
      servicesBetween('2026-03-28', '2026-03-29', 'Europe/Rome', dinner).map((s) => [
        s.data,
        new Date(s.startMs).toISOString(),
        new Date(s.endMs).toISOString(),
      ]),
    ).toEqual([
      ['2026-03-28', '2026-03-28T18:00:00.000Z', '2026-03-28T22:00:00.000Z'],
      ['2026-03-29', '2026-03-29T17:00:00.000Z', '2026-03-29T21:00:00.000Z'],
    ]);
  });
});

describe('suggested turn times', () => {
  const row = (minutes: number[]) => ({
    maxCovers: 2,
    configured: 75,
    seatings: minutes.length,
    median: median(minutes),
    minutes,
  });

  it('the median from 20 finished seatings, within capacity’s bounds; fewer keep the configured minutes', () => {
    const [few, enough, short] = suggestTurnTimes([
      row(Array.from({ length: 19 }, () => 50)),
      row(Array.from({ length: 20 }, (_, i) => 40 + i)),
      row(Array.from({ length: 20 }, () => 3)),
    ]);
    expect(few).toMatchObject({ suggeritiMinuti: 75, sedute: 19, datiSufficienti: false });
    // 40..59: the middle two are 49 and 50, rounded half up.
    expect(enough).toMatchObject({ suggeritiMinuti: 50, suggestedMinutes: 50, enoughData: true });
    expect(short).toMatchObject({ suggeritiMinuti: 15, datiSufficienti: true });
  });
});
